//! `Transaction::commit`: all or nothing, permissions, symlinks, hard links, renames, deletes.

use std::path::Path;

use hashline_core::ErrorCode;
use hashline_fs::{FsError, Transaction, Workspace};

fn workspace() -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().expect("temp dir");
    let ws = Workspace::new(dir.path()).expect("workspace");
    (dir, ws)
}

fn write(ws: &Workspace, rel: &str, bytes: &str) {
    let path = ws.root().join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, bytes).expect("write");
}

fn content(ws: &Workspace, rel: &str) -> Option<String> {
    std::fs::read_to_string(ws.root().join(rel)).ok()
}

/// Every leftover temp file under `dir`, recursively.
fn temps(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(".hashline-"))
        {
            found.push(path.display().to_string());
        }
        if path.is_dir() && !path.is_symlink() {
            found.extend(temps(&path));
        }
    }
    found
}

#[test]
fn two_file_write_lands_together() {
    let (_dir, ws) = workspace();
    write(&ws, "a.txt", "a1\n");
    write(&ws, "b.txt", "b1\n");
    let a = ws.resolve("a.txt").expect("resolve");
    let b = ws.resolve("b.txt").expect("resolve");
    let mut tx = Transaction::new();
    assert!(tx.is_empty());
    tx.write(&a, Some(b"a1\n".to_vec()), b"a2\n".to_vec());
    tx.write(&b, Some(b"b1\n".to_vec()), b"b2\n".to_vec());
    assert_eq!(tx.len(), 2);
    tx.commit(&ws).expect("commit");
    assert_eq!(content(&ws, "a.txt").as_deref(), Some("a2\n"));
    assert_eq!(content(&ws, "b.txt").as_deref(), Some("b2\n"));
    assert!(temps(ws.root()).is_empty());
}

#[test]
fn second_change_stale_leaves_both_files_untouched() {
    let (_dir, ws) = workspace();
    write(&ws, "a.txt", "a1\n");
    write(&ws, "sub/b.txt", "b1\n");
    let a = ws.resolve("a.txt").expect("resolve");
    let b = ws.resolve("sub/b.txt").expect("resolve");
    let mut tx = Transaction::new();
    tx.write(&a, Some(b"a1\n".to_vec()), b"a2\n".to_vec());
    tx.write(
        &b,
        Some(b"what the caller read\n".to_vec()),
        b"b2\n".to_vec(),
    );
    let err = tx.commit(&ws).expect_err("stale second file");
    assert!(
        matches!(&err, FsError::Changed { path } if path == "sub/b.txt"),
        "{err:?}"
    );
    assert_eq!(err.code(), ErrorCode::StaleAnchor);
    assert_eq!(std::fs::read(ws.root().join("a.txt")).expect("a"), b"a1\n");
    assert_eq!(
        std::fs::read(ws.root().join("sub/b.txt")).expect("b"),
        b"b1\n"
    );
    assert!(temps(ws.root()).is_empty(), "{:?}", temps(ws.root()));
}

#[test]
fn create_onto_file_that_appeared_after_reading_is_refused() {
    let (_dir, ws) = workspace();
    write(&ws, "a.txt", "a1\n");
    let a = ws.resolve("a.txt").expect("resolve");
    let created = ws.resolve("new.txt").expect("resolve");
    assert_eq!(ws.read(&created).expect("read"), None);
    let mut tx = Transaction::new();
    tx.write(&a, Some(b"a1\n".to_vec()), b"a2\n".to_vec());
    tx.create(&created, b"fresh\n".to_vec());
    // Another writer creates the file between our read and our commit.
    write(&ws, "new.txt", "appeared\n");
    let err = tx.commit(&ws).expect_err("create onto existing");
    assert!(
        matches!(&err, FsError::Exists { path } if path == "new.txt"),
        "{err:?}"
    );
    assert_eq!(content(&ws, "a.txt").as_deref(), Some("a1\n"));
    assert_eq!(content(&ws, "new.txt").as_deref(), Some("appeared\n"));
    assert!(temps(ws.root()).is_empty());
}

#[cfg(unix)]
#[test]
fn permissions_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    let (_dir, ws) = workspace();
    write(&ws, "run.sh", "echo 1\n");
    let path = ws.root().join("run.sh");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o751)).expect("chmod");
    let target = ws.resolve("run.sh").expect("resolve");
    let mut tx = Transaction::new();
    tx.write(&target, Some(b"echo 1\n".to_vec()), b"echo 2\n".to_vec());
    tx.commit(&ws).expect("commit");
    let mode = std::fs::metadata(&path).expect("meta").permissions().mode() & 0o7777;
    assert_eq!(mode, 0o751);
    assert_eq!(content(&ws, "run.sh").as_deref(), Some("echo 2\n"));
}

#[cfg(unix)]
#[test]
fn new_files_get_the_default_mode() {
    use std::os::unix::fs::PermissionsExt;
    let (_dir, ws) = workspace();
    std::fs::write(ws.root().join("reference"), "x").expect("write");
    let target = ws.resolve("created.txt").expect("resolve");
    let mut tx = Transaction::new();
    tx.create(&target, b"new\n".to_vec());
    tx.commit(&ws).expect("commit");
    let mode = |p: &str| {
        std::fs::metadata(ws.root().join(p))
            .expect("meta")
            .permissions()
            .mode()
            & 0o7777
    };
    assert_eq!(
        mode("created.txt"),
        mode("reference"),
        "same as File::create"
    );
}

#[cfg(unix)]
#[test]
fn write_through_symlink_chain_keeps_links() {
    use std::os::unix::fs::symlink;
    let (_dir, ws) = workspace();
    write(&ws, "real/file.txt", "v1\n");
    symlink("real/file.txt", ws.root().join("link2")).expect("symlink");
    symlink("link2", ws.root().join("link1")).expect("symlink");
    let target = ws.resolve("link1").expect("resolve");
    assert_eq!(target.real, ws.root().join("real/file.txt"));
    let mut tx = Transaction::new();
    tx.write(&target, Some(b"v1\n".to_vec()), b"v2\n".to_vec());
    tx.commit(&ws).expect("commit");
    for link in ["link1", "link2"] {
        let meta = std::fs::symlink_metadata(ws.root().join(link)).expect("meta");
        assert!(meta.file_type().is_symlink(), "{link} is still a symlink");
    }
    assert_eq!(content(&ws, "real/file.txt").as_deref(), Some("v2\n"));
    assert_eq!(content(&ws, "link1").as_deref(), Some("v2\n"));
}

#[cfg(unix)]
#[test]
fn hard_linked_file_changes_every_link() {
    use std::os::unix::fs::MetadataExt;
    let (_dir, ws) = workspace();
    write(&ws, "one.txt", "shared\n");
    std::fs::hard_link(ws.root().join("one.txt"), ws.root().join("two.txt")).expect("link");
    let ino = std::fs::metadata(ws.root().join("one.txt"))
        .expect("meta")
        .ino();
    let target = ws.resolve("one.txt").expect("resolve");
    let mut tx = Transaction::new();
    tx.write(&target, Some(b"shared\n".to_vec()), b"changed\n".to_vec());
    tx.commit(&ws).expect("commit");
    assert_eq!(content(&ws, "one.txt").as_deref(), Some("changed\n"));
    assert_eq!(content(&ws, "two.txt").as_deref(), Some("changed\n"));
    let meta = std::fs::metadata(ws.root().join("two.txt")).expect("meta");
    assert_eq!(meta.ino(), ino);
    assert_eq!(meta.nlink(), 2);
}

#[test]
fn a_file_in_place_of_a_parent_directory_is_refused_before_any_write() {
    let (_dir, ws) = workspace();
    write(&ws, "one.txt", "one\n");
    write(&ws, "blocker", "a file\n");
    // Resolving through a file fails outright, naming the file.
    assert_eq!(
        ws.resolve("blocker/inner.txt").expect_err("ENOTDIR").code(),
        ErrorCode::NotADirectory
    );
    // A path resolved while its parent was missing, whose parent then became a file.
    let late = ws.resolve("late/inner.txt").expect("resolve");
    write(&ws, "late", "now a file\n");
    let one = ws.resolve("one.txt").expect("resolve");
    let mut tx = Transaction::new();
    tx.write(&one, Some(b"one\n".to_vec()), b"changed\n".to_vec());
    tx.create(&late, b"x\n".to_vec());
    let err = tx.commit(&ws).expect_err("parent is a file");
    assert_eq!(err.code(), ErrorCode::Io);
    assert_eq!(content(&ws, "one.txt").as_deref(), Some("one\n"));
    assert!(temps(ws.root()).is_empty());
}

#[test]
fn rename_refuses_existing_destination_unless_overwrite() {
    let (_dir, ws) = workspace();
    write(&ws, "from.txt", "from\n");
    write(&ws, "to.txt", "to\n");
    let from = ws.resolve("from.txt").expect("resolve");
    let to = ws.resolve("to.txt").expect("resolve");
    let mut tx = Transaction::new();
    tx.rename(&from, b"from\n".to_vec(), &to, b"moved\n".to_vec(), false);
    let err = tx.commit(&ws).expect_err("destination exists");
    assert!(
        matches!(&err, FsError::Exists { path } if path == "to.txt"),
        "{err:?}"
    );
    assert_eq!(content(&ws, "from.txt").as_deref(), Some("from\n"));
    assert_eq!(content(&ws, "to.txt").as_deref(), Some("to\n"));

    let mut tx = Transaction::new();
    tx.rename(&from, b"from\n".to_vec(), &to, b"moved\n".to_vec(), true);
    tx.commit(&ws).expect("overwrite");
    assert_eq!(content(&ws, "from.txt"), None);
    assert_eq!(content(&ws, "to.txt").as_deref(), Some("moved\n"));
    assert!(temps(ws.root()).is_empty());
}

#[cfg(unix)]
#[test]
fn rename_into_new_directory_keeps_source_mode() {
    use std::os::unix::fs::PermissionsExt;
    let (_dir, ws) = workspace();
    write(&ws, "tool.sh", "run\n");
    std::fs::set_permissions(
        ws.root().join("tool.sh"),
        std::fs::Permissions::from_mode(0o750),
    )
    .expect("chmod");
    let from = ws.resolve("tool.sh").expect("resolve");
    let to = ws.resolve("bin/deep/tool.sh").expect("resolve");
    let mut tx = Transaction::new();
    tx.rename(&from, b"run\n".to_vec(), &to, b"run\n".to_vec(), false);
    tx.commit(&ws).expect("rename");
    assert_eq!(content(&ws, "tool.sh"), None);
    let meta = std::fs::metadata(ws.root().join("bin/deep/tool.sh")).expect("moved");
    assert_eq!(meta.permissions().mode() & 0o7777, 0o750);
}

#[test]
fn delete_needs_the_expected_bytes() {
    let (_dir, ws) = workspace();
    write(&ws, "gone.txt", "bye\n");
    let target = ws.resolve("gone.txt").expect("resolve");
    let mut tx = Transaction::new();
    tx.delete(&target, b"something else\n".to_vec());
    assert_eq!(
        tx.commit(&ws).expect_err("stale").code(),
        ErrorCode::StaleAnchor
    );
    assert_eq!(content(&ws, "gone.txt").as_deref(), Some("bye\n"));
    let mut tx = Transaction::new();
    tx.delete(&target, b"bye\n".to_vec());
    tx.commit(&ws).expect("delete");
    assert!(!ws.root().join("gone.txt").exists());
    let mut tx = Transaction::new();
    tx.delete(&target, b"bye\n".to_vec());
    assert_eq!(
        tx.commit(&ws).expect_err("already gone").code(),
        ErrorCode::FileNotFound
    );
}

#[test]
fn a_directory_target_stops_the_delete_beside_it() {
    let (_dir, ws) = workspace();
    write(&ws, "keep.txt", "precious\n");
    let keep = ws.resolve("keep.txt").expect("resolve");
    let mut tx = Transaction::new();
    tx.delete(&keep, b"precious\n".to_vec());
    let dir_target = ws.resolve(".").expect("root itself");
    tx.write(&dir_target, Some(Vec::new()), b"x".to_vec());
    let err = tx.commit(&ws).expect_err("root is a directory");
    assert_eq!(err.code(), ErrorCode::IsDirectory);
    assert_eq!(content(&ws, "keep.txt").as_deref(), Some("precious\n"));
}

#[test]
fn create_in_new_subdirectory() {
    let (_dir, ws) = workspace();
    let target = ws.resolve("a/b/c/new.txt").expect("resolve");
    let mut tx = Transaction::new();
    tx.create(&target, b"hello\n".to_vec());
    tx.commit(&ws).expect("create");
    assert_eq!(content(&ws, "a/b/c/new.txt").as_deref(), Some("hello\n"));
    assert!(temps(ws.root()).is_empty());
}

#[test]
fn create_onto_existing_and_duplicates_are_refused() {
    let (_dir, ws) = workspace();
    write(&ws, "here.txt", "x\n");
    let here = ws.resolve("here.txt").expect("resolve");
    let mut tx = Transaction::new();
    tx.create(&here, b"y\n".to_vec());
    assert_eq!(
        tx.commit(&ws).expect_err("exists").code(),
        ErrorCode::FileExists
    );
    let again = ws.resolve("./here.txt").expect("resolve");
    let mut tx = Transaction::new();
    tx.write(&here, Some(b"x\n".to_vec()), b"1\n".to_vec());
    tx.write(&again, Some(b"x\n".to_vec()), b"2\n".to_vec());
    assert_eq!(
        tx.commit(&ws).expect_err("dup").code(),
        ErrorCode::DuplicateFile
    );
    assert_eq!(content(&ws, "here.txt").as_deref(), Some("x\n"));
}

#[test]
fn targets_of_another_workspace_are_refused() {
    let (_dir, ws) = workspace();
    let (_other_dir, other) = workspace();
    let foreign = other.resolve("f.txt").expect("resolve");
    let mut tx = Transaction::new();
    tx.create(&foreign, b"x".to_vec());
    assert_eq!(
        tx.commit(&ws).expect_err("foreign").code(),
        ErrorCode::OutsideRoot
    );
    assert!(!other.root().join("f.txt").exists());
}

#[test]
fn empty_transaction_commits() {
    let (_dir, ws) = workspace();
    Transaction::new().commit(&ws).expect("nothing to do");
}

#[cfg(unix)]
#[test]
fn owner_is_kept_when_the_process_may_set_it() {
    use std::os::unix::fs::MetadataExt;
    let (_dir, ws) = workspace();
    write(&ws, "owned.txt", "v1\n");
    let path = ws.root().join("owned.txt");
    if std::os::unix::fs::chown(&path, Some(4321), Some(4321)).is_err() {
        eprintln!("skipped: this process may not give files away (not root)");
        return;
    }
    let target = ws.resolve("owned.txt").expect("resolve");
    let mut tx = Transaction::new();
    tx.write(&target, Some(b"v1\n".to_vec()), b"v2\n".to_vec());
    tx.commit(&ws).expect("commit");
    let meta = std::fs::metadata(&path).expect("meta");
    assert_eq!((meta.uid(), meta.gid()), (4321, 4321));
    assert_eq!(content(&ws, "owned.txt").as_deref(), Some("v2\n"));
}

#[cfg(unix)]
#[test]
fn read_only_files_are_refused_for_every_change_and_left_alone() {
    use std::os::unix::fs::PermissionsExt;
    let (_dir, ws) = workspace();
    write(&ws, "ok.txt", "ok\n");
    write(&ws, "ro.txt", "ro\n");
    let ro_path = ws.root().join("ro.txt");
    std::fs::set_permissions(&ro_path, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let ok = ws.resolve("ok.txt").expect("resolve");
    let ro = ws.resolve("ro.txt").expect("resolve");
    let elsewhere = ws.resolve("moved.txt").expect("resolve");

    // A rewrite, a delete, a rename away and a rename onto it: each refused, nothing written.
    type Attempt<'a> = Box<dyn Fn(&mut Transaction) + 'a>;
    let attempts: Vec<Attempt> = vec![
        Box::new(|tx| tx.write(&ro, Some(b"ro\n".to_vec()), b"changed\n".to_vec())),
        Box::new(|tx| tx.delete(&ro, b"ro\n".to_vec())),
        Box::new(|tx| tx.rename(&ro, b"ro\n".to_vec(), &elsewhere, b"ro\n".to_vec(), false)),
        Box::new(|tx| tx.rename(&ok, b"ok\n".to_vec(), &ro, b"ok\n".to_vec(), true)),
    ];
    for (i, attempt) in attempts.iter().enumerate() {
        let mut tx = Transaction::new();
        if i != 3 {
            tx.write(&ok, Some(b"ok\n".to_vec()), b"ok2\n".to_vec());
        }
        attempt(&mut tx);
        let err = tx.commit(&ws).expect_err("read-only target");
        assert!(
            matches!(err, FsError::ReadOnly { .. }),
            "attempt {i}: {err}"
        );
        assert_eq!(err.code(), ErrorCode::PermissionDenied);
        assert!(err.to_string().contains("ro.txt"), "{err}");
        assert_eq!(content(&ws, "ro.txt").as_deref(), Some("ro\n"));
        assert_eq!(content(&ws, "ok.txt").as_deref(), Some("ok\n"));
        assert_eq!(content(&ws, "moved.txt"), None);
        assert!(temps(ws.root()).is_empty());
    }
    let mode = std::fs::metadata(&ro_path)
        .expect("meta")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o444);
}
