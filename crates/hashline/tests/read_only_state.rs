//! A state database that refuses writes (read-only, full, broken) never changes what a call
//! does, in any command or dialect (issue 11): `read` shows the file, `edit` and `write` write
//! it, and each succeeds (exit 0) with the coded warning `[W_STATE_NOT_RECORDED]`, in the plain
//! text and in `--json`'s `warnings`. Before, `read --anchors tag` exited 2 while `edit` wrote
//! and warned.
//!
//! The database is made to refuse writes with triggers, so the test holds when it runs as root
//! (who may write a file whatever its mode bits say).

mod support;

use std::fs;

use serde_json::Value;
use support::sandbox::Sandbox;

const CODE: &str = "[W_STATE_NOT_RECORDED]";

/// Every insert and update of the snapshot tables fails as a read-only database does.
fn refuse_writes(sb: &Sandbox) {
    let db = sb.state.join("state.sqlite3");
    let conn = rusqlite::Connection::open(&db).expect("open the state database");
    for table in ["state_snapshot", "state_path"] {
        for event in ["INSERT", "UPDATE"] {
            conn.execute_batch(&format!(
                "CREATE TRIGGER ro_{table}_{event} BEFORE {event} ON {table} \
                 BEGIN SELECT RAISE(ABORT, 'attempt to write a readonly database'); END;"
            ))
            .expect("trigger");
        }
    }
}

fn warned(out: &Value) -> bool {
    out["warnings"]
        .as_array()
        .is_some_and(|w| w.iter().any(|w| w.as_str().unwrap_or("").starts_with(CODE)))
}

#[test]
fn every_command_works_and_warns_when_the_state_cannot_be_written() {
    let sb = Sandbox::new();
    sb.put("f.txt", b"alpha\nbeta\n");
    let first = sb.run(&["read", "f.txt"], b"");
    assert_eq!(first.code, 0, "{first:?}");
    let header = first.stdout.lines().next().expect("header").to_owned();
    // Another file read last: reading f.txt again must record it as the most recent path
    // (a read of the newest text of the most recent path records nothing, so would not warn).
    sb.put("g.txt", b"other\n");
    assert_eq!(sb.run(&["read", "g.txt"], b"").code, 0);
    refuse_writes(&sb);

    for mode in ["tag", "lineid", "hash"] {
        let plain = sb.run(&["read", "f.txt", "--anchors", mode], b"");
        assert_eq!(plain.code, 0, "{mode}: {plain:?}");
        assert!(plain.stdout.contains("alpha"), "{mode}: {plain:?}");
        assert!(plain.stdout.contains(CODE), "{mode}: {plain:?}");
        let json = sb
            .run(&["--json", "read", "f.txt", "--anchors", mode], b"")
            .json();
        assert_eq!(json["ok"], true, "{json}");
        assert!(warned(&json), "{mode}: {json}");
    }

    // Edits in every dialect land, and warn alike.
    let hashline = format!("{header}\nreplace 1..1:\n+ALPHA\n");
    let out = sb.run(&["--json", "edit", "-"], hashline.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    assert!(warned(&out.json()), "{out:?}");
    let lineid = r#"{"filePath":"f.txt","edits":[{"op":"append","lines":["gamma"]}]}"#;
    let out = sb.run(&["--json", "edit", "-"], lineid.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    // A lineid-json reply shows no anchors, so its result is not recorded: nothing was lost.
    assert!(!warned(&out.json()), "{out:?}");
    let hash = r#"{"path":"f.txt","edits":[{"op":"append","lines":["delta"]}]}"#;
    let out = sb.run(&["--json", "edit", "-"], hash.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    assert!(warned(&out.json()), "{out:?}");
    assert_eq!(
        fs::read_to_string(sb.root.join("f.txt")).expect("read"),
        "ALPHA\nbeta\ngamma\ndelta\n"
    );

    for mode in ["tag", "lineid", "hash"] {
        let out = sb.run(&["--json", "write", "w.txt", "--anchors", mode], b"one\n");
        assert_eq!(out.code, 0, "{mode}: {out:?}");
        assert!(warned(&out.json()), "{mode}: {out:?}");
    }
    assert_eq!(
        fs::read_to_string(sb.root.join("w.txt")).expect("read"),
        "one\n"
    );
}
