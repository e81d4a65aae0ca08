//! `cargo xtask ast-diff --bench [--reps N]`: wall time of hashline's preview
//! (`hashline ast-edit`, nothing written) against `ast-grep run --pattern P --rewrite R --json`
//! (ast-grep's preview, nothing written) on the same corpus, interleaved in the same run;
//! medians per rewrite and in total, and their ratio.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::ast_diff::{output, Case};
use crate::ast_tools::{list_files, Tools};
use crate::bench::ratio;

/// Time every case `reps` times with both tools.
pub fn run(tools: &Tools, cases: &[&Case], reps: usize) -> Result<(), String> {
    let reps = reps.max(1);
    let state = tools.cache.join("bench-state");
    let _ = std::fs::remove_dir_all(&state);
    std::fs::create_dir_all(&state).map_err(|e| format!("{}: {e}", state.display()))?;
    for lang in ["js", "ts"] {
        let dir = tools.corpus.join(lang);
        let files = list_files(&dir)?;
        let bytes: u64 = files
            .iter()
            .filter_map(|f| std::fs::metadata(dir.join(f)).ok())
            .map(|m| m.len())
            .sum();
        println!(
            "corpus {lang}: {} files, {:.1} MB",
            files.len(),
            bytes as f64 / 1e6
        );
    }
    println!("{reps} runs each, interleaved; median wall time per preview (2 cores, both tools use all):");
    let (mut hl_total, mut sg_total) = (Duration::ZERO, Duration::ZERO);
    for case in cases {
        let corpus = tools.corpus.join(case.lang);
        let (mut hl, mut sg) = (Vec::with_capacity(reps), Vec::with_capacity(reps));
        // One untimed warm-up of each (page cache, binary load).
        timed(&mut tools.hl_preview(case, &corpus, &state), true)?;
        discard(tools, &corpus, &state)?;
        timed(tools.sg_preview(case, &corpus).arg("--json"), false)?;
        for _ in 0..reps {
            hl.push(timed(&mut tools.hl_preview(case, &corpus, &state), true)?);
            discard(tools, &corpus, &state)?;
            sg.push(timed(tools.sg_preview(case, &corpus).arg("--json"), false)?);
        }
        let (h, s) = (median(&mut hl), median(&mut sg));
        hl_total += h;
        sg_total += s;
        println!(
            "  [{}] {:<46} hashline {:>8.1} ms   ast-grep {:>8.1} ms   ratio {:.2}",
            case.lang,
            case.pat,
            ms(h),
            ms(s),
            ratio(h, s)
        );
    }
    println!(
        "  total of medians: hashline {:.1} ms, ast-grep {:.1} ms, ratio hashline/ast-grep {:.2}",
        ms(hl_total),
        ms(sg_total),
        ratio(hl_total, sg_total)
    );
    let _ = std::fs::remove_dir_all(&state);
    Ok(())
}

/// Wall time of one run; `must_succeed` makes a non-zero exit an error.
fn timed(cmd: &mut Command, must_succeed: bool) -> Result<Duration, String> {
    let start = Instant::now();
    let out = output(cmd)?;
    let took = start.elapsed();
    if must_succeed && !out.status.success() {
        return Err(format!(
            "{cmd:?} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stdout)
        ));
    }
    Ok(took)
}

/// Drop the preview the timed run queued, so the queue does not grow across runs.
fn discard(tools: &Tools, root: &std::path::Path, state: &std::path::Path) -> Result<(), String> {
    output(tools.hl(root, state).args(["resolve", "discard"])).map(|_| ())
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
