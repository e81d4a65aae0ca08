//! Embedding hashline in an agent: one [`Session`] held for the whole session.
//!
//! 1. Over an in-memory tree ([`MemoryDisk`]): read a file, edit it with the anchors the read
//!    returned, then see an edit against a version someone else changed refused with fresh
//!    anchors. Nothing touches the disk.
//! 2. A structural rewrite previewed by `ast_edit`, then applied by `resolve`, over an
//!    in-memory tree as well (`Session::open` on a directory walks it as ripgrep does).
//!
//! Run it with `cargo run -p hashline --example embed`; `cargo test` runs it too.

use std::error::Error;
use std::sync::Arc;

use hashline::{
    AstEditOptions, Dialect, EditOptions, ErrorCode, MemoryDisk, ReadOptions, ResolveAction, Rule,
    Session, StateConfig,
};

fn main() -> Result<(), Box<dyn Error>> {
    in_memory()?;
    structural_rewrite()?;
    Ok(())
}

/// Read, edit with the returned anchors, and a stale edit refused, over an in-memory tree.
fn in_memory() -> Result<(), Box<dyn Error>> {
    let tree = Arc::new(MemoryDisk::with_files([(
        "src/greet.rs",
        "pub fn greet() -> &'static str {\n    \"hello\"\n}\n",
    )]));
    let session = Session::with_disk(tree.clone(), &StateConfig::Memory)?;

    // The model reads the file: a `¶PATH#TAG` header, then `N:TEXT` rows.
    let read = session.read("src/greet.rs", &ReadOptions::new())?;
    println!("--- read\n{}", read.text());
    let header = read.text().lines().next().ok_or("empty read")?;

    // It answers with a patch against those anchors; the reply's text is what the model sees
    // next, its `files()[0].tag` the new tag (the next edit's anchor). A refusal would be an
    // `Err` (a `hashline::Refusal`, whose text says what to do next), so `?` stops here.
    let patch = format!("{header}\nreplace 2..2:\n+    \"hello, world\"\n");
    let edited = session.edit(&patch, Dialect::Hashline, &EditOptions::new())?;
    println!("--- edit\n{}", edited.text());
    for warning in edited.warnings() {
        println!("warning {:?}: {}", warning.code, warning.text);
    }
    let new_tag = edited.files()[0].tag.clone().ok_or("no tag")?;
    assert_eq!(
        tree.get("src/greet.rs").as_deref(),
        Some(&b"pub fn greet() -> &'static str {\n    \"hello, world\"\n}\n"[..])
    );

    // Someone else rewrites the line; an edit of it against the tag the model holds cannot be
    // proven right: refused, nothing written, the fresh lines shown.
    tree.insert(
        "src/greet.rs",
        "pub fn greet() -> &'static str {\n    \"bonjour\"\n}\n",
    );
    let stale = format!("¶src/greet.rs#{new_tag}\nreplace 2..2:\n+    \"hi\"\n");
    let refused = session
        .edit(&stale, Dialect::Hashline, &EditOptions::new())
        .err()
        .ok_or("a stale edit lands")?;
    println!("--- stale edit\n{}", refused.text());
    assert_eq!(refused.code(), ErrorCode::StaleAnchor);
    assert_eq!(
        tree.get("src/greet.rs").as_deref(),
        Some(&b"pub fn greet() -> &'static str {\n    \"bonjour\"\n}\n"[..])
    );
    Ok(())
}

/// `ast_edit` previews and queues; `resolve` applies the preview (over an in-memory tree too:
/// the walk and the reads go through the `Disk`).
fn structural_rewrite() -> Result<(), Box<dyn Error>> {
    let tree = Arc::new(MemoryDisk::with_files([(
        "app.js",
        "console.log(\"start\");\nrun();\nconsole.log(\"done\");\n",
    )]));
    let session = Session::with_disk(tree.clone(), &StateConfig::Memory)?;

    let rules = vec![Rule::new("console.log($A)", "logger.info($A)")];
    let options = AstEditOptions::default();
    let preview = session.ast_edit(rules, vec![".".into()], &options)?;
    println!("--- ast_edit preview\n{}", preview.text());
    let id = preview
        .preview()
        .and_then(|p| p.id)
        .ok_or("nothing queued")?;
    let before = tree.get("app.js").ok_or("app.js")?;
    assert!(
        String::from_utf8(before)?.contains("console.log"),
        "a preview writes nothing"
    );

    let applied = session.resolve(ResolveAction::Apply {
        id: Some(id),
        only: None,
    })?;
    println!("--- resolve apply\n{}", applied.text());
    let written = applied.resolved().map_or(0, |r| r.matches.len());
    assert_eq!(written, 2, "both matches written");
    let after = String::from_utf8(tree.get("app.js").ok_or("app.js")?)?;
    assert_eq!(
        after,
        "logger.info(\"start\");\nrun();\nlogger.info(\"done\");\n"
    );
    Ok(())
}

#[test]
fn the_example_runs() {
    if let Err(e) = main() {
        panic!("{e}");
    }
}
