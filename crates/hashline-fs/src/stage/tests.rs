//! Unit tests of the staging/undo half: failures in the apply phase (after validation passed)
//! cannot be provoked through the public API deterministically, so these build the operations
//! directly.
use super::*;
use std::io::Write;

/// The target `rel` under `root`, as the workspace resolves it.
pub(super) fn target(root: &Path, rel: &str) -> Target {
    let real = root.join(rel);
    Target {
        display: rel.to_owned(),
        key: real.to_string_lossy().into_owned(),
        real,
    }
}

fn existing(root: &Path, rel: &str) -> Existing<'static> {
    Existing::inspect(root, &target(root, rel))
        .expect("inspect")
        .expect("file exists")
}

/// Runs `ops` with the journal in `root/.journal`; the journal must be gone afterwards.
fn run_in(root: &Path, ops: Vec<Op>) -> Result<(), FsError> {
    let journal = root.join(".journal");
    let result = run(root, &journal, ops, None).map(|_| ());
    // The key that seals the plans stays: it is not a journal.
    let left: Vec<_> = std::fs::read_dir(&journal)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| !p.ends_with(crate::seal::KEY_FILE))
                .collect()
        })
        .unwrap_or_default();
    assert!(left.is_empty(), "journal left: {left:?}");
    result
}

/// [`run_in`] with apply step `n` failing.
fn run_failing_at(root: &Path, ops: Vec<Op>, n: usize) -> Result<(), FsError> {
    FAIL_AT.with(|f| f.set(Some(n)));
    let result = run_in(root, ops);
    FAIL_AT.with(|f| f.set(None));
    result
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
    std::fs::write(root.join("last.txt"), "l1\n").expect("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::Permissions::from_mode(0o640);
        std::fs::set_permissions(root.join("a.txt"), mode).expect("chmod");
    }
    let ops = vec![
        Op::replace(
            target(root, "a.txt"),
            b"a2\n".to_vec().into(),
            existing(root, "a.txt"),
        ),
        Op::create(target(root, "new/sub/n.txt"), b"n\n".to_vec().into(), None),
        Op::remove(target(root, "del.txt"), existing(root, "del.txt")),
        Op::replace(
            target(root, "last.txt"),
            b"l2\n".to_vec().into(),
            existing(root, "last.txt"),
        ),
    ];
    // The last step fails after the commit point: everything before it is undone.
    let err = run_failing_at(root, ops, 3).expect_err("injected failure");
    assert!(
        matches!(&err, FsError::Io { path, .. } if path == "last.txt"),
        "{err:?}"
    );
    assert_eq!(std::fs::read(root.join("last.txt")).expect("l"), b"l1\n");
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
            b"changed\n".to_vec().into(),
            existing(root, "one.txt"),
        ),
        Op::replace(
            target(root, "taken.txt"),
            b"mine\n".to_vec().into(),
            existing(root, "taken.txt"),
        ),
    ];
    assert!(matches!(ops[0], Op::InPlace { .. }));
    let err = run_failing_at(root, ops, 1).expect_err("injected failure");
    assert!(
        matches!(&err, FsError::Io { path, .. } if path == "taken.txt"),
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
            b"a2\n".to_vec().into(),
            existing(root, "a.txt"),
        ),
        Op::create(target(root, "made/x.txt"), b"x\n".to_vec().into(), None),
        Op::create(target(root, "file/inner.txt"), b"x\n".to_vec().into(), None),
    ];
    assert_eq!(
        run_in(root, ops)
            .expect_err("cannot stage under a file")
            .code()
            .as_str(),
        "E_IO"
    );
    assert_eq!(std::fs::read(root.join("a.txt")).expect("a"), b"a1\n");
    assert!(!root.join("made").exists());
    assert!(leftovers(root).is_empty(), "{:?}", leftovers(root));
}

#[test]
fn a_file_changed_after_validation_is_refused_as_stale() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::write(root.join("a.txt"), "a1\n").expect("write");
    std::fs::write(root.join("b.txt"), "b1\n").expect("write");
    let ops = vec![
        Op::replace(
            target(root, "a.txt"),
            b"a2\n".to_vec().into(),
            existing(root, "a.txt"),
        ),
        Op::replace(
            target(root, "b.txt"),
            b"b2\n".to_vec().into(),
            existing(root, "b.txt"),
        ),
    ];
    // Another writer appends after the edit read the file (not using the lock).
    std::fs::OpenOptions::new()
        .append(true)
        .open(root.join("b.txt"))
        .and_then(|mut f| f.write_all(b"appended\n"))
        .expect("append");
    let err = run_in(root, ops).expect_err("stale");
    assert_eq!(err.code().as_str(), "E_STALE_ANCHOR");
    assert_eq!(std::fs::read(root.join("a.txt")).expect("a"), b"a1\n");
    assert_eq!(
        std::fs::read(root.join("b.txt")).expect("b"),
        b"b1\nappended\n"
    );
    assert!(leftovers(root).is_empty(), "{:?}", leftovers(root));
}

#[test]
fn a_file_with_one_name_is_backed_up_as_a_link_and_others_as_copies() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::write(root.join("a.txt"), "a1\n").expect("write");
    std::fs::write(root.join("b.txt"), "b1\n").expect("write");
    std::fs::hard_link(root.join("b.txt"), root.join("b2.txt")).expect("link");
    let journal = Journal::begin(&root.join(".journal")).expect("journal");
    let parent = |rel: &str| {
        beneath::open_parent(root, &root.join(rel), rel, None)
            .expect("parent")
            .expect("exists")
    };
    let mut a = existing(root, "a.txt");
    let before = a.stamp;
    let file = backup_linked(&journal, 0, &parent("a.txt"), &mut a, "a.txt")
        .expect("no error")
        .expect("linked");
    let (backup, target) = (
        file.metadata().expect("backup"),
        std::fs::metadata(root.join("a.txt")).expect("a"),
    );
    assert_eq!((backup.ino(), backup.nlink()), (target.ino(), 2));
    assert_eq!(
        a.stamp,
        Stamp::of(&target),
        "the link's ctime is the version now"
    );
    assert_eq!((a.stamp.ino, a.stamp.mtime), (before.ino, before.mtime));
    // Replaced by a rename, the old inode (its bytes) lives on as the backup alone.
    std::fs::write(root.join("new.tmp"), "a2\n").expect("write");
    std::fs::rename(root.join("new.tmp"), root.join("a.txt")).expect("rename");
    assert_eq!(
        std::fs::read(journal.dir.join("old-0")).expect("backup"),
        b"a1\n"
    );
    // A file with two names is copied (a link would share the inode with the other name).
    let mut b = existing(root, "b.txt");
    let linked = backup_linked(&journal, 1, &parent("b.txt"), &mut b, "b.txt").expect("ok");
    assert!(linked.is_none());
    assert!(!journal.dir.join("old-1").exists());
    // A file written since it was read is refused, and no link is left.
    std::fs::write(root.join("c.txt"), "c1\n").expect("write");
    let mut c = existing(root, "c.txt");
    std::fs::write(root.join("c.txt"), "c1 and more\n").expect("write");
    let err = backup_linked(&journal, 2, &parent("c.txt"), &mut c, "c.txt").expect_err("changed");
    assert_eq!(err.code().as_str(), "E_STALE_ANCHOR");
    assert!(!journal.dir.join("old-2").exists());
    journal.finish();
}

/// New bytes given as the parts of a text: the journal fingerprints them as the joined bytes,
/// a late failure undoes them like any other, and a commit lands the joined bytes (a rename
/// into place, a create, a hard-linked file rewritten in place).
#[cfg(unix)]
#[test]
fn pieces_are_journaled_undone_and_landed_as_the_joined_text() {
    use hashline_core::Pieces;
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let text = "one\ntwo\nthree\nfour";
    let pieces = || Pieces::new([&text[..4], &text[4..8], &text[8..14], &text[14..]]);
    let setup = || {
        std::fs::write(root.join("a.txt"), "a1\n").expect("write");
        std::fs::write(root.join("one.txt"), "shared\n").expect("write");
        let _ = std::fs::remove_file(root.join("two.txt"));
        std::fs::hard_link(root.join("one.txt"), root.join("two.txt")).expect("link");
        let _ = std::fs::remove_file(root.join("new.txt"));
        vec![
            Op::replace(
                target(root, "a.txt"),
                pieces().into(),
                existing(root, "a.txt"),
            ),
            Op::create(target(root, "new.txt"), pieces().into(), None),
            Op::replace(
                target(root, "one.txt"),
                pieces().into(),
                existing(root, "one.txt"),
            ),
        ]
    };
    let ops = setup();
    assert!(matches!(ops[2], Op::InPlace { .. }));
    let whole = Print::of(text.as_bytes());
    for (n, op) in ops.iter().enumerate() {
        assert_eq!(op.entry(n, "id").new, Some(whole), "op {n}");
    }
    run_failing_at(root, ops, 2).expect_err("injected failure");
    assert_eq!(std::fs::read(root.join("a.txt")).expect("a"), b"a1\n");
    assert_eq!(
        std::fs::read(root.join("two.txt")).expect("two"),
        b"shared\n"
    );
    assert!(!root.join("new.txt").exists());
    run_in(root, setup()).expect("commit");
    for name in ["a.txt", "new.txt", "one.txt", "two.txt"] {
        assert_eq!(
            std::fs::read_to_string(root.join(name)).expect("read"),
            text
        );
    }
    assert!(leftovers(root).is_empty(), "{:?}", leftovers(root));
}
