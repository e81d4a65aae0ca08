//! `Workspace::resolve` / `read`: root confinement and symlink chains.
#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::Path;

use hashline_core::ErrorCode;
use hashline_fs::{FsError, Workspace};

fn setup() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("root")).expect("mkdir root");
    std::fs::create_dir(dir.path().join("root/sub")).expect("mkdir sub");
    std::fs::write(dir.path().join("root/sub/a.txt"), "a\n").expect("write");
    std::fs::write(dir.path().join("secret.txt"), "s\n").expect("write");
    let ws = Workspace::new(dir.path().join("root")).expect("workspace");
    (dir, ws)
}

fn assert_outside(result: Result<impl std::fmt::Debug, FsError>) {
    match result {
        Err(e @ FsError::OutsideRoot { .. }) => assert_eq!(e.code(), ErrorCode::OutsideRoot),
        other => panic!("expected OutsideRoot, got {other:?}"),
    }
}

#[test]
fn relative_paths_resolve_under_the_canonical_root() {
    let (_dir, ws) = setup();
    let target = ws.resolve("sub/./a.txt").expect("resolve");
    assert_eq!(target.real, ws.root().join("sub/a.txt"));
    assert_eq!(target.display, "sub/./a.txt");
    assert_eq!(target.key, target.real.to_string_lossy());
    let back = ws.resolve("sub/../sub/a.txt").expect("resolve");
    assert_eq!(back.real, target.real);
    assert_eq!(ws.read(&target).expect("read"), Some(b"a\n".to_vec()));
}

#[test]
fn dot_dot_escape_is_refused() {
    let (_dir, ws) = setup();
    assert_outside(ws.resolve("../secret.txt"));
    assert_outside(ws.resolve("sub/../../secret.txt"));
    // Leaving and coming back is still a step outside.
    assert_outside(ws.resolve("../root/sub/a.txt"));
}

#[test]
fn absolute_paths_inside_are_accepted_outside_refused() {
    let (dir, ws) = setup();
    let inside = ws.root().join("sub/a.txt");
    let target = ws
        .resolve(&inside.to_string_lossy())
        .expect("absolute inside");
    assert_eq!(target.real, inside);
    // The root as given (not canonical) also counts as inside.
    let given = dir.path().join("root/sub/a.txt");
    assert_eq!(
        ws.resolve(&given.to_string_lossy()).expect("alias").real,
        inside
    );
    assert_outside(ws.resolve(&dir.path().join("secret.txt").to_string_lossy()));
    assert_outside(ws.resolve("/etc/passwd"));
}

#[test]
fn symlink_escaping_is_refused() {
    let (dir, ws) = setup();
    symlink(dir.path().join("secret.txt"), ws.root().join("abs-out")).expect("symlink");
    symlink("../secret.txt", ws.root().join("rel-out")).expect("symlink");
    symlink("..", ws.root().join("sub/up-out-dir")).expect("symlink");
    assert_outside(ws.resolve("abs-out"));
    assert_outside(ws.resolve("rel-out"));
    assert_outside(ws.resolve("sub/up-out-dir/../secret.txt"));
}

#[test]
fn symlink_chain_escaping_is_refused() {
    let (dir, ws) = setup();
    // link1 -> link2 -> sub/link3 -> ../../secret.txt (outside)
    symlink("link2", ws.root().join("link1")).expect("symlink");
    symlink("sub/link3", ws.root().join("link2")).expect("symlink");
    symlink("../../secret.txt", ws.root().join("sub/link3")).expect("symlink");
    assert_outside(ws.resolve("link1"));
    // A dangling chain whose terminal target would be outside is refused too.
    symlink("dangle2", ws.root().join("dangle1")).expect("symlink");
    symlink(dir.path().join("nowhere.txt"), ws.root().join("dangle2")).expect("symlink");
    assert_outside(ws.resolve("dangle1"));
}

#[test]
fn symlink_chain_inside_resolves_to_final_target() {
    let (_dir, ws) = setup();
    symlink("link2", ws.root().join("link1")).expect("symlink");
    symlink(ws.root().join("sub/link3"), ws.root().join("link2")).expect("symlink");
    symlink("a.txt", ws.root().join("sub/link3")).expect("symlink");
    let target = ws.resolve("link1").expect("resolve chain");
    assert_eq!(target.real, ws.root().join("sub/a.txt"));
    // A dangling link resolves to where its target would be.
    symlink("sub/new.txt", ws.root().join("to-new")).expect("symlink");
    let dangling = ws.resolve("to-new").expect("dangling");
    assert_eq!(dangling.real, ws.root().join("sub/new.txt"));
    assert_eq!(ws.read(&dangling).expect("read"), None);
    // A directory symlink in the middle of a path.
    symlink("sub", ws.root().join("subdir-link")).expect("symlink");
    let through = ws.resolve("subdir-link/a.txt").expect("through dir link");
    assert_eq!(through.real, ws.root().join("sub/a.txt"));
}

#[test]
fn symlink_loops_are_refused() {
    let (_dir, ws) = setup();
    symlink("loop-b", ws.root().join("loop-a")).expect("symlink");
    symlink("loop-a", ws.root().join("loop-b")).expect("symlink");
    let err = ws.resolve("loop-a").expect_err("loop");
    assert!(matches!(err, FsError::TooManyLinks { .. }), "{err:?}");
    assert_eq!(err.code(), ErrorCode::Io);
}

#[test]
fn missing_files_and_directories() {
    let (_dir, ws) = setup();
    let missing = ws.resolve("new/deeper/file.txt").expect("missing is fine");
    assert_eq!(missing.real, ws.root().join("new/deeper/file.txt"));
    assert_eq!(ws.read(&missing).expect("read"), None);
    let dir = ws.resolve("sub").expect("dir");
    let err = ws.read(&dir).expect_err("directory");
    assert_eq!(err.code(), ErrorCode::IsDirectory);
}

#[test]
fn workspace_root_must_be_an_existing_directory() {
    let (dir, _ws) = setup();
    let err = Workspace::new(dir.path().join("nope")).expect_err("missing root");
    assert_eq!(err.code(), ErrorCode::FileNotFound);
    let err = Workspace::new(dir.path().join("secret.txt")).expect_err("file root");
    assert_eq!(err.code(), ErrorCode::Io);
    assert!(Path::new(&dir.path().join("root")).is_dir());
}
