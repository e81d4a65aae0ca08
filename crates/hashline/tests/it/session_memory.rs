//! `Session` over an in-memory tree (`MemoryDisk`): every dialect reads, edits and refuses a
//! stale edit without touching the disk; the session is shared between threads and async tasks.

use std::sync::Arc;

use hashline::{
    Anchors, Dialect, EditOptions, ErrorCode, MemoryDisk, ReadOptions, ResolveAction, Response,
    Session, StateConfig,
};

/// A session over `files` in memory, and the tree (to look at it afterwards).
fn session(files: &[(&str, &str)]) -> (Session, Arc<MemoryDisk>) {
    let disk = Arc::new(MemoryDisk::with_files(files.iter().copied()));
    let session = Session::with_disk(disk.clone(), &StateConfig::Memory).expect("session");
    (session, disk)
}

fn text(disk: &MemoryDisk, path: &str) -> String {
    String::from_utf8(disk.get(path).expect("file in the tree")).expect("utf-8")
}

fn read(session: &Session, path: &str, anchors: Anchors) -> String {
    let options = ReadOptions::new().anchors(anchors);
    let response = Response::from(session.read(path, &options));
    assert!(response.outcome.ok, "{}", response.outcome.text);
    response.outcome.text
}

fn edit(session: &Session, input: &str, dialect: Dialect) -> Response {
    Response::from(session.edit(input, dialect, &EditOptions::default()))
}

/// The first line of a tagged read: `¶PATH#TAG`.
fn header(read: &str) -> &str {
    read.lines().next().expect("header")
}

#[test]
fn hashline_reads_edits_and_refuses_a_stale_tag_in_memory() {
    let (session, disk) = session(&[("virtual/lib.rs", "fn a() {}\nfn b() {}\n")]);
    let first = read(&session, "virtual/lib.rs", Anchors::Tag);
    let head = header(&first).to_owned();
    let done = edit(
        &session,
        &format!("{head}\nreplace 2..2:\n+fn b() -> u8 {{ 1 }}\n"),
        Dialect::Auto,
    );
    assert!(done.outcome.ok, "{}", done.outcome.text);
    assert_eq!(
        text(&disk, "virtual/lib.rs"),
        "fn a() {}\nfn b() -> u8 { 1 }\n"
    );
    assert!(
        !std::path::Path::new("virtual/lib.rs").exists(),
        "nothing on disk"
    );

    // The file changes behind the session's back: an edit of line 2 against the old tag
    // cannot be proven, so it is refused and nothing is written.
    disk.insert("virtual/lib.rs", "fn z() {}\n");
    let stale = edit(
        &session,
        &format!("{head}\nreplace 2..2:\n+fn c() {{}}\n"),
        Dialect::Auto,
    );
    assert!(!stale.outcome.ok);
    assert_eq!(stale.report()["ok"], serde_json::json!(false));
    assert_eq!(text(&disk, "virtual/lib.rs"), "fn z() {}\n");
}

#[test]
fn every_json_dialect_and_str_replace_run_in_memory() {
    let (session, disk) = session(&[("a.txt", "one\ntwo\n"), ("d/b.txt", "x\n")]);

    // lineid-json: anchors from the read.
    let rows = read(&session, "a.txt", Anchors::Lineid);
    let anchor = rows
        .lines()
        .nth(1)
        .expect("row 2")
        .split('|')
        .next()
        .expect("anchor");
    let request = serde_json::json!({"filePath": "a.txt", "edits": [
        {"op": "replace", "pos": anchor, "lines": ["TWO"]}
    ]});
    let done = edit(&session, &request.to_string(), Dialect::LineidJson);
    assert!(done.outcome.ok, "{}", done.outcome.text);
    assert_eq!(text(&disk, "a.txt"), "one\nTWO\n");

    // hash-json: the hash of line 1.
    let rows = read(&session, "a.txt", Anchors::Hash);
    let hash = rows
        .lines()
        .find(|l| l.ends_with(":one"))
        .and_then(|l| l.split(':').next())
        .expect("hash of `one`");
    let request = serde_json::json!({"path": "a.txt", "edits": [
        {"op": "replace", "start": hash, "end": hash, "lines": ["ONE"]}
    ]});
    let done = edit(&session, &request.to_string(), Dialect::HashJson);
    assert!(done.outcome.ok, "{}", done.outcome.text);
    assert_eq!(text(&disk, "a.txt"), "ONE\nTWO\n");

    // str-replace: a directory view lists the tree, an edit lands.
    let view = edit(
        &session,
        r#"{"command": "view", "path": "d"}"#,
        Dialect::StrReplace,
    );
    assert!(
        view.outcome.text.contains("d/b.txt"),
        "{}",
        view.outcome.text
    );
    let request =
        r#"{"command": "str_replace", "path": "d/b.txt", "old_str": "x", "new_str": "y"}"#;
    let done = edit(&session, request, Dialect::StrReplace);
    assert!(done.outcome.ok, "{}", done.outcome.text);
    assert_eq!(text(&disk, "d/b.txt"), "y\n");

    // apply-patch: a new file.
    let patch = "*** Begin Patch\n*** Add File: d/c.txt\n+new\n*** End Patch\n";
    let done = edit(&session, patch, Dialect::ApplyPatch);
    assert!(done.outcome.ok, "{}", done.outcome.text);
    assert_eq!(text(&disk, "d/c.txt"), "new\n");
}

#[test]
fn write_works_and_undo_is_refused_in_memory() {
    let (session, disk) = session(&[]);
    let written = Response::from(session.write("n/new.txt", b"hello\n", Anchors::Tag));
    assert!(written.outcome.ok, "{}", written.outcome.text);
    assert!(written.outcome.text.starts_with("¶n/new.txt#"));
    assert_eq!(text(&disk, "n/new.txt"), "hello\n");
    assert_eq!(
        Response::from(session.undo(None)).outcome.code,
        Some(ErrorCode::NeedsDirectory)
    );
    assert_eq!(
        Response::from(session.recover()).report()["code"],
        "E_NEEDS_DIRECTORY"
    );
    let listed = Response::from(session.resolve(ResolveAction::List));
    assert!(listed.outcome.ok, "{}", listed.outcome.text);
    let outside = Response::from(session.read("../x", &ReadOptions::default()));
    assert_eq!(outside.outcome.code, Some(ErrorCode::OutsideRoot));
}

#[test]
fn ast_edit_previews_and_resolve_applies_in_memory() {
    let (session, disk) = session(&[
        ("web/a.js", "console.log(1);\nrun();\nconsole.log(2);\n"),
        ("web/b.js", "console.log(3);\n"),
        ("web/.hidden/c.js", "console.log(4);\n"),
        ("web/node_modules/m/i.js", "console.log(5);\n"),
        ("notes.txt", "console.log(6)\n"),
    ]);
    let rules = vec![hashline::Rule::new("console.log($A)", "logger.info($A)")];
    let options = hashline::AstEditOptions::default();
    let preview = Response::from(session.ast_edit_with_progress(
        rules.clone(),
        vec!["web".into()],
        &options,
        &|_, _| {},
    ));
    assert!(preview.outcome.ok, "{}", preview.outcome.text);
    let report = preview.report();
    assert_eq!(report["preview"]["total_replacements"], 3, "{report}");
    assert_eq!(report["preview"]["files_touched"], 2, "{report}");
    assert!(
        preview.outcome.text.contains("¶web/a.js#"),
        "{}",
        preview.outcome.text
    );
    assert_eq!(
        text(&disk, "web/a.js"),
        "console.log(1);\nrun();\nconsole.log(2);\n",
        "a preview writes nothing"
    );

    // Part of it applied, the rest discarded.
    let applied = Response::from(session.resolve(ResolveAction::Apply {
        id: None,
        only: Some(vec!["1:2".into(), "2:1".into()]),
    }));
    assert!(applied.outcome.ok, "{}", applied.outcome.text);
    assert_eq!(
        applied.report()["resolve"]["still_pending"],
        serde_json::json!(["1:1"])
    );
    assert_eq!(
        text(&disk, "web/a.js"),
        "console.log(1);\nrun();\nlogger.info(2);\n"
    );
    assert_eq!(text(&disk, "web/b.js"), "logger.info(3);\n");
    let dropped = Response::from(session.resolve(ResolveAction::Discard { id: None }));
    assert!(dropped.outcome.ok, "{}", dropped.outcome.text);
    assert_eq!(text(&disk, "web/.hidden/c.js"), "console.log(4);\n");
    assert_eq!(text(&disk, "web/node_modules/m/i.js"), "console.log(5);\n");

    // A file changed after its preview: the apply is refused, nothing is written.
    let back = vec![hashline::Rule::new("logger.info($A)", "log($A)")];
    let again = Response::from(session.ast_edit_with_progress(
        back,
        vec!["web/b.js".into()],
        &options,
        &|_, _| {},
    ));
    assert!(again.outcome.ok, "{}", again.outcome.text);
    assert_eq!(again.report()["preview"]["total_replacements"], 1);
    let before = text(&disk, "web/a.js");
    disk.insert("web/b.js", "logger.info(3);\nconsole.log(7);\n");
    let stale = Response::from(session.resolve(ResolveAction::Apply {
        id: None,
        only: None,
    }));
    assert_eq!(stale.outcome.code, Some(ErrorCode::StalePreview));
    assert_eq!(text(&disk, "web/a.js"), before);
    assert_eq!(
        text(&disk, "web/b.js"),
        "logger.info(3);\nconsole.log(7);\n"
    );

    // Names: a missing one and one outside the tree are refused.
    let rules = vec![hashline::Rule::new("foo($A)", "bar($A)")];
    let missing = Response::from(session.ast_edit_with_progress(
        rules.clone(),
        vec!["nope".into()],
        &options,
        &|_, _| {},
    ));
    assert_eq!(missing.outcome.code, Some(ErrorCode::FileNotFound));
    let outside = Response::from(session.ast_edit_with_progress(
        rules,
        vec!["../x".into()],
        &options,
        &|_, _| {},
    ));
    assert_eq!(outside.outcome.code, Some(ErrorCode::OutsideRoot));
}

/// One thread per file, each reading and editing its file ten times with the anchors the
/// last answer returned.
fn edit_own_file(session: &Session, path: &str) {
    for n in 0..10 {
        let shown = read(session, path, Anchors::Tag);
        let patch = format!("{}\ninsert tail:\n+line {n}\n", header(&shown));
        let done = edit(session, &patch, Dialect::Hashline);
        assert!(done.outcome.ok, "{path}: {}", done.outcome.text);
    }
}

fn expected_after_ten() -> String {
    let mut want = "start\n".to_owned();
    for n in 0..10 {
        want.push_str(&format!("line {n}\n"));
    }
    want
}

#[test]
fn one_session_is_shared_between_threads() {
    let paths = ["t0.txt", "t1.txt", "t2.txt", "t3.txt"];
    let files: Vec<(&str, &str)> = paths.iter().map(|p| (*p, "start\n")).collect();
    let (session, disk) = session(&files);
    std::thread::scope(|scope| {
        for path in paths {
            let session = &session;
            scope.spawn(move || edit_own_file(session, path));
        }
    });
    for path in paths {
        assert_eq!(text(&disk, path), expected_after_ten(), "{path}");
    }
}

#[test]
fn one_session_serves_async_tasks() {
    let paths: [&'static str; 3] = ["a0.txt", "a1.txt", "a2.txt"];
    let files: Vec<(&str, &str)> = paths.iter().map(|p| (*p, "start\n")).collect();
    let (session, disk) = session(&files);
    let session = Arc::new(session);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let tasks: Vec<_> = paths
            .iter()
            .map(|&path| {
                let session = Arc::clone(&session);
                tokio::task::spawn_blocking(move || edit_own_file(&session, path))
            })
            .collect();
        for task in tasks {
            task.await.expect("task");
        }
    });
    for path in paths {
        assert_eq!(text(&disk, path), expected_after_ten(), "{path}");
    }
}

/// str-replace `create` asks the tree it runs on whether the parent directory exists, never the
/// host's working directory: in memory a file is created at the root and under a directory the
/// tree has, and refused under one it lacks, wherever the process runs.
#[test]
fn str_replace_create_looks_for_the_parent_on_its_own_tree() {
    let (session, disk) = session(&[("src/lib.rs", "fn a() {}\n")]);
    let create = |path: &str| {
        let request = serde_json::json!({"command": "create", "path": path, "file_text": "new\n"});
        edit(&session, &request.to_string(), Dialect::StrReplace)
    };
    let at_root = create("a_file_only_in_memory.txt");
    assert!(at_root.outcome.ok, "{}", at_root.outcome.text);
    assert_eq!(text(&disk, "a_file_only_in_memory.txt"), "new\n");

    let under_src = create("src/b.txt");
    assert!(under_src.outcome.ok, "{}", under_src.outcome.text);
    assert_eq!(text(&disk, "src/b.txt"), "new\n");

    // `tests/` exists where the test runs (the package directory), but not in the tree.
    let absent = create("tests/c.txt");
    assert!(
        !absent.outcome.ok,
        "created under a directory the tree lacks"
    );
    assert!(
        absent.outcome.text.contains("No such file or directory"),
        "{}",
        absent.outcome.text
    );
    assert!(disk.get("tests/c.txt").is_none());
}
