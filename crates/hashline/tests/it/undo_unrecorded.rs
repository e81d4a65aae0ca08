//! No silent failure (issue 28): a call whose undo record cannot be written still lands, but
//! says so (`[W_UNDO_NOT_RECORDED]`), and `hashline undo` then refuses
//! (`E_UNDO_NOT_RECORDED`) instead of reverting the session's older recorded call in its
//! place. The undo log is broken the way a root-run test can break it: its `seq` file is
//! replaced by a directory, so no id can be given out. (Permission bits do not stop root, so
//! a read-only state directory is not tried here.)
#![cfg(unix)]

use crate::support;

use std::fs;

use support::sandbox::Sandbox;

fn patch(body: &str) -> String {
    format!("*** Begin Patch\n{body}*** End Patch\n")
}

/// `a.txt` created by one recorded call, then the log's `seq` made a directory.
fn broken_log() -> Sandbox {
    let sb = Sandbox::new();
    let out = sb.run(
        &["edit", "--dialect", "apply-patch"],
        patch("*** Add File: a.txt\n+one\n").as_bytes(),
    );
    assert_eq!(out.code, 0, "{out:?}");
    let seq = sb.state.join("undo").join("seq");
    fs::remove_file(&seq).expect("remove seq");
    fs::create_dir_all(seq.join("blocker")).expect("seq as a directory");
    sb
}

fn update(sb: &Sandbox, from: &str, to: &str) -> support::cli::Run {
    let body = format!("*** Update File: a.txt\n@@\n-{from}\n+{to}\n");
    sb.run(
        &["--json", "edit", "--dialect", "apply-patch"],
        patch(&body).as_bytes(),
    )
}

#[test]
fn an_unrecorded_call_lands_with_a_warning_and_undo_refuses() {
    let sb = broken_log();
    let out = update(&sb, "one", "two");
    let json = out.json();
    assert_eq!(json["ok"], true, "{json}");
    assert_eq!(fs::read(sb.root.join("a.txt")).expect("a"), b"two\n");
    let warnings = json["warnings"].to_string();
    assert!(warnings.contains("[W_UNDO_NOT_RECORDED]"), "{json}");
    assert!(json["undo"].is_null(), "{json}");

    // Undo without an id would have removed a.txt (the older call, which created it).
    let undo = sb.run(&["--json", "undo"], b"");
    assert_eq!(undo.json()["code"], "E_UNDO_NOT_RECORDED", "{undo:?}");
    assert_eq!(fs::read(sb.root.join("a.txt")).expect("a"), b"two\n");
    let list = sb.run(&["undo", "--list"], b"");
    assert!(
        list.stdout
            .contains("cannot be undone: [E_UNDO_NOT_RECORDED]"),
        "{list:?}"
    );
}

#[test]
fn a_later_recorded_call_is_undoable_again() {
    let sb = broken_log();
    assert_eq!(update(&sb, "one", "two").json()["ok"], true);
    // The log mended: the next call is recorded and undoable; below it, the refusal stays.
    let seq = sb.state.join("undo").join("seq");
    fs::remove_dir_all(&seq).expect("remove seq dir");
    let out = update(&sb, "two", "three");
    let json = out.json();
    assert!(!json["warnings"].to_string().contains("W_UNDO"), "{json}");
    let undo = sb.run(&["undo"], b"");
    assert_eq!(undo.code, 0, "{undo:?}");
    assert_eq!(fs::read(sb.root.join("a.txt")).expect("a"), b"two\n");
    let again = sb.run(&["--json", "undo"], b"");
    assert_eq!(again.json()["code"], "E_UNDO_NOT_RECORDED", "{again:?}");
    assert_eq!(fs::read(sb.root.join("a.txt")).expect("a"), b"two\n");
}

#[test]
fn a_call_too_large_for_the_log_warns_and_is_not_skipped() {
    let sb = Sandbox::new();
    let out = sb.run(
        &["edit", "--dialect", "apply-patch"],
        patch("*** Add File: a.txt\n+one\n").as_bytes(),
    );
    assert_eq!(out.code, 0, "{out:?}");
    // Old contents of 4 bytes over a bound of 1: landed, not recorded.
    let body = "*** Update File: a.txt\n@@\n-one\n+two\n";
    let out = support::cli::hashline_env(
        &sb.root,
        &sb.state,
        &["--json", "edit", "--dialect", "apply-patch"],
        patch(body).as_bytes(),
        &[("HASHLINE_UNDO_MAX_BYTES", "1")],
    );
    let json = out.json();
    assert!(
        json["warnings"]
            .to_string()
            .contains("[W_UNDO_NOT_RECORDED]"),
        "{json}"
    );
    let undo = sb.run(&["--json", "undo"], b"");
    assert_eq!(undo.json()["code"], "E_UNDO_NOT_RECORDED", "{undo:?}");
    assert_eq!(fs::read(sb.root.join("a.txt")).expect("a"), b"two\n");
}
