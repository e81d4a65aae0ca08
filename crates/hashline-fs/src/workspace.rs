//! [`Workspace`] and [`Target`]: the root, path resolution, reads and locks.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::beneath;
use super::lock::{self, LockGuard};
use super::recover::{self, Recovery};
use super::resolve::Confinement;
use super::undo_log::UndoLog;
use super::FsError;

/// The directory tree a request may touch: every path resolves inside its canonical root.
#[derive(Debug, Clone)]
pub struct Workspace {
    root: PathBuf,
    /// The root as given (made absolute), when it differs from the canonical one.
    alias: Option<PathBuf>,
    lock_dir: Option<PathBuf>,
    journal_dir: Option<PathBuf>,
    /// Where committed calls are recorded for `undo` (none: not recorded).
    pub(super) undo: Option<UndoLog>,
    /// The state directory and the lock, journal and undo directories (canonical as far as
    /// they exist): no request path may reach into them.
    private: Vec<PathBuf>,
}

/// A resolved path: where a request's path lands on disk.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Target {
    /// The path as the request wrote it (for messages).
    pub display: String,
    /// The final target on disk (symlinks resolved), absolute.
    pub real: PathBuf,
    /// Stable key for the snapshot store: `real` as a string.
    pub key: String,
}

impl Workspace {
    /// Canonicalizes `root` (must exist and be a directory).
    pub fn new(root: impl AsRef<Path>) -> Result<Workspace, FsError> {
        let given = root.as_ref();
        let shown = given.display().to_string();
        let canonical = std::fs::canonicalize(given).map_err(|e| match e.kind() {
            ErrorKind::NotFound => FsError::NotFound {
                path: shown.clone(),
            },
            _ => FsError::io(&shown, e),
        })?;
        let meta = std::fs::metadata(&canonical).map_err(|e| FsError::io(&shown, e))?;
        if !meta.is_dir() {
            return Err(FsError::Io {
                path: shown,
                source: std::io::Error::new(ErrorKind::NotADirectory, "root is not a directory"),
            });
        }
        let alias = std::path::absolute(given)
            .ok()
            .filter(|absolute| *absolute != canonical);
        Ok(Workspace {
            root: canonical,
            alias,
            lock_dir: None,
            journal_dir: None,
            undo: None,
            private: Vec::new(),
        })
    }

    /// Keep the journals (`journal`, with the key that seals their plans and the undo records)
    /// and the undo log (`undo`, records made by `session`) in state directory `dir`, the
    /// CLI's `--state`. The locks stay in the system-wide lock directory (see
    /// [`Workspace::with_lock_dir`]): they belong to the files, so two state directories on one
    /// root exclude each other. No request path may name a file in `dir`, even when it lies
    /// inside the root ([`FsError::InStateDir`]): the engine never writes its own records
    /// through a dialect.
    pub fn with_state_dir(self, dir: PathBuf, session: String) -> Workspace {
        let mut ws = self
            .with_journal_dir(dir.join("journal"))
            .with_undo_log(dir.join("undo"), session);
        ws.private.push(canonical(&dir));
        ws
    }

    /// Whether `real` (an absolute, canonical path) lies in the state directory or in one of
    /// the lock, journal or undo directories (one that holds the root itself does not count:
    /// `--state .` keeps the tree editable).
    pub(super) fn in_state_dir(&self, real: &Path) -> bool {
        self.private
            .iter()
            .any(|dir| real.starts_with(dir) && !self.root.starts_with(dir))
    }

    /// The state directory and the lock, journal and undo directories that lie inside the
    /// root (canonical as far as they exist): every walk of the tree skips them (ast-edit's,
    /// a directory listing through `Disk::children`), as [`Workspace::resolve`] refuses paths
    /// into them.
    pub fn private_dirs(&self) -> Vec<PathBuf> {
        self.private
            .iter()
            .filter(|dir| dir.starts_with(&self.root) && !self.root.starts_with(dir))
            .cloned()
            .collect()
    }

    /// Directory for per-target lock files (default: none → `hashline-locks` in the system
    /// temp dir, shared by every process and user of the machine, so that any two edits of
    /// one file exclude each other whatever their state directories). A private lock
    /// directory excludes only the processes that use it too. Created on first lock.
    pub fn with_lock_dir(mut self, dir: PathBuf) -> Workspace {
        self.private.push(canonical(&dir));
        Workspace {
            lock_dir: Some(dir),
            ..self
        }
    }

    /// Directory of the transactions' intent journals (default: none → `hashline-journal` in
    /// the system temp dir). The CLI uses `<state>/journal`. Created on first commit.
    pub fn with_journal_dir(mut self, dir: PathBuf) -> Workspace {
        self.private.push(canonical(&dir));
        Workspace {
            journal_dir: Some(dir),
            ..self
        }
    }

    /// Record every committed transaction in the undo log in `dir` (the CLI uses
    /// `<state>/undo`), as made by `session` (see [`Workspace::undo`]).
    pub fn with_undo_log(mut self, dir: PathBuf, session: String) -> Workspace {
        self.private.push(canonical(&dir));
        Workspace {
            undo: Some(UndoLog::new(dir, session)),
            ..self
        }
    }

    /// Where this workspace's transactions keep their journals.
    pub fn journal_dir(&self) -> PathBuf {
        self.journal_dir
            .clone()
            .unwrap_or_else(|| std::env::temp_dir().join("hashline-journal"))
    }

    /// Finishes or undoes every transaction of this root that a killed process left in the
    /// journal directory, and removes the temp files they name (see `fs::recover`). Cheap
    /// when there is nothing to do (one directory listing); every call of the CLI runs it.
    pub fn recover(&self) -> Result<Recovery, FsError> {
        recover::recover(self)
    }

    /// The canonical root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The root as given (made absolute), when it differs from the canonical one.
    pub(super) fn alias(&self) -> Option<&Path> {
        self.alias.as_deref()
    }

    /// Resolve a user path (relative to root, or absolute) to its final target: `..` handled,
    /// symlink chains followed to the final target (a missing tail is appended: dangling links
    /// resolve to their terminal target). Refuses (FsError::OutsideRoot) if the final target —
    /// or any step of it — leaves the root. Does not require the file to exist.
    pub fn resolve(&self, path: &str) -> Result<Target, FsError> {
        let confinement = Confinement {
            root: &self.root,
            alias: self.alias.as_deref(),
        };
        let real = confinement.resolve(path)?;
        if self.in_state_dir(&real) {
            return Err(FsError::InStateDir {
                path: path.to_owned(),
            });
        }
        Ok(Target {
            display: path.to_owned(),
            key: real.to_string_lossy().into_owned(),
            real,
        })
    }

    /// Read the target's bytes through directory handles opened without following symlinks;
    /// Ok(None) when it does not exist; Err(IsDirectory) for a dir, Err(NotRegular) for a FIFO,
    /// socket or device (never opened), Err(TooLarge) over the read cap.
    pub fn read(&self, target: &Target) -> Result<Option<Vec<u8>>, FsError> {
        Ok(beneath::read(&self.root, &target.real, &target.display)?.map(|(bytes, _)| bytes))
    }

    /// Take exclusive inter-process locks on every target (sorted, deduplicated, so no
    /// deadlock); released when the guard drops. Hold it across read → validate → commit.
    pub fn lock(&self, targets: &[&Target]) -> Result<LockGuard, FsError> {
        lock::lock_all(self.lock_dir.as_deref(), targets)
    }

    /// The lock a read of `target` must hold to never see half a write: a hard-linked file is
    /// rewritten in place (truncate, then write), so its read waits for the edit's lock. Other
    /// files are replaced by a rename, which a reader never sees half done: `None`, no lock.
    pub fn lock_for_read(&self, target: &Target) -> Result<Option<LockGuard>, FsError> {
        if lock::is_hard_linked(target) {
            self.lock(&[target]).map(Some)
        } else {
            Ok(None)
        }
    }
}

/// `dir` made absolute, its longest existing ancestor canonical (symlinks resolved), so that it
/// compares with resolved targets.
fn canonical(dir: &Path) -> PathBuf {
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut head = absolute.as_path();
    let mut tail = Vec::new();
    loop {
        if let Ok(found) = std::fs::canonicalize(head) {
            return tail.iter().rev().fold(found, |path, name| path.join(name));
        }
        match (head.parent(), head.file_name()) {
            (Some(parent), Some(name)) => {
                tail.push(name.to_owned());
                head = parent;
            }
            _ => return absolute,
        }
    }
}
