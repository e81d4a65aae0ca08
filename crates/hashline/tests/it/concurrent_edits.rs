//! Concurrency: 8 processes at a time edit one file through `read` + `edit`, in each dialect
//! (hashline, hash-json, lineid-json) and a mix of them, all in one shared session and each in
//! a session of its own, retrying refused edits. Every edit increments a counter line and
//! appends a line of its own: its worker's counter on three edits of four, the one shared
//! counter (the hot line every worker rewrites) on the fourth — except lineid-json edits,
//! which always take their worker's counter. A lineid ID is 8 bits (seed 004) and its reads carry
//! no version: in one session shared by writers that also read, worker A's anchor from an older
//! read of the hot line can fit the newer text another worker wrote and a third one read (1 in
//! 256, 1 in 128 with the legacy ID), and the session, whose newest read wins, cannot tell whose
//! read it came from (measured: 1 stale edit applied in 400 hot-line edits, 3 runs of 800
//! edits). A session of its own per writer is safe (the `own sessions` scenarios), and so is a
//! single writer: its own edits are not recorded as read, so an anchor of a line it rewrote
//! never fits a version it never saw (`merge::attacks` in hashline-apply).
//!
//! Two more scenarios split the workers between two state directories on the one root (each
//! worker in a session of its own): locks belong to the files, not to a state directory.
//!
//! Checked per scenario: every landed append is in the file exactly once and nothing else is
//! (no lost update, none doubled); each counter equals the number of landed edits that
//! incremented it (an edit made on a stale read of its line — "shared 5" after another worker
//! wrote "shared 6" — would leave it short: no stale edit was applied). Each scenario prints
//! one summary line with its counts; `other` (lost + doubled + stale) must be 0.
#![cfg(unix)]

use crate::support;

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use support::cli::hashline;
use support::sandbox::Sandbox;

const WORKERS: usize = 8;
/// Edits per worker and scenario: 8 scenarios × 8 workers × 16 = 1,024 edits in total (about
/// 22 s of a debug build on 2 quiet cores, 93 s on busy ones);
/// `HASHLINE_TEST_EDITS_PER_WORKER` sets another count.
fn edits_per_worker() -> usize {
    std::env::var("HASHLINE_TEST_EDITS_PER_WORKER")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Hashline,
    HashJson,
    LineidJson,
}

/// One read-modify-write attempt: rewrite the line starting with `key ` to its next count,
/// append `line`. `true` when it landed.
fn attempt(
    sb: &Sandbox,
    state: &Path,
    session: &str,
    dialect: Dialect,
    key: &str,
    line: &str,
) -> bool {
    let run = |rest: &[&str], stdin: &[u8]| {
        let mut args = vec!["--session", session];
        args.extend_from_slice(rest);
        hashline(&sb.root, state, &args, stdin)
    };
    let anchors = match dialect {
        Dialect::Hashline => "tag",
        Dialect::HashJson => "hash",
        Dialect::LineidJson => "lineid",
    };
    let read = run(&["read", "log.txt", "--anchors", anchors], b"");
    if read.code != 0 {
        return false;
    }
    let mut lines = read.stdout.lines();
    let header = match dialect {
        Dialect::Hashline => lines.next().unwrap_or_default().to_owned(),
        _ => String::new(),
    };
    let sep = match dialect {
        Dialect::Hashline => ':',
        Dialect::HashJson => ':',
        Dialect::LineidJson => '|',
    };
    // (anchor, text) of every row shown; the empty row after the final newline is dropped.
    let rows: Vec<(&str, &str)> = lines
        .take_while(|l| !l.is_empty() && !l.starts_with("---"))
        .filter_map(|l| l.split_once(sep))
        .filter(|(_, text)| !text.is_empty())
        .collect();
    let prefix = format!("{key} ");
    let Some(&(anchor, text)) = rows.iter().find(|(_, t)| t.starts_with(&prefix)) else {
        return false;
    };
    let Ok(count) = text[prefix.len()..].parse::<u64>() else {
        return false;
    };
    let new = format!("{key} {}", count + 1);
    let Some(&(last, _)) = rows.last() else {
        return false;
    };
    let (args, request) = match dialect {
        Dialect::Hashline => (
            "hashline",
            format!("{header}\nreplace {anchor}..{anchor}:\n+{new}\ninsert tail:\n+{line}\n"),
        ),
        Dialect::HashJson => (
            "hash-json",
            serde_json::json!({"path": "log.txt", "edits": [
                {"op": "replace", "start": anchor, "end": anchor, "lines": [new]},
                {"op": "append", "lines": [line]},
            ]})
            .to_string(),
        ),
        Dialect::LineidJson => (
            "lineid-json",
            serde_json::json!({"filePath": "log.txt", "edits": [
                {"op": "replace", "pos": anchor, "lines": [new]},
                {"op": "append", "pos": last, "lines": [line]},
            ]})
            .to_string(),
        ),
    };
    run(&["edit", "--dialect", args], request.as_bytes()).code == 0
}

/// What one worker did.
#[derive(Default)]
struct Tally {
    landed: Vec<String>,
    increments: HashMap<String, u64>,
    refused: usize,
}

/// Runs one scenario; returns `other` (lost + doubled + stale), which must be 0. With
/// `two_states`, odd workers use a second state directory on the same root (two users, or two
/// agents with different `--state`): their locks must still exclude each other.
fn scenario(name: &str, dialects: &[Dialect], shared_session: bool, two_states: bool) -> usize {
    let started = Instant::now();
    let sb = Arc::new(Sandbox::new());
    let mut initial = String::from("shared 0\n");
    for w in 0..WORKERS {
        initial.push_str(&format!("w{w} 0\n\n"));
    }
    initial.push_str("start\n");
    sb.put("log.txt", initial.as_bytes());
    let dialects: Arc<Vec<Dialect>> = Arc::new(dialects.to_vec());
    let workers: Vec<_> = (0..WORKERS)
        .map(|w| {
            let (sb, dialects) = (Arc::clone(&sb), Arc::clone(&dialects));
            std::thread::spawn(move || {
                let session = if shared_session {
                    "shared".to_owned()
                } else {
                    format!("own-{w}")
                };
                let state = if two_states && w % 2 == 1 {
                    sb.state.with_file_name("state-b")
                } else {
                    sb.state.clone()
                };
                let mut tally = Tally::default();
                for i in 0..edits_per_worker() {
                    let dialect = dialects[(w + i) % dialects.len()];
                    let key = if i % 4 == 3 && dialect != Dialect::LineidJson {
                        "shared".to_owned()
                    } else {
                        format!("w{w}")
                    };
                    let line = format!("worker {w} edit {i}");
                    let mut tries = 0;
                    while !attempt(&sb, &state, &session, dialect, &key, &line) {
                        tally.refused += 1;
                        tries += 1;
                        assert!(tries < 200, "{line} never landed");
                    }
                    *tally.increments.entry(key).or_default() += 1;
                    tally.landed.push(line);
                }
                tally
            })
        })
        .collect();
    let mut expected: Vec<String> = Vec::new();
    let mut increments: HashMap<String, u64> = HashMap::new();
    let mut refused = 0;
    for worker in workers {
        let tally = worker.join().expect("worker");
        expected.extend(tally.landed);
        refused += tally.refused;
        for (key, n) in tally.increments {
            *increments.entry(key).or_default() += n;
        }
    }
    let text = fs::read_to_string(sb.root.join("log.txt")).expect("read");
    let appended: Vec<&str> = text.lines().skip_while(|l| *l != "start").skip(1).collect();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for line in &appended {
        *seen.entry(line).or_default() += 1;
    }
    let lost = expected
        .iter()
        .filter(|l| !seen.contains_key(l.as_str()))
        .count();
    let doubled: usize = seen.values().map(|n| n - 1).sum::<usize>()
        + appended
            .iter()
            .filter(|l| !expected.iter().any(|e| e == *l))
            .count();
    let stale = increments
        .iter()
        .filter(|(key, n)| !text.lines().any(|l| l == format!("{key} {n}")))
        .count();
    let other = lost + doubled + stale;
    println!(
        "concurrency {name}: runs={} landed={} refused-and-retried={refused} shared-counter={} \
         lost={lost} doubled={doubled} stale-applied={stale} other={other} ({:.1} s)",
        expected.len() + refused,
        expected.len(),
        increments.get("shared").copied().unwrap_or(0),
        started.elapsed().as_secs_f64()
    );
    if other > 0 {
        eprintln!("{name}: final file:\n{text}");
    }
    other
}

#[test]
fn concurrent_edits_in_every_dialect_are_neither_lost_nor_stale() {
    use Dialect::*;
    let started = Instant::now();
    let mut other = 0;
    let mut edits = 0;
    for (name, dialects) in [
        ("hashline", &[Hashline][..]),
        ("hash-json", &[HashJson][..]),
        ("lineid-json", &[LineidJson][..]),
        ("mix", &[Hashline, HashJson, LineidJson][..]),
    ] {
        for shared in [true, false] {
            let session = if shared {
                "one session"
            } else {
                "own sessions"
            };
            other += scenario(&format!("{name} / {session}"), dialects, shared, false);
            edits += WORKERS * edits_per_worker();
        }
    }
    println!(
        "concurrency total: {edits} edits by {WORKERS} processes at a time, other={other} \
         ({:.1} s)",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(
        other, 0,
        "lost, doubled or stale updates (see the lines above)"
    );
}

#[test]
fn two_state_directories_on_one_root_lose_no_update() {
    use Dialect::*;
    let mut other = 0;
    for (name, dialects) in [
        ("hashline", &[Hashline][..]),
        ("mix", &[Hashline, HashJson, LineidJson][..]),
    ] {
        other += scenario(&format!("{name} / two state dirs"), dialects, false, true);
    }
    assert_eq!(
        other, 0,
        "lost, doubled or stale updates (see the lines above)"
    );
}

#[test]
fn an_edit_through_another_state_directory_waits_for_the_files_lock() {
    let sb = Sandbox::new();
    sb.put("log.txt", b"one\n");
    // A process with its own state directory holds log.txt's lock.
    let ws = hashline_apply::fs::Workspace::new(&sb.root)
        .expect("workspace")
        .with_state_dir(sb.state.with_file_name("state-b"), "b".into());
    let target = ws.resolve("log.txt").expect("resolve");
    let guard = ws.lock(&[&target]).expect("lock");
    let edit = "*** Begin Patch\n*** Update File: log.txt\n@@\n-one\n+uno\n*** End Patch\n";
    let out = support::cli::hashline_env(
        &sb.root,
        &sb.state,
        &["--json", "edit", "--dialect", "apply-patch"],
        edit.as_bytes(),
        &[("HASHLINE_LOCK_TIMEOUT", "0.3")],
    );
    drop(guard);
    assert_eq!(out.json()["code"], "E_LOCK_TIMEOUT", "{out:?}");
    assert_eq!(fs::read(sb.root.join("log.txt")).expect("read"), b"one\n");
    // Once it is released, the edit lands.
    let out = hashline(
        &sb.root,
        &sb.state,
        &["edit", "--dialect", "apply-patch"],
        edit.as_bytes(),
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(fs::read(sb.root.join("log.txt")).expect("read"), b"uno\n");
}
