//! `cargo xtask bench --guard`: the edit guard's cost on a 10,000-line TypeScript file, a
//! one-line edit mid-file with the guard's parser on against the same edit with
//! `--allow-syntax-errors` (parser off), alternating runs, medians.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::bench::{hl, median, run_quiet};

/// Print the guard's cost per call (`iterations` alternating runs of each).
pub fn guard_cost(bin: &Path, work: &Path, iterations: usize) -> Result<(), String> {
    let root = work.join("guard");
    let state = work.join("state-guard");
    std::fs::create_dir_all(&root).map_err(|e| e.to_string())?;
    guard(bin, &root, &state, iterations)
}

/// The edit guard's cost on a 10,000-line TypeScript file: a one-line edit in the middle with
/// the guard's parser on, against the same edit with `--allow-syntax-errors` (parser off).
fn guard(bin: &Path, root: &Path, state: &Path, iterations: usize) -> Result<(), String> {
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

fn report(name: &str, d: Duration, baseline: Duration) {
    let ratio = d.as_secs_f64() / baseline.as_secs_f64().max(1e-9);
    println!(
        "  {name:<22} {:>9.2} ms  {ratio:>6.2}x baseline",
        d.as_secs_f64() * 1000.0
    );
}
