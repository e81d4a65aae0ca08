//! `cargo xtask <task>`: project automation.
//!
//! * `golden [--bless]`: run the golden fixtures under `fixtures/` through the real binary;
//!   `--bless` rewrites their expectations (never when `CI=true`).
//! * `conformance`: run every conformance suite against `../shared/conformance` and print the
//!   pass counts.
//! * `mistakes`: run the model-mistake corpus (`../shared/mistakes`) through the real binary and
//!   print per dialect: correct, refused, warned-wrong, silent-wrong, broken, false alarms
//!   (`HASHLINE_MISTAKES_VERBOSE=1`: one line per case).
//! * `real-edits [--mistakes [--every N]] [--only ID,ID] [--details DIR]`: the real-edits
//!   corpus (`../shared/real-edits`) through the real binary in all five dialects, printing per
//!   dialect and per code correct, warned, refused, wrong, crash, excluded; `--mistakes` injects
//!   the mistakes models make into those edits instead (every N-th case, default 2) and prints
//!   correct, refused, warned-wrong, silent-wrong, silent-broken, broken per dialect and per
//!   kind; `--details DIR` writes each failing (or silent-wrong) run's requests and replies
//!   there.
//! * `stress [--runs N] [--seconds S]`: the crash test (`hashline edit` killed with SIGKILL at
//!   random moments during multi-file and hard-linked edits, then recovered) with N runs per
//!   scenario (default 2000) within S seconds each (default 600); prints the counts.
//! * `tidy`: check that no crate depends on a crate of a higher layer and that no library
//!   code outside `hashline-fs` uses `std::fs` but its listed places (also a `cargo test`).
//! * `bench [--reps N] [--large-mb N] [--bin PATH] [--no-ast | --only-ast] [--ast-files N]`: issue 14's table (`bench.rs`): `read` of a
//!   100 MB file and of a 10-line file against `cat`, a 1,000-hunk read + edit against the Bun
//!   peer, ast-edit + apply against `ast-grep --update-all`, peak memory of a 100 MB edit;
//!   baselines installed into `~/.cache/hashline-bench`; `bench --guard`: the edit guard's cost
//!   on a 10,000-line TypeScript file (parser on vs off); `bench --ast [--reps N]` times the
//!   `ast-edit` preview against the ast-grep CLI's on the `ast-diff` corpus (same as
//!   `ast-diff --bench`); `bench --scale [--reps N] [--max-mb N] [--only TEXT] [--bin PATH] [--max-depth N] [--debug]`
//!   prints how each measure grows per 10x input (`bench_scale.rs`: reads of 1/10/100 MB,
//!   1k/10k/100k hunks spread and on one region, 100 MB of identical lines, a stale merge
//!   across 10k/100k/1M lines in every dialect (`bench_stale.rs`), ast-edit and resolve apply
//!   over 1k/10k/100k files (`bench_files.rs`)), the doubling series of issue 28 §6 (time and
//!   peak memory per doubling: a stale edit over an outside change on every other line,
//!   apply-patch chunks of 1k–8k rows, ast-edit of 12.5k–100k matches, a commit of up to 1,000
//!   files under `ulimit -n 400`: `bench_linear.rs`), then checks that a structural rewrite's
//!   time and peak memory grow linearly with nesting depth and file size (`bench_ast_depth.rs`).
//! * `ast-diff [--bench] [--reps N] [--only TEXT] [--show N]`: differential test of
//!   `hashline ast-edit` + `resolve apply` against the ast-grep CLI on third-party JS/TS sources
//!   (see `ast_diff.rs`); `--bench` times both previews instead.
//! * `bindings [--debug] [--only python|node]`: the Python package (`bindings/python`) built as
//!   a wheel (release, or debug), installed into a fresh virtual environment and its pytest
//!   suite run (`bindings.rs`); the Node package (`bindings/node`) built, packed, installed
//!   into a fresh npm project and its `node --test` suite run (`bindings_node.rs`);
//!   `skipped:` without Python, Node or their registry, a failure then under `CI`.
//! * `dist`: the release binary to install, statically linked on Linux glibc hosts
//!   (`dist.rs`), copied to `<target>/dist/hashline`; the binary every `bench` measures.

mod ast_bench;
mod ast_diff;
mod ast_tools;
mod bench;
mod bench_ast_depth;
mod bench_bindings;
mod bench_files;
mod bench_guard;
mod bench_inputs;
mod bench_linear;
mod bench_peer;
mod bench_rows;
mod bench_scale;
mod bench_stale;
mod bindings;
mod bindings_node;
mod dist;
mod tidy;
mod tidy_dialects;
mod tidy_fs;

use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("golden") => golden(args.iter().any(|a| a == "--bless")),
        Some("conformance") => conformance(),
        Some("tidy") => tidy::run(),
        Some("mistakes") => mistakes(),
        Some("real-edits") => real_edits(&args[1..]),
        Some("stress") => stress(&args[1..]),
        // `bench --ast`: the structural-rewrite preview against the ast-grep CLI (ast_bench.rs).
        Some("bench") if args.iter().any(|a| a == "--ast") => {
            let rest: Vec<String> = std::iter::once("--bench".to_string())
                .chain(args[1..].iter().filter(|a| *a != "--ast").cloned())
                .collect();
            ast_diff::run(&rest)
        }
        Some("bench") if args.iter().any(|a| a == "--scale") => {
            // `--only TEXT` picks series by title; the depth series answers to `depth`.
            let only = args.iter().position(|a| a == "--only").and_then(|i| args.get(i + 1));
            let depth = only.is_none_or(|o| "nesting depth".contains(o.as_str()));
            bench_scale::run(&args[1..]).and_then(|()| {
                if depth {
                    bench_ast_depth::run(&args[1..])
                } else {
                    Ok(())
                }
            })
        }
        Some("bench") => bench::run(&args[1..]),
        Some("ast-diff") => ast_diff::run(&args[1..]),
        Some("dist") => dist::run(),
        Some("bindings") => bindings::run(&args[1..]),
        _ => Err(
            "usage: cargo xtask <golden [--bless] | conformance | mistakes | real-edits [--mistakes [--every N]] [--only ID,ID] [--details DIR] | stress [--runs N] [--seconds S] | tidy | bench [--reps N] [--large-mb N] [--bin PATH] [--no-ast | --only-ast] [--ast-files N] [--guard] [--ast] [--scale [--reps N] [--max-mb N] [--only TEXT] [--bin PATH] [--max-depth N] [--debug]] | ast-diff [--bench] [--reps N] [--only TEXT] | dist | bindings [--debug] [--only python|node]>"
                .to_string(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string()))
}

fn status(cmd: &mut Command) -> Result<(), String> {
    let st = cmd
        .status()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if st.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed ({st})"))
    }
}

fn golden(bless: bool) -> Result<(), String> {
    let mut cmd = cargo();
    cmd.args([
        "test",
        "--package",
        "hashline",
        "--test",
        "golden",
        "--",
        "--nocapture",
    ]);
    if bless {
        if std::env::var("CI").as_deref() == Ok("true") {
            return Err("refusing to bless with CI=true".to_string());
        }
        cmd.env("HASHLINE_BLESS", "1");
    }
    status(&mut cmd)
}

/// The mistake corpus through the real binary (the `mistakes` test of the facade prints the
/// table and fails on a silent-wrong or broken case).
fn mistakes() -> Result<(), String> {
    status(&mut facade_test("mistakes", &[]))
}

/// `cargo test --quiet -p hashline --test FILE -- FILTER… --nocapture`: a facade test that
/// prints its table.
fn facade_test(file: &str, filter: &[&str]) -> Command {
    let mut cmd = cargo();
    cmd.args([
        "test",
        "--quiet",
        "--package",
        "hashline",
        "--test",
        file,
        "--",
    ]);
    cmd.args(filter).arg("--nocapture");
    cmd
}

/// The real-edits corpus through the real binary (the `real_edits` test of the facade prints
/// the table; `--mistakes` runs its `real_edit_mistakes` test instead).
fn real_edits(args: &[String]) -> Result<(), String> {
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let test = if args.iter().any(|a| a == "--mistakes") {
        "real_edit_mistakes"
    } else {
        "real_edits"
    };
    let mut cmd = facade_test("real_edits", &["--exact", test]);
    if let Some(only) = value("--only") {
        cmd.env("REAL_EDITS_ONLY", only);
    }
    if let Some(dir) = value("--details") {
        cmd.env("REAL_EDITS_DETAILS", dir);
    }
    if let Some(every) = value("--every") {
        cmd.env("REAL_EDITS_EVERY", every);
    }
    status(&mut cmd)
}

/// The crash test at scale: `HASHLINE_CRASH_ITERATIONS` runs per scenario.
fn stress(args: &[String]) -> Result<(), String> {
    let value = |flag: &str, default: &str| -> Result<String, String> {
        match args.iter().position(|a| a == flag) {
            None => Ok(default.to_string()),
            Some(i) => args
                .get(i + 1)
                .filter(|v| v.parse::<u64>().is_ok())
                .cloned()
                .ok_or_else(|| format!("{flag} needs a number")),
        }
    };
    let mut cmd = cargo();
    cmd.args([
        "test",
        "--package",
        "hashline",
        "--test",
        "crash_safety",
        "--",
        "--nocapture",
    ])
    .env("HASHLINE_CRASH_ITERATIONS", value("--runs", "2000")?)
    .env("HASHLINE_CRASH_SECONDS", value("--seconds", "600")?);
    status(&mut cmd)
}

/// Every conformance suite, with its summary line (`… passed, … failed`).
const SUITES: &[(&str, &str)] = &[
    ("hashline", "conformance_hashline"),
    ("hashline-apply", "hashline_conformance"),
    ("hashline-apply", "hash_json_conformance"),
    ("hashline-apply", "hash_json_read_cases"),
    ("hashline-apply", "lineid_conformance"),
    ("hashline-anchor", "hash_json_vectors"),
    ("hashline-anchor", "lineid_vectors"),
    ("hashline-state", "store_scenarios"),
    ("hashline-syntax", "hashline_sections"),
    ("hashline-syntax", "hashline_parse_errors"),
    ("hashline-anchor", "hash_vectors"),
    ("hashline-ast", "block_spans"),
    ("hashline", "conformance_hash_json"),
    ("hashline", "conformance_lineid"),
    ("hashline", "conformance_apply_patch"),
    ("hashline", "conformance_str_replace"),
];

/// Whether a line a suite printed is its summary (`… passed`, `… match`, `cases: …`).
fn is_summary(line: &str) -> bool {
    !line.starts_with("test ")
        && !line.starts_with("running ")
        && [
            " passed",
            " match",
            "cases:",
            " rows pass",
            " run, ",
            " pass",
        ]
        .iter()
        .any(|k| line.contains(k))
}

fn conformance() -> Result<(), String> {
    let mut failed = Vec::new();
    for (package, test) in SUITES {
        let out = cargo()
            .args([
                "test",
                "--quiet",
                "--package",
                package,
                "--test",
                test,
                "--",
                "--nocapture",
            ])
            .output()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        for line in stdout
            .lines()
            .chain(stderr.lines())
            .filter(|l| is_summary(l))
        {
            println!("{package}/{test}: {line}");
        }
        if !out.status.success() {
            eprintln!("{stderr}");
            failed.push(format!("{package}/{test}"));
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("failed suites: {}", failed.join(", ")))
    }
}
