//! [`Disk`]: where the executor resolves, locks, reads and writes: the [`Workspace`] of the tool,
//! or in-memory files ([`MemoryDisk`]) for library callers and conformance runs.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::fs::{FsError, LockGuard, Target, Workspace};

use super::commit::{commit, CommitError, Recorder, Staged};

/// The file system seam of the executor.
pub(crate) trait Disk {
    /// Resolve a request path to its target (its store key is the file's identity).
    fn resolve(&self, path: &str) -> Result<Target, FsError>;
    /// Lock `targets` until the guard drops (`None`: nothing to lock).
    fn lock(&self, targets: &[&Target]) -> Result<Option<LockGuard>, FsError>;
    /// The file's bytes, `None` when it does not exist.
    fn read(&self, target: &Target) -> Result<Option<Vec<u8>>, FsError>;
    /// The directory absolute request paths are made relative to, if any.
    fn cwd(&self) -> Option<String>;
    /// Write every staged file, all or nothing (the caller holds their locks), and record each
    /// in the session store. `Ok`
    /// holds the store's worded failures, one list per staged file.
    fn commit(
        &self,
        staged: Vec<Staged<'_>>,
        recorder: &Recorder<'_>,
    ) -> Result<Vec<Vec<String>>, CommitError>;
}

impl Disk for Workspace {
    fn resolve(&self, path: &str) -> Result<Target, FsError> {
        Workspace::resolve(self, path)
    }

    fn lock(&self, targets: &[&Target]) -> Result<Option<LockGuard>, FsError> {
        Workspace::lock(self, targets).map(Some)
    }

    fn read(&self, target: &Target) -> Result<Option<Vec<u8>>, FsError> {
        Workspace::read(self, target)
    }

    fn cwd(&self) -> Option<String> {
        Some(self.root().display().to_string())
    }

    fn commit(
        &self,
        staged: Vec<Staged<'_>>,
        recorder: &Recorder<'_>,
    ) -> Result<Vec<Vec<String>>, CommitError> {
        // The executor holds the targets' locks since before it read them.
        commit(self, staged, recorder)
    }
}

/// In-memory files keyed by normalized path (see [`normalize_path`]): lexical identity, no
/// locks; a commit replaces the map's entries.
pub(crate) struct MemoryDisk<'a> {
    files: RefCell<&'a mut BTreeMap<String, Vec<u8>>>,
}

impl<'a> MemoryDisk<'a> {
    /// Files `files` (keys already normalized).
    pub fn new(files: &'a mut BTreeMap<String, Vec<u8>>) -> MemoryDisk<'a> {
        MemoryDisk {
            files: RefCell::new(files),
        }
    }
}

impl Disk for MemoryDisk<'_> {
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

    fn lock(&self, _targets: &[&Target]) -> Result<Option<LockGuard>, FsError> {
        Ok(None)
    }

    fn read(&self, target: &Target) -> Result<Option<Vec<u8>>, FsError> {
        Ok(self.files.borrow().get(&target.key).cloned())
    }

    fn cwd(&self) -> Option<String> {
        None
    }

    fn commit(
        &self,
        staged: Vec<Staged<'_>>,
        recorder: &Recorder<'_>,
    ) -> Result<Vec<Vec<String>>, CommitError> {
        let mut files = self.files.borrow_mut();
        let mut recorded = Vec::with_capacity(staged.len());
        for mut s in staged {
            match s.written() {
                Some(written) => {
                    let key = written.key.clone();
                    files.insert(key, std::mem::take(&mut s.bytes));
                }
                None => {
                    files.remove(&s.target.key);
                }
            }
            if s.written().is_some_and(|w| w.key != s.target.key) {
                files.remove(&s.target.key);
            }
            recorded.push(recorder.landed(&s));
        }
        Ok(recorded)
    }
}

/// The canonical form of `path` for in-memory files: `.` and empty components dropped, `..`
/// applied lexically (`a.ts`, `./a.ts` and `x/../a.ts` are one file). `None` when `..` climbs
/// above the root.
pub fn normalize_path(path: &str) -> Option<String> {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for c in path.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    Some(if absolute {
        format!("/{joined}")
    } else {
        joined
    })
}

#[cfg(test)]
mod tests {
    use super::normalize_path;

    #[test]
    fn lexical_identity() {
        assert_eq!(normalize_path("./a.ts").as_deref(), Some("a.ts"));
        assert_eq!(normalize_path("x//y/../a.ts").as_deref(), Some("x/a.ts"));
        assert_eq!(normalize_path("/abs/./p").as_deref(), Some("/abs/p"));
        assert_eq!(normalize_path("../a"), None);
    }
}
