//! A state database that refuses writes (read-only, full, broken) never changes what a call
//! does, in any command or dialect (issue 11): `read` shows the file, `edit` and `write` write
//! it, and each succeeds (exit 0) with the coded warning `[W_STATE_NOT_RECORDED]`, in the plain
//! text and in `--json`'s `warnings`. Before, `read --anchors tag` exited 2 while `edit` wrote
//! and warned.
//!
//! The database is made to refuse writes with triggers, so the test holds when it runs as root
//! (who may write a file whatever its mode bits say).

use crate::support;

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
    // With --json a lineid-json reply carries fresh anchors, so its result is to be recorded
    // and the failure says so; the seed's plain reply shows none: nothing is lost there.
    assert!(warned(&out.json()), "{out:?}");
    let lineid = r#"{"filePath":"f.txt","edits":[{"op":"append","lines":["gamma 2"]}]}"#;
    let out = sb.run(&["edit", "-"], lineid.as_bytes());
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "Updated f.txt\n"),
        "{out:?}"
    );
    let hash = r#"{"path":"f.txt","edits":[{"op":"append","lines":["delta"]}]}"#;
    let out = sb.run(&["--json", "edit", "-"], hash.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    assert!(warned(&out.json()), "{out:?}");
    assert_eq!(
        fs::read_to_string(sb.root.join("f.txt")).expect("read"),
        "ALPHA\nbeta\ngamma\ngamma 2\ndelta\n"
    );

    // Each mode creates its own file: a session that records nothing has read nothing, so
    // replacing a file needs --overwrite (E_NOT_READ).
    for mode in ["tag", "lineid", "hash"] {
        let name = format!("w-{mode}.txt");
        let out = sb.run(&["--json", "write", &name, "--anchors", mode], b"one\n");
        assert_eq!(out.code, 0, "{mode}: {out:?}");
        assert!(warned(&out.json()), "{mode}: {out:?}");
        assert_eq!(
            fs::read_to_string(sb.root.join(&name)).expect("read"),
            "one\n"
        );
    }
    let again = sb.run(&["--json", "write", "w-tag.txt"], b"two\n").json();
    assert_eq!(again["code"], "E_NOT_READ", "{again}");
    let forced = sb.run(&["write", "w-tag.txt", "--overwrite"], b"two\n");
    assert_eq!(forced.code, 0, "{forced:?}");
}

/// A state directory that cannot be created (its path is a regular file, or lies under one:
/// what a read-only state looks like to root, who ignores permission bits) is no state that
/// merely refuses writes: the journal lives there, so every command stops before it reads or
/// writes anything, `E_IO` (exit 2), and says so and what to do.
#[test]
fn a_state_that_cannot_be_created_stops_before_anything_is_written() {
    let sb = Sandbox::new();
    sb.put("f.txt", b"alpha\n");
    let file = sb.root.with_file_name("state-file");
    fs::write(&file, b"not a directory\n").expect("state file");
    let patch = "*** Begin Patch\n*** Update File: f.txt\n@@\n-alpha\n+ALPHA\n*** End Patch\n";
    for state in [file.clone(), file.join("below")] {
        for (args, stdin) in [
            (&["--json", "read", "f.txt"][..], &b""[..]),
            (
                &["--json", "edit", "--dialect", "apply-patch"][..],
                patch.as_bytes(),
            ),
            (&["--json", "write", "g.txt"][..], &b"new\n"[..]),
        ] {
            let out = support::cli::hashline(&sb.root, &state, args, stdin);
            assert_eq!(out.code, 2, "{out:?}");
            let json = out.json();
            assert_eq!(json["code"], "E_IO", "{json}");
            let text = json["text"].as_str().unwrap_or("");
            assert!(text.contains("Nothing was read or written"), "{text}");
            assert!(text.contains("--state DIR"), "{text}");
        }
    }
    assert_eq!(fs::read(sb.root.join("f.txt")).expect("f"), b"alpha\n");
    assert!(!sb.root.join("g.txt").exists());
    assert_eq!(fs::read(&file).expect("file"), b"not a directory\n");
}
