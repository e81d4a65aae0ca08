//! [`Disk`]: the file system every command runs on: the [`Workspace`] of the tool (a real
//! directory, confined, locked, journaled), or in-memory files ([`MemoryDisk`]) for library
//! callers, tests and conformance runs. A caller may implement it for its own file system.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

pub use hashline_core::name::normalize_path;

use crate::{Content, FsError, LockGuard, Target, Transaction, Workspace};

/// What a resolved name is on the file system.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Entry {
    /// Nothing exists there.
    Missing,
    /// A regular file; `read_only` when it has no write permission (it is then never changed).
    File {
        /// The file may not be written.
        read_only: bool,
    },
    /// A directory.
    Directory,
    /// A FIFO, socket or device: never opened.
    Special,
    /// It cannot be looked at: permission denied.
    Denied,
    /// It cannot be looked at for another reason.
    Inaccessible,
}

impl Entry {
    /// Whether something exists there (a file, a directory or a special file).
    pub fn exists(self) -> bool {
        matches!(self, Entry::File { .. } | Entry::Directory | Entry::Special)
    }
}

/// One change of a [`Disk::write`] call. Every `expected` is the content the caller read: the
/// write is refused ([`FsError::Changed`]) when the file no longer holds it. Contents are
/// borrowed or owned ([`Cow`]): a caller that keeps its texts lends them, uncopied; new
/// contents are a [`Content`], which may also be the parts of a text
/// ([`hashline_core::Pieces`]), written part by part, never joined.
#[derive(Debug)]
pub enum Change<'a> {
    /// Create (`expected: None`: the file must not exist) or replace the file.
    Write {
        /// The file.
        target: &'a Target,
        /// Its content as read (`None`: it did not exist).
        expected: Option<Cow<'a, [u8]>>,
        /// The new content.
        bytes: Content<'a>,
    },
    /// Remove the file.
    Delete {
        /// The file.
        target: &'a Target,
        /// Its content as read.
        expected: Cow<'a, [u8]>,
    },
    /// Move the file to `dest` with new content.
    Rename {
        /// The file.
        target: &'a Target,
        /// Its content as read.
        expected: Cow<'a, [u8]>,
        /// Where it goes.
        dest: &'a Target,
        /// The new content.
        bytes: Content<'a>,
        /// Replace an existing `dest` (else [`FsError::Exists`]).
        overwrite: bool,
    },
}

/// The file system seam: how a command resolves, locks, inspects, reads and writes files.
///
/// [`Workspace`] is the real one; [`MemoryDisk`] holds files in memory. Every command of
/// every dialect goes through it, so a whole session can run over a virtual tree. An
/// implementation must be all or nothing in [`Disk::write`] and must refuse a change whose
/// file no longer holds its `expected` content.
pub trait Disk: Send + Sync {
    /// Resolve a request path to its target; the target's `key` is the file's identity (the
    /// session's snapshots are recorded under it). Refuse names outside the tree.
    fn resolve(&self, path: &str) -> Result<Target, FsError>;
    /// Lock `targets` against other writers until the guard drops (`None`: nothing to lock).
    fn lock(&self, _targets: &[&Target]) -> Result<Option<LockGuard>, FsError> {
        Ok(None)
    }
    /// Lock `target` for a read when a running write could be seen half done (`None`: no lock
    /// needed).
    fn lock_for_read(&self, _target: &Target) -> Result<Option<LockGuard>, FsError> {
        Ok(None)
    }
    /// The file's bytes, `None` when it does not exist ([`FsError::IsDirectory`] for a
    /// directory).
    fn read(&self, target: &Target) -> Result<Option<Vec<u8>>, FsError>;
    /// What the target is.
    fn entry(&self, target: &Target) -> Entry;
    /// The entries of directory `dir` (a target's `real` path, or a child of one): each name
    /// and whether it is a directory. Empty when it cannot be listed.
    fn children(&self, dir: &Path) -> Vec<(String, bool)>;
    /// The directory absolute request paths are made relative to, if any.
    fn cwd(&self) -> Option<String>;
    /// Apply every change, all or nothing (the caller holds their locks); what was written
    /// says under which undo id the call was recorded, if it was.
    fn write(&self, changes: Vec<Change<'_>>) -> Result<Written, FsError>;
    /// The symlink `path` names itself, when its last name is one (its directories resolved
    /// and confined, the last name not followed): what a deletion of `path` removes. `None`
    /// (the default): no symlink, or a disk without symlinks.
    fn link(&self, _path: &str) -> Result<Option<Target>, FsError> {
        Ok(None)
    }
    /// Remove the symlinks `links` (from [`Disk::link`]) themselves, all or nothing; the
    /// files they point to stay. Only called with targets [`Disk::link`] returned.
    fn remove_links(&self, links: &[&Target]) -> Result<Written, FsError> {
        let path = links
            .first()
            .map_or_else(String::new, |t| t.display.clone());
        Err(FsError::io(
            path,
            std::io::Error::new(std::io::ErrorKind::Unsupported, "this disk has no symlinks"),
        ))
    }
}

/// The warning of a call that landed without an undo record.
pub const UNDO_NOT_RECORDED: &str = "[W_UNDO_NOT_RECORDED] the change was made, but it could \
not be recorded for undo (the undo log in the state directory could not be written, or the \
call's old contents exceed HASHLINE_UNDO_MAX_BYTES); `hashline undo` will refuse rather than \
revert an older call in its place";

/// What a [`Disk::write`] (or a [`Transaction::commit`]) did beyond writing: the id under
/// which the call's old bytes were recorded for undo. It travels with the call's result, so
/// calls of several threads on one disk never see each other's ids.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Written {
    /// The call's undo id (`None`: not recorded, e.g. a disk with no undo log).
    pub undo: Option<u64>,
    /// The call landed but its undo record could not be written (or was too large to keep):
    /// `undo` without an id now refuses rather than revert an older call in its place.
    pub unrecorded: bool,
}

impl Written {
    /// A write recorded under undo id `undo` (`None`: not recorded).
    pub fn with_undo(undo: Option<u64>) -> Written {
        Written {
            undo,
            unrecorded: false,
        }
    }

    /// The warning a reply carries when the call landed unrecorded (`None`: it was recorded,
    /// or the disk keeps no undo log).
    pub fn warning(&self) -> Option<&'static str> {
        self.unrecorded.then_some(UNDO_NOT_RECORDED)
    }

    /// A write whose undo record could not be kept (see [`Written::unrecorded`]).
    pub fn unrecorded() -> Written {
        Written {
            undo: None,
            unrecorded: true,
        }
    }
}

impl Disk for Workspace {
    fn resolve(&self, path: &str) -> Result<Target, FsError> {
        Workspace::resolve(self, path)
    }

    fn lock(&self, targets: &[&Target]) -> Result<Option<LockGuard>, FsError> {
        Workspace::lock(self, targets).map(Some)
    }

    fn lock_for_read(&self, target: &Target) -> Result<Option<LockGuard>, FsError> {
        Workspace::lock_for_read(self, target)
    }

    fn read(&self, target: &Target) -> Result<Option<Vec<u8>>, FsError> {
        Workspace::read(self, target)
    }

    fn entry(&self, target: &Target) -> Entry {
        match std::fs::metadata(&target.real) {
            Err(e) => match e.kind() {
                std::io::ErrorKind::NotFound => Entry::Missing,
                std::io::ErrorKind::PermissionDenied => Entry::Denied,
                _ => Entry::Inaccessible,
            },
            Ok(meta) if meta.is_dir() => Entry::Directory,
            Ok(meta) if !meta.is_file() => Entry::Special,
            Ok(meta) => Entry::File {
                read_only: meta.permissions().readonly(),
            },
        }
    }

    fn children(&self, dir: &Path) -> Vec<(String, bool)> {
        // Symlinks followed, as `find -L` does; unreadable directories list nothing.
        // The state directory is never listed, as no path into it resolves.
        let Ok(read) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let private = self.private_dirs();
        read.flatten()
            .filter(|e| {
                private.is_empty()
                    || !std::fs::canonicalize(e.path()).is_ok_and(|real| self.in_state_dir(&real))
            })
            .map(|e| {
                let is_dir = std::fs::metadata(e.path()).is_ok_and(|m| m.is_dir());
                (e.file_name().to_string_lossy().into_owned(), is_dir)
            })
            .collect()
    }

    fn cwd(&self) -> Option<String> {
        Some(self.root().display().to_string())
    }

    fn link(&self, path: &str) -> Result<Option<Target>, FsError> {
        Workspace::link(self, path)
    }

    fn remove_links(&self, links: &[&Target]) -> Result<Written, FsError> {
        Workspace::remove_links(self, links)
    }

    fn write(&self, changes: Vec<Change<'_>>) -> Result<Written, FsError> {
        let mut tx = Transaction::new();
        for change in changes {
            match change {
                Change::Write {
                    target,
                    expected,
                    bytes,
                } => tx.write(target, expected, bytes),
                Change::Delete { target, expected } => tx.delete(target, expected),
                Change::Rename {
                    target,
                    expected,
                    dest,
                    bytes,
                    overwrite,
                } => tx.rename(target, expected, dest, bytes, overwrite),
            }
        }
        tx.commit(self)
    }
}

/// In-memory files keyed by normalized path (see [`normalize_path`]): lexical identity, no
/// locks, directories implied by the files under them. `Send + Sync`: one tree can serve
/// several threads (a write checks every expected content and applies all changes under one
/// lock).
#[derive(Debug, Default)]
pub struct MemoryDisk {
    files: Mutex<BTreeMap<String, Vec<u8>>>,
}

impl MemoryDisk {
    /// An empty tree.
    pub fn new() -> MemoryDisk {
        MemoryDisk::default()
    }

    /// A tree holding `files` (path, content); paths are normalized, and one climbing above
    /// the root with `..` is skipped.
    pub fn with_files<P, B>(files: impl IntoIterator<Item = (P, B)>) -> MemoryDisk
    where
        P: AsRef<str>,
        B: Into<Vec<u8>>,
    {
        let map = files
            .into_iter()
            .filter_map(|(p, b)| normalize_path(p.as_ref()).map(|k| (k, b.into())))
            .collect();
        MemoryDisk::from_map(map)
    }

    /// A tree over `files`, whose keys are already normalized.
    pub fn from_map(files: BTreeMap<String, Vec<u8>>) -> MemoryDisk {
        MemoryDisk {
            files: Mutex::new(files),
        }
    }

    /// Create or replace the file at `path` (normalized; `false` when it climbs above the
    /// root).
    pub fn insert(&self, path: &str, bytes: impl Into<Vec<u8>>) -> bool {
        match normalize_path(path) {
            Some(key) => {
                self.map().insert(key, bytes.into());
                true
            }
            None => false,
        }
    }

    /// The content of the file at `path`, if there is one.
    pub fn get(&self, path: &str) -> Option<Vec<u8>> {
        normalize_path(path).and_then(|k| self.map().get(&k).cloned())
    }

    /// A copy of every file, keyed by normalized path.
    pub fn snapshot(&self) -> BTreeMap<String, Vec<u8>> {
        self.map().clone()
    }

    /// The files, keyed by normalized path.
    pub fn into_map(self) -> BTreeMap<String, Vec<u8>> {
        self.files.into_inner().unwrap_or_else(|p| p.into_inner())
    }

    /// The map; a panic of another holder leaves it as that holder left it (every write is
    /// checked before anything is changed, so it is whole).
    fn map(&self) -> MutexGuard<'_, BTreeMap<String, Vec<u8>>> {
        self.files.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Whether `key` names a directory of `files`: the root, or a prefix of some file's key.
fn is_dir(files: &BTreeMap<String, Vec<u8>>, key: &str) -> bool {
    if key.is_empty() || key == "/" {
        return true;
    }
    let prefix = format!("{key}/");
    files
        .range(prefix.clone()..)
        .next()
        .is_some_and(|(k, _)| k.starts_with(&prefix))
}

impl Disk for MemoryDisk {
    fn resolve(&self, path: &str) -> Result<Target, FsError> {
        let key = normalize_path(path).ok_or_else(|| FsError::OutsideRoot {
            path: path.to_owned(),
        })?;
        Ok(Target {
            display: path.to_owned(),
            real: PathBuf::from(&key),
            key,
        })
    }

    fn read(&self, target: &Target) -> Result<Option<Vec<u8>>, FsError> {
        let files = self.map();
        match files.get(&target.key) {
            Some(bytes) => Ok(Some(bytes.clone())),
            None if is_dir(&files, &target.key) => Err(FsError::IsDirectory {
                path: target.display.clone(),
            }),
            None => Ok(None),
        }
    }

    fn entry(&self, target: &Target) -> Entry {
        let files = self.map();
        if files.contains_key(&target.key) {
            Entry::File { read_only: false }
        } else if is_dir(&files, &target.key) {
            Entry::Directory
        } else {
            Entry::Missing
        }
    }

    fn children(&self, dir: &Path) -> Vec<(String, bool)> {
        let key = dir.to_string_lossy();
        let prefix = match key.as_ref() {
            "" => String::new(),
            "/" => "/".to_owned(),
            k => format!("{k}/"),
        };
        let files = self.map();
        let mut out: Vec<(String, bool)> = Vec::new();
        // The keys under `prefix` are one sorted run of the map: no other key is looked at.
        let under = files
            .range(prefix.clone()..)
            .map(|(k, _)| k)
            .take_while(|k| k.starts_with(&prefix));
        for k in under {
            let rest = &k[prefix.len()..];
            let (name, nested) = match rest.split_once('/') {
                Some((name, _)) => (name, true),
                None => (rest, false),
            };
            if !name.is_empty() && out.last().is_none_or(|(last, _)| last != name) {
                out.push((name.to_owned(), nested));
            }
        }
        out
    }

    fn cwd(&self) -> Option<String> {
        None
    }

    fn write(&self, changes: Vec<Change<'_>>) -> Result<Written, FsError> {
        let mut files = self.map();
        let changed = |t: &Target| FsError::Changed {
            path: t.display.clone(),
        };
        // Every change is checked before any is applied: all or nothing.
        for change in &changes {
            match change {
                Change::Write {
                    target, expected, ..
                } => {
                    if files.get(&target.key).map(Vec::as_slice) != expected.as_deref() {
                        return Err(changed(target));
                    }
                }
                Change::Delete { target, expected } => {
                    if files.get(&target.key).map(Vec::as_slice) != Some(&expected[..]) {
                        return Err(changed(target));
                    }
                }
                Change::Rename {
                    target,
                    expected,
                    dest,
                    overwrite,
                    ..
                } => {
                    if files.get(&target.key).map(Vec::as_slice) != Some(&expected[..]) {
                        return Err(changed(target));
                    }
                    if !overwrite && dest.key != target.key && files.contains_key(&dest.key) {
                        return Err(FsError::Exists {
                            path: dest.display.clone(),
                        });
                    }
                }
            }
        }
        for change in changes {
            match change {
                Change::Write { target, bytes, .. } => {
                    files.insert(target.key.clone(), bytes.into_bytes().into_owned());
                }
                Change::Delete { target, .. } => {
                    files.remove(&target.key);
                }
                Change::Rename {
                    target,
                    dest,
                    bytes,
                    ..
                } => {
                    files.remove(&target.key);
                    files.insert(dest.key.clone(), bytes.into_bytes().into_owned());
                }
            }
        }
        Ok(Written::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_identity() {
        assert_eq!(normalize_path("./a.ts").as_deref(), Some("a.ts"));
        assert_eq!(normalize_path("x//y/../a.ts").as_deref(), Some("x/a.ts"));
        assert_eq!(normalize_path("/abs/./p").as_deref(), Some("/abs/p"));
        assert_eq!(normalize_path("../a"), None);
    }

    fn target(disk: &MemoryDisk, path: &str) -> Target {
        disk.resolve(path).expect("resolve")
    }

    #[test]
    fn memory_tree_has_files_and_implied_directories() {
        let disk = MemoryDisk::with_files([("src/a.rs", "a\n"), ("src/m/b.rs", "b\n")]);
        assert_eq!(disk.entry(&target(&disk, "src")), Entry::Directory);
        assert_eq!(disk.entry(&target(&disk, ".")), Entry::Directory);
        assert_eq!(
            disk.entry(&target(&disk, "./src/a.rs")),
            Entry::File { read_only: false }
        );
        assert_eq!(disk.entry(&target(&disk, "src/x")), Entry::Missing);
        assert!(matches!(
            disk.read(&target(&disk, "src")),
            Err(FsError::IsDirectory { .. })
        ));
        assert_eq!(
            disk.children(Path::new("src")),
            vec![("a.rs".to_owned(), false), ("m".to_owned(), true)]
        );
        assert_eq!(disk.children(Path::new("")), vec![("src".to_owned(), true)]);
    }

    #[test]
    fn memory_write_is_all_or_nothing_and_refuses_stale_content() {
        let disk = MemoryDisk::with_files([("a", "1"), ("b", "2")]);
        let (a, b) = (target(&disk, "a"), target(&disk, "b"));
        let stale = disk.write(vec![
            Change::Write {
                target: &a,
                expected: Some(b"1".to_vec().into()),
                bytes: b"one".to_vec().into(),
            },
            Change::Delete {
                target: &b,
                expected: Cow::Borrowed(b"not 2"),
            },
        ]);
        assert!(matches!(stale, Err(FsError::Changed { .. })));
        assert_eq!(disk.get("a").as_deref(), Some(&b"1"[..]), "nothing applied");
        let c = target(&disk, "c");
        disk.write(vec![Change::Rename {
            target: &b,
            expected: b"2".to_vec().into(),
            dest: &c,
            bytes: b"two".to_vec().into(),
            overwrite: false,
        }])
        .expect("rename");
        assert_eq!(disk.get("b"), None);
        assert_eq!(disk.get("c").as_deref(), Some(&b"two"[..]));
    }
}
