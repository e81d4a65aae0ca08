//! A change's new bytes as the parts of a text (`Content` from `Pieces`): every write path of a
//! `Transaction` (rename into place, create, in-place rewrite of a hard-linked file, rename)
//! lands them byte-identical to the same bytes given as one buffer.

use std::borrow::Cow;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use hashline_core::Pieces;
use hashline_fs::{Change, Content, Disk};
use hashline_fs::{Transaction, Workspace};

/// How a change lands.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// Replace `a.txt` (one link, mode 0o640): a temp file renamed over it.
    Replace,
    /// Create `new/dir/a.txt`.
    Create,
    /// Replace `a.txt`, hard-linked as `b.txt`: rewritten in place.
    HardLinked,
    /// Rename `a.txt` to `moved/c.txt` with new bytes.
    Rename,
    /// Rename `a.txt` over the existing `b.txt` with new bytes.
    RenameOver,
}

const SHAPES: [Shape; 5] = [
    Shape::Replace,
    Shape::Create,
    Shape::HardLinked,
    Shape::Rename,
    Shape::RenameOver,
];

const OLD: &str = "old one\nold two\n";

/// A named file after a commit: its bytes, mode and link count.
type Landed = Option<(Vec<u8>, u32, u64)>;

/// Lands `new` by `shape` in a fresh workspace; every named file after it, whether `a.txt`
/// kept its inode (in place), and that no temp file is left.
fn land<'a>(shape: Shape, new: impl Into<Content<'a>>) -> (Vec<Landed>, bool) {
    let dir = tempfile::tempdir().expect("temp dir");
    let ws = Workspace::new(dir.path()).expect("workspace");
    let root = ws.root().to_path_buf();
    let a = root.join("a.txt");
    if !matches!(shape, Shape::Create) {
        std::fs::write(&a, OLD).expect("write");
        std::fs::set_permissions(&a, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    }
    match shape {
        Shape::HardLinked => std::fs::hard_link(&a, root.join("b.txt")).expect("link"),
        Shape::RenameOver => std::fs::write(root.join("b.txt"), "b\n").expect("write"),
        _ => {}
    }
    let ino = std::fs::metadata(&a).map(|m| m.ino()).ok();
    let mut tx = Transaction::new();
    match shape {
        Shape::Replace | Shape::HardLinked => {
            let target = ws.resolve("a.txt").expect("resolve");
            tx.write(&target, Some(OLD.as_bytes()), new);
        }
        Shape::Create => tx.create(&ws.resolve("new/dir/a.txt").expect("resolve"), new),
        Shape::Rename | Shape::RenameOver => {
            let from = ws.resolve("a.txt").expect("resolve");
            let dest = if matches!(shape, Shape::Rename) {
                "moved/c.txt"
            } else {
                "b.txt"
            };
            let to = ws.resolve(dest).expect("resolve");
            tx.rename(&from, OLD.as_bytes(), &to, new, true);
        }
    }
    tx.commit(&ws).expect("commit");
    let files = ["a.txt", "b.txt", "moved/c.txt", "new/dir/a.txt"]
        .iter()
        .map(|rel| {
            let path = root.join(rel);
            let meta = std::fs::metadata(&path).ok()?;
            let bytes = std::fs::read(&path).expect("read");
            Some((bytes, meta.mode() & 0o7777, meta.nlink()))
        })
        .collect();
    let same_inode = ino.is_some() && std::fs::metadata(&a).map(|m| m.ino()).ok() == ino;
    assert!(no_temps(&root), "{shape:?}: a temp file is left");
    (files, same_inode)
}

/// Whether no `.hashline-*` file is left under `dir`.
fn no_temps(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .expect("read dir")
        .flatten()
        .all(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            !name.starts_with(".hashline-") && (!e.path().is_dir() || no_temps(&e.path()))
        })
}

/// `text` cut at `cuts` (in order, within the text).
fn cut<'t>(text: &'t str, cuts: &[usize]) -> Pieces<'t> {
    let mut at = 0;
    let mut parts = Vec::new();
    for &c in cuts.iter().chain([&text.len()]) {
        parts.push(&text[at..c]);
        at = c;
    }
    Pieces::new(parts)
}

/// Lands `text` by every shape, as one buffer and as `pieces` (which read `text`): the same
/// files, holding `text`.
fn lands_alike(text: &str, pieces: &Pieces<'_>) {
    assert!(pieces.eq_str(text));
    for shape in SHAPES {
        let whole = land(shape, text.as_bytes());
        let parts = land(shape, pieces);
        assert!(whole == parts, "{shape:?}: pieces landed otherwise");
        let written: Vec<&Vec<u8>> = parts.0.iter().flatten().map(|(b, _, _)| b).collect();
        let expect = match shape {
            Shape::HardLinked => 2, // both names
            _ => 1,
        };
        assert_eq!(
            written.iter().filter(|b| **b == text.as_bytes()).count(),
            expect
        );
        match shape {
            Shape::HardLinked => {
                assert!(parts.1, "rewritten in place");
                assert_eq!(parts.0[0].as_ref().map(|f| (f.1, f.2)), Some((0o640, 2)));
            }
            Shape::Replace => {
                assert!(!parts.1, "renamed into place");
                assert_eq!(parts.0[0].as_ref().map(|f| (f.1, f.2)), Some((0o640, 1)));
            }
            Shape::Rename => {
                assert_eq!(parts.0[0], None, "moved away");
                assert_eq!(parts.0[2].as_ref().map(|f| f.1), Some(0o640));
            }
            Shape::RenameOver => assert_eq!(parts.0[0], None, "moved away"),
            Shape::Create => {}
        }
    }
}

#[test]
fn several_parts_land_as_one_buffer() {
    let text = "first\nsecond\nthird\nfourth\nno end";
    lands_alike(text, &cut(text, &[6, 13, 19, 26]));
    lands_alike(text, &Pieces::whole(text));
    lands_alike("", &Pieces::default());
}

#[test]
fn a_nine_mib_part_lands_as_one_buffer() {
    let line = "a line of a big file, long enough to fill it quickly\n";
    let text = line.repeat(9 * 1024 * 1024 / line.len() + 1);
    assert!(text.len() > 9 * 1024 * 1024);
    // A small head, the big middle, one line, the rest: several parts around a 9 MiB one.
    let head = 3 * line.len();
    let tail = text.len() - 2 * line.len();
    lands_alike(&text, &cut(&text, &[head, tail, tail + line.len()]));
}

/// Through the `Disk` seam: a `Change` of pieces lands as its text.
#[test]
fn a_disk_change_of_pieces_lands_as_its_text() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ws = Workspace::new(dir.path()).expect("workspace");
    std::fs::write(ws.root().join("a.txt"), OLD).expect("write");
    let (a, b) = (
        ws.resolve("a.txt").expect("resolve"),
        ws.resolve("b.txt").expect("resolve"),
    );
    let text = "old one\nnew row\nold two\n";
    Disk::write(
        &ws,
        vec![
            Change::Write {
                target: &a,
                expected: Some(Cow::Borrowed(OLD.as_bytes())),
                bytes: cut(text, &[8, 16]).into(),
            },
            Change::Write {
                target: &b,
                expected: None,
                bytes: cut(text, &[8]).into(),
            },
        ],
    )
    .expect("write");
    assert_eq!(
        std::fs::read_to_string(ws.root().join("a.txt"))
            .ok()
            .as_deref(),
        Some(text)
    );
    assert_eq!(
        std::fs::read_to_string(ws.root().join("b.txt"))
            .ok()
            .as_deref(),
        Some(text)
    );
}
