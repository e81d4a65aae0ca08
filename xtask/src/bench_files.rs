//! The file-count series of `cargo xtask bench --scale`: `ast-edit` preview and `resolve apply`
//! over 1k, 10k and 100k small JavaScript files, one file in a hundred holding a match. The walk
//! and the search grow with the files, the commit with the matches; both should be linear.

use std::path::Path;

use crate::bench::write;
use crate::bench::{hl, run_null, run_quiet, timed};
use crate::bench_scale::{med, Point};

/// Files of the series' steps.
const STEPS: [usize; 3] = [1_000, 10_000, 100_000];

/// A small source file; file `i` holds `void 0` when `i` is a multiple of 100.
fn source(i: usize) -> String {
    let value = if i.is_multiple_of(100) {
        "void 0"
    } else {
        "null"
    };
    format!("export function f{i}(a) {{\n  const b = a + {i};\n  return b > 3 ? b : {value};\n}}\n")
}

/// `ast-edit` of `void 0` → `undefined` over every JavaScript file under `root` (a preview).
fn preview(bin: &Path, root: &Path, state: &Path) -> std::process::Command {
    let mut cmd = hl(bin, root, state);
    cmd.args([
        "ast-edit",
        "--pat",
        "void 0",
        "--out",
        "undefined",
        "--lang",
        "js",
    ]);
    cmd.args(["--max-files", "1000000", "."]);
    cmd
}

/// The series: preview alone, then preview + apply, per file count.
pub fn series(bin: &Path, work: &Path, reps: usize) -> Result<[Vec<Point>; 2], String> {
    let mut out = [Vec::new(), Vec::new()];
    for files in STEPS {
        let root = work.join("files");
        let _ = std::fs::remove_dir_all(&root);
        // 100 files a directory, as a source tree spreads them.
        for i in 0..files {
            write(
                &root.join(format!("d{}/f{i}.js", i / 100)),
                source(i).as_bytes(),
            )?;
        }
        let preview = |state: &Path| preview(bin, &root, state);
        let only = med(reps, |r| {
            let state = work.join(format!("state-files-{r}"));
            let t = timed(|| run_null(&mut preview(&state)));
            let _ = std::fs::remove_dir_all(&state);
            t
        })?;
        let both = med(reps, |r| {
            let state = work.join(format!("state-files-apply-{r}"));
            let t = timed(|| {
                run_quiet(&mut preview(&state))?;
                run_null(hl(bin, &root, &state).args(["resolve", "apply"]))
            });
            let _ = std::fs::remove_dir_all(&state);
            // Back to the original sources for the next run.
            for i in (0..files).step_by(100) {
                write(
                    &root.join(format!("d{}/f{i}.js", i / 100)),
                    source(i).as_bytes(),
                )?;
            }
            t
        })?;
        let probe = std::fs::read_to_string(root.join("d0/f0.js")).map_err(|e| e.to_string())?;
        if !probe.contains("void 0") {
            return Err("the files were not restored after an apply".to_string());
        }
        for (k, time) in [only, both].into_iter().enumerate() {
            out[k].push(Point {
                size: format!("{files} files"),
                time,
            });
        }
        let _ = std::fs::remove_dir_all(&root);
    }
    Ok(out)
}

/// Check that one apply rewrote every matching file (run once, outside the timings).
pub fn check_apply(bin: &Path, work: &Path) -> Result<(), String> {
    let root = work.join("files-check");
    for i in 0..300 {
        write(
            &root.join(format!("d{}/f{i}.js", i / 100)),
            source(i).as_bytes(),
        )?;
    }
    let state = work.join("state-files-check");
    run_quiet(&mut preview(bin, &root, &state))?;
    run_quiet(hl(bin, &root, &state).args(["resolve", "apply"]))?;
    for i in [0usize, 100, 200] {
        let path = root.join(format!("d{}/f{i}.js", i / 100));
        let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        if !text.contains(": undefined;") {
            return Err(format!("{}: not rewritten", path.display()));
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    let _ = std::fs::remove_dir_all(&state);
    Ok(())
}
