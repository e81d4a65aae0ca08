//! The state directory is untrusted input (issue 28): a journal plan or an undo record the
//! engine did not write — no seal, or a sealed one naming a temp, backup or target the engine
//! never uses — is refused with `E_STATE_TAMPERED` and left in place, and nothing it names is
//! touched: the file outside the root stays, the root stays as it was. No request path reaches
//! into the state directory, and a symlink planted among its lock files is never written
//! through.
#![cfg(unix)]

use crate::support;

use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use support::cli::{hashline, hashline_env};
use support::forge::{
    bytes, entry, forge_journal, forge_journal_raw, marker, plan, root, sealed, JOURNAL_ID,
};
use support::sandbox::Sandbox;

const A: &[u8] = b"one\ntwo\n";
const SECRET: &[u8] = b"a file outside the root\n";

/// A sandbox with `a.txt` in the root, `outside/secret` beside the root, and one committed call
/// (so the key that seals records exists and undo record 1 is taken).
fn setup() -> (Sandbox, PathBuf) {
    let sb = Sandbox::new();
    sb.put("a.txt", A);
    let outside = sb.root.parent().expect("parent").join("outside");
    fs::create_dir_all(&outside).expect("outside");
    fs::write(outside.join("secret"), SECRET).expect("secret");
    let patch = "*** Begin Patch\n*** Add File: seed.txt\n+seed\n*** End Patch\n";
    let out = sb.run(&["edit", "--dialect", "apply-patch"], patch.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    (sb, outside)
}

/// `recover` refuses the journal with E_STATE_TAMPERED, leaves it, and changes nothing; any
/// other call still works.
fn assert_refused_and_left(sb: &Sandbox, journal: &Path, outside: &Path, why: &str) {
    let out = sb.run(&["--json", "recover"], b"");
    let json = out.json();
    assert_eq!(json["code"], "E_STATE_TAMPERED", "{why}: {json}");
    let text = json["text"].as_str().expect("text");
    assert!(text.contains("left in place"), "{why}: {text}");
    assert!(journal.join("plan.json").exists(), "{why}: journal removed");
    assert_eq!(fs::read(outside.join("secret")).expect("secret"), SECRET);
    assert_eq!(fs::read(sb.root.join("a.txt")).expect("a.txt"), A, "{why}");
    let read = sb.run(&["read", "a.txt"], b"");
    assert_eq!(read.code, 0, "{why}: {read:?}");
    assert!(read.stderr.contains("E_STATE_TAMPERED"), "{why}: {read:?}");
}

#[test]
fn a_forged_journal_temp_never_pulls_a_file_in_from_outside() {
    for seal in [false, true] {
        let (sb, outside) = setup();
        // Roll forward would rename the "temp" `../outside/secret` over a.txt.
        let temp = b"../outside/secret";
        let body = plan(
            &sb,
            &entry(&root(&sb).join("a.txt"), Some(temp), A, SECRET, "old-0"),
        );
        let text = if seal {
            sealed(&sb, "journal", &body)
        } else {
            body
        };
        let journal = forge_journal(&sb, &text, "COMMITTED");
        assert_refused_and_left(&sb, &journal, &outside, &format!("sealed: {seal}"));
    }
}

#[test]
fn an_absolute_rollback_backup_never_copies_a_file_in() {
    for seal in [false, true] {
        let (sb, outside) = setup();
        // Roll back would copy the "backup" (any file the process can read) over a.txt.
        let backup = outside.join("secret").display().to_string();
        let temp = b".hashline-4242-abc-0-0.tmp";
        let body = plan(
            &sb,
            &entry(&root(&sb).join("a.txt"), Some(temp), SECRET, A, &backup),
        );
        let text = if seal {
            sealed(&sb, "journal", &body)
        } else {
            body
        };
        let journal = forge_journal(&sb, &text, "ROLLBACK");
        assert_refused_and_left(&sb, &journal, &outside, &format!("sealed: {seal}"));
    }
}

#[test]
fn a_journal_with_an_edited_seal_is_refused() {
    let (sb, outside) = setup();
    // Every name is the engine's own, but the seal is not the key's.
    let temp = b".hashline-4242-abc-0-0.tmp";
    fs::write(sb.root.join(".hashline-4242-abc-0-0.tmp"), SECRET).expect("temp");
    let body = plan(
        &sb,
        &entry(&root(&sb).join("a.txt"), Some(temp), A, SECRET, "old-0"),
    );
    let mut text = sealed(&sb, "journal", &body).into_bytes();
    // `{"seal":"` then the first hex digit.
    text[9] = if text[9] == b'0' { b'1' } else { b'0' };
    let text = String::from_utf8(text).expect("utf-8");
    let journal = forge_journal(&sb, &text, "COMMITTED");
    assert_refused_and_left(&sb, &journal, &outside, "edited seal");
}

#[test]
fn a_forged_undo_record_is_refused_and_left() {
    for seal in [false, true] {
        let (sb, outside) = setup();
        // Undo would restore a.txt from the "backup", a file outside the root.
        let backup = outside.join("secret").display().to_string();
        let body = format!(
            r#"{{"version":2,"session":"default","root":{},"created":0,"entries":[{}]}}"#,
            bytes(root(&sb).as_os_str().as_bytes()),
            entry(&root(&sb).join("a.txt"), None, SECRET, A, &backup)
        );
        let text = if seal {
            sealed(&sb, "undo", &body)
        } else {
            body
        };
        let record = sb.state.join("undo/2");
        fs::create_dir_all(&record).expect("record dir");
        fs::write(record.join("record.json"), text).expect("record");
        let out = sb.run(&["--json", "undo", "2"], b"").json();
        assert_eq!(out["code"], "E_STATE_TAMPERED", "sealed: {seal}: {out}");
        assert_eq!(fs::read(sb.root.join("a.txt")).expect("a.txt"), A);
        assert_eq!(fs::read(outside.join("secret")).expect("secret"), SECRET);
        assert!(record.join("record.json").exists());
        // The list says it cannot be undone; `undo` without an id refuses too (its session is
        // not known), never reverting an older call instead.
        let list = sb.run(&["undo", "--list"], b"");
        assert!(
            list.stdout
                .contains("2\t-\t-\tcannot be undone: [E_STATE_TAMPERED]"),
            "{list:?}"
        );
        let newest = sb.run(&["--json", "undo"], b"").json();
        assert_eq!(newest["code"], "E_STATE_TAMPERED", "{newest}");
        assert!(sb.root.join("seed.txt").exists());
    }
}

#[test]
fn no_request_path_reaches_into_a_state_directory_inside_the_root() {
    let sb = Sandbox::new();
    sb.put("a.txt", A);
    let state = sb.root.join(".hashline");
    let run = |args: &[&str], stdin: &[u8]| hashline(&sb.root, &state, args, stdin);
    let add =
        "*** Begin Patch\n*** Add File: .hashline/journal/1-2-3/plan.json\n+{}\n*** End Patch\n";
    let out = run(
        &["--json", "edit", "--dialect", "apply-patch"],
        add.as_bytes(),
    )
    .json();
    assert_eq!(out["code"], "E_STATE_PATH", "{out}");
    assert!(out["text"]
        .as_str()
        .expect("text")
        .contains("state directory"));
    assert!(!state.join("journal/1-2-3").exists());
    // One that edits a file of the tree commits, and its key is not readable through `read`.
    let edit = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+uno\n*** End Patch\n";
    let out = run(&["edit", "--dialect", "apply-patch"], edit.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    let read = run(&["--json", "read", ".hashline/journal/seal.key"], b"").json();
    assert_eq!(read["code"], "E_STATE_PATH", "{read}");
}

#[test]
fn a_symlink_planted_among_the_lock_files_is_never_written_through() {
    let (sb, outside) = setup();
    // The lock files live in the system temp dir's `hashline-locks`: this test's own.
    let tmp = sb.root.with_file_name("tmp");
    let locks = tmp.join("hashline-locks");
    fs::create_dir_all(&locks).expect("locks");
    for slot in 0..256 {
        let link = locks.join(format!("hashline-slot-{slot:02x}.lock"));
        std::os::unix::fs::symlink(outside.join("secret"), link).expect("symlink");
    }
    let edit = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+uno\n*** End Patch\n";
    let tmpdir = tmp.display().to_string();
    let out = hashline_env(
        &sb.root,
        &sb.state,
        &["--json", "edit", "--dialect", "apply-patch"],
        edit.as_bytes(),
        &[("TMPDIR", &tmpdir)],
    );
    assert_eq!(out.json()["code"], "E_IO", "{out:?}");
    assert_eq!(fs::read(outside.join("secret")).expect("secret"), SECRET);
    assert_eq!(fs::read(sb.root.join("a.txt")).expect("a.txt"), A);
}

#[test]
fn a_forged_commit_marker_never_rolls_a_journal_forward() {
    // A journal killed while staging: its plan is the engine's own (sealed, every name one it
    // uses), its temp holds only part of the new bytes, and it never reached COMMITTED. A
    // marker put there by hand must not make recovery rename the torn temp over a.txt.
    const NEW: &[u8] = b"uno\ndos\n";
    let forged: [(&str, Vec<u8>); 4] = [
        ("empty", Vec::new()),
        (
            "unsealed",
            br#"{"journal":"4242-abc-0","marker":"COMMITTED"}"#.to_vec(),
        ),
        ("another journal's", Vec::new()),
        ("another plan's", Vec::new()),
    ];
    for (why, bytes) in forged {
        let (sb, outside) = setup();
        let temp = ".hashline-4242-abc-0-0.tmp";
        fs::write(sb.root.join(temp), b"uno\n").expect("temp");
        let body = plan(
            &sb,
            &entry(
                &root(&sb).join("a.txt"),
                Some(temp.as_bytes()),
                A,
                NEW,
                "old-0",
            ),
        );
        let text = sealed(&sb, "journal", &body);
        let bytes = match why {
            "another journal's" => marker(&sb, "4242-abc-1", "COMMITTED", &text),
            "another plan's" => marker(&sb, JOURNAL_ID, "COMMITTED", &body),
            _ => bytes,
        };
        let journal = forge_journal_raw(&sb, &text, "COMMITTED", &bytes);
        assert_refused_and_left(&sb, &journal, &outside, why);
        assert!(journal.join("COMMITTED").exists(), "{why}");
        assert!(sb.root.join(temp).exists(), "{why}: the temp is left too");
    }
    // The same journal with the marker the engine writes is rolled forward.
    let (sb, _) = setup();
    let temp = ".hashline-4242-abc-0-0.tmp";
    fs::write(sb.root.join(temp), NEW).expect("temp");
    let body = plan(
        &sb,
        &entry(
            &root(&sb).join("a.txt"),
            Some(temp.as_bytes()),
            A,
            NEW,
            "old-0",
        ),
    );
    let journal = forge_journal(&sb, &sealed(&sb, "journal", &body), "COMMITTED");
    let out = sb.run(&["--json", "recover"], b"").json();
    assert_eq!(out["ok"], true, "{out}");
    assert!(
        out["text"]
            .as_str()
            .unwrap_or("")
            .contains("1 rolled forward"),
        "{out}"
    );
    assert_eq!(fs::read(sb.root.join("a.txt")).expect("a.txt"), NEW);
    assert!(!journal.exists());
}

#[test]
fn a_forged_rollback_marker_never_rolls_a_journal_back() {
    // A committed journal whose renames were made (a.txt holds the new bytes); an unsealed
    // ROLLBACK beside its sealed COMMITTED must not restore the old bytes.
    const NEW: &[u8] = b"uno\ndos\n";
    let (sb, outside) = setup();
    fs::write(sb.root.join("a.txt"), NEW).expect("a.txt");
    let temp = b".hashline-4242-abc-0-0.tmp";
    let body = plan(
        &sb,
        &entry(&root(&sb).join("a.txt"), Some(temp), A, NEW, "old-0"),
    );
    let text = sealed(&sb, "journal", &body);
    let journal = forge_journal(&sb, &text, "COMMITTED");
    fs::write(journal.join("old-0"), A).expect("backup");
    fs::write(journal.join("ROLLBACK"), b"").expect("forged marker");
    let out = sb.run(&["--json", "recover"], b"").json();
    assert_eq!(out["code"], "E_STATE_TAMPERED", "{out}");
    assert!(
        out["text"].as_str().unwrap_or("").contains("ROLLBACK"),
        "{out}"
    );
    assert_eq!(fs::read(sb.root.join("a.txt")).expect("a.txt"), NEW);
    assert!(journal.join("plan.json").exists());
    assert_eq!(fs::read(outside.join("secret")).expect("secret"), SECRET);
}
