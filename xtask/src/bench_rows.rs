//! The rows of `cargo xtask bench` (issue 14's table), each measured against its baseline in
//! the same run, interleaved.

use std::path::Path;
use std::process::Command;

use crate::ast_diff::{output, CASES};
use crate::bench::{
    hl, io, median, ms, peak_rss, ratio, run_null, run_quiet, timed, write, Row, Table,
};
use crate::bench_inputs as inputs;

pub use crate::bench_guard::guard_cost;

/// The `¶PATH#TAG` tag in the first line of a read.
pub(crate) fn tag_of(read: &[u8]) -> Result<String, String> {
    let text = String::from_utf8_lossy(read);
    let header = text.lines().next().unwrap_or("");
    header
        .rsplit_once('#')
        .map(|(_, tag)| tag.trim().to_string())
        .ok_or_else(|| format!("no tag in `{header}`"))
}

/// `read` of a large code-like file to a pipe, against `cat` of it: once recorded before (an
/// agent reading a file again), and as the session's first read (which records it).
pub fn read_large(
    bin: &Path,
    work: &Path,
    mb: usize,
    reps: usize,
    table: &mut Table,
) -> Result<(), String> {
    let root = work.join("large");
    let file = root.join("big.rs");
    let text = inputs::code_like(mb << 20);
    let (bytes, lines) = (text.len(), text.lines().count());
    write(&file, text.as_bytes())?;
    drop(text);
    let state = work.join("state-large");
    run_quiet(hl(bin, &root, &state).args(["read", "big.rs"]))?;
    let (mut cat, mut again, mut first) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..reps {
        cat.push(timed(|| run_null(Command::new("cat").arg(&file)))?);
        again.push(timed(|| {
            run_null(hl(bin, &root, &state).args(["read", "big.rs"]))
        })?);
        let fresh = work.join(format!("state-first-{r}"));
        first.push(timed(|| {
            run_null(hl(bin, &root, &fresh).args(["read", "big.rs"]))
        })?);
        let _ = std::fs::remove_dir_all(&fresh);
    }
    let cat = median(&mut cat);
    for (what, runs) in [("read again", &mut again), ("first read", &mut first)] {
        let t = median(runs);
        let gbps = bytes as f64 / t.as_secs_f64().max(1e-9) / 1e9;
        let r = ratio(t, cat);
        table.push(Row {
            measure: format!("`{what}` of a {mb} MB code-like file ({lines} lines) to /dev/null"),
            ours: format!("{:.0} ms = {gbps:.2} GB/s", ms(t)),
            baseline: format!("`cat` {:.0} ms", ms(cat)),
            ratio: format!("{r:.2}x cat"),
            goal: ">= 1 GB/s, <= 3x cat",
            met: Some(gbps >= 1.0 && r <= 3.0),
        });
    }
    Ok(())
}

/// `read` of a 10-line file, the whole process, against spawning `cat` the same way.
pub fn read_small(bin: &Path, work: &Path, reps: usize, table: &mut Table) -> Result<(), String> {
    let root = work.join("small");
    let file = root.join("small.rs");
    let text: String = (1..=10).map(|i| format!("let v{i} = {i};\n")).collect();
    write(&file, text.as_bytes())?;
    let state = work.join("state-small");
    run_quiet(hl(bin, &root, &state).args(["read", "small.rs"]))?;
    let (mut cat, mut ours) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        cat.push(timed(|| run_null(Command::new("cat").arg(&file)))?);
        ours.push(timed(|| {
            run_null(hl(bin, &root, &state).args(["read", "small.rs"]))
        })?);
    }
    let (cat, ours) = (median(&mut cat), median(&mut ours));
    let r = ratio(ours, cat);
    table.push(Row {
        measure: "`read` of a 10-line file, whole process".to_string(),
        ours: format!("{:.2} ms", ms(ours)),
        baseline: format!("spawning `cat` {:.2} ms", ms(cat)),
        ratio: format!("{r:.2}x cat"),
        goal: "<= 2x spawning cat",
        met: Some(r <= 2.0),
    });
    crate::bench_bindings::rows(&root, work, ours, reps, table);
    Ok(())
}

/// read + edit of a 1,000-hunk patch on a 100,000-line file (two processes, a fresh session
/// each run), against the Bun peer reading, recording and patching in one process; both results
/// must be byte-identical.
pub fn edit_hunks(
    bin: &Path,
    cache: &Path,
    work: &Path,
    reps: usize,
    table: &mut Table,
) -> Result<(), String> {
    const LINES: usize = 100_000;
    const HUNKS: usize = 1_000;
    let measure = format!("read + edit, {HUNKS}-hunk patch on a {LINES}-line file");
    let goal = ">= 50x the Bun peer";
    let root = work.join("hunks");
    let file = root.join("e.ts");
    let original = inputs::ts_lines(LINES);
    let hunks = inputs::hunks(LINES, HUNKS);
    write(&file, original.as_bytes())?;
    let probe = work.join("state-probe");
    let tag = tag_of(&run_quiet(hl(bin, &root, &probe).args(["read", "e.ts"]))?)?;
    let ours_patch = work.join("hunks.patch");
    write(
        &ours_patch,
        inputs::hashline_patch("e.ts", &tag, &hunks).as_bytes(),
    )?;
    let peer_patch = work.join("hunks.peer");
    write(
        &peer_patch,
        inputs::peer_patch("e.ts", "TAG", &hunks).as_bytes(),
    )?;
    let peer = crate::bench_peer::Peer::install(cache);
    // Ours twice: as called by default (the edit guard parses the 3.8 MB file to refuse an
    // added syntax error) and with the parser off, which is what the peer does.
    const FLAGS: [&[&str]; 2] = [&[], &["--allow-syntax-errors"]];
    let (mut ours, mut theirs) = ([Vec::new(), Vec::new()], Vec::new());
    let (mut our_bytes, mut their_bytes) = (Vec::new(), Vec::new());
    for r in 0..reps {
        for (k, flags) in FLAGS.iter().enumerate() {
            write(&file, original.as_bytes())?;
            let state = work.join(format!("state-hunks-{r}-{k}"));
            ours[k].push(timed(|| {
                run_null(hl(bin, &root, &state).args(["read", "e.ts"]))?;
                run_null(
                    hl(bin, &root, &state)
                        .arg("edit")
                        .args(*flags)
                        .arg(&ours_patch),
                )
            })?);
            let _ = std::fs::remove_dir_all(&state);
            our_bytes = std::fs::read(&file).map_err(io(&file))?;
        }
        if let Ok(peer) = &peer {
            write(&file, original.as_bytes())?;
            theirs.push(timed(|| {
                run_quiet(&mut peer.command(&root, "e.ts", &peer_patch)).map(drop)
            })?);
            their_bytes = std::fs::read(&file).map_err(io(&file))?;
        }
    }
    // The input beside its patches, for profiling by hand (`--keep`).
    write(&work.join("hunks.orig"), original.as_bytes())?;
    let theirs = median(&mut theirs);
    for (k, what) in ["", ", parser off (`--allow-syntax-errors`)"]
        .iter()
        .enumerate()
    {
        let t = median(&mut ours[k]);
        let measure = format!("{measure}{what}");
        match &peer {
            Err(why) => table.push(Row {
                measure,
                ours: format!("{:.0} ms", ms(t)),
                baseline: format!("baseline unavailable: Bun peer: {why}"),
                ratio: "-".to_string(),
                goal,
                met: None,
            }),
            Ok(_) => {
                let same = our_bytes == their_bytes && our_bytes != original.as_bytes();
                let r = ratio(theirs, t);
                table.push(Row {
                    measure,
                    ours: format!(
                        "{:.0} ms, results {}",
                        ms(t),
                        if same { "byte-identical" } else { "DIFFER" }
                    ),
                    baseline: format!("`@oh-my-pi/hashline` 18.1.5 on Bun {:.0} ms", ms(theirs)),
                    ratio: format!("peer takes {r:.1}x"),
                    goal,
                    met: Some(r >= 50.0 && same),
                });
            }
        }
    }
    Ok(())
}

/// ast-edit preview + apply against `ast-grep run --update-all` on the pinned npm corpus, per
/// rewrite, on fresh copies each run; then every file compared.
pub fn ast_edit(
    work: &Path,
    reps: usize,
    max_files: usize,
    table: &mut Table,
) -> Result<(), String> {
    let goal = "<= 0.7x ast-grep, identical bytes";
    let tools = match crate::ast_tools::setup() {
        Ok(tools) => tools,
        Err(why) => {
            table.unavailable("ast-edit preview + apply", goal, &why);
            return Ok(());
        }
    };
    for case in [&CASES[4], &CASES[6], &CASES[8]] {
        let corpus = tools.corpus.join(case.lang);
        let files = spread(crate::ast_tools::list_files(&corpus)?, max_files);
        let (hl_dir, sg_dir, state) = (
            work.join("ast-hl"),
            work.join("ast-sg"),
            work.join("ast-state"),
        );
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        let mut failed = None;
        for _ in 0..reps {
            for dir in [&hl_dir, &sg_dir, &state] {
                let _ = std::fs::remove_dir_all(dir);
            }
            crate::ast_tools::copy_tree(&corpus, &hl_dir, &files)?;
            crate::ast_tools::copy_tree(&corpus, &sg_dir, &files)?;
            let ran = timed(|| {
                succeed(&mut tools.hl_preview(case, &hl_dir, &state))?;
                succeed(tools.hl(&hl_dir, &state).args(["resolve", "apply"]))
            });
            match ran {
                Ok(t) => ours.push(t),
                Err(why) => {
                    failed = Some(why);
                    break;
                }
            }
            theirs.push(timed(|| succeed(&mut tools.sg_apply(case, &sg_dir)))?);
        }
        if let Some(why) = failed {
            let first = why.lines().find(|l| l.contains("[E_")).unwrap_or(&why);
            table.push(Row {
                measure: format!("ast-edit + resolve apply `{}`", case.pat.replace('\n', " ")),
                ours: format!("refused: {first}"),
                baseline: "ast-grep rewrote it".to_string(),
                ratio: "-".to_string(),
                goal,
                met: Some(false),
            });
            continue;
        }
        let differ = files
            .iter()
            .filter(|f| std::fs::read(hl_dir.join(f)).ok() != std::fs::read(sg_dir.join(f)).ok())
            .count();
        let (ours, theirs) = (median(&mut ours), median(&mut theirs));
        let r = ratio(ours, theirs);
        table.push(Row {
            measure: format!(
                "ast-edit + resolve apply `{}` ({} {} files)",
                case.pat.replace('\n', " "),
                files.len(),
                case.lang
            ),
            ours: format!("{:.0} ms, {differ} files differ", ms(ours)),
            baseline: format!("`ast-grep run --update-all` 0.51.1 {:.0} ms", ms(theirs)),
            ratio: format!("{r:.2}x ast-grep"),
            goal,
            met: Some(r <= 0.7 && differ == 0),
        });
    }
    for dir in ["ast-hl", "ast-sg", "ast-state"] {
        let _ = std::fs::remove_dir_all(work.join(dir));
    }
    Ok(())
}

/// At most `max` of `files`, evenly spread (every package of the corpus keeps a share).
fn spread(files: Vec<std::path::PathBuf>, max: usize) -> Vec<std::path::PathBuf> {
    let step = files.len().div_ceil(max.max(1)).max(1);
    files.into_iter().step_by(step).collect()
}

fn succeed(cmd: &mut Command) -> Result<(), String> {
    let out = output(cmd)?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cmd:?} failed: {}",
            String::from_utf8_lossy(&out.stdout)
        ))
    }
}

/// Peak resident memory of `edit` (one line) of the large file, as a multiple of the file.
pub fn edit_memory(bin: &Path, work: &Path, mb: usize, table: &mut Table) -> Result<(), String> {
    let root = work.join("large");
    let file = root.join("big.rs");
    if !file.exists() {
        write(&file, inputs::code_like(mb << 20).as_bytes())?;
    }
    let bytes = std::fs::metadata(&file).map_err(io(&file))?.len();
    let state = work.join("state-memory");
    let tag = tag_of(&run_quiet(
        hl(bin, &root, &state).args(["read", "big.rs", "--limit", "1"]),
    )?)?;
    let patch = work.join("memory.patch");
    write(
        &patch,
        format!("¶big.rs#{tag}\nreplace 1..1:\n+let edited = 1; // bench\n").as_bytes(),
    )?;
    let measure = format!("peak memory of an edit of a {mb} MB file");
    let rss = peak_rss(hl(bin, &root, &state).arg("edit").arg(&patch));
    let edited = std::fs::read(&file)
        .map_err(io(&file))?
        .starts_with(b"let edited = 1;");
    if !edited {
        return Err(format!("the edit of {} did not land", file.display()));
    }
    memory_row(table, measure, rss, bytes);
    Ok(())
}

/// The row of a peak resident memory of `rss` KB (`None`: not measured) for a file of `bytes`.
pub fn memory_row(table: &mut Table, measure: String, rss: Option<u64>, bytes: u64) {
    match rss {
        Some(kb) => {
            let r = (kb * 1024) as f64 / bytes as f64;
            table.push(Row {
                measure,
                ours: format!("{} MB", kb / 1024),
                baseline: format!("the file: {} MB", bytes >> 20),
                ratio: format!("{r:.2}x the file"),
                goal: "<= 2x the file",
                met: Some(r <= 2.0),
            });
        }
        None => table.unavailable(&measure, "<= 2x the file", "/usr/bin/time -v is needed"),
    }
}
