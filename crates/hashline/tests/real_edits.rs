//! Real edits (`../shared/real-edits`, see its README): 300 changes people committed to four
//! public projects, each sent through all five dialects exactly as a careful model would send
//! the correct request (read first, anchors from the read, a line diff of before → after), then
//! classed: correct, warned (a false alarm), refused, wrong, crash, or excluded (the dialect
//! cannot say the change). Every refusal counts as unjustified: each after file is code its
//! project committed, so none is taken to have the defect a refusal names (stricter than the
//! corpus's protocol, which lets a refusal stand where the after file really is broken).
//!
//! The test fails on any wrong or crashed run, when false alarms exceed [`MAX_FALSE_ALARMS`]
//! per mille of the runs, on any other failing run not listed in `real-edits-open.txt` (the
//! false alarms left), and on a listed run that passes. `cargo xtask real-edits` prints the table; a
//! clone without `../shared` skips the test and says so.

mod support;

#[path = "real_edits/diff.rs"]
mod diff;
#[path = "real_edits/mistake_run.rs"]
mod mistake_run;
#[path = "real_edits/mistake_tweak.rs"]
mod mistake_tweak;
#[path = "real_edits/mistakes.rs"]
mod mistakes;
#[path = "real_edits/outcome.rs"]
mod outcome;
#[path = "real_edits/read.rs"]
mod read;
#[path = "real_edits/request.rs"]
mod request;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use outcome::{Class, Tally};
use request::Request;
use support::sandbox::Sandbox;

/// The most false alarms allowed, per mille of the runs that were not excluded.
const MAX_FALSE_ALARMS: usize = 5;

/// The five dialects, in the table's order.
const DIALECTS: [&str; 5] = [
    "hashline",
    "hash-json",
    "lineid-json",
    "str-replace",
    "apply-patch",
];

/// A call that takes longer than this is a crash.
const TOO_SLOW: Duration = Duration::from_secs(30);

/// The real-edits corpus: `../shared/real-edits`, or the folder `REAL_EDITS_CORPUS` names
/// (another corpus drawn by `make_corpus.py`, to try the guard on projects it was not tuned
/// on); `None` (the test says it is skipped; under `CI` it fails) when `../shared` is not
/// beside the clone.
fn corpus() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("REAL_EDITS_CORPUS") {
        return Some(PathBuf::from(dir));
    }
    support::shared::path("real-edits/manifest.json")
        .and_then(|m| m.parent().map(Path::to_path_buf))
}

/// One case of the manifest.
struct Case {
    id: String,
    path: String,
    before: String,
    after: String,
}

fn cases(dir: &Path) -> Vec<Case> {
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).expect("manifest"))
            .expect("manifest.json is JSON");
    let text = |rel: &serde_json::Value| {
        let rel = rel.as_str().expect("a file name");
        fs::read_to_string(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    };
    manifest["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| Case {
            id: c["id"].as_str().unwrap_or_default().to_string(),
            path: c["path"].as_str().unwrap_or_default().to_string(),
            before: text(&c["before"]),
            after: text(&c["after"]),
        })
        .collect()
}

/// Runs one case in one dialect: read as that dialect's model would, build the request, send
/// it, compare the file.
fn run(case: &Case, dialect: &str) -> (Class, String) {
    let sb = Sandbox::new();
    sb.put(&case.path, case.before.as_bytes());
    let old = diff::lines(&case.before);
    let new = diff::lines(&case.after);
    let hunks = diff::hunks(&old, &new);
    assert_eq!(
        diff::apply(&old, &new, &hunks),
        new,
        "{}: the reference applier disagrees with the diff",
        case.id
    );
    let final_newline = case.before.ends_with('\n');
    // The line diff does not see the final newline: a commit that adds or removes it is a
    // change no request built from it can make.
    if final_newline != case.after.ends_with('\n') {
        return (Class::Excluded, "a change of the final newline".to_string());
    }
    // The protocol reads LF text: rows show no line's carriage return, so a file with some
    // CRLF lines cannot be spelled back from its rows (nor its diff sent as rows).
    if case.before.contains('\r') || case.after.contains('\r') {
        return (
            Class::Excluded,
            "carriage returns in a LF corpus".to_string(),
        );
    }
    let edits = request::edits(&new, &hunks);
    let read = match read::as_model(&sb, &case.path, &case.before, dialect) {
        Ok(read) => read,
        Err(e) => return (Class::Crash, e),
    };
    let request = request::build(
        dialect,
        &case.path,
        read.as_ref(),
        &old,
        final_newline,
        &edits,
    );
    let calls = match request {
        Request::Excluded(why) => return (Class::Excluded, why.to_string()),
        Request::Calls(calls) => calls,
    };
    let mut warnings = Vec::new();
    let mut log = String::new();
    for call in &calls {
        let Some(r) = send(&sb, dialect, call, &mut log) else {
            return (Class::Crash, log);
        };
        match r.code {
            0 => {
                let reply: serde_json::Value = match serde_json::from_str(&r.stdout) {
                    Ok(v) => v,
                    Err(e) => return (Class::Crash, format!("reply not JSON: {e}\n{log}")),
                };
                for w in reply["warnings"].as_array().into_iter().flatten() {
                    warnings.push(outcome::warning_code(w.as_str().unwrap_or_default()));
                }
            }
            1 => {
                let code = serde_json::from_str::<serde_json::Value>(&r.stdout)
                    .ok()
                    .and_then(|v| v["code"].as_str().map(str::to_string))
                    .unwrap_or_else(|| "E_?".to_string());
                return (Class::Refused(code), log);
            }
            _ => return (Class::Crash, log),
        }
    }
    let now = fs::read(sb.root.join(&case.path)).unwrap_or_default();
    if now != case.after.as_bytes() {
        log.push_str(&format!(
            "--- got ---\n{}\n--- wanted ---\n{}",
            String::from_utf8_lossy(&now),
            case.after
        ));
        return (Class::Wrong, log);
    }
    match warnings.into_iter().next() {
        Some(code) => (Class::Warned(code), log),
        None => (Class::Correct, log),
    }
}

#[test]
fn real_edits() {
    let Some(dir) = corpus() else {
        return;
    };
    let cases = cases(&dir);
    let only = std::env::var("REAL_EDITS_ONLY").ok();
    let jobs: Vec<(usize, &str)> = (0..cases.len())
        .filter(|&i| {
            only.as_deref()
                .is_none_or(|o| o.split(',').any(|x| x == cases[i].id))
        })
        .flat_map(|i| DIALECTS.iter().map(move |d| (i, *d)))
        .collect();
    let mut results = in_parallel(&jobs, |&(i, dialect)| {
        let (class, log) = run(&cases[i], dialect);
        (cases[i].id.clone(), dialect, class, log)
    });
    results.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    let details = std::env::var_os("REAL_EDITS_DETAILS").map(PathBuf::from);
    if let Some(d) = &details {
        fs::create_dir_all(d).expect("details folder");
    }
    let mut tally = Tally::default();
    let mut failures = BTreeSet::new();
    for (id, dialect, class, log) in &results {
        tally.add(dialect, class);
        if class.is_failure() {
            failures.insert(format!("{id} {dialect} {}", class.label()));
            if let Some(d) = &details {
                fs::write(d.join(format!("{id}-{dialect}.txt")), log).expect("write detail");
            }
        }
    }
    println!("{}", tally.table(&DIALECTS));
    let open = open_cases();
    let new: Vec<&String> = failures.difference(&open).collect();
    let fixed: Vec<&String> = if only.is_some() {
        Vec::new()
    } else {
        open.difference(&failures).collect()
    };
    for f in &new {
        println!("new failure: {f}");
    }
    for f in &fixed {
        println!("listed in real-edits-open.txt but passes now (remove it): {f}");
    }
    let (runs, false_alarms, wrong, crash) = tally.totals();
    println!("false alarms {false_alarms} of {runs} runs, wrong {wrong}, crash {crash}");
    assert!(
        new.is_empty() && fixed.is_empty(),
        "{} new failures, {} listed cases pass now",
        new.len(),
        fixed.len()
    );
    assert_eq!(
        (wrong, crash),
        (0, 0),
        "a correct request landed wrong or crashed"
    );
    assert!(
        false_alarms * 1000 <= runs * MAX_FALSE_ALARMS || only.is_some(),
        "{false_alarms} false alarms in {runs} runs: more than {MAX_FALSE_ALARMS} per mille"
    );
}

/// The runs that do not pass yet (`real-edits-open.txt` beside this file: `ID DIALECT CLASS`
/// per line, `#` comments): work not done yet, listed so the test fails only on a change. A
/// listed run that passes fails the test too, so the list only shrinks.
fn open_cases() -> BTreeSet<String> {
    let list = include_str!("real-edits-open.txt");
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Mistakes per case and dialect in [`real_edit_mistakes`].
const MISTAKES_PER_CASE: usize = 4;

/// [`real_edit_mistakes`] takes every this-many-th case (`REAL_EDITS_EVERY` overrides it).
const MISTAKES_EVERY: usize = 2;

/// The mistakes models make, injected into the real edits: the guard's recall on real code.
///
/// Protocol: every [`MISTAKES_EVERY`]-th case of `../shared/real-edits` (`REAL_EDITS_EVERY=N`
/// for another step, `REAL_EDITS_ONLY=ID,ID` for some cases) gets, in each of the five
/// dialects, up to [`MISTAKES_PER_CASE`] mistakes of different kinds (`real_edits/mistakes.rs`:
/// the kinds each dialect gets, taken in turn so that each kind gets its share of the corpus,
/// each on one hunk chosen by a hash of the case, the dialect and the kind). Each mistake is
/// the correct request of `real_edits` with one edit mutated (a range one line long or short,
/// a boundary line echoed, rows de-indented, two rows merged, anchors or `+` pasted into rows,
/// and the dialects' own: an ambiguous or stripped `old_str`, a `new_str` or patch context
/// de-indented, a `-` line that does not match, chunks out of order), or an outside change
/// written over the file between the read and the edit (a line inserted above the edit: the
/// model meant its edit on top of it; a line of the edit's range changed: only a refusal is
/// right). A mistake that, applied as written, gives what the model meant is no mistake and
/// is not sent. Each runs in a fresh root: read as the dialect's model would, build from the
/// read, send with `--json edit --dialect D`, class as `../shared/mistakes/README.md` does:
/// correct (exit 0, the file is what the model meant), refused (exit 1, root byte-identical),
/// warned-wrong (exit 0, differs, a `[W_…]` warning), silent-wrong (exit 0, differs, no
/// warning; silent-broken too when the engine's tree-sitter check finds a syntax error in
/// the file got where the file meant has none), broken (anything else).
///
/// Prints a table per dialect and per kind; fails on any broken run. Silent-wrong runs are
/// counted, not failed (the guard is being reworked); with `REAL_EDITS_DETAILS=DIR` their list
/// (`ID DIALECT KIND`, then `broken` for a silent-broken run) goes to `DIR/mistakes-silent-wrong.txt` and each run's requests and
/// replies to `DIR/mistake-ID-DIALECT-KIND.txt` (warned-wrong and broken runs too). `cargo xtask real-edits
/// --mistakes` runs it.
#[test]
fn real_edit_mistakes() {
    let Some(dir) = corpus() else {
        return;
    };
    let started = Instant::now();
    let cases = cases(&dir);
    let only = std::env::var("REAL_EDITS_ONLY").ok();
    let every = std::env::var("REAL_EDITS_EVERY")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(MISTAKES_EVERY)
        .max(1);
    let mut jobs = Vec::new();
    for (ordinal, i) in (0..cases.len())
        .filter(|&i| match &only {
            Some(o) => o.split(',').any(|x| x == cases[i].id),
            None => i % every == 0,
        })
        .enumerate()
    {
        let case = &cases[i];
        let old = diff::lines(&case.before);
        let new = diff::lines(&case.after);
        let hunks = diff::hunks(&old, &new);
        let correct = request::edits(&new, &hunks);
        let old: Vec<String> = old.iter().map(|l| l.to_string()).collect();
        for dialect in DIALECTS {
            let plan = mistakes::plan(
                &mistakes::Target {
                    id: &case.id,
                    ordinal,
                    dialect,
                    path: &case.path,
                    old: &old,
                    final_newline: case.before.ends_with('\n'),
                },
                &correct,
                MISTAKES_PER_CASE,
            );
            jobs.extend(plan.into_iter().map(|m| (i, dialect, m)));
        }
    }
    let mut results = in_parallel(&jobs, |(i, dialect, m)| {
        let outcome = mistake_run::run(&cases[*i], dialect, m);
        (cases[*i].id.clone(), *dialect, m.kind, outcome)
    });
    results.sort_by(|a, b| (&a.0, a.1, a.2).cmp(&(&b.0, b.1, b.2)));
    let details = std::env::var_os("REAL_EDITS_DETAILS").map(PathBuf::from);
    if let Some(d) = &details {
        fs::create_dir_all(d).expect("details folder");
    }
    let mut tally = mistake_run::Tally::default();
    let mut silent = Vec::new();
    let mut broken = Vec::new();
    for (id, dialect, kind, outcome) in &results {
        let Some(o) = outcome else {
            tally.excluded += 1;
            continue;
        };
        tally.add(dialect, kind, o.class);
        tally.add_codes(dialect, &o.codes);
        let name = format!("{id} {dialect} {kind}");
        match o.class {
            mistake_run::Class::SilentWrong(unparsed) => silent.push(if unparsed {
                name.clone() + " broken"
            } else {
                name.clone()
            }),
            mistake_run::Class::Broken => broken.push(name),
            mistake_run::Class::WarnedWrong => {}
            _ => continue,
        }
        if let Some(d) = &details {
            let file = d.join(format!("mistake-{id}-{dialect}-{kind}.txt"));
            fs::write(file, &o.log).expect("write detail");
        }
    }
    println!("{}", tally.table(&DIALECTS));
    println!("{}", tally.code_table(&DIALECTS));
    if let Some(d) = &details {
        let list: String = silent.iter().map(|s| s.clone() + "\n").collect();
        fs::write(d.join("mistakes-silent-wrong.txt"), list).expect("write list");
    }
    for b in &broken {
        println!("broken: {b}");
    }
    println!(
        "{} cases (every {every}), {:.0?}",
        results.iter().map(|r| &r.0).collect::<BTreeSet<_>>().len(),
        started.elapsed()
    );
    assert!(broken.is_empty(), "{} broken runs", broken.len());
}

/// `f` of every job, on one thread per core (jobs taken in turn), in no particular order.
fn in_parallel<J: Sync, R: Send>(jobs: &[J], f: impl Fn(&J) -> R + Sync) -> Vec<R> {
    let next = Mutex::new(0usize);
    let results = Mutex::new(Vec::with_capacity(jobs.len()));
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let job = {
                    let mut n = next.lock().expect("lock");
                    let job = jobs.get(*n);
                    *n += 1;
                    job
                };
                let Some(job) = job else { break };
                let r = f(job);
                results.lock().expect("lock").push(r);
            });
        }
    });
    results.into_inner().expect("results")
}

/// Sends one call to `edit --json --dialect DIALECT`, logging the request and the reply;
/// `None` (and the log says so) when it took longer than [`TOO_SLOW`].
fn send(sb: &Sandbox, dialect: &str, call: &[u8], log: &mut String) -> Option<support::cli::Run> {
    let started = Instant::now();
    let r = sb.run(&["--json", "edit", "--dialect", dialect], call);
    log.push_str(&format!(
        "--- request ---\n{}\n--- reply (exit {}) ---\n{}{}\n",
        String::from_utf8_lossy(call),
        r.code,
        r.stdout,
        r.stderr
    ));
    if started.elapsed() > TOO_SLOW {
        log.push_str(&format!("over {TOO_SLOW:?}\n"));
        return None;
    }
    Some(r)
}
