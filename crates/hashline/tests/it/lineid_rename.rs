//! `rename` in the LINE#ID dialect, through the binary: a rename onto an existing file is refused
//! (`E_FILE_EXISTS`, both files byte-identical, dry run or not) unless the request says
//! `"overwrite": true`; a rename of a missing file is refused without writing anything.

use crate::support;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use support::cli::hashline;
use support::tree::{self, Entry};

const A: &[u8] = b"fn a() {\n    1\n}\n";
const B: &[u8] = b"keep me\r\nexactly\r\n";

/// A root holding `a.txt` (read with lineid anchors, so the session knows it) and `b.txt`.
fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (root, state) = (tmp.path().join("root"), tmp.path().join("state"));
    fs::create_dir_all(&root).expect("root");
    fs::write(root.join("a.txt"), A).expect("a.txt");
    fs::write(root.join("b.txt"), B).expect("b.txt");
    let read = hashline(
        &root,
        &state,
        &["read", "a.txt", "--anchors", "lineid"],
        b"",
    );
    assert_eq!(read.code, 0, "{}", read.stdout);
    assert_eq!(read.stdout, "1#TQ|fn a() {\n2#JM|    1\n3#RZ|}\n4#RW|\n");
    (tmp, root, state)
}

fn file(bytes: &[u8]) -> Entry {
    Entry::File {
        bytes: bytes.to_vec(),
        exec: false,
    }
}

fn tree_of(files: &[(&str, &[u8])]) -> BTreeMap<String, Entry> {
    files
        .iter()
        .map(|(p, b)| (p.to_string(), file(b)))
        .collect()
}

fn edit(root: &Path, state: &Path, request: &Value, dry_run: bool) -> (i32, Value) {
    let mut args = vec!["--json", "edit", "--dialect", "lineid-json"];
    if dry_run {
        args.push("--dry-run");
    }
    args.push("-");
    let run = hashline(root, state, &args, request.to_string().as_bytes());
    (run.code, run.json())
}

fn assert_tree(root: &Path, want: &[(&str, &[u8])]) {
    let diff = tree::diff_trees(&tree_of(want), &tree::snapshot(root));
    assert!(diff.is_empty(), "tree differs:\n{diff}");
}

#[test]
fn rename_onto_an_existing_file_is_refused_and_touches_neither() {
    let (_tmp, root, state) = setup();
    let with_change = json!({
        "filePath": "a.txt",
        "rename": "b.txt",
        "edits": [{"op": "replace", "pos": "2#JM", "lines": ["    2"]}]
    });
    // The same move without a change of content (the peer allows a pure rename).
    let pure_move = json!({
        "filePath": "a.txt",
        "rename": "b.txt",
        "edits": [{"op": "replace", "pos": "2#JM", "lines": ["    1"]}]
    });
    for request in [&with_change, &pure_move] {
        for dry_run in [true, false] {
            let (code, out) = edit(&root, &state, request, dry_run);
            assert_eq!(code, 1, "{out}");
            assert_eq!(out["ok"], false);
            assert_eq!(out["code"], "E_FILE_EXISTS");
            assert_eq!(
                out["text"],
                "Error: Cannot move a.txt to b.txt: b.txt already exists. Add \"overwrite\": true to the request to replace it."
            );
            assert_tree(&root, &[("a.txt", A), ("b.txt", B)]);
        }
    }
    // Refused calls leave the session as it was: the same anchors still apply in place.
    let in_place = json!({
        "filePath": "a.txt",
        "edits": [{"op": "replace", "pos": "2#JM", "lines": ["    2"]}]
    });
    let (code, out) = edit(&root, &state, &in_place, false);
    assert_eq!((code, &out["text"]), (0, &json!("Updated a.txt")), "{out}");
    assert_tree(&root, &[("a.txt", b"fn a() {\n    2\n}\n"), ("b.txt", B)]);
}

#[test]
fn rename_onto_an_existing_file_with_overwrite_replaces_it() {
    let (_tmp, root, state) = setup();
    let request = json!({
        "filePath": "a.txt",
        "rename": "b.txt",
        "overwrite": true,
        "edits": [{"op": "replace", "pos": "2#JM", "lines": ["    2"]}]
    });
    let (code, out) = edit(&root, &state, &request, true);
    assert_eq!((code, &out["ok"]), (0, &json!(true)), "{out}");
    assert_tree(&root, &[("a.txt", A), ("b.txt", B)]);
    let (code, out) = edit(&root, &state, &request, false);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out["text"], "Moved a.txt to b.txt");
    assert_eq!(out["files"][0]["op"], "rename");
    assert_tree(&root, &[("b.txt", b"fn a() {\n    2\n}\n")]);
}

#[test]
fn rename_to_the_same_file_is_a_plain_edit() {
    let (_tmp, root, state) = setup();
    let request = json!({
        "filePath": "a.txt",
        "rename": "./a.txt",
        "edits": [{"op": "replace", "pos": "2#JM", "lines": ["    2"]}]
    });
    let (code, out) = edit(&root, &state, &request, false);
    assert_eq!((code, &out["text"]), (0, &json!("Updated a.txt")), "{out}");
    assert_tree(&root, &[("a.txt", b"fn a() {\n    2\n}\n"), ("b.txt", B)]);
}

#[test]
fn rename_of_a_missing_file_is_refused_and_writes_nothing() {
    let (_tmp, root, state) = setup();
    for dest in ["new.txt", "b.txt"] {
        let request = json!({
            "filePath": "missing.txt",
            "rename": dest,
            "edits": [{"op": "append", "lines": ["x"]}]
        });
        let (code, out) = edit(&root, &state, &request, false);
        assert_eq!(code, 1, "{out}");
        assert_eq!(out["code"], "E_FILE_NOT_FOUND");
        assert_eq!(
            out["text"],
            format!("Error: File not found: missing.txt. rename moves an existing file; to create {dest}, send it as filePath without rename.")
        );
        assert_tree(&root, &[("a.txt", A), ("b.txt", B)]);
    }
}
