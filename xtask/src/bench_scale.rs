//! `cargo xtask bench --scale` (issue 14 §3): how each measure of the bench grows with its input,
//! each step 10 times the previous one, with the growth per step (about 10 when linear, about 100
//! when quadratic): `read` of 1/10/100 MB, read + edit of 1k/10k/100k hunks, and the adversarial
//! inputs (100 MB of identical lines, 1k/10k/100k hunks on one region of consecutive lines, a
//! stale edit merged across 10k/100k/1M lines in every dialect: `bench_stale.rs`), and
//! ast-edit over 1k/10k/100k files (`bench_files.rs`), then the doubling series of
//! `bench_linear.rs` (time and peak memory per doubling). Nothing here is a test: no timing
//! threshold sits in the test suite. `--reps N` (default 3), `--max-mb N` (default 100),
//! `--only TEXT` (only the series whose title contains TEXT), `--bin PATH` (that binary, not
//! the dist build). Inputs live in the bench cache
//! and are removed at the end.

use std::path::Path;
use std::time::Duration;

use crate::bench::{hl, median, ms, run_null, run_quiet, timed, write};
use crate::bench_inputs as inputs;
use crate::bench_rows::tag_of;

/// One measured point: the input's size and its median time.
pub(crate) struct Point {
    /// The input, in words (`10 MB`, `1000 hunks`).
    pub(crate) size: String,
    /// The median time.
    pub(crate) time: Duration,
}

/// Print a series with the growth of each step (a 10x input).
pub(crate) fn report(title: &str, points: &[Point]) {
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

/// The median of `reps` runs of `f` (each given its run number).
pub(crate) fn med(
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
    // `--bin PATH`: measure that binary instead of building the dist one (a quick look with a
    // release build; the figures of PERFORMANCE.md are the dist binary's).
    let bin = match args
        .iter()
        .position(|a| a == "--bin")
        .and_then(|i| args.get(i + 1))
    {
        Some(path) => std::path::PathBuf::from(path),
        None => crate::dist::binary()?,
    };
    let work = inputs::cache_dir().join("scale");
    let _ = std::fs::remove_dir_all(&work);
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(|s| s.to_lowercase());
    let wanted = |title: &str| {
        only.as_deref()
            .is_none_or(|o| title.to_lowercase().contains(o))
    };
    let result = series(&bin, &work, reps, max_mb, &wanted);
    let _ = std::fs::remove_dir_all(&work);
    result
}

/// The series whose title `wanted` accepts.
fn series(
    bin: &Path,
    work: &Path,
    reps: usize,
    max_mb: usize,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<(), String> {
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
        if !wanted(title) {
            continue;
        }
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
        if !wanted(title) {
            continue;
        }
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
    for dialect in crate::bench_stale::DIALECTS {
        let title = format!(
            "stale edit merged onto a changed file ({}), edit only",
            dialect.name
        );
        if !wanted(&title) {
            continue;
        }
        let mut points = Vec::new();
        for lines in dialect.lines {
            let time = crate::bench_stale::stale(bin, work, dialect, lines, reps)?;
            points.push(Point {
                size: format!("{lines} lines"),
                time,
            });
        }
        report(&title, &points);
    }
    let titles = [
        "ast-edit preview over N files (one in a hundred matches)",
        "ast-edit preview + resolve apply over N files (one in a hundred matches)",
    ];
    if titles.iter().any(|t| wanted(t)) {
        crate::bench_files::check_apply(bin, work)?;
        let [only, both] = crate::bench_files::series(bin, work, reps)?;
        report(titles[0], &only);
        report(titles[1], &both);
    }
    crate::bench_linear::series(bin, work, reps, wanted)
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
