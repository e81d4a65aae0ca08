//! Real edits (`../shared/real-edits`, see its README): 300 changes people committed to four
//! public projects, each sent through all five dialects exactly as a careful model would send
//! the correct request (read first, anchors from the read, a line diff of before → after), then
//! classed: correct, warned (a false alarm), refused, wrong, crash, or excluded (the dialect
//! cannot say the change). Every refusal counts as unjustified: each after file is code its
//! project committed, so none is taken to have the defect a refusal names (stricter than the
//! corpus's protocol, which lets a refusal stand where the after file really is broken).
//!
//! The test fails on any run that ends other than correct or excluded and is not listed in
//! `real-edits-open.txt` (the work not done yet), on a listed run that passes, and, once that
//! list is empty, when false alarms exceed [`MAX_FALSE_ALARMS`] per mille of the runs. `cargo xtask real-edits` prints the table; a
//! clone without `../shared` skips the test and says so.

mod support;

#[path = "real_edits/diff.rs"]
mod diff;
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

/// `../shared/real-edits`.
fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/real-edits")
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
    let request = match dialect {
        "apply-patch" => request::apply_patch(&case.path, &old, &new, &hunks),
        "str-replace" => match read::view(&sb, &case.path, &case.before) {
            Ok(()) => request::str_replace(&case.path, &old, final_newline, &new, &hunks),
            Err(e) => return (Class::Crash, e),
        },
        _ => {
            let mode = match dialect {
                "hash-json" => "hash",
                "lineid-json" => "lineid",
                _ => "tag",
            };
            let read = match read::anchored(&sb, &case.path, mode, &case.before) {
                Ok(r) => r,
                Err(e) => return (Class::Crash, e),
            };
            match dialect {
                "hash-json" => request::hash_json(&case.path, &read, &old, &new, &hunks),
                "lineid-json" => request::lineid_json(&case.path, &read, &new, &hunks),
                _ => request::hashline(&case.path, &read, &new, &hunks),
            }
        }
    };
    let calls = match request {
        Request::Excluded(why) => return (Class::Excluded, why.to_string()),
        Request::Calls(calls) => calls,
    };
    let mut warnings = Vec::new();
    let mut log = String::new();
    for call in &calls {
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
            return (Class::Crash, format!("over {TOO_SLOW:?}\n{log}"));
        }
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
    let dir = corpus();
    if !dir.join("manifest.json").is_file() {
        eprintln!(
            "skipped: {} is missing (the real-edits corpus sits in ../shared beside the clone)",
            dir.display()
        );
        return;
    }
    let cases = cases(&dir);
    let only = std::env::var("REAL_EDITS_ONLY").ok();
    let jobs: Vec<(usize, &str)> = (0..cases.len())
        .filter(|&i| {
            only.as_deref()
                .is_none_or(|o| o.split(',').any(|x| x == cases[i].id))
        })
        .flat_map(|i| DIALECTS.iter().map(move |d| (i, *d)))
        .collect();
    let next = Mutex::new(0usize);
    let results = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let job = {
                    let mut n = next.lock().expect("lock");
                    let job = jobs.get(*n).copied();
                    *n += 1;
                    job
                };
                let Some((i, dialect)) = job else { break };
                let (class, log) = run(&cases[i], dialect);
                results
                    .lock()
                    .expect("lock")
                    .push((cases[i].id.clone(), dialect, class, log));
            });
        }
    });
    let mut results = results.into_inner().expect("results");
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
    assert!(
        false_alarms * 1000 <= runs * MAX_FALSE_ALARMS || !open.is_empty(),
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
