//! Our own fixtures for the hash-json `edit`: every DEVIATIONS rule it follows, file-system
//! behaviour (symlinks, hard links, locking), response modes, and no panic on any request.

use std::path::Path;

use hashline_anchor::hash_json::line_hashes;
use hashline_apply::fs::Workspace;
use hashline_apply::hash_json::{edit, EditOptions};
use hashline_apply::Outcome;
use hashline_core::{ErrorCode, TextFile};
use hashline_state::{MemoryStore, SnapshotStore};

fn workspace(files: &[(&str, &[u8])]) -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).expect("write fixture");
    }
    let ws = Workspace::new(dir.path()).expect("workspace");
    (dir, ws)
}

/// The anchor of 1-based `line` of `bytes` as `read` would show it.
fn anchor(bytes: &[u8], line: usize) -> String {
    let text = TextFile::decode(bytes.to_vec()).text().to_owned();
    line_hashes(&text)[line - 1].clone()
}

fn run(ws: &Workspace, store: &dyn SnapshotStore, request: serde_json::Value) -> Outcome {
    edit(ws, store, &request.to_string(), &EditOptions::default())
}

fn replace(path: &str, start: &str, end: &str, lines: &[&str]) -> serde_json::Value {
    serde_json::json!({ "path": path, "edits": [{ "op": "replace", "start": start, "end": end, "lines": lines }] })
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).expect("read back")
}

/// Record `bytes` in `store` as the `read` of `name` would.
fn record_read(ws: &Workspace, store: &dyn SnapshotStore, name: &str, bytes: &[u8]) {
    let key = ws.resolve(name).expect("resolve").key;
    store
        .record(&key, TextFile::decode(bytes.to_vec()).text())
        .expect("record");
}

// --- DEVIATIONS §2: bytes of untouched lines, BOM and endings survive --------------------------

#[test]
fn bom_is_kept() {
    let before = b"\xEF\xBB\xBFfirst\r\nsecond\r\n";
    let (dir, ws) = workspace(&[("f.txt", before)]);
    let out = run(
        &ws,
        &MemoryStore::new(),
        replace("f.txt", &anchor(before, 1), &anchor(before, 1), &["FIRST"]),
    );
    assert!(out.ok, "{}", out.text);
    assert_eq!(
        read(dir.path(), "f.txt"),
        b"\xEF\xBB\xBFFIRST\r\nsecond\r\n"
    );
}

#[test]
fn mixed_endings_are_kept() {
    let before = b"alpha\nbeta\r\ngamma\r\n";
    let (dir, ws) = workspace(&[("f.txt", before)]);
    let b = anchor(before, 2);
    let out = run(
        &ws,
        &MemoryStore::new(),
        replace("f.txt", &b, &b, &["BETA", "beta2"]),
    );
    assert!(out.ok, "{}", out.text);
    // Both new rows take the ending of the line they replace; the LF line stays LF.
    assert_eq!(
        read(dir.path(), "f.txt"),
        b"alpha\nBETA\r\nbeta2\r\ngamma\r\n"
    );
}

#[test]
fn cr_only_file_stays_cr_only() {
    let before = b"old\rmac\rline\r";
    let (dir, ws) = workspace(&[("f.txt", before)]);
    let m = anchor(before, 2);
    let request = serde_json::json!({ "path": "f.txt", "edits": [
        { "op": "replace", "start": m, "end": m, "lines": ["MAC"] },
        { "op": "append", "lines": ["tail"] },
    ] });
    let out = run(&ws, &MemoryStore::new(), request);
    assert!(out.ok, "{}", out.text);
    assert_eq!(read(dir.path(), "f.txt"), b"old\rMAC\rline\rtail\r");
}

#[test]
fn payload_line_breaks_take_the_file_ending() {
    let before = b"one\r\ntwo\r\n";
    let (dir, ws) = workspace(&[("f.txt", before)]);
    let t = anchor(before, 2);
    let out = run(
        &ws,
        &MemoryStore::new(),
        replace("f.txt", &t, &t, &["x\r\ny", "z\nw"]),
    );
    assert!(out.ok, "{}", out.text);
    assert_eq!(read(dir.path(), "f.txt"), b"one\r\nx\r\ny\r\nz\r\nw\r\n");
}

// --- DEVIATIONS §3: inserts land at the boundary they name -------------------------------------

#[test]
fn append_after_a_growing_replace_goes_after_the_replacement() {
    // Peer case 042: the peer puts X between C and `}`.
    let before = b"a\nb\nc\n}";
    let (dir, ws) = workspace(&[("f.txt", before)]);
    let (b, c) = (anchor(before, 2), anchor(before, 3));
    let request = serde_json::json!({ "path": "f.txt", "edits": [
        { "op": "replace", "start": b, "end": c, "lines": ["B", "C", "}"] },
        { "op": "append", "pos": c, "lines": ["X"] },
    ] });
    let out = run(&ws, &MemoryStore::new(), request);
    assert!(out.ok, "{}", out.text);
    assert_eq!(read(dir.path(), "f.txt"), b"a\nB\nC\n}\nX\n}");
    assert!(
        out.warnings.iter().any(|w| w.contains("repeats line 4")),
        "{:?}",
        out.warnings
    );
}

#[test]
fn append_after_a_shrinking_replace_stays_in_place() {
    // Peer case 165: the peer moves X to the end of the file.
    let before = b"a\nb\nc\nd\ne\n";
    let (dir, ws) = workspace(&[("f.txt", before)]);
    let (b, c) = (anchor(before, 2), anchor(before, 3));
    let request = serde_json::json!({ "path": "f.txt", "edits": [
        { "op": "replace", "start": b, "end": c, "lines": ["BC"] },
        { "op": "append", "pos": c, "lines": ["X"] },
    ] });
    let out = run(&ws, &MemoryStore::new(), request);
    assert!(out.ok, "{}", out.text);
    assert_eq!(read(dir.path(), "f.txt"), b"a\nBC\nX\nd\ne\n");
}

#[test]
fn prepend_after_a_deleted_range_goes_before_its_line() {
    // Peer case 163: the peer puts X after d.
    let before = b"a\nb\nc\nd\n";
    let (dir, ws) = workspace(&[("f.txt", before)]);
    let request = serde_json::json!({ "path": "f.txt", "edits": [
        { "op": "replace", "start": anchor(before, 2), "end": anchor(before, 3), "lines": [] },
        { "op": "prepend", "pos": anchor(before, 4), "lines": ["X"] },
    ] });
    let out = run(&ws, &MemoryStore::new(), request);
    assert!(out.ok, "{}", out.text);
    assert_eq!(read(dir.path(), "f.txt"), b"a\nX\nd\n");
}

#[test]
fn inserts_around_one_line_keep_their_sides() {
    let before = b"a\nb\nc\n";
    let (dir, ws) = workspace(&[("f.txt", before)]);
    let request = serde_json::json!({ "path": "f.txt", "edits": [
        { "op": "append", "pos": anchor(before, 2), "lines": ["after b 1", "after b 2"] },
        { "op": "prepend", "pos": anchor(before, 2), "lines": ["before b"] },
        { "op": "prepend", "lines": ["head"] },
        { "op": "append", "lines": ["tail"] },
    ] });
    let out = run(&ws, &MemoryStore::new(), request);
    assert!(out.ok, "{}", out.text);
    assert_eq!(
        read(dir.path(), "f.txt"),
        b"head\na\nbefore b\nb\nafter b 1\nafter b 2\nc\ntail\n"
    );
}

// --- DEVIATIONS §1: no silent retargeting when the read was recorded ---------------------------

#[test]
fn anchor_of_a_deleted_duplicate_is_refused_when_the_read_was_recorded() {
    // Peer case 157: the anchor named the first `foo`, which was deleted on disk; the second
    // `foo` now hashes the same.
    let read_then = b"foo\nbar\nfoo\n";
    let disk = b"bar\nfoo\n";
    let (dir, ws) = workspace(&[("f.txt", disk)]);
    let store = MemoryStore::new();
    record_read(&ws, &store, "f.txt", read_then);
    let a = anchor(read_then, 1);
    assert_eq!(
        a,
        anchor(disk, 2),
        "fixture: the anchor must fit the disk text too"
    );
    let out = run(&ws, &store, replace("f.txt", &a, &a, &["FOO"]));
    assert_eq!(out.code, Some(ErrorCode::StaleAnchor), "{}", out.text);
    assert!(
        out.text.contains(&format!(">>> {}:bar", anchor(disk, 1))),
        "{}",
        out.text
    );
    assert_eq!(read(dir.path(), "f.txt"), disk);

    // The refusal showed the disk's anchors; a retry with them edits the disk's line.
    let out = run(&ws, &store, replace("f.txt", &a, &a, &["FOO"]));
    assert!(out.ok, "{}", out.text);
    assert_eq!(read(dir.path(), "f.txt"), b"bar\nFOO\n");
}

#[test]
fn without_a_recorded_read_the_peer_result_stands() {
    let read_then = b"foo\nbar\nfoo\n";
    let (dir, ws) = workspace(&[("f.txt", b"bar\nfoo\n")]);
    let a = anchor(read_then, 1);
    let out = run(&ws, &MemoryStore::new(), replace("f.txt", &a, &a, &["FOO"]));
    assert!(out.ok, "{}", out.text);
    assert_eq!(read(dir.path(), "f.txt"), b"bar\nFOO\n");
}

#[test]
fn symbol_line_anchor_is_not_retargeted_to_another_brace() {
    // Recorded: `}` on lines 2 and 5. On disk lines 2-4 were deleted, so the old line 5 `}`
    // now sits on line 2 and hashes like the recorded line 2.
    let read_then = b"a\n}\nb\nc\n}\n";
    let disk = b"a\n}\n";
    let (dir, ws) = workspace(&[("f.txt", disk)]);
    let store = MemoryStore::new();
    record_read(&ws, &store, "f.txt", read_then);
    let a = anchor(read_then, 2);
    assert_eq!(a, anchor(disk, 2));
    let out = run(&ws, &store, replace("f.txt", &a, &a, &["} // end of a"]));
    assert_eq!(out.code, Some(ErrorCode::StaleAnchor), "{}", out.text);
    assert_eq!(read(dir.path(), "f.txt"), disk);
}

#[test]
fn edit_from_a_recorded_read_merges_onto_a_file_changed_elsewhere() {
    // The `}` anchor is position-dependent: a line added at the top on disk stales it for the
    // peer. Its line is unchanged, so the edit is carried over with zero fuzz.
    let read_then = b"x\n}\ny\n";
    let disk = b"new first line\nx\n}\ny\n";
    let (dir, ws) = workspace(&[("f.txt", disk)]);
    let store = MemoryStore::new();
    record_read(&ws, &store, "f.txt", read_then);
    let brace = anchor(read_then, 2);
    let request = serde_json::json!({ "path": "f.txt", "edits": [
        { "op": "replace", "start": brace, "end": brace, "lines": ["} // end"] },
        { "op": "append", "pos": anchor(read_then, 3), "lines": ["z"] },
    ] });
    let out = run(&ws, &store, request.clone());
    assert!(out.ok, "{}", out.text);
    assert_eq!(
        read(dir.path(), "f.txt"),
        b"new first line\nx\n} // end\ny\nz\n"
    );
    // The new text is recorded; the same anchors are now stale for everyone.
    let out = run(&ws, &store, request);
    assert_eq!(out.code, Some(ErrorCode::StaleAnchor), "{}", out.text);
}

#[test]
fn chained_edit_with_anchors_of_an_earlier_read_is_carried_over() {
    // read v1 → edit (prepends a line, recorded) → edit with v1's anchor of the second `}`,
    // whose position-dependent hash no longer exists in the file.
    let v1 = b"fn a() {\n  x\n}\nfn b() {\n  y\n}\n";
    let (dir, ws) = workspace(&[("f.rs", v1)]);
    let store = MemoryStore::new();
    record_read(&ws, &store, "f.rs", v1);
    let first = serde_json::json!({ "path": "f.rs", "edits": [{ "op": "prepend", "lines": ["// header"] }] });
    assert!(run(&ws, &store, first).ok);
    let brace = anchor(v1, 6);
    let out = run(&ws, &store, replace("f.rs", &brace, &brace, &["} // b"]));
    assert!(out.ok, "{}", out.text);
    assert_eq!(
        read(dir.path(), "f.rs"),
        b"// header\nfn a() {\n  x\n}\nfn b() {\n  y\n} // b\n"
    );
}

#[test]
fn merge_refuses_when_a_neighbour_of_the_insert_point_changed() {
    let read_then = b"a\n}\nb\n";
    let disk = b"top\na\nB\n";
    let (dir, ws) = workspace(&[("f.txt", disk)]);
    let store = MemoryStore::new();
    record_read(&ws, &store, "f.txt", read_then);
    let request = serde_json::json!({ "path": "f.txt", "edits": [
        { "op": "prepend", "pos": anchor(read_then, 2), "lines": ["X"] },
    ] });
    let out = run(&ws, &store, request);
    assert_eq!(out.code, Some(ErrorCode::StaleAnchor), "{}", out.text);
    assert_eq!(read(dir.path(), "f.txt"), disk);
}

// --- responses ----------------------------------------------------------------------------------

#[test]
fn full_and_ranges_modes() {
    let before = b"# Title\ntext\n## Part\nmore\n";
    let (_dir, ws) = workspace(&[("doc.md", before)]);
    let t = anchor(before, 2);
    let mut request = replace("doc.md", &t, &t, &["TEXT"]);
    request["returnMode"] = "full".into();
    let out = run(&ws, &MemoryStore::new(), request);
    assert_eq!(
        out.text,
        "Updated doc.md\n\nStructure outline:\n- # Title\n- ## Part\n\nFull content is available in details.fullContent."
    );
    let after = b"# Title\nTEXT\n## Part\nmore\n";
    let m = anchor(after, 4);
    let mut request = replace("doc.md", &m, &m, &["MORE"]);
    request["returnMode"] = "ranges".into();
    request["returnRanges"] =
        serde_json::json!([{ "start": 1, "end": 2 }, { "start": 3 }, { "start": 9 }]);
    let out = run(&ws, &MemoryStore::new(), request);
    assert_eq!(
        out.text,
        "Updated doc.md\n\nStructure outline:\n- Range 1 (lines 1-2)\n  - # Title\n- Range 2 (lines 3-3)\n  - ## Part\n\n\
         Requested range payloads are available in details.returnedRanges."
    );
}

#[test]
fn noop_writes_and_records_nothing() {
    let before = b"aaa\r\nbbb\r\n";
    let (dir, ws) = workspace(&[("f.txt", before)]);
    let store = MemoryStore::new();
    let b = anchor(before, 2);
    let out = run(&ws, &store, replace("f.txt", &b, &b, &["bbb"]));
    assert!(out.ok);
    assert_eq!(
        out.text,
        format!("No changes made to f.txt\nClassification: noop\nEdit 0: replacement for {b} is identical to current content:\n  {b}: bbb")
    );
    assert_eq!(read(dir.path(), "f.txt"), before);
    assert!(store
        .versions(&ws.resolve("f.txt").expect("resolve").key)
        .expect("versions")
        .is_empty());
}

// --- file system -------------------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn edits_through_a_symlink_chain_land_on_the_target() {
    let before = b"one\ntwo\n";
    let (dir, ws) = workspace(&[("real.txt", before)]);
    std::os::unix::fs::symlink("real.txt", dir.path().join("link2")).expect("symlink");
    std::os::unix::fs::symlink("link2", dir.path().join("link1")).expect("symlink");
    let t = anchor(before, 2);
    let out = run(&ws, &MemoryStore::new(), replace("link1", &t, &t, &["TWO"]));
    assert!(out.ok, "{}", out.text);
    assert_eq!(read(dir.path(), "real.txt"), b"one\nTWO\n");
    for link in ["link1", "link2"] {
        let meta = std::fs::symlink_metadata(dir.path().join(link)).expect("lstat");
        assert!(meta.file_type().is_symlink(), "{link} was replaced");
    }
}

#[cfg(unix)]
#[test]
fn edits_through_one_hard_link_show_through_the_other() {
    use std::os::unix::fs::MetadataExt;
    let before = b"one\ntwo\n";
    let (dir, ws) = workspace(&[("a.txt", before)]);
    std::fs::hard_link(dir.path().join("a.txt"), dir.path().join("b.txt")).expect("hard link");
    let inode = std::fs::metadata(dir.path().join("a.txt"))
        .expect("stat")
        .ino();
    let t = anchor(before, 1);
    let out = run(&ws, &MemoryStore::new(), replace("a.txt", &t, &t, &["ONE"]));
    assert!(out.ok, "{}", out.text);
    assert_eq!(read(dir.path(), "b.txt"), b"ONE\ntwo\n");
    assert_eq!(
        std::fs::metadata(dir.path().join("b.txt"))
            .expect("stat")
            .ino(),
        inode
    );
}

#[cfg(unix)]
#[test]
fn concurrent_edits_through_different_paths_serialize() {
    let (dir, ws) = workspace(&[("real.txt", b"start\n")]);
    std::os::unix::fs::symlink("real.txt", dir.path().join("alias")).expect("symlink");
    let store = MemoryStore::new();
    std::thread::scope(|s| {
        for k in 0..8 {
            let (ws, store) = (&ws, &store);
            s.spawn(move || {
                let path = if k % 2 == 0 { "real.txt" } else { "alias" };
                let out = run(ws, store, serde_json::json!({ "path": path, "edits": [{ "op": "append", "lines": [format!("line {k}")] }] }));
                assert!(out.ok, "{}", out.text);
            });
        }
    });
    let text = String::from_utf8(read(dir.path(), "real.txt")).expect("utf8");
    assert_eq!(text.lines().count(), 9, "{text}");
    for k in 0..8 {
        assert!(text.contains(&format!("line {k}\n")), "{text}");
    }
}

#[test]
fn file_level_refusals() {
    let (dir, ws) = workspace(&[("a.txt", b"x\n")]);
    std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
    let append = |path: &str| serde_json::json!({ "path": path, "edits": [{ "op": "append", "lines": ["y"] }] });
    let out = run(&ws, &MemoryStore::new(), append("sub"));
    assert_eq!(out.code, Some(ErrorCode::IsDirectory));
    assert_eq!(
        out.text,
        "Path is a directory: sub. Use ls to inspect directories."
    );
    let out = run(&ws, &MemoryStore::new(), append("../outside.txt"));
    assert_eq!(out.code, Some(ErrorCode::OutsideRoot), "{}", out.text);
    let out = run(&ws, &MemoryStore::new(), append("nope.txt"));
    assert_eq!(
        (out.code, out.text.as_str()),
        (Some(ErrorCode::FileNotFound), "File not found: nope.txt")
    );
}

// --- robustness ----------------------------------------------------------------------------------

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    const BEFORE: &[u8] = b"alpha\n}\nbeta\r\n\ngamma";

    fn valid_request() -> String {
        let h = line_hashes(TextFile::decode(BEFORE.to_vec()).text());
        serde_json::json!({ "path": "f.txt", "returnMode": "changed", "edits": [
            { "op": "replace", "start": h[0], "end": h[2], "lines": ["x", "y"] },
            { "op": "append", "pos": h[4], "lines": ["z"] },
            { "op": "prepend", "lines": [""] },
        ] })
        .to_string()
    }

    fn check(request: &str) -> Result<(), TestCaseError> {
        let (dir, ws) = workspace(&[("f.txt", BEFORE)]);
        let out = edit(&ws, &MemoryStore::new(), request, &EditOptions::default());
        let now = read(dir.path(), "f.txt");
        prop_assert!(out.ok || now == BEFORE, "refused but changed the file");
        prop_assert!(out.ok || out.code.is_some());
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        #[test]
        fn random_text(request in "\\PC{0,80}") {
            check(&request)?;
        }

        #[test]
        fn mutated_valid_request(cuts in proptest::collection::vec((0usize..400, 0usize..4, "[\\PC\\n\"{}\\[\\],:]{0,3}"), 1..4)) {
            let mut request = valid_request();
            for (at, len, insert) in cuts {
                let mut at = at % (request.len() + 1);
                while !request.is_char_boundary(at) {
                    at -= 1;
                }
                let mut end = (at + len).min(request.len());
                while !request.is_char_boundary(end) {
                    end += 1;
                }
                request.replace_range(at..end, &insert);
            }
            check(&request)?;
        }

        #[test]
        fn random_json_shapes(value in arb_json()) {
            let mut request = serde_json::json!({ "path": "f.txt", "edits": [value.clone()] });
            check(&request.to_string())?;
            request["edits"] = value;
            check(&request.to_string())?;
        }
    }

    fn arb_json() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            any::<f64>().prop_map(serde_json::Value::from),
            prop_oneof![
                Just("replace".to_owned()),
                Just("append".to_owned()),
                Just("prepend".to_owned()),
                Just("".to_owned()),
                "[A-Za-z0-9_-]{4}",
                "\\PC{0,8}"
            ]
            .prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(3, 24, 5, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
                proptest::collection::vec(
                    (
                        prop_oneof![
                            Just("op"),
                            Just("pos"),
                            Just("start"),
                            Just("end"),
                            Just("lines"),
                            Just("x")
                        ],
                        inner
                    ),
                    0..5
                )
                .prop_map(|kv| serde_json::Value::Object(
                    kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
                )),
            ]
        })
    }
}
