//! Concurrency: 8 processes at a time append lines to one file through `read` + `edit`
//! (hashline and lineid-json dialects), half in one shared session and half in sessions of
//! their own, retrying refused edits. No update may be lost and none applied twice.
#![cfg(unix)]

mod support;

use std::fs;
use std::sync::Arc;

use support::cli::hashline;
use support::sandbox::Sandbox;

const WORKERS: usize = 8;
const EDITS_PER_WORKER: usize = 12;

/// One append through `dialect`: read, then insert after the last line. `true` when it landed.
fn append(sb: &Sandbox, session: &str, lineid: bool, line: &str) -> bool {
    let args = |rest: &[&str]| -> Vec<String> {
        ["--session", session]
            .iter()
            .chain(rest)
            .map(|s| s.to_string())
            .collect()
    };
    let run = |rest: &[&str], stdin: &[u8]| {
        let a = args(rest);
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        hashline(&sb.root, &sb.state, &refs, stdin)
    };
    if lineid {
        let read = run(&["read", "log.txt", "--anchors", "lineid"], b"");
        // The last non-empty line (a file ending in a newline shows an empty last row).
        let last = read
            .stdout
            .lines()
            .rev()
            .find(|l| l.contains('|') && !l.ends_with('|'));
        let Some(last) = last else {
            return false;
        };
        let anchor = last.split('|').next().unwrap_or_default();
        let request = serde_json::json!({
            "filePath": "log.txt",
            "edits": [{"op": "append", "pos": anchor, "lines": [line]}]
        });
        run(
            &["edit", "--dialect", "lineid-json"],
            request.to_string().as_bytes(),
        )
        .code
            == 0
    } else {
        let read = run(&["read", "log.txt"], b"");
        let Some(header) = read.stdout.lines().next() else {
            return false;
        };
        let patch = format!("{header}\ninsert tail:\n+{line}\n");
        run(&["edit", "--dialect", "hashline"], patch.as_bytes()).code == 0
    }
}

#[test]
fn concurrent_appends_are_neither_lost_nor_doubled() {
    let sb = Arc::new(Sandbox::new());
    sb.put("log.txt", b"start\n");
    let workers: Vec<_> = (0..WORKERS)
        .map(|w| {
            let sb = Arc::clone(&sb);
            std::thread::spawn(move || {
                let session = if w % 2 == 0 {
                    "shared".to_owned()
                } else {
                    format!("own-{w}")
                };
                let (mut landed, mut refused) = (Vec::new(), 0usize);
                for i in 0..EDITS_PER_WORKER {
                    let line = format!("worker {w} edit {i}");
                    let mut tries = 0;
                    while !append(&sb, &session, w % 4 >= 2, &line) {
                        refused += 1;
                        tries += 1;
                        assert!(tries < 50, "{line} never landed");
                    }
                    landed.push(line);
                }
                (landed, refused)
            })
        })
        .collect();
    let mut expected = Vec::new();
    let mut refusals = 0;
    for worker in workers {
        let (landed, refused) = worker.join().expect("worker");
        expected.extend(landed);
        refusals += refused;
    }
    let text = fs::read_to_string(sb.root.join("log.txt")).expect("read");
    let mut lines: Vec<&str> = text.lines().skip(1).collect();
    println!(
        "concurrency: {} edits landed by {WORKERS} processes at a time, {refusals} refused and \
         retried, {} lines in the file",
        expected.len(),
        lines.len()
    );
    lines.sort_unstable();
    expected.sort_unstable();
    assert_eq!(lines, expected, "lost or doubled updates");
}
