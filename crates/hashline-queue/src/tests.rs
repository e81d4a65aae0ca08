//! Unit tests of the queue on an in-memory and a temporary on-disk database.

use std::path::Path;
use std::sync::Arc;

use hashline_ast::{FileRewrite, MatchEdit, Preview, RewriteRequest, Rule};
use hashline_fs::Workspace;
use hashline_state::SqliteStore;

use crate::{PreviewId, PreviewQueue, QueueError};

/// A preview of `foo(N)` → `bar(N)` over `files` (name, content) written under `root`.
fn setup(root: &Path, files: &[(&str, &str)]) -> (RewriteRequest, Preview) {
    let mut preview = Preview::default();
    for (n, (name, content)) in files.iter().enumerate() {
        let abs = root.join(name);
        std::fs::write(&abs, content).expect("write file");
        let abs = abs.canonicalize().expect("canonical");
        let mut matches = Vec::new();
        let mut at = 0;
        while let Some(i) = content[at..].find("foo(") {
            let start = at + i;
            let end = start + content[start..].find(')').expect("close") + 1;
            let before = &content[start..end];
            matches.push(MatchEdit {
                id: format!("{}:{}", n + 1, matches.len() + 1),
                rule: 0,
                byte_range: start..end,
                line: content[..start].matches('\n').count() + 1,
                column: 1,
                before: before.to_string(),
                after: before.replace("foo", "bar"),
            });
            at = end;
        }
        preview.files.push(FileRewrite {
            path: (*name).to_string(),
            abs,
            tag: "ABCD".into(),
            original: content.as_bytes().to_vec(),
            rewritten: content.replace("foo(", "bar(").into_bytes(),
            matches,
        });
    }
    let request = RewriteRequest::new(
        root,
        vec![Rule::new("foo($A)", "bar($A)")],
        vec![".".into()],
    );
    (request, preview)
}

fn read(root: &Path, name: &str) -> String {
    std::fs::read_to_string(root.join(name)).expect("read")
}

#[test]
fn push_list_get_discard() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (req, preview) = setup(
        dir.path(),
        &[("a.ts", "foo(1);\nfoo(2);\n"), ("b.ts", "foo(3);\n")],
    );
    let q = PreviewQueue::in_memory("s").expect("queue");
    let first = q.push(&req, &preview).expect("push");
    let second = q.push(&req, &preview).expect("push");
    assert!(second > first);
    let list = q.list().expect("list");
    assert_eq!(
        list.iter().map(|p| p.id).collect::<Vec<_>>(),
        [second, first]
    );
    assert_eq!(list[0].label(), "AST Edit: 3 replacements in 2 files");
    assert_eq!(list[0].request, req);
    assert_eq!(list[0].files[0].matches, preview.files[0].matches);
    assert_eq!(q.get(None).expect("newest").id, second);
    assert_eq!(q.get(Some(first)).expect("by id").id, first);

    assert_eq!(
        q.discard(None).expect("discard").map(|p| p.id),
        Some(second)
    );
    let err = q.discard(Some(second)).expect_err("gone");
    assert_eq!(err.code().as_str(), "E_NO_PREVIEW");
    assert_eq!(
        q.discard(Some(first)).expect("discard").map(|p| p.id),
        Some(first)
    );
    assert!(q.discard(None).expect("nothing").is_none());
    // Ids are never reused.
    let third = q.push(&req, &preview).expect("push");
    assert!(third > second);
}

#[test]
fn persists_across_processes_and_isolates_sessions() {
    let state = tempfile::tempdir().expect("state");
    let dir = tempfile::tempdir().expect("root");
    let (req, preview) = setup(dir.path(), &[("a.ts", "foo(1);\n")]);
    let id = {
        let store = Arc::new(SqliteStore::open(state.path(), "one").expect("store"));
        PreviewQueue::new(store)
            .expect("queue")
            .push(&req, &preview)
            .expect("push")
    };
    let again = PreviewQueue::new(Arc::new(
        SqliteStore::open(state.path(), "one").expect("store"),
    ))
    .expect("queue");
    assert_eq!(again.get(None).expect("pending").id, id);
    let other = PreviewQueue::new(Arc::new(
        SqliteStore::open(state.path(), "two").expect("store"),
    ))
    .expect("queue");
    assert!(other.list().expect("list").is_empty());
    assert_eq!(
        other
            .get(Some(id))
            .expect_err("other session")
            .code()
            .as_str(),
        "E_NO_PREVIEW"
    );
}

#[test]
fn apply_writes_exactly_the_preview_and_removes_it() {
    let dir = tempfile::tempdir().expect("root");
    let (req, preview) = setup(
        dir.path(),
        &[("a.ts", "foo(1);\nfoo(2);\n"), ("b.ts", "x;\nfoo(3);\n")],
    );
    let q = PreviewQueue::in_memory("s").expect("queue");
    let id = q.push(&req, &preview).expect("push");
    let ws = Workspace::new(dir.path()).expect("ws");
    let applied = q.apply(&ws, None, None).expect("apply");
    assert_eq!(applied.preview.id, id);
    assert_eq!(applied.match_ids, ["1:1", "1:2", "2:1"]);
    assert_eq!(applied.files.len(), 2);
    for f in &preview.files {
        assert_eq!(read(dir.path(), &f.path).as_bytes(), f.rewritten.as_slice());
    }
    assert!(applied.warnings.is_empty());
    assert!(q.list().expect("list").is_empty());
    let again = q.apply(&ws, Some(id), None).expect_err("applied already");
    assert_eq!(again.code().as_str(), "E_NO_PREVIEW");
}

#[test]
fn stale_preview_writes_nothing_and_is_dropped() {
    let dir = tempfile::tempdir().expect("root");
    let (req, preview) = setup(
        dir.path(),
        &[
            ("a.ts", "foo(1);\n"),
            ("b.ts", "foo(2);\n"),
            ("c.ts", "foo(3);\n"),
        ],
    );
    let q = PreviewQueue::in_memory("s").expect("queue");
    let id = q.push(&req, &preview).expect("push");
    // Same length, one byte different, in the last file only.
    std::fs::write(dir.path().join("c.ts"), "foo(4);\n").expect("external change");
    let ws = Workspace::new(dir.path()).expect("ws");
    let err = q.apply(&ws, Some(id), None).expect_err("stale");
    assert_eq!(err.code().as_str(), "E_STALE_PREVIEW");
    assert!(matches!(&err, QueueError::Stale { changed, .. } if changed == &["c.ts"]));
    assert_eq!(read(dir.path(), "a.ts"), "foo(1);\n");
    assert_eq!(read(dir.path(), "b.ts"), "foo(2);\n");
    assert_eq!(read(dir.path(), "c.ts"), "foo(4);\n");
    assert!(
        q.list().expect("list").is_empty(),
        "a stale preview is dropped"
    );
}

#[test]
fn deleted_file_is_stale() {
    let dir = tempfile::tempdir().expect("root");
    let (req, preview) = setup(dir.path(), &[("a.ts", "foo(1);\n"), ("b.ts", "foo(2);\n")]);
    let q = PreviewQueue::in_memory("s").expect("queue");
    q.push(&req, &preview).expect("push");
    std::fs::remove_file(dir.path().join("a.ts")).expect("delete");
    let ws = Workspace::new(dir.path()).expect("ws");
    let err = q.apply(&ws, None, None).expect_err("stale");
    assert!(
        matches!(&err, QueueError::Stale { changed, .. } if changed == &["a.ts"]),
        "{err}"
    );
    assert_eq!(read(dir.path(), "b.ts"), "foo(2);\n");
}

#[test]
fn only_applies_the_chosen_matches() {
    let dir = tempfile::tempdir().expect("root");
    let (req, preview) = setup(
        dir.path(),
        &[("a.ts", "foo(1);\nfoo(2);\n"), ("b.ts", "foo(3);\n")],
    );
    let q = PreviewQueue::in_memory("s").expect("queue");
    q.push(&req, &preview).expect("push");
    let ws = Workspace::new(dir.path()).expect("ws");
    let applied = q
        .apply(&ws, None, Some(&[" 1:2".to_string(), String::new()]))
        .expect("apply");
    assert_eq!(applied.match_ids, ["1:2"]);
    assert_eq!(applied.files.len(), 1);
    assert_eq!(read(dir.path(), "a.ts"), "foo(1);\nbar(2);\n");
    assert_eq!(read(dir.path(), "b.ts"), "foo(3);\n");
    // The rest stays queued under the same id, carried onto the written bytes.
    assert_eq!(applied.pending, ["1:1", "2:1"]);
    let pending = q.list().expect("list");
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].id, applied.preview.id);
    let rest = q.apply(&ws, None, None).expect("apply the rest");
    assert_eq!(rest.match_ids, ["1:1", "2:1"]);
    assert!(rest.pending.is_empty());
    assert_eq!(read(dir.path(), "a.ts"), "bar(1);\nbar(2);\n");
    assert_eq!(read(dir.path(), "b.ts"), "bar(3);\n");
    assert!(q.list().expect("list").is_empty());
}

#[test]
fn unknown_or_empty_only_keeps_the_preview() {
    let dir = tempfile::tempdir().expect("root");
    let (req, preview) = setup(dir.path(), &[("a.ts", "foo(1);\n")]);
    let q = PreviewQueue::in_memory("s").expect("queue");
    let id = q.push(&req, &preview).expect("push");
    let ws = Workspace::new(dir.path()).expect("ws");
    let err = q
        .apply(&ws, None, Some(&["1:1".to_string(), "9:9".to_string()]))
        .expect_err("unknown");
    assert_eq!(err.code().as_str(), "E_BAD_REF");
    assert!(
        err.to_string()
            .contains("no match `9:9`; its match ids are 1:1"),
        "{err}"
    );
    let err = q
        .apply(&ws, None, Some(&[" ".to_string()]))
        .expect_err("empty");
    assert_eq!(err.code().as_str(), "E_BAD_SHAPE");
    assert_eq!(read(dir.path(), "a.ts"), "foo(1);\n");
    assert_eq!(q.get(None).expect("still queued").id, id);
}

#[test]
fn a_preview_outside_the_root_is_refused() {
    let dir = tempfile::tempdir().expect("root");
    let other = tempfile::tempdir().expect("other root");
    let (req, preview) = setup(dir.path(), &[("a.ts", "foo(1);\n")]);
    let q = PreviewQueue::in_memory("s").expect("queue");
    q.push(&req, &preview).expect("push");
    let ws = Workspace::new(other.path()).expect("ws");
    let err = q.apply(&ws, None, None).expect_err("outside");
    assert_eq!(err.code().as_str(), "E_OUTSIDE_ROOT");
    assert_eq!(read(dir.path(), "a.ts"), "foo(1);\n");
}

#[test]
fn a_row_of_another_format_is_corrupt_but_discardable() {
    let state = tempfile::tempdir().expect("state");
    let dir = tempfile::tempdir().expect("root");
    let (req, preview) = setup(dir.path(), &[("a.ts", "foo(1);\n")]);
    let store = Arc::new(SqliteStore::open(state.path(), "s").expect("store"));
    let q = PreviewQueue::new(Arc::clone(&store)).expect("queue");
    let id = q.push(&req, &preview).expect("push");
    store
        .connection()
        .execute("UPDATE queue_preview SET format = 99", [])
        .expect("update");
    let err = q.get(Some(id)).expect_err("corrupt");
    assert!(matches!(err, QueueError::Corrupt { .. }), "{err}");
    assert!(
        err.to_string().contains("hashline resolve discard"),
        "{err}"
    );
    assert!(q.discard(None).expect("dropped").is_none());
    assert!(q.list().expect("list").is_empty());
    assert!(PreviewId::new(0).is_none());
}
