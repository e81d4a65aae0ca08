//! The intent journal of a [`super::Transaction`]: what a crash leaves behind and how to finish
//! or undo it.
//!
//! Layout, in the workspace's journal directory (`<state>/journal` for the CLI):
//!
//! * `<id>.lock` — created and `flock`ed by the committing process first, held until the
//!   journal is gone: a journal whose lock can be taken belongs to a dead process.
//! * `<id>/plan.json` — every change: target path, temp file name (`.hashline-<id>-<n>.tmp`
//!   beside the target), fingerprints (XXH3-128 + length) of the old and new bytes, and the
//!   backup file of the old bytes (`old-<n>`). Sealed with the state directory's key
//!   (`seal.key` beside the journals, see `seal.rs`); written and fsynced before any temp file
//!   is created. A recovery acts only on a plan whose seal verifies and whose every name is one
//!   the engine itself uses (`trust.rs`).
//! * `<id>/old-<n>` — the old bytes of every replaced or removed file (fsynced), so a hard-linked
//!   file rewritten in place, or any file, can be restored after a kill: a second hard link to
//!   a file with one name that a rename replaces (the rename leaves that inode to the backup),
//!   a copy otherwise.
//! * `<id>/COMMITTED` — created (and the directory fsynced) once every temp and backup is on
//!   disk, right before the first rename: from here the recovery rolls forward.
//! * `<id>/ROLLBACK` — created before an in-process rollback: the recovery restores the old
//!   bytes instead.
//!
//! Both markers are sealed like the plan ([`MarkerBody`]: the journal's id, the marker's name
//! and the XXH3-128 of the plan's bytes), written under `<marker>.new` and renamed into place,
//! so a marker that exists is whole: one that does not verify was not written by hashline for
//! this plan, and recovery refuses the journal rather than roll a call forward or back that
//! never reached that point.
//!
//! The journal is removed after the last rename (or after a rollback).

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::seal::{Domain, Seal};
use super::FsError;

/// XXH3-128 and length of a file's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Print {
    /// Byte length.
    pub(super) len: u64,
    /// XXH3-128 of the bytes.
    pub(super) hash: u128,
}

impl Print {
    /// The fingerprint of `bytes`.
    pub(super) fn of(bytes: &[u8]) -> Print {
        Print {
            len: bytes.len() as u64,
            hash: xxhash_rust::xxh3::xxh3_128(bytes),
        }
    }

    /// The fingerprint of the concatenation of `parts`, hashed part by part (streamed XXH3-128:
    /// the same print as of the joined bytes).
    pub(super) fn of_parts<'p>(parts: impl IntoIterator<Item = &'p [u8]>) -> Print {
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        let mut len = 0u64;
        for part in parts {
            hasher.update(part);
            len += part.len() as u64;
        }
        Print {
            len,
            hash: hasher.digest128(),
        }
    }
}

/// What one entry does to its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(super) enum Kind {
    /// The temp file is renamed over (or onto) the target.
    Put,
    /// The target (hard-linked) is rewritten in place with the temp file's bytes.
    InPlace,
    /// The target is removed.
    Remove,
}

/// One change of the plan.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Entry {
    /// What happens.
    pub(super) kind: Kind,
    /// The target's absolute path (bytes of the OS string).
    pub(super) target: Vec<u8>,
    /// The temp file's name in the target's directory (not for a removal).
    pub(super) temp: Option<Vec<u8>>,
    /// The old bytes' fingerprint (`None`: the target did not exist).
    pub(super) old: Option<Print>,
    /// The new bytes' fingerprint (`None` for a removal).
    pub(super) new: Option<Print>,
    /// The backup of the old bytes in the journal (`old-<n>`), when there were old bytes.
    pub(super) backup: Option<String>,
    /// The old file's permission bits, restored with its bytes.
    pub(super) mode: Option<u32>,
}

impl Entry {
    /// The target as a path.
    pub(super) fn target_path(&self) -> PathBuf {
        PathBuf::from(std::ffi::OsStr::from_bytes(&self.target))
    }
}

/// The whole plan of one transaction.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Plan {
    /// Format version.
    pub(super) version: u32,
    /// The canonical workspace root (bytes): only a workspace with this root recovers it.
    pub(super) root: Vec<u8>,
    /// The committing process.
    pub(super) pid: u32,
    /// The changes, in the order they are applied.
    pub(super) entries: Vec<Entry>,
}

/// What a sealed `COMMITTED` or `ROLLBACK` marker says: which marker of which journal, for
/// which plan (a marker copied from another journal, or kept beside an edited plan, does not
/// verify).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct MarkerBody {
    /// The journal's id.
    pub(super) journal: String,
    /// `COMMITTED` or `ROLLBACK`.
    pub(super) marker: String,
    /// The XXH3-128 of the plan file's bytes, 32 hex digits.
    pub(super) plan: String,
}

impl MarkerBody {
    /// The body of `marker` of journal `id` whose plan file holds `plan`.
    pub(super) fn new(id: &str, marker: &str, plan: &[u8]) -> MarkerBody {
        MarkerBody {
            journal: id.to_owned(),
            marker: marker.to_owned(),
            plan: format!("{:032x}", xxhash_rust::xxh3::xxh3_128(plan)),
        }
    }
}

/// The plan file's name inside a journal directory.
pub(super) const PLAN: &str = "plan.json";
/// The commit marker.
pub(super) const COMMITTED: &str = "COMMITTED";
/// The rollback marker.
pub(super) const ROLLBACK: &str = "ROLLBACK";

/// A live journal, owned by this process (its lock held).
#[derive(Debug)]
pub(super) struct Journal {
    /// `<journal dir>/<id>`.
    pub(super) dir: PathBuf,
    /// The id (also in every temp name).
    pub(super) id: String,
    /// `<journal dir>/<id>.lock`, locked while `_lock` lives.
    lock_path: PathBuf,
    _lock: File,
    /// The key the plan (and the call's undo record) is sealed with.
    pub(super) seal: Seal,
    /// The plan file's bytes as written, which the markers' seals name.
    plan_bytes: std::sync::OnceLock<Vec<u8>>,
}

/// A fresh journal id: pid, time and a process-wide counter.
fn fresh_id() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{}-{:x}-{n}", std::process::id(), nanos)
}

/// The temp file name of change `n` of journal `id`: the only temp name a plan may hold.
pub(super) fn temp_name(id: &str, n: usize) -> std::ffi::OsString {
    std::ffi::OsString::from(format!("{}{n}.tmp", temp_prefix(id)))
}

/// The backup name of change `n`: the only backup name a plan or an undo record may hold.
pub(super) fn backup_name(n: usize) -> String {
    format!("old-{n}")
}

/// The current plan format (2: sealed).
pub(super) const PLAN_VERSION: u32 = 2;

/// The temp-file prefix of journal `id`.
pub(super) fn temp_prefix(id: &str) -> String {
    format!(".hashline-{id}-")
}

/// Writes `bytes` to a new file at `path` and fsyncs it.
pub(super) fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Fsyncs a directory (its entries).
pub(super) fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

impl Journal {
    /// Takes a fresh id's lock in `root_dir` and creates its (empty) journal directory.
    pub(super) fn begin(root_dir: &Path) -> Result<Journal, FsError> {
        let io = |e| FsError::io(root_dir.display(), e);
        std::fs::create_dir_all(root_dir).map_err(io)?;
        // Locked under a provisional name, then renamed (the lock follows the inode): a
        // `<id>.lock` that can be locked is never one whose owner is about to lock it. A
        // recovery removes every provisional lock it can lock (its owner died before the
        // rename); should it take ours between its creation and our lock, the rename finds it
        // gone and a fresh id is tried.
        let mut attempt = 0;
        let (id, lock_path, lock) = loop {
            attempt += 1;
            let id = fresh_id();
            let lock_path = root_dir.join(format!("{id}.lock"));
            let fresh = root_dir.join(format!("{id}.lock.new"));
            let lock = OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&fresh)
                .map_err(io)?;
            fs4::FileExt::lock(&lock).map_err(io)?;
            match std::fs::rename(&fresh, &lock_path) {
                Ok(()) => break (id, lock_path, lock),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && attempt < 8 => continue,
                Err(e) => return Err(io(e)),
            }
        };
        let dir = root_dir.join(&id);
        std::fs::create_dir(&dir).map_err(io)?;
        Ok(Journal {
            dir,
            id,
            lock_path,
            _lock: lock,
            seal: Seal::in_dir(root_dir),
            plan_bytes: std::sync::OnceLock::new(),
        })
    }

    /// Saves `bytes` as backup `n`, not yet fsynced: the caller fsyncs the returned file (and
    /// the journal directory, which [`Journal::mark`] does) before the commit point.
    pub(super) fn backup_unsynced(&self, n: usize, bytes: &[u8]) -> Result<File, FsError> {
        let name = backup_name(n);
        let write = || -> std::io::Result<File> {
            let mut file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(self.dir.join(&name))?;
            file.write_all(bytes)?;
            Ok(file)
        };
        write().map_err(|e| FsError::io(self.dir.display(), e))
    }

    /// Writes the plan (fsynced, and the directory entries too).
    pub(super) fn write_plan(&self, plan: &Plan) -> Result<(), FsError> {
        let io = |e| FsError::io(self.dir.display(), e);
        let json = self.seal.seal(Domain::Journal, plan)?;
        write_synced(&self.dir.join(PLAN), &json).map_err(io)?;
        let _ = self.plan_bytes.set(json);
        sync_dir(&self.dir).map_err(io)
    }

    /// Creates `marker` (COMMITTED or ROLLBACK) durably: sealed, written under a provisional
    /// name and renamed, so the marker is whole whenever it exists.
    pub(super) fn mark(&self, marker: &str) -> Result<(), FsError> {
        let io = |e| FsError::io(self.dir.display(), e);
        let plan = self.plan_bytes.get().map_or(&[][..], Vec::as_slice);
        let body = MarkerBody::new(&self.id, marker, plan);
        let sealed = self.seal.seal(Domain::Marker, &body)?;
        let fresh = self.dir.join(format!("{marker}.new"));
        write_synced(&fresh, &sealed).map_err(io)?;
        std::fs::rename(&fresh, self.dir.join(marker)).map_err(io)?;
        sync_dir(&self.dir).map_err(io)
    }

    /// Removes the journal (the transaction is finished or undone), then its lock file.
    pub(super) fn finish(self) {
        remove_journal(&self.dir, &self.lock_path);
    }
}

/// Removes a journal directory and then its lock file. A failure leaves a journal the next
/// recovery handles again (every step of it is idempotent).
pub(super) fn remove_journal(dir: &Path, lock_path: &Path) {
    // The markers go first (COMMITTED, then ROLLBACK: a journal left with neither only has its
    // temps removed), the plan last (a journal without one is just removed).
    for marker in [COMMITTED, ROLLBACK] {
        let _ = std::fs::remove_file(dir.join(marker));
    }
    let _ = sync_dir(dir);
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.file_name() != PLAN {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    let _ = std::fs::remove_file(dir.join(PLAN));
    match std::fs::remove_dir(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(_) => return,
    }
    if let Some(parent) = dir.parent() {
        let _ = sync_dir(parent);
    }
    let _ = std::fs::remove_file(lock_path);
}
