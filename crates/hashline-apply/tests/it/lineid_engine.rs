//! The LINE#ID engine beyond the peer's corpus: anchors from an older recorded read
//! (DEVIATIONS §1), rename onto an existing file, dry runs, read, delete, root confinement.

use std::fs;

use hashline_apply::fs::Workspace;
use hashline_apply::lineid_json::{edit, read, EditOptions};
use hashline_core::ErrorCode;
use hashline_state::{MemoryStore, SnapshotStore};

struct Scratch {
    dir: tempfile::TempDir,
    ws: Workspace,
    store: MemoryStore,
}

fn scratch(files: &[(&str, &str)]) -> Scratch {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        fs::write(dir.path().join(name), text).expect("write");
    }
    let ws = Workspace::new(dir.path()).expect("workspace");
    Scratch {
        dir,
        ws,
        store: MemoryStore::new(),
    }
}

impl Scratch {
    fn edit(&self, request: &str) -> hashline_apply::Outcome {
        edit(&self.ws, &self.store, request, &EditOptions::default())
    }
    fn file(&self, name: &str) -> Option<String> {
        fs::read_to_string(self.dir.path().join(name)).ok()
    }
    fn set(&self, name: &str, text: &str) {
        fs::write(self.dir.path().join(name), text).expect("write");
    }
}

const REPLACE_B: &str =
    r#"{"filePath":"f.txt","edits":[{"op":"replace","pos":"2#XH","lines":["B"]}]}"#;

#[test]
fn read_renders_rows_and_records_the_text() {
    let s = scratch(&[("f.txt", "a\nb\nc\n")]);
    let out = read(&s.ws, &s.store, "f.txt", None, None);
    assert!(out.ok, "{}", out.text);
    assert_eq!(out.text, "1#RW|a\n2#XH|b\n3#PX|c\n4#RW|\n");
    let key = s.ws.resolve("f.txt").expect("resolve").key;
    assert_eq!(
        s.store.head(&key).expect("store").map(|v| v.text),
        Some("a\nb\nc\n".to_string())
    );
    let out = read(&s.ws, &s.store, "f.txt", Some(2), Some(1));
    // A window that leaves lines after it names where to continue (the read budget's hint).
    assert_eq!(
        out.text,
        "2#XH|b\n\n[1 more lines in file. Use :3 to continue]\n"
    );
    let missing = read(&s.ws, &s.store, "nope.txt", None, None);
    assert_eq!(
        (missing.ok, missing.code, missing.text.as_str()),
        (
            false,
            Some(ErrorCode::FileNotFound),
            "Error: File not found: nope.txt"
        )
    );
}

#[test]
fn stale_anchor_without_a_recorded_read_is_the_peer_mismatch() {
    let s = scratch(&[("f.txt", "x\na\nb\nc\n")]);
    let out = s.edit(REPLACE_B);
    assert_eq!(out.code, Some(ErrorCode::StaleAnchor));
    assert!(
        out.text
            .starts_with("Error: hash mismatch - 1 line has changed"),
        "{}",
        out.text
    );
    assert_eq!(s.file("f.txt").as_deref(), Some("x\na\nb\nc\n"));
}

#[test]
fn anchors_of_a_recorded_read_are_carried_through_the_diff() {
    let s = scratch(&[("f.txt", "a\nb\nc\n")]);
    assert!(read(&s.ws, &s.store, "f.txt", None, None).ok);
    s.set("f.txt", "x\na\nb\nc\n"); // changed by someone else after the read
    let out = s.edit(REPLACE_B);
    assert!(out.ok, "{}", out.text);
    // The carried-over notice reaches the text, with its code.
    assert_eq!(
        out.text,
        format!("Updated f.txt\n\nWarnings:\n{}", out.warnings[0])
    );
    assert!(out.warnings[0].starts_with("[W_STALE_RECOVERED] f.txt changed"));
    assert_eq!(s.file("f.txt").as_deref(), Some("x\na\nB\nc\n"));
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
}

#[test]
fn recorded_read_whose_line_changed_is_refused() {
    let s = scratch(&[("f.txt", "a\nb\nc\n")]);
    assert!(read(&s.ws, &s.store, "f.txt", None, None).ok);
    s.set("f.txt", "x\na\nbee\nc\n");
    let out = s.edit(REPLACE_B);
    assert_eq!(out.code, Some(ErrorCode::StaleAnchor), "{}", out.text);
    assert!(
        out.text.contains(
            "line 2 of that read (\"b\") cannot be placed with certainty: it changed or is gone"
        ),
        "{}",
        out.text
    );
    assert!(
        out.text.contains("\n    2#RW|a\n    3#YK|bee\n"),
        "fresh anchors shown: {}",
        out.text
    );
    assert_eq!(s.file("f.txt").as_deref(), Some("x\na\nbee\nc\n"));
}

#[test]
fn an_anchor_never_lands_on_a_lookalike_line() {
    // `item` lines share one ID. The model read "k\nitem\nitem\n" and targets the first item
    // (line 2); `k` was deleted since, so disk line 2 is now the *second* item. The disk was
    // never read, and could be this session's own edit (its result is not recorded), so
    // `2#ID` may mean either copy: refused with both marked, never guessed.
    let s = scratch(&[("f.txt", "k\nitem\nitem\n")]);
    assert!(read(&s.ws, &s.store, "f.txt", None, None).ok);
    let id = hashline_anchor::lineid::line_id(2, "item");
    s.set("f.txt", "item\nitem\n");
    let req = format!(
        r#"{{"filePath":"f.txt","edits":[{{"op":"replace","pos":"2#{id}","lines":["first"]}}]}}"#
    );
    let out = s.edit(&req);
    assert_eq!(out.code, Some(ErrorCode::StaleAnchor), "{}", out.text);
    assert!(out.text.contains(">>> 1#"), "{}", out.text);
    assert!(out.text.contains(">>> 2#"), "{}", out.text);
    assert_eq!(s.file("f.txt").as_deref(), Some("item\nitem\n"));

    // Once the disk was read, that read is the newest and wins: `2#ID` is its second item.
    assert!(read(&s.ws, &s.store, "f.txt", None, None).ok);
    let out = s.edit(&req);
    assert!(out.ok, "{}", out.text);
    assert_eq!(s.file("f.txt").as_deref(), Some("item\nfirst\n"));

    // A duplicate removed since the read: which copy is meant cannot be proven.
    let s = scratch(&[("f.txt", "item\nitem\nend\n")]);
    assert!(read(&s.ws, &s.store, "f.txt", None, None).ok);
    s.set("f.txt", "item\nend\n");
    let out = s.edit(&req);
    assert_eq!(out.code, Some(ErrorCode::StaleAnchor), "{}", out.text);
    assert_eq!(s.file("f.txt").as_deref(), Some("item\nend\n"));
}

#[test]
fn rename_onto_an_existing_file_needs_overwrite() {
    let s = scratch(&[("f.txt", "a\nb\nc\n"), ("g.txt", "keep\n")]);
    let req = r#"{"filePath":"f.txt","rename":"g.txt","edits":[{"op":"replace","pos":"2#XH","lines":["B"]}]}"#;
    let out = s.edit(req);
    assert_eq!(out.code, Some(ErrorCode::FileExists), "{}", out.text);
    assert_eq!(s.file("g.txt").as_deref(), Some("keep\n"));
    assert_eq!(s.file("f.txt").as_deref(), Some("a\nb\nc\n"));
    let req = r#"{"filePath":"f.txt","rename":"g.txt","overwrite":true,"edits":[{"op":"replace","pos":"2#XH","lines":["B"]}]}"#;
    let out = s.edit(req);
    assert_eq!(out.text, "Moved f.txt to g.txt");
    assert_eq!(s.file("g.txt").as_deref(), Some("a\nB\nc\n"));
    assert_eq!(s.file("f.txt"), None);
}

#[test]
fn dry_run_writes_nothing() {
    let s = scratch(&[("f.txt", "a\nb\nc\n")]);
    let out = edit(
        &s.ws,
        &s.store,
        REPLACE_B,
        &EditOptions {
            dry_run: true,
            ..Default::default()
        },
    );
    assert!(out.ok, "{}", out.text);
    assert_eq!(
        out.files.first().map(|f| (f.written, f.first_changed_line)),
        Some((false, Some(2)))
    );
    assert_eq!(s.file("f.txt").as_deref(), Some("a\nb\nc\n"));
    let report = out.files.first().expect("one file report");
    let tag = hashline_anchor::tag::file_tag("a\nB\nc\n");
    assert_eq!(report.tag.as_deref(), Some(tag.as_str()));
    let diff = report.diff.as_str();
    assert!(diff.contains("-b\n+B\n"), "{diff}");
}

#[test]
fn neighbours_copied_into_a_replace_are_kept_but_reported() {
    // The peer's case 115: a pos-only replace never strips echoes; we warn about them, in the
    // text too (a duplicated line is never silent).
    let s = scratch(&[("f.txt", "line 1\nline 2\nline 3")]);
    let out = s.edit(
        r#"{"filePath":"f.txt","edits":[{"op":"replace","pos":"2#TW","lines":["line 1","new 2","line 3"]}]}"#,
    );
    assert!(
        out.text
            .starts_with("Updated f.txt\n\nWarnings:\n[W_REPEATED_LINE] row 1"),
        "{}",
        out.text
    );
    assert_eq!(
        s.file("f.txt").as_deref(),
        Some("line 1\nline 1\nnew 2\nline 3\nline 3")
    );
    assert_eq!(
        out.warnings,
        [
            "[W_REPEATED_LINE] row 1 of edits[0] repeats line 1 (\"line 1\") just before it; if that was not meant, remove the duplicate",
            "[W_REPEATED_LINE] row 3 of edits[0] repeats line 3 (\"line 3\") just after it; if that was not meant, remove the duplicate",
        ]
    );
}

#[test]
fn a_successful_edit_records_nothing() {
    // The reply shows no anchors, so the result is no version the model has seen: recording it
    // would let a later anchor of an older read be taken as fresh (see merge/attacks.rs).
    let s = scratch(&[("f.txt", "a\nb\nc\n")]);
    assert!(read(&s.ws, &s.store, "f.txt", None, None).ok);
    assert!(s.edit(REPLACE_B).ok);
    let key = s.ws.resolve("f.txt").expect("resolve").key;
    assert_eq!(
        s.store.head(&key).expect("store").map(|v| v.text),
        Some("a\nb\nc\n".to_string())
    );
}

#[test]
fn delete_and_confinement() {
    let s = scratch(&[("f.txt", "a\n")]);
    let out = s.edit(r#"{"filePath":"../outside.txt","edits":[{"op":"append","lines":["x"]}]}"#);
    assert_eq!(out.code, Some(ErrorCode::OutsideRoot), "{}", out.text);
    let out = s.edit(r#"{"filePath":"f.txt","delete":true,"edits":[]}"#);
    assert_eq!(out.text, "Successfully deleted f.txt");
    assert_eq!(s.file("f.txt"), None);
}
