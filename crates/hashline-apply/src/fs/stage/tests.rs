//! Unit tests of the staging/undo half: failures in the apply phase (after validation passed)
//! cannot be provoked through the public API deterministically, so these build the operations
//! directly.
use super::*;

fn target(root: &Path, rel: &str) -> Target {
    let real = root.join(rel);
    Target {
        display: rel.to_owned(),
        key: real.to_string_lossy().into_owned(),
        real,
    }
}

fn existing(root: &Path, rel: &str) -> Existing {
    Existing::inspect(&target(root, rel))
        .expect("inspect")
        .expect("file exists")
}

/// An `Existing` for a file that is not there: removing it fails at apply time.
fn phantom() -> Existing {
    Existing {
        bytes: Vec::new(),
        attrs: Attrs::of(&std::fs::metadata(".").expect("cwd")),
        links: 1,
        read_only: false,
    }
}

fn leftovers(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            found.extend(leftovers(&path));
        } else if path.to_string_lossy().contains(".hashline-") {
            found.push(path);
        }
    }
    found
}

#[test]
fn late_failure_restores_replaced_created_and_removed_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::write(root.join("a.txt"), "a1\n").expect("write");
    std::fs::write(root.join("del.txt"), "keep me\n").expect("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::Permissions::from_mode(0o640);
        std::fs::set_permissions(root.join("a.txt"), mode).expect("chmod");
    }
    let ops = vec![
        Op::replace(
            target(root, "a.txt"),
            b"a2\n".to_vec(),
            existing(root, "a.txt"),
        ),
        Op::create(target(root, "new/sub/n.txt"), b"n\n".to_vec(), None),
        Op::remove(target(root, "del.txt"), existing(root, "del.txt")),
        Op::remove(target(root, "missing.txt"), phantom()),
    ];
    let err = run(ops).expect_err("removing a missing file fails");
    assert!(
        matches!(&err, FsError::Io { path, .. } if path == "missing.txt"),
        "{err:?}"
    );
    assert_eq!(std::fs::read(root.join("a.txt")).expect("a"), b"a1\n");
    assert_eq!(
        std::fs::read(root.join("del.txt")).expect("del"),
        b"keep me\n"
    );
    assert!(
        !root.join("new").exists(),
        "created directories are removed"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(root.join("a.txt")).expect("meta");
        assert_eq!(meta.permissions().mode() & 0o7777, 0o640);
    }
    assert!(leftovers(root).is_empty(), "{:?}", leftovers(root));
}

#[cfg(unix)]
#[test]
fn late_failure_rewrites_hard_linked_file_back_in_place() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::write(root.join("one.txt"), "shared\n").expect("write");
    std::fs::hard_link(root.join("one.txt"), root.join("two.txt")).expect("link");
    std::fs::write(root.join("taken.txt"), "taken\n").expect("write");
    let ino = std::fs::metadata(root.join("two.txt")).expect("meta").ino();
    let ops = vec![
        Op::replace(
            target(root, "one.txt"),
            b"changed\n".to_vec(),
            existing(root, "one.txt"),
        ),
        // A create whose destination appeared after validation: the no-clobber rename fails.
        Op::create(target(root, "taken.txt"), b"mine\n".to_vec(), None),
    ];
    assert!(matches!(ops[0], Op::InPlace { .. }));
    let err = run(ops).expect_err("destination exists");
    assert!(
        matches!(&err, FsError::Exists { path } if path == "taken.txt"),
        "{err:?}"
    );
    assert_eq!(
        std::fs::read(root.join("two.txt")).expect("two"),
        b"shared\n"
    );
    assert_eq!(
        std::fs::read(root.join("taken.txt")).expect("taken"),
        b"taken\n"
    );
    let meta = std::fs::metadata(root.join("one.txt")).expect("meta");
    assert_eq!((meta.ino(), meta.nlink()), (ino, 2));
    assert!(leftovers(root).is_empty(), "{:?}", leftovers(root));
}

#[test]
fn staging_failure_changes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::write(root.join("a.txt"), "a1\n").expect("write");
    std::fs::write(root.join("file"), "not a dir\n").expect("write");
    let ops = vec![
        Op::replace(
            target(root, "a.txt"),
            b"a2\n".to_vec(),
            existing(root, "a.txt"),
        ),
        Op::create(target(root, "made/x.txt"), b"x\n".to_vec(), None),
        Op::create(target(root, "file/inner.txt"), b"x\n".to_vec(), None),
    ];
    assert_eq!(
        run(ops)
            .expect_err("cannot stage under a file")
            .code()
            .as_str(),
        "E_IO"
    );
    assert_eq!(std::fs::read(root.join("a.txt")).expect("a"), b"a1\n");
    assert!(!root.join("made").exists());
    assert!(leftovers(root).is_empty(), "{:?}", leftovers(root));
}
