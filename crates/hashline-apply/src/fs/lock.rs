//! [`LockGuard`]: exclusive inter-process locks, one lock file per target.
//!
//! The lock is taken on a separate lock file, never on the target: a commit renames a new file
//! over the target, so a lock on the target's inode would not exclude a process that opens the
//! new one. The lock file's name is `hashline-<xxh3-64 of the canonical path>.lock`, in the
//! workspace's lock directory or the system temp directory. Lock files are left in place
//! (removing one while another process waits on it would let two processes hold "the" lock).
//! Locks are `flock`-style (per open file description): two handles in one process exclude
//! each other just like two processes do.
//!
//! A hard-linked file (more than one link) has a canonical path per link, and a commit rewrites
//! it in place (same inode), so its target also takes `hashline-inode-<dev>-<ino>.lock`: edits
//! through different links of one file serialize, and a read can wait out an in-place write.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use super::{FsError, Target};

/// Held locks; dropping the guard closes the lock files, which releases the locks.
#[derive(Debug)]
pub struct LockGuard {
    files: Vec<File>,
}

impl LockGuard {
    /// How many distinct lock files are held.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when no lock is held (no targets were given).
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// The lock file of the target whose canonical path is `key`.
pub(crate) fn lock_path(dir: &Path, key: &str) -> PathBuf {
    let hash = xxhash_rust::xxh3::xxh3_64(key.as_bytes());
    dir.join(format!("hashline-{hash:016x}.lock"))
}

/// Locks every target's lock file, in sorted order, each once.
pub(crate) fn lock_all(dir: Option<&Path>, targets: &[&Target]) -> Result<LockGuard, FsError> {
    let dir = dir.map_or_else(std::env::temp_dir, Path::to_path_buf);
    if targets.is_empty() {
        return Ok(LockGuard { files: Vec::new() });
    }
    std::fs::create_dir_all(&dir).map_err(|e| FsError::io(dir.display(), e))?;
    // Sorting and deduplicating the lock *files* (not the targets) also covers two targets
    // whose names hash alike: a second lock on the same file would wait for ourselves.
    let mut paths: Vec<PathBuf> = targets.iter().map(|t| lock_path(&dir, &t.key)).collect();
    paths.extend(targets.iter().filter_map(|t| inode_lock_path(&dir, t)));
    paths.sort();
    paths.dedup();
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| FsError::io(path.display(), e))?;
        // Fully qualified: the inherent `File::lock` needs a newer Rust than our MSRV.
        fs4::FileExt::lock(&file).map_err(|e| FsError::io(path.display(), e))?;
        files.push(file);
    }
    Ok(LockGuard { files })
}

/// The lock file shared by every link of the target's file, when it has more than one link
/// (all of them are rewritten in place, never replaced, so the inode stays the file's identity).
fn inode_lock_path(dir: &Path, target: &Target) -> Option<PathBuf> {
    hard_link_identity(target)
        .map(|(dev, ino)| dir.join(format!("hashline-inode-{dev:x}-{ino:x}.lock")))
}

/// Device and inode of the target's file when it has more than one hard link.
#[cfg(unix)]
fn hard_link_identity(target: &Target) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(&target.real).ok()?;
    (meta.is_file() && meta.nlink() > 1).then(|| (meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn hard_link_identity(_target: &Target) -> Option<(u64, u64)> {
    None
}

/// Whether the target's file has more than one hard link (so it is rewritten in place).
pub(crate) fn is_hard_linked(target: &Target) -> bool {
    hard_link_identity(target).is_some()
}
