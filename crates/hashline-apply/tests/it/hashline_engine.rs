//! End-to-end behaviour of the hashline engine beyond the conformance corpus: dry runs, line
//! endings, multi-section atomicity, store effects, `read`, and the in-memory variant.

use std::collections::BTreeMap;

use hashline_anchor::tag::file_tag;
use hashline_apply::fs::Workspace;
use hashline_apply::hashline::{apply_to_text, edit, preview, read, EditOptions};
use hashline_apply::FileOp;
use hashline_core::ErrorCode;
use hashline_state::{MemoryStore, SnapshotStore};

fn setup(files: &[(&str, &[u8])]) -> (tempfile::TempDir, Workspace, MemoryStore) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (p, b) in files {
        std::fs::write(dir.path().join(p), b).expect("write");
    }
    let ws = Workspace::new(dir.path()).expect("ws");
    (dir, ws, MemoryStore::new())
}

fn tag_of(bytes: &[u8]) -> String {
    file_tag(hashline_core::TextFile::decode(bytes.to_vec()).text())
}

const OPTS: EditOptions<'static> = EditOptions {
    skip_anchors: false,
    resolver: None,
    dry_run: false,
    guard: hashline_apply::guard::GuardOptions {
        syntax: None,
        allow_syntax_errors: false,
    },
};

#[test]
fn edit_keeps_line_endings_and_bom_and_reports() {
    let before = b"\xEF\xBB\xBFone\r\ntwo\nthree\r\n";
    let (dir, ws, store) = setup(&[("a.txt", before)]);
    let input = format!("¶a.txt#{}\nreplace 2..2:\n+TWO\n+2b", tag_of(before));
    let out = edit(&ws, &store, &input, &OPTS);
    assert!(out.ok, "{}", out.text);
    let after = std::fs::read(dir.path().join("a.txt")).expect("read");
    // Replacement rows take the ending of the line they replace (core splice rule); untouched
    // lines keep theirs.
    assert_eq!(after, b"\xEF\xBB\xBFone\r\nTWO\n2b\nthree\r\n");
    let new_tag = tag_of(&after);
    assert!(
        out.text.starts_with(&format!("¶a.txt#{new_tag}\n")),
        "{}",
        out.text
    );
    assert!(
        out.text.contains("-2:two\n+2:TWO\n+3:2b\n 4:three"),
        "{}",
        out.text
    );
    let f = &out.files[0];
    assert_eq!(
        (f.op, f.written, f.first_changed_line),
        (FileOp::Update, true, Some(2))
    );
    assert!(f.diff.contains("-two\n+TWO\n+2b\n"), "{}", f.diff);
    // The commit recorded the new text as head.
    let key = ws.resolve("a.txt").expect("resolve").key;
    assert_eq!(
        store.head(&key).expect("head").map(|s| s.tag),
        Some(new_tag)
    );
}

#[test]
fn dry_run_writes_and_records_nothing() {
    let (dir, ws, store) = setup(&[("a.txt", b"x\ny\n")]);
    let input = format!("¶a.txt#{}\ndelete 1", tag_of(b"x\ny\n"));
    let out = edit(
        &ws,
        &store,
        &input,
        &EditOptions {
            skip_anchors: false,
            resolver: None,
            dry_run: true,
            guard: Default::default(),
        },
    );
    assert!(out.ok, "{}", out.text);
    assert!(!out.files[0].written);
    assert!(out.files[0].diff.contains("-x\n"), "{}", out.files[0].diff);
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"x\ny\n"
    );
    let key = ws.resolve("a.txt").expect("resolve").key;
    assert!(store.head(&key).expect("head").is_none());
}

#[test]
fn multi_section_is_all_or_nothing() {
    let (dir, ws, store) = setup(&[("a.txt", b"a\n"), ("b.txt", b"b\n")]);
    // Second section is a no-op: the whole call is refused, the first file untouched.
    let input = format!(
        "¶a.txt#{}\nreplace 1..1:\n+A\n¶b.txt#{}\nreplace 1..1:\n+b",
        tag_of(b"a\n"),
        tag_of(b"b\n")
    );
    let out = edit(&ws, &store, &input, &OPTS);
    assert_eq!(out.code, Some(ErrorCode::Noop), "{}", out.text);
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"a\n"
    );
    // Both change: both written, texts joined by a blank line.
    let input = format!(
        "¶a.txt#{}\nreplace 1..1:\n+A\n¶b.txt#{}\nreplace 1..1:\n+B",
        tag_of(b"a\n"),
        tag_of(b"b\n")
    );
    let out = edit(&ws, &store, &input, &OPTS);
    assert!(out.ok, "{}", out.text);
    assert_eq!(out.text.matches('¶').count(), 2);
    assert!(out.text.contains("\n\n¶b.txt#"), "{}", out.text);
    assert_eq!(
        std::fs::read(dir.path().join("b.txt")).expect("read"),
        b"B\n"
    );
}

#[test]
fn refusals_carry_codes() {
    let (_dir, ws, store) = setup(&[("a.txt", b"a\nb\n")]);
    let t = tag_of(b"a\nb\n");
    let cases = [
        (
            format!("¶a.txt#{t}\nreplace 9..9:\n+x"),
            ErrorCode::LineRange,
            "Line 9 does not exist (file has 3 lines)",
        ),
        (
            format!("¶a.txt#{t}\nreplace 99999999999999999999..99999999999999999999:\n+x"),
            ErrorCode::LineRange,
            "does not exist (file has 3 lines)",
        ),
        (
            format!("¶a.txt#{t}\nreplace 2..18446744073709551615:\n+x"),
            ErrorCode::LineRange,
            "Line 4 does not exist",
        ),
        (
            "¶a.txt\ninsert tail:\n+x".to_string(),
            ErrorCode::MissingTag,
            "Missing hashline snapshot tag for edit to a.txt",
        ),
        (
            "¶nope.txt#1A2B\ninsert tail:\n+x".to_string(),
            ErrorCode::FileNotFound,
            "File not found: nope.txt.",
        ),
        (
            "¶../up.txt#1A2B\ninsert tail:\n+x".to_string(),
            ErrorCode::OutsideRoot,
            "",
        ),
        (
            format!("¶a.txt#{t}\nreplace block 1:\n+x"),
            ErrorCode::BlockUnresolved,
            "is not available here",
        ),
        (
            "just text".to_string(),
            ErrorCode::Parse,
            "input must begin with",
        ),
        (
            format!("¶a.txt#{t}\nreplace 1..1:\n+X\n¶./a.txt#{t}\nreplace 2..2:\n+Y"),
            ErrorCode::DuplicateFile,
            "resolve to the same file (a.txt and ./a.txt)",
        ),
    ];
    for (input, code, text) in cases {
        let out = edit(&ws, &store, &input, &OPTS);
        assert!(!out.ok, "{input}");
        assert_eq!(out.code, Some(code), "{input}: {}", out.text);
        assert!(out.text.contains(text), "{input}: {}", out.text);
    }
}

#[test]
fn mismatch_records_live_text_so_its_tag_works() {
    let (dir, ws, store) = setup(&[("a.txt", b"one\ntwo\n")]);
    let out = edit(&ws, &store, "¶a.txt#FFFF\nreplace 1..1:\n+ONE", &OPTS);
    assert_eq!(out.code, Some(ErrorCode::StaleAnchor));
    assert!(
        out.text
            .starts_with("Edit rejected for a.txt: hash #FFFF is not from this session."),
        "{}",
        out.text
    );
    let live = tag_of(b"one\ntwo\n");
    assert!(out
        .text
        .contains(&format!("The current file hashes to #{live}.")));
    assert!(
        out.text.ends_with("\n\n*1:one\n 2:two\n 3:"),
        "{}",
        out.text
    );
    let key = ws.resolve("a.txt").expect("resolve").key;
    assert_eq!(
        store.head(&key).expect("head").map(|s| s.tag),
        Some(live.clone())
    );
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"one\ntwo\n"
    );
}

#[test]
fn stale_head_tail_only_section_applies_with_warning() {
    let (dir, ws, store) = setup(&[("a.txt", b"a\n")]);
    let out = edit(&ws, &store, "¶a.txt#FFFF\ninsert tail:\n+z", &OPTS);
    assert!(out.ok, "{}", out.text);
    assert!(out.warnings[0].starts_with("Applied an `insert head:`/`insert tail:` edit"));
    assert!(
        out.text.contains("\n\nWarnings:\nApplied an"),
        "{}",
        out.text
    );
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"a\nz\n"
    );
}

#[test]
fn single_noop_is_ok_and_rerecorded() {
    let (_dir, ws, store) = setup(&[("a.txt", b"same\n")]);
    let out = edit(
        &ws,
        &store,
        &format!("¶a.txt#{}\nreplace 1..1:\n+same", tag_of(b"same\n")),
        &OPTS,
    );
    assert!(out.ok);
    assert_eq!(out.files[0].op, FileOp::Noop);
    assert!(out
        .text
        .starts_with("Edits to a.txt parsed and applied cleanly, but produced no change"));
    let key = ws.resolve("a.txt").expect("resolve").key;
    assert!(store.head(&key).expect("head").is_some());
}

#[test]
fn preview_gives_numbered_diff_or_no_changes() {
    let (_dir, ws, store) = setup(&[("s.txt", b"first\n")]);
    let t = tag_of(b"first\n");
    let out = preview(
        &ws,
        &store,
        &format!("¶s.txt#{t}\ninsert tail:\n+second"),
        &OPTS,
    );
    assert_eq!(out.text, " 1|first\n+2|second");
    let out = preview(
        &ws,
        &store,
        &format!("¶s.txt#{t}\nreplace 1..1:\n+first"),
        &OPTS,
    );
    assert_eq!(
        (out.code, out.text.as_str()),
        (Some(ErrorCode::Noop), "No changes would be made to s.txt.")
    );
}

#[test]
fn read_renders_and_records() {
    let (_dir, ws, store) = setup(&[("r.txt", b"a\r\nb\r\n")]);
    let out = read(&ws, &store, "r.txt", None, None);
    let t = tag_of(b"a\nb\n");
    assert_eq!(out.text, format!("¶r.txt#{t}\n1:a\n2:b\n3:"));
    let key = ws.resolve("r.txt").expect("resolve").key;
    assert_eq!(
        store.head(&key).expect("head").map(|s| s.text),
        Some("a\nb\n".to_string())
    );
    let out = read(&ws, &store, "r.txt", Some(9), None);
    assert_eq!(out.code, Some(ErrorCode::LineRange));
    let out = read(&ws, &store, "missing.txt", None, None);
    assert_eq!(out.code, Some(ErrorCode::FileNotFound));
}

#[test]
fn read_then_external_change_then_edit_recovers() {
    let (dir, ws, store) = setup(&[("a.txt", b"L1\nL2\nL3\n")]);
    let r = read(&ws, &store, "a.txt", None, None);
    let tag = r.files[0].tag.clone().expect("tag");
    std::fs::write(dir.path().join("a.txt"), b"H\nL1\nL2\nL3\n").expect("external write");
    let out = edit(
        &ws,
        &store,
        &format!("¶a.txt#{tag}\nreplace 2..2:\n+two"),
        &OPTS,
    );
    assert!(out.ok, "{}", out.text);
    assert!(out.warnings[0].starts_with(
        "[W_STALE_RECOVERED] Recovered from a stale file hash using a previous read snapshot"
    ));
    assert_eq!(
        std::fs::read(dir.path().join("a.txt")).expect("read"),
        b"H\nL1\ntwo\nL3\n"
    );
}

#[test]
fn apply_to_text_in_memory() {
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    files.insert("a.ts".into(), b"x\ny\n".to_vec());
    let store = MemoryStore::new();
    let out = apply_to_text(
        &mut files,
        &store,
        &format!("¶./a.ts#{}\ninsert after 1:\n+m", tag_of(b"x\ny\n")),
        &OPTS,
    );
    assert!(out.ok, "{}", out.text);
    assert_eq!(files["a.ts"], b"x\nm\ny\n");
    assert_eq!(
        store.head("a.ts").expect("head").map(|s| s.text),
        Some("x\nm\ny\n".into())
    );
}

#[test]
fn a_no_op_hunk_far_below_a_long_changed_middle_is_reported_not_a_panic() {
    // Hunks at 10 and 30,000 make a changed middle of over 20,000 lines (diffed around the
    // hunks); the no-op at 90,000 lies inside the common suffix cut off before that.
    let before: String = (0..100_000).map(|i| format!("line {i}\n")).collect();
    let (dir, ws, store) = setup(&[("a.txt", before.as_bytes())]);
    let input = format!(
        "¶a.txt#{}\nreplace 10..10:\n+changed 10\nreplace 30000..30000:\n+changed 30000\n\
         replace 90000..90000:\n+line 89999\n",
        tag_of(before.as_bytes())
    );
    for dry_run in [true, false] {
        let out = edit(&ws, &store, &input, &EditOptions { dry_run, ..OPTS });
        assert!(out.ok, "{}", out.text);
        let f = &out.files[0];
        assert_eq!(f.first_changed_line, Some(10));
        assert!(f.diff.contains("-line 9\n+changed 10\n"), "{}", f.diff);
        assert!(
            f.diff.contains("-line 29999\n+changed 30000\n"),
            "{}",
            f.diff
        );
        assert!(out.text.contains("+30000:changed 30000"), "{}", out.text);
    }
    let after = std::fs::read_to_string(dir.path().join("a.txt")).expect("read");
    let expected = before.replacen("line 9\n", "changed 10\n", 1).replacen(
        "line 29999\n",
        "changed 30000\n",
        1,
    );
    assert_eq!(after, expected);
}
