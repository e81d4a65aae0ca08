//! `cargo xtask bench`: the table of issue 14 from one command. It builds the binary to install
//! (`cargo xtask dist`: statically linked on Linux glibc hosts),
//! generates its inputs (deterministic, in a cache outside the repository: see
//! `bench_inputs.rs`), installs its baselines (the Bun peer, the ast-grep CLI and its corpus),
//! runs each side several times interleaved (the machines are shared and noisy: both sides see
//! the same drift) and prints medians and ratios. A baseline that cannot be installed makes its
//! row say so. `--reps N` (default 5), `--large-mb N` (default 100), `--no-ast` (skip the
//! ast-edit rows), `--ast-files N` (files per ast-edit rewrite, evenly spread over the pinned
//! corpus; default 2,000, to keep the copies small), `--only-ast` (only the ast-edit rows, `--reps`
//! runs each instead of at most 3), `--only read|small|hunks|memory` (one group of rows),
//! `--keep` (leave the generated inputs in the cache's `work` directory), `--guard` (the edit guard's cost instead, see
//! `bench_rows::guard_cost`), `--bin PATH` (that binary instead of the dist build). The `small`
//! group also reads its file through the Python and Node packages `cargo xtask bindings` last
//! built (`bench_bindings.rs`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::bench_rows as rows;

/// Run the benchmark.
pub fn run(args: &[String]) -> Result<(), String> {
    let reps = flag(args, "--reps").unwrap_or(5).max(1);
    let large_mb = flag(args, "--large-mb").unwrap_or(100).max(1);
    // `--bin PATH`: measure that binary instead of building the dist one (a quick look with a
    // release build; the figures of PERFORMANCE.md are the dist binary's).
    let bin = match args
        .iter()
        .position(|a| a == "--bin")
        .and_then(|i| args.get(i + 1))
    {
        Some(path) => PathBuf::from(path),
        None => crate::dist::binary()?,
    };
    let cache = crate::bench_inputs::cache_dir();
    let work = cache.join("work");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    if args.iter().any(|a| a == "--guard") {
        let result = rows::guard_cost(&bin, &work, reps.max(20));
        let _ = std::fs::remove_dir_all(&work);
        return result;
    }
    let mut table = Table::default();
    if args.iter().any(|a| a == "--only-ast") {
        let files = flag(args, "--ast-files").unwrap_or(2_000);
        let result = rows::ast_edit(&work, reps, files, &mut table);
        let _ = std::fs::remove_dir_all(&work);
        table.print(reps);
        return result;
    }
    // `--only read|small|hunks|memory` runs one group of rows.
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(String::as_str);
    let wanted = |name: &str| only.is_none_or(|o| o == name);
    let result = (|| {
        if wanted("read") {
            rows::read_large(&bin, &work, large_mb, reps, &mut table)?;
        }
        if wanted("small") {
            rows::read_small(&bin, &work, reps.max(30), &mut table)?;
        }
        if wanted("hunks") {
            rows::edit_hunks(&bin, &cache, &work, reps, &mut table)?;
        }
        if only.is_none() && !args.iter().any(|a| a == "--no-ast") {
            let files = flag(args, "--ast-files").unwrap_or(2_000);
            rows::ast_edit(&work, reps.min(3), files, &mut table)?;
        }
        if wanted("memory") {
            rows::edit_memory(&bin, &work, large_mb, &mut table)?;
            crate::bench_stale::memory(&bin, &work, large_mb, &mut table)?;
        }
        Ok(())
    })();
    // The large inputs go whatever happened, unless `--keep` (to profile them by hand).
    if !args.iter().any(|a| a == "--keep") {
        let _ = std::fs::remove_dir_all(&work);
    }
    table.print(reps);
    result
}

/// One row: what is measured, hashline's figure, the baseline's, their ratio, the goal, met.
pub struct Row {
    /// What is measured.
    pub measure: String,
    /// hashline's figure.
    pub ours: String,
    /// The baseline's figure (or why there is none).
    pub baseline: String,
    /// The ratio as the goal states it.
    pub ratio: String,
    /// The goal.
    pub goal: &'static str,
    /// Whether the goal is met (`None`: not measured).
    pub met: Option<bool>,
}

/// The rows, printed as a Markdown table.
#[derive(Default)]
pub struct Table(Vec<Row>);

impl Table {
    /// Add a row.
    pub fn push(&mut self, row: Row) {
        println!(
            "  {}: {} | {} | {}",
            row.measure, row.ours, row.baseline, row.ratio
        );
        self.0.push(row);
    }

    /// A row whose baseline could not be had.
    pub fn unavailable(&mut self, measure: &str, goal: &'static str, why: &str) {
        self.push(Row {
            measure: measure.to_string(),
            ours: "not run".to_string(),
            baseline: format!("baseline unavailable: {why}"),
            ratio: "-".to_string(),
            goal,
            met: None,
        });
    }

    fn print(&self, reps: usize) {
        println!("\nmedians of {reps} interleaved runs (release build):\n");
        println!("| measure | hashline | baseline | ratio | goal | met |");
        println!("|---|---|---|---|---|---|");
        for r in &self.0 {
            let met = match r.met {
                Some(true) => "yes",
                Some(false) => "no",
                None => "-",
            };
            println!(
                "| {} | {} | {} | {} | {} | {met} |",
                r.measure, r.ours, r.baseline, r.ratio, r.goal
            );
        }
    }
}

fn flag(args: &[String], name: &str) -> Option<usize> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
}

/// Build the `dist`-profile `hashline` binary (dynamically linked) and
/// return its path; `crate::dist::binary` is the one the benchmarks measure.
pub(crate) fn release_binary() -> Result<PathBuf, String> {
    crate::status(crate::cargo().args(["build", "--profile", "dist", "--package", "hashline"]))?;
    Ok(target_dir().join("dist/hashline"))
}

/// The cargo target directory (`$CARGO_TARGET_DIR`, else the workspace's `target/`).
pub(crate) fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"))
}

/// `hashline --root ROOT --state STATE`.
pub(crate) fn hl(bin: &Path, root: &Path, state: &Path) -> Command {
    let mut cmd = Command::new(bin);
    cmd.arg("--root").arg(root).arg("--state").arg(state);
    cmd
}

/// Run `cmd` (stdin empty, stdout drained through a pipe); its stdout, or an error when it
/// failed.
pub(crate) fn run_quiet(cmd: &mut Command) -> Result<Vec<u8>, String> {
    let out = cmd
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!(
            "{cmd:?} failed: {}",
            String::from_utf8_lossy(&out.stdout)
        ))
    }
}

/// Run `cmd` with stdout to `/dev/null` (as `cat FILE > /dev/null` runs); an error when it
/// failed.
pub(crate) fn run_null(cmd: &mut Command) -> Result<(), String> {
    let null = std::fs::File::create("/dev/null").map_err(|e| format!("/dev/null: {e}"))?;
    let status = cmd
        .stdin(Stdio::null())
        .stdout(null)
        .stderr(Stdio::inherit())
        .status()
        .map_err(|e| e.to_string())?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed ({status})"))
    }
}

/// An I/O error as the message naming `path`.
pub(crate) fn io(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("{}: {e}", path.display())
}

/// Write `bytes` to `path`, creating its directory.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    std::fs::write(path, bytes).map_err(io(path))
}

/// `a / b`, for ratios of two timings (never a division by zero).
pub(crate) fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

/// Wall time of `f`.
pub(crate) fn timed(f: impl FnOnce() -> Result<(), String>) -> Result<Duration, String> {
    let start = Instant::now();
    f()?;
    Ok(start.elapsed())
}

/// The median of `d`.
pub(crate) fn median(d: &mut [Duration]) -> Duration {
    d.sort();
    d.get(d.len() / 2).copied().unwrap_or_default()
}

/// Milliseconds, for printing.
pub(crate) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Peak resident set size in KiB, from `/usr/bin/time -v` when available.
pub(crate) fn peak_rss(cmd: &mut Command) -> Option<u64> {
    let mut timed = Command::new("/usr/bin/time");
    timed.arg("-v").arg(cmd.get_program()).args(cmd.get_args());
    let out = timed
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .ok()?;
    let err = String::from_utf8_lossy(&out.stderr);
    err.lines()
        .find(|l| l.contains("Maximum resident set size"))
        .and_then(|l| l.rsplit(':').next())
        .and_then(|v| v.trim().parse().ok())
}
