//! `cargo xtask bench`: process-level timings of the CLI, as ratios against `cat` of the same
//! file measured in the same run (the machines are shared and noisy; absolute numbers lie).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Run the benchmark; `args` may hold `--large-mb N` (default 100) and `--iterations N`.
pub fn run(args: &[String]) -> Result<(), String> {
    let large_mb = flag(args, "--large-mb").unwrap_or(100);
    let iterations = flag(args, "--iterations").unwrap_or(50);
    let bin = release_binary()?;
    let tmp = std::env::temp_dir().join(format!("hashline-bench-{}", std::process::id()));
    let root = tmp.join("root");
    let state = tmp.join("state");
    std::fs::create_dir_all(&root).map_err(|e| e.to_string())?;
    let small: String = (1..=200)
        .map(|i| format!("const VALUE_{i}: u32 = compute({i}, \"item {i}\");\n"))
        .collect();
    std::fs::write(root.join("small.rs"), &small).map_err(|e| e.to_string())?;

    let cat_small = time_n(iterations, || {
        run_quiet(Command::new("cat").arg(root.join("small.rs")))
    })?;
    let read_small = time_n(iterations, || {
        run_quiet(hl(&bin, &root, &state).args(["read", "small.rs"]))
    })?;
    let edit_small = time_n(iterations, || {
        edit_line_one(&bin, &root, &state, "small.rs")
    })?;
    println!("small file (200 lines), {iterations} runs each, mean per call:");
    report("cat (baseline)", cat_small, cat_small);
    report("hashline read", read_small, cat_small);
    report("hashline read+edit", edit_small, cat_small);
    guard_cost(&bin, &root, &state, iterations)?;

    if large_mb > 0 {
        let line = "abcdefghij".repeat(9) + "\n";
        let lines = large_mb * 1024 * 1024 / line.len();
        let big: String = line.repeat(lines);
        std::fs::write(root.join("big.txt"), &big).map_err(|e| e.to_string())?;
        drop(big);
        let cat_big = time_n(3, || {
            run_quiet(Command::new("cat").arg(root.join("big.txt")))
        })?;
        let read_big = time_n(3, || {
            run_quiet(hl(&bin, &root, &state).args(["read", "big.txt"]))
        })?;
        let edit_big = time_n(3, || edit_line_one(&bin, &root, &state, "big.txt"))?;
        let mid = lines / 2;
        let edit_mid_tail = time_n(3, || {
            edit_line(&bin, &root, &state, "big.txt", mid, true, &[])
        })?;
        println!("large file ({large_mb} MB, {lines} lines), 3 runs each:");
        report("cat (baseline)", cat_big, cat_big);
        report("hashline read", read_big, cat_big);
        report("hashline read+edit", edit_big, cat_big);
        report("read+edit mid & tail", edit_mid_tail, cat_big);
        if let Some(rss) = peak_rss(hl(&bin, &root, &state).args(["read", "big.txt"])) {
            println!(
                "  peak RSS of read: {} MB ({:.2}x the file)",
                rss / 1024,
                rss as f64 / 1024.0 / large_mb as f64
            );
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(())
}

fn flag(args: &[String], name: &str) -> Option<usize> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
}

/// Build the release `hashline` binary and return its path.
pub(crate) fn release_binary() -> Result<PathBuf, String> {
    crate::status(crate::cargo().args(["build", "--release", "--quiet", "--package", "hashline"]))?;
    Ok(target_dir().join("release/hashline"))
}

/// The cargo target directory (`$CARGO_TARGET_DIR`, else the workspace's `target/`).
pub(crate) fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"))
}

fn hl(bin: &Path, root: &Path, state: &Path) -> Command {
    let mut cmd = Command::new(bin);
    cmd.arg("--root").arg(root).arg("--state").arg(state);
    cmd
}

fn run_quiet(cmd: &mut Command) -> Result<Vec<u8>, String> {
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

/// Read the file's tag, then replace line 1 with itself plus a trailing comment (a real change).
fn edit_line_one(bin: &Path, root: &Path, state: &Path, file: &str) -> Result<Vec<u8>, String> {
    edit_line(bin, root, state, file, 1, false, &[])
}

/// The edit guard's cost on a 10,000-line TypeScript file: a one-line edit in the middle with
/// the guard's parser on, against the same edit with `--allow-syntax-errors` (parser off).
fn guard_cost(bin: &Path, root: &Path, state: &Path, iterations: usize) -> Result<(), String> {
    let ts: String = (1..=1000)
        .map(|i| {
            format!(
                "export function item{i}(x: number): number {{\n  const y = x * {i};\n  if (y > {i}) {{\n    return y - 1;\n  }}\n  return y + 1;\n}}\n\n// item {i}\n\n"
            )
        })
        .collect();
    std::fs::write(root.join("big.ts"), &ts).map_err(|e| e.to_string())?;
    // Line 5002 is `  const y = x * 501;`, mid-file. Alternating runs, medians: the shared
    // machine's drift hits both sides alike.
    let line = 5002;
    let (mut off, mut on) = (Vec::new(), Vec::new());
    for _ in 0..iterations {
        let allow = ["--allow-syntax-errors"];
        off.push(time_n(1, || {
            edit_line(bin, root, state, "big.ts", line, false, &allow)
        })?);
        on.push(time_n(1, || {
            edit_line(bin, root, state, "big.ts", line, false, &[])
        })?);
    }
    let (without, with) = (median(&mut off), median(&mut on));
    println!(
        "edit guard, 10,000-line TypeScript file, one-line edit, median of {iterations} alternating runs:"
    );
    report("parser off (baseline)", without, without);
    report("read+edit, guard on", with, without);
    println!(
        "  guard cost: {:+.2} ms per call",
        (with.as_secs_f64() - without.as_secs_f64()) * 1000.0
    );
    Ok(())
}

/// Read the file's tag, then replace line `n` with itself plus a counter (a real change) and,
/// with `tail`, add a line at the end: two changes far apart, so the diff of the result cannot
/// be cut down to one short middle (the case that was quadratic on repeated lines).
fn edit_line(
    bin: &Path,
    root: &Path,
    state: &Path,
    file: &str,
    n: usize,
    tail: bool,
    extra: &[&str],
) -> Result<Vec<u8>, String> {
    let offset = n.to_string();
    let read =
        run_quiet(hl(bin, root, state).args(["read", file, "--offset", &offset, "--limit", "1"]))?;
    let text = String::from_utf8_lossy(&read);
    let header = text.lines().next().unwrap_or("").to_string();
    let first = text
        .lines()
        .nth(1)
        .and_then(|l| l.split_once(':'))
        .map(|(_, t)| t.to_string())
        .unwrap_or_default();
    // A trailing comment: a real change that keeps code valid (the guard parses it).
    let next = match first.strip_suffix(" // !") {
        Some(rest) => rest.to_string(),
        None => format!("{first} // !"),
    };
    let mut patch = format!("{header}\nreplace {n}..{n}:\n+{next}\n");
    if tail {
        patch.push_str("insert tail:\n+tail\n");
    }
    let mut child = hl(bin, root, state)
        .arg("edit")
        .args(extra)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        stdin
            .write_all(patch.as_bytes())
            .map_err(|e| e.to_string())?;
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "edit failed: {}",
            String::from_utf8_lossy(&out.stdout)
        ));
    }
    Ok(out.stdout)
}

fn time_n(n: usize, mut f: impl FnMut() -> Result<Vec<u8>, String>) -> Result<Duration, String> {
    let start = Instant::now();
    for _ in 0..n {
        f()?;
    }
    Ok(start.elapsed() / n.max(1) as u32)
}

fn median(d: &mut [Duration]) -> Duration {
    d.sort();
    d.get(d.len() / 2).copied().unwrap_or_default()
}

fn report(name: &str, d: Duration, baseline: Duration) {
    let ratio = d.as_secs_f64() / baseline.as_secs_f64().max(1e-9);
    println!(
        "  {name:<22} {:>9.2} ms  {ratio:>6.2}x baseline",
        d.as_secs_f64() * 1000.0
    );
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
