//! The doubling series of `cargo xtask bench --scale` (issue 28 §6, "linear everywhere"): each
//! input doubles the previous one, and each step prints its growth in time and in peak memory
//! (about x2 when linear, x4 when quadratic; the goal is x2.3 at most, marked `over` above it):
//!
//! * a stale edit carried over an outside change on every other line, 10k → 80k lines;
//! * apply-patch with one chunk of 1k → 8k rows in an 80k-line file (every other row kept,
//!   the others replaced), then of 1k → 8k repeated lines (the adversarial input of the
//!   context search), then a 2k-row chunk in a file of 10k → 80k lines, then a chunk every
//!   100 lines of a file of 10k → 80k lines (chunks × lines before each level was indexed);
//! * ast-edit previews of 12.5k → 100k matches in one file, with the preview's size;
//! * an apply-patch commit of 125 → 1,000 files under `ulimit -n 400` (it failed from 300
//!   files under 1,024 when every file held its descriptors to the end).
//!
//! Nothing here is a test (no timing threshold in the test suite); a step whose time is under
//! 50 ms (process start dominates) is judged on memory alone.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::bench::{hl, median, ms, run_quiet, write};
use crate::bench_inputs as inputs;

/// The largest growth per doubling that counts as linear.
const GOAL: f64 = 2.3;

/// One measured step: its input in words, median time, median peak RSS (KiB), and a note.
struct Step {
    size: String,
    time: Duration,
    rss: u64,
    note: String,
}

/// Wall time, peak RSS (KiB) and stdout bytes of `cmd` (run under `/usr/bin/time -v`, stdout
/// into `out`), or an error when it failed.
fn measured(cmd: &Command, out: &Path) -> Result<(Duration, u64, u64), String> {
    let mut timed = Command::new("/usr/bin/time");
    timed.arg("-v").arg(cmd.get_program()).args(cmd.get_args());
    let file = std::fs::File::create(out).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let run = timed
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("/usr/bin/time: {e}"))?;
    let time = start.elapsed();
    let err = String::from_utf8_lossy(&run.stderr);
    if !run.status.success() {
        return Err(format!(
            "{:?} failed: {}",
            cmd.get_args().collect::<Vec<_>>(),
            err.lines().take(3).collect::<Vec<_>>().join(" | ")
        ));
    }
    let rss = err
        .lines()
        .find(|l| l.contains("Maximum resident set size"))
        .and_then(|l| l.rsplit(':').next())
        .and_then(|v| v.trim().parse().ok())
        .ok_or("no peak RSS: /usr/bin/time -v is needed")?;
    let bytes = std::fs::metadata(out).map_or(0, |m| m.len());
    Ok((time, rss, bytes))
}

/// The median time and peak RSS of `reps` runs; `prepare(r)` resets the input and returns
/// the command of run `r`.
fn med(
    reps: usize,
    work: &Path,
    mut prepare: impl FnMut(usize) -> Result<Command, String>,
) -> Result<(Duration, u64, u64), String> {
    let (mut times, mut rss, mut bytes) = (Vec::new(), Vec::new(), 0);
    for r in 0..reps {
        let cmd = prepare(r)?;
        let (t, m, b) = measured(&cmd, &work.join("linear.out"))?;
        times.push(t);
        rss.push(m);
        bytes = b;
    }
    rss.sort_unstable();
    let mid = rss.get(rss.len() / 2).copied().unwrap_or_default();
    Ok((median(&mut times), mid, bytes))
}

/// Print a doubling series with each step's growth.
fn report(title: &str, steps: &[Step]) {
    println!("\n{title}");
    println!("| input | median | peak RSS | time per doubling | memory per doubling | |");
    println!("|---|---|---|---|---|---|");
    let mut last: Option<&Step> = None;
    for s in steps {
        let (t, m) = last.map_or((None, None), |l| {
            (
                Some(s.time.as_secs_f64() / l.time.as_secs_f64().max(1e-9)),
                Some(s.rss as f64 / l.rss.max(1) as f64),
            )
        });
        let over = match (t, m) {
            (Some(t), Some(m)) => m > GOAL || (s.time > Duration::from_millis(50) && t > GOAL),
            _ => false,
        };
        let show = |g: Option<f64>| g.map_or("-".to_string(), |g| format!("x{g:.2}"));
        println!(
            "| {} | {:.1} ms | {} KB | {} | {} | {}{} |",
            s.size,
            ms(s.time),
            s.rss,
            show(t),
            show(m),
            if over { "over " } else { "" },
            s.note
        );
        last = Some(s);
    }
}

/// Run the doubling series whose title `wanted` accepts.
pub fn series(
    bin: &Path,
    work: &Path,
    reps: usize,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<(), String> {
    let title = "doubling: stale edit carried over an outside change on every other line";
    if wanted(title) {
        let mut steps = Vec::new();
        for lines in [10_000, 20_000, 40_000, 80_000] {
            steps.push(stale(bin, work, lines, reps)?);
        }
        report(title, &steps);
    }
    for (title, repeated, fixed_file) in [
        (
            "doubling: apply-patch, one chunk of k rows (every other row kept) in an 80k-line file",
            false,
            true,
        ),
        (
            "doubling: apply-patch, one chunk of k repeated lines in an 80k-line file (adversarial)",
            true,
            true,
        ),
        (
            "doubling: apply-patch, one chunk of 2k rows in a file of N lines",
            false,
            false,
        ),
    ] {
        if !wanted(title) {
            continue;
        }
        let mut steps = Vec::new();
        for x in [1usize, 2, 4, 8] {
            let (lines, rows) = if fixed_file {
                (80_000, 1_000 * x)
            } else {
                (10_000 * x, 2_000)
            };
            steps.push(chunk(bin, work, lines, rows, repeated, reps)?);
        }
        report(title, &steps);
    }
    let title = "doubling: apply-patch, a chunk every 100 lines of a file of N lines";
    if wanted(title) {
        let mut steps = Vec::new();
        for lines in [10_000, 20_000, 40_000, 80_000] {
            steps.push(many_chunks(bin, work, lines, reps)?);
        }
        report(title, &steps);
    }
    let title = "doubling: ast-edit preview of M matches in one file";
    if wanted(title) {
        let mut steps = Vec::new();
        for m in [12_500, 25_000, 50_000, 100_000] {
            steps.push(matches(bin, work, m, reps)?);
        }
        report(title, &steps);
    }
    let title = "doubling: apply-patch commit of N files under `ulimit -n 400`";
    if wanted(title) {
        let mut steps = Vec::new();
        for files in [125, 250, 500, 1_000] {
            steps.push(commit(bin, work, files, reps)?);
        }
        report(title, &steps);
    }
    Ok(())
}

/// A stale edit of the middle line of a `lines`-line file read before someone else changed
/// every even line: only the edit is measured; it must land on the same line.
fn stale(bin: &Path, work: &Path, lines: usize, reps: usize) -> Result<Step, String> {
    let root = work.join("linear-stale");
    let file = root.join("e.ts");
    let original = inputs::ts_lines(lines);
    let changed: String = (1..=lines)
        .map(|i| match i % 2 {
            0 => format!("{} // outside\n", inputs::ts_line(i)),
            _ => format!("{}\n", inputs::ts_line(i)),
        })
        .collect();
    let n = lines / 2 + 1;
    let text = "export const merged = 1;";
    let request = work.join("linear-stale.req");
    let (time, rss, _) = med(reps, work, |r| {
        write(&file, original.as_bytes())?;
        let state = work.join(format!("state-linear-stale-{r}"));
        let _ = std::fs::remove_dir_all(&state);
        let read = run_quiet(hl(bin, &root, &state).args(["read", "e.ts", "--limit", "1"]))?;
        let read = String::from_utf8_lossy(&read);
        let tag = read
            .lines()
            .next()
            .and_then(|h| h.rsplit_once('#'))
            .map(|(_, t)| t.trim().to_string())
            .ok_or("no tag in the read")?;
        write(
            &request,
            format!("¶e.ts#{tag}\nreplace {n}..{n}:\n+{text}\n").as_bytes(),
        )?;
        write(&file, changed.as_bytes())?;
        let mut cmd = hl(bin, &root, &state);
        cmd.arg("edit").arg(&request);
        Ok(cmd)
    })?;
    let edited = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
    if edited.lines().nth(n - 1) != Some(text) {
        return Err(format!("the stale edit of line {n} did not land"));
    }
    Ok(Step {
        size: format!("{lines} lines"),
        time,
        rss,
        note: String::new(),
    })
}

/// One apply-patch chunk of `rows` rows in a `lines`-line file: every other row kept and the
/// others replaced (code-like lines), or `rows` repeated lines ending at the one different
/// line of a file of repeated lines, all replaced.
fn chunk(
    bin: &Path,
    work: &Path,
    lines: usize,
    rows: usize,
    repeated: bool,
    reps: usize,
) -> Result<Step, String> {
    let (text, start): (Vec<String>, usize) = if repeated {
        let mut text = vec!["    }".to_string(); lines];
        let end = lines - 10;
        if let Some(l) = text.get_mut(end) {
            *l = "    } // end".to_string();
        }
        (text, end + 1 - rows)
    } else {
        (
            (1..=lines).map(inputs::ts_line).collect(),
            lines / 2 - rows / 2,
        )
    };
    let original = text.join("\n") + "\n";
    let mut patch = String::from("*** Begin Patch\n*** Update File: e.ts\n@@\n");
    for (k, l) in text.iter().skip(start).take(rows).enumerate() {
        if !repeated && k % 2 == 0 {
            patch.push_str(&format!(" {l}\n"));
        } else {
            patch.push_str(&format!("-{l}\n+{l} // x\n"));
        }
    }
    patch.push_str("*** End Patch\n");
    let (time, rss, changed) = patched(bin, work, "linear-chunk", &original, &patch, reps)?;
    let expected = if repeated { rows } else { rows / 2 };
    if changed != expected {
        return Err(format!("the chunk changed {changed} lines, not {expected}"));
    }
    Ok(Step {
        size: format!("{rows} rows, {lines} lines"),
        time,
        rss,
        note: String::new(),
    })
}

/// One apply-patch update of a `lines`-line file with a chunk every 100 lines: three context
/// lines, one line replaced, three context lines.
fn many_chunks(bin: &Path, work: &Path, lines: usize, reps: usize) -> Result<Step, String> {
    let text: Vec<String> = (1..=lines).map(inputs::ts_line).collect();
    let original = text.join("\n") + "\n";
    let mut patch = String::from("*** Begin Patch\n*** Update File: e.ts\n");
    let chunks = lines / 100;
    for k in 0..chunks {
        let at = k * 100 + 50;
        patch.push_str("@@\n");
        for l in &text[at - 3..at] {
            patch.push_str(&format!(" {l}\n"));
        }
        patch.push_str(&format!("-{}\n+{} // x\n", text[at], text[at]));
        for l in &text[at + 1..at + 4] {
            patch.push_str(&format!(" {l}\n"));
        }
    }
    patch.push_str("*** End Patch\n");
    let (time, rss, changed) = patched(bin, work, "linear-chunks", &original, &patch, reps)?;
    if changed != chunks {
        return Err(format!("the patch changed {changed} lines, not {chunks}"));
    }
    Ok(Step {
        size: format!("{chunks} chunks, {lines} lines"),
        time,
        rss,
        note: String::new(),
    })
}

/// The V4A `patch` applied to `original` (written as `e.ts` in `work/name` before each run):
/// the median time and peak RSS, and how many lines of the result end in ` // x`.
fn patched(
    bin: &Path,
    work: &Path,
    name: &str,
    original: &str,
    patch: &str,
    reps: usize,
) -> Result<(Duration, u64, usize), String> {
    let root = work.join(name);
    let file = root.join("e.ts");
    let request = work.join(format!("{name}.patch"));
    write(&request, patch.as_bytes())?;
    let (time, rss, _) = med(reps, work, |r| {
        write(&file, original.as_bytes())?;
        let state = work.join(format!("state-{name}-{r}"));
        let _ = std::fs::remove_dir_all(&state);
        let mut cmd = hl(bin, &root, &state);
        cmd.args(["edit", "--dialect", "apply-patch", "--allow-syntax-errors"])
            .arg(&request);
        Ok(cmd)
    })?;
    let edited = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
    let changed = edited.lines().filter(|l| l.ends_with(" // x")).count();
    Ok((time, rss, changed))
}

/// An ast-edit preview of `m` matches, one a line.
fn matches(bin: &Path, work: &Path, m: usize, reps: usize) -> Result<Step, String> {
    let root = work.join("linear-ast");
    let source: String = (0..m)
        .map(|i| format!("let x{i} = foo({i}, void 0);\n"))
        .collect();
    write(&root.join("a.js"), source.as_bytes())?;
    let (time, rss, bytes) = med(reps, work, |r| {
        let state = work.join(format!("state-linear-ast-{r}"));
        let _ = std::fs::remove_dir_all(&state);
        let mut cmd = hl(bin, &root, &state);
        cmd.args([
            "ast-edit",
            "--pat",
            "void 0",
            "--out",
            "undefined",
            "--lang",
            "js",
            "a.js",
        ]);
        Ok(cmd)
    })?;
    Ok(Step {
        size: format!("{m} matches"),
        time,
        rss,
        note: format!(
            "preview {bytes} bytes; {:.0} bytes of peak RSS a match",
            rss as f64 * 1024.0 / m as f64
        ),
    })
}

/// An apply-patch commit of `files` files (ten directories) under `ulimit -n 400`.
fn commit(bin: &Path, work: &Path, files: usize, reps: usize) -> Result<Step, String> {
    let root = work.join("linear-files");
    let _ = std::fs::remove_dir_all(&root);
    let mut patch = String::from("*** Begin Patch\n");
    let original = |i: usize| format!("alpha {i}\nbeta {i}\ngamma {i}\n");
    for i in 0..files {
        let path = format!("d{}/f{i}.txt", i % 10);
        write(&root.join(&path), original(i).as_bytes())?;
        patch.push_str(&format!(
            "*** Update File: {path}\n@@\n alpha {i}\n-beta {i}\n+BETA {i}\n gamma {i}\n"
        ));
    }
    patch.push_str("*** End Patch\n");
    let request = work.join("linear-files.patch");
    write(&request, patch.as_bytes())?;
    let (time, rss, _) = med(reps, work, |r| {
        for i in 0..files {
            write(
                &root.join(format!("d{}/f{i}.txt", i % 10)),
                original(i).as_bytes(),
            )?;
        }
        let state = work.join(format!("state-linear-files-{r}"));
        let _ = std::fs::remove_dir_all(&state);
        let mut cmd = Command::new("bash");
        cmd.arg("-c")
            .arg("ulimit -n 400 && exec \"$@\"")
            .arg("hashline")
            .arg(bin)
            .arg("--root")
            .arg(&root)
            .arg("--state")
            .arg(&state)
            .args(["edit", "--dialect", "apply-patch"])
            .arg(&request);
        Ok(cmd)
    })?;
    let last =
        std::fs::read_to_string(root.join(format!("d{}/f{}.txt", (files - 1) % 10, files - 1)))
            .map_err(|e| e.to_string())?;
    if !last.contains("BETA") {
        return Err(format!("the {files}-file commit did not land"));
    }
    Ok(Step {
        size: format!("{files} files"),
        time,
        rss,
        note: String::new(),
    })
}
