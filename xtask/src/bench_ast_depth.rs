//! `cargo xtask bench --scale`: how a structural rewrite's time and peak memory grow with
//! nesting depth and with file size (issue 11 §7: both must stay linear). Each input doubles the
//! previous one; the report shows each step's growth factor (about 2 when linear, about 4 when
//! quadratic) and fails when a step grows more than 3 times.

use std::path::Path;

use crate::bench::{hl, peak_rss, run_null, timed};

/// One input series: its name and the file text for a size.
type Series = (&'static str, fn(usize) -> String);

/// The largest growth factor per doubling that still counts as linear (noise included).
const MAX_GROWTH: f64 = 3.0;

/// Run the scaling benchmark; `args` may hold `--max-depth N` (default 100,000: a 200 KB file)
/// and `--debug`.
pub fn run(args: &[String]) -> Result<(), String> {
    let max_depth = args
        .iter()
        .position(|a| a == "--max-depth")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(100_000);
    // `--debug`: the debug binary (growth factors hold in it too; no release build needed).
    let bin = if args.iter().any(|a| a == "--debug") {
        crate::status(crate::cargo().args(["build", "--quiet", "--package", "hashline"]))?;
        crate::bench::target_dir().join("debug/hashline")
    } else {
        crate::dist::binary()?
    };
    let tmp = std::env::temp_dir().join(format!("hashline-scale-{}", std::process::id()));
    let root = tmp.join("root");
    std::fs::create_dir_all(&root).map_err(|e| e.to_string())?;
    let depths: Vec<usize> = [8, 4, 2, 1].iter().map(|d| max_depth / d).collect();
    let mut failures = Vec::new();
    println!("ast-edit `[$$$A]` → `[$$$A, 0]`, preview of one file (time, peak RSS):");
    let series: [Series; 2] = [
        ("nested arrays, depth", |d| {
            format!("const a = {}1{};\n", "[".repeat(d), "]".repeat(d))
        }),
        ("flat file, arrays", |n| {
            "const a = [1, [2, [3]]];\n".repeat(n / 4)
        }),
    ];
    for (name, make) in series {
        let mut previous: Option<(f64, u64)> = None;
        for &n in &depths {
            let file = root.join("scale.js");
            let text = make(n);
            std::fs::write(&file, &text).map_err(|e| e.to_string())?;
            let (secs, rss) = measure(&bin, &root, &tmp.join("state"))?;
            let growth = previous.map(|(s, r)| (secs / s.max(1e-3), rss as f64 / r.max(1) as f64));
            let shown = growth
                .map(|(t, m)| format!("  x{t:.2} time, x{m:.2} memory"))
                .unwrap_or_default();
            println!(
                "  {name} {n:>7} ({:>7} bytes): {:>8.1} ms {:>8} KB{shown}",
                text.len(),
                secs * 1000.0,
                rss
            );
            // Time under 50 ms is mostly process start; only memory is judged there.
            if let Some((t, m)) = growth {
                if m > MAX_GROWTH || (secs > 0.05 && t > MAX_GROWTH) {
                    failures.push(format!("{name} {n}: x{t:.2} time, x{m:.2} memory"));
                }
            }
            previous = Some((secs, rss));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "super-linear growth per doubling: {}",
            failures.join("; ")
        ))
    }
}

/// Wall time (seconds) and peak RSS (KiB) of one preview of `scale.js`, discarded afterwards.
fn measure(bin: &Path, root: &Path, state: &Path) -> Result<(f64, u64), String> {
    let preview = || {
        let mut cmd = hl(bin, root, state);
        cmd.args([
            "ast-edit",
            "--pat",
            "[$$$A]",
            "--out",
            "[$$$A, 0]",
            "scale.js",
        ]);
        cmd
    };
    let secs = timed(|| run_null(&mut preview()))?.as_secs_f64();
    let rss = peak_rss(&mut preview()).ok_or("no peak RSS: /usr/bin/time -v is needed")?;
    let _ = run_null(hl(bin, root, state).args(["resolve", "discard"]));
    Ok((secs, rss))
}
