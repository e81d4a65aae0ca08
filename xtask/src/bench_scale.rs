//! `cargo xtask bench --scale` (issue 14 §3): how each measure of the bench grows with its input,
//! each step 10 times the previous one, with the growth per step (about 10 when linear, about 100
//! when quadratic): `read` of 1/10/100 MB, read + edit of 1k/10k/100k hunks, and the adversarial
//! inputs (100 MB of identical lines, 1k/10k/100k hunks on one region of consecutive lines, a
//! stale edit merged across 10k/100k/1M lines in each anchored dialect). Nothing here is a test:
//! no timing threshold sits in the test suite. `--reps N` (default 3), `--max-mb N` (default
//! 100). Inputs live in the bench cache and are removed at the end.

use std::path::Path;
use std::time::Duration;

use crate::bench::{hl, median, ms, run_null, run_quiet, timed};
use crate::bench_inputs as inputs;
use crate::bench_rows::tag_of;

/// One measured point: the input's size and its median time.
struct Point {
    size: String,
    time: Duration,
}

/// Print a series with the growth of each step (a 10x input).
fn report(title: &str, points: &[Point]) {
    println!("\n{title}");
    println!("| input | median | growth per 10x |");
    println!("|---|---|---|");
    let mut last: Option<Duration> = None;
    for p in points {
        let growth = last
            .map(|l| format!("{:.1}x", p.time.as_secs_f64() / l.as_secs_f64().max(1e-9)))
            .unwrap_or_else(|| "-".to_string());
        println!("| {} | {:.1} ms | {growth} |", p.size, ms(p.time));
        last = Some(p.time);
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The median of `reps` runs of `f` (each given its run number).
fn med(
    reps: usize,
    mut f: impl FnMut(usize) -> Result<Duration, String>,
) -> Result<Duration, String> {
    let mut runs = Vec::with_capacity(reps);
    for r in 0..reps {
        runs.push(f(r)?);
    }
    Ok(median(&mut runs))
}

/// Run the scaling series.
pub fn run(args: &[String]) -> Result<(), String> {
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<usize>().ok())
    };
    let reps = flag("--reps").unwrap_or(3).max(1);
    let max_mb = flag("--max-mb").unwrap_or(100).max(1);
    let bin = crate::bench::release_binary()?;
    let work = inputs::cache_dir().join("scale");
    let _ = std::fs::remove_dir_all(&work);
    let result = series(&bin, &work, reps, max_mb);
    let _ = std::fs::remove_dir_all(&work);
    result
}

fn series(bin: &Path, work: &Path, reps: usize, max_mb: usize) -> Result<(), String> {
    let sizes_mb: Vec<usize> = [max_mb / 100, max_mb / 10, max_mb]
        .into_iter()
        .filter(|&m| m > 0)
        .collect();
    // Reads: code-like text, then the same size of one line repeated.
    for (title, make) in [
        (
            "`read` (first read of the session) of code-like text",
            inputs::code_like as fn(usize) -> String,
        ),
        (
            "`read` (first read) of identical lines (adversarial)",
            identical,
        ),
    ] {
        let mut points = Vec::new();
        for &mb in &sizes_mb {
            let root = work.join("read");
            write(&root.join("f.rs"), make(mb << 20).as_bytes())?;
            let time = med(reps, |r| {
                let state = work.join(format!("state-read-{r}"));
                let t = timed(|| run_null(hl(bin, &root, &state).args(["read", "f.rs"])));
                let _ = std::fs::remove_dir_all(&state);
                t
            })?;
            points.push(Point {
                size: format!("{mb} MB"),
                time,
            });
        }
        report(title, &points);
    }
    let _ = std::fs::remove_dir_all(work.join("read"));
    // Hunks spread over a file of 10 lines per hunk, then packed on one region.
    for (title, spread) in [
        ("read + edit of N hunks spread over 10·N lines", true),
        (
            "read + edit of N hunks on one region of N consecutive lines (adversarial)",
            false,
        ),
    ] {
        let mut points = Vec::new();
        for n in [1_000usize, 10_000, 100_000] {
            let time = hunks(bin, work, n, spread, reps)?;
            points.push(Point {
                size: format!("{n} hunks"),
                time,
            });
        }
        report(title, &points);
    }
    for dialect in STALE_DIALECTS {
        let mut points = Vec::new();
        for lines in [10_000usize, 100_000, 1_000_000] {
            let time = stale(bin, work, dialect, lines, reps)?;
            points.push(Point {
                size: format!("{lines} lines"),
                time,
            });
        }
        report(
            &format!(
                "stale edit merged onto a changed file ({}), edit only",
                dialect.name
            ),
            &points,
        );
    }
    Ok(())
}

/// About `bytes` bytes of one line repeated.
fn identical(bytes: usize) -> String {
    let line = "    let value = compute(1, \"same line\"); // repeated\n";
    line.repeat(bytes / line.len() + 1)
}

/// The median time of `read` + `edit` of `n` one-line replacements: spread (one every 10
/// lines of a 10·n-line file) or packed (lines 1..=n of an n+10-line file).
fn hunks(bin: &Path, work: &Path, n: usize, spread: bool, reps: usize) -> Result<Duration, String> {
    let lines = if spread { 10 * n } else { n + 10 };
    let root = work.join("hunks");
    let file = root.join("e.ts");
    let original = inputs::ts_lines(lines);
    let chosen: Vec<inputs::Hunk> = if spread {
        inputs::hunks(lines, n)
    } else {
        (1..=n)
            .map(|line| inputs::Hunk {
                line,
                text: format!("export const v{line} = f({line}, \"edited\");"),
            })
            .collect()
    };
    write(&file, original.as_bytes())?;
    let probe = work.join("state-hunks-probe");
    let tag = tag_of(&run_quiet(
        hl(bin, &root, &probe).args(["read", "e.ts", "--limit", "1"]),
    )?)?;
    let _ = std::fs::remove_dir_all(&probe);
    let patch = work.join("hunks.patch");
    write(
        &patch,
        inputs::hashline_patch("e.ts", &tag, &chosen).as_bytes(),
    )?;
    let time = med(reps, |r| {
        write(&file, original.as_bytes())?;
        let state = work.join(format!("state-hunks-{r}"));
        let t = timed(|| {
            run_null(hl(bin, &root, &state).args(["read", "e.ts"]))?;
            run_null(hl(bin, &root, &state).arg("edit").arg(&patch))
        });
        let _ = std::fs::remove_dir_all(&state);
        t
    })?;
    let edited = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
    let first = chosen.first().map(|h| h.text.as_str()).unwrap_or_default();
    if !edited.contains(first) {
        return Err(format!("the {n}-hunk edit did not land"));
    }
    Ok(time)
}

/// An anchored dialect of the stale-merge series: its read mode, and the request replacing
/// line `n` (whose row the read printed) with `text`.
struct Stale {
    name: &'static str,
    anchors: &'static str,
    dialect: &'static str,
    request: fn(row: &str, n: usize, text: &str) -> Option<String>,
}

const STALE_DIALECTS: &[Stale] = &[
    Stale {
        name: "hashline",
        anchors: "tag",
        dialect: "hashline",
        request: |header, n, text| {
            let tag = header.rsplit_once('#')?.1.trim();
            Some(format!("¶e.ts#{tag}\nreplace {n}..{n}:\n+{text}\n"))
        },
    },
    Stale {
        name: "lineid-json",
        anchors: "lineid",
        dialect: "lineid-json",
        request: |row, _, text| {
            let id = row.split_once('|')?.0;
            Some(format!(
                r#"{{"filePath":"e.ts","edits":[{{"op":"replace","pos":"{id}","lines":["{text}"]}}]}}"#
            ))
        },
    },
    Stale {
        name: "hash-json",
        anchors: "hash",
        dialect: "hash-json",
        request: |row, _, text| {
            let hash = row.split_once(':')?.0;
            Some(format!(
                r#"{{"path":"e.ts","edits":[{{"op":"replace","start":"{hash}","end":"{hash}","lines":["{text}"]}}]}}"#
            ))
        },
    },
];

/// The median time of an edit whose anchor was read before a line was added at the top of the
/// file: it must be carried over (merged) onto the disk's text.
fn stale(
    bin: &Path,
    work: &Path,
    d: &Stale,
    lines: usize,
    reps: usize,
) -> Result<Duration, String> {
    let root = work.join("stale");
    let file = root.join("e.ts");
    let original = inputs::ts_lines(lines);
    let changed = format!("// a line added by someone else\n{original}");
    let n = lines / 2;
    let text = "export const merged = 1;";
    let request = work.join("stale.req");
    let time = med(reps, |r| {
        write(&file, original.as_bytes())?;
        let state = work.join(format!("state-stale-{r}"));
        let offset = n.to_string();
        let read = run_quiet(hl(bin, &root, &state).args([
            "read",
            "e.ts",
            "--anchors",
            d.anchors,
            "--offset",
            &offset,
            "--limit",
            "1",
        ]))?;
        let read = String::from_utf8_lossy(&read);
        let row = if d.anchors == "tag" {
            read.lines().next()
        } else {
            read.lines().find(|l| l.contains("export const"))
        };
        let req = row
            .and_then(|row| (d.request)(row, n, text))
            .ok_or_else(|| format!("{}: no anchor in the read `{read}`", d.name))?;
        write(&request, req.as_bytes())?;
        write(&file, changed.as_bytes())?;
        let t = timed(|| {
            run_null(
                hl(bin, &root, &state)
                    .args(["edit", "--dialect", d.dialect])
                    .arg(&request),
            )
        });
        let _ = std::fs::remove_dir_all(&state);
        t
    })?;
    let edited = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
    if edited.split('\n').nth(n) != Some(text) {
        return Err(format!(
            "{}: the stale edit of line {n} was not merged onto line {}",
            d.name,
            n + 1
        ));
    }
    Ok(time)
}
