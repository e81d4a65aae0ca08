//! A garbage state database (issue 28, "nothing is lost"): random bytes where
//! `state.sqlite3` should be are moved aside (`state.sqlite3.corrupt-<seconds>`, kept for a
//! person) with a `[W_STATE_CORRUPT]` warning on stderr, and the command goes on with a fresh
//! database, instead of every command answering `E_IO`.

use crate::support;

use std::fs;

use support::sandbox::Sandbox;

const GARBAGE: &[u8] = b"\x8f\x03 not a database: random bytes where the state should be \xff\xfe";

#[test]
fn a_garbage_database_is_moved_aside_and_the_session_goes_on() {
    let sb = Sandbox::new();
    sb.put("a.txt", b"one\ntwo\n");
    assert_eq!(sb.run(&["read", "a.txt"], b"").code, 0);
    let db = sb.state.join("state.sqlite3");
    for side in ["state.sqlite3-wal", "state.sqlite3-shm"] {
        let _ = fs::remove_file(sb.state.join(side));
    }
    fs::write(&db, GARBAGE).expect("garbage");

    let read = sb.run(&["read", "a.txt"], b"");
    assert_eq!(read.code, 0, "{read:?}");
    assert!(read.stderr.contains("[W_STATE_CORRUPT]"), "{read:?}");
    assert!(read.stdout.starts_with("¶a.txt#"), "{read:?}");
    let aside: Vec<_> = fs::read_dir(&sb.state)
        .expect("state dir")
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("state.sqlite3.corrupt-")
        })
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(fs::read(aside[0].path()).expect("aside"), GARBAGE);

    // The fresh database holds the read: an edit with its tag lands, and warns no more.
    let tag = read.stdout.lines().next().expect("header")["¶a.txt#".len()..].to_owned();
    let patch = format!("¶a.txt#{tag}\nreplace 2..2:\n+TWO\n");
    let edit = sb.run(&["edit", "--dialect", "hashline"], patch.as_bytes());
    assert_eq!(edit.code, 0, "{edit:?}");
    assert!(!edit.stderr.contains("W_STATE_CORRUPT"), "{edit:?}");
    assert_eq!(fs::read(sb.root.join("a.txt")).expect("a"), b"one\nTWO\n");
}
