//! [`LockGuard`]: exclusive inter-process locks on targets, through a fixed set of lock files.
//!
//! The lock is taken on a separate lock file, never on the target: a commit renames a new file
//! over the target, so a lock on the target's inode would not exclude a process that opens the
//! new one. A target's lock file is one of [`LOCK_SLOTS`] slots, `hashline-slot-<xx>.lock`
//! (the XXH3-64 of its canonical path modulo the slot count), in `hashline-locks` in the system
//! temp directory (sticky and writable by all, lock files mode 0666, never opened through a
//! symlink), shared by every process whatever its state directory, so that two edits of one
//! file always exclude each other (a workspace may name a private lock directory instead,
//! `Workspace::with_lock_dir`). A rewrite of a thousand files creates at most that many lock
//! files, once, instead of one new inode per file (on a file system that allocates inodes
//! slowly that was most of a big `resolve apply`). Two targets sharing a slot only take turns;
//! every call locks its slots in sorted order, each once, so none waits for itself or for a
//! call that waits for it, and no call takes a second lock while it holds one. Slot files are
//! left in place (there are at most [`LOCK_SLOTS`] of them).
//! Locks are `flock`-style (per open file description): two handles in one process exclude
//! each other just like two processes do.
//!
//! A lock is waited for at most [`lock_timeout`] (`HASHLINE_LOCK_TIMEOUT` seconds, default
//! [`DEFAULT_LOCK_TIMEOUT`]); the holder writes its pid into the lock file, so a waiter that
//! gives up names it ([`FsError::LockTimeout`]).
//!
//! A hard-linked file (more than one link) has a canonical path per link, and a commit rewrites
//! it in place (same inode), so its target also takes `hashline-inode-<dev>-<ino>.lock`: edits
//! through different links of one file serialize, and a read can wait out an in-place write.
//! Those are one file per hard-linked file ever edited, so they do not stay: the holder
//! unlinks its inode lock file while it still holds the lock, when the guard drops. A process
//! that opened the file before the unlink and then gets the lock holds a file no longer at its
//! path; so every inode lock, once taken, is checked to be the file at its path (`fstat` of
//! the handle against `lstat` of the path: device and inode), and is opened and taken again
//! when it is not. Two processes therefore never both hold "the" lock of one inode.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{FsError, Target};

/// Held locks; dropping the guard closes the lock files, which releases the locks.
#[derive(Debug)]
pub struct LockGuard {
    files: Vec<File>,
    /// Lock files to unlink before they are closed (inode locks): the path and the index of
    /// its handle in `files`.
    removable: Vec<(PathBuf, usize)>,
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        // Unlinked while still locked, and only when the path is still our file: a waiter
        // that opened it finds it gone once it gets the lock and takes a fresh one.
        for (path, n) in &self.removable {
            if let Some(file) = self.files.get(*n) {
                if is_file_at(file, path) {
                    let _ = std::fs::remove_file(path);
                }
            }
        }
    }
}

/// Whether `path` (not followed) is the file `file` has open.
fn is_file_at(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
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

/// How many lock files the targets share (see the module docs).
pub const LOCK_SLOTS: u64 = 256;

/// The lock file of the target whose canonical path is `key`: its slot.
pub(crate) fn lock_path(dir: &Path, key: &str) -> PathBuf {
    let slot = xxhash_rust::xxh3::xxh3_64(key.as_bytes()) % LOCK_SLOTS;
    dir.join(format!("hashline-slot-{slot:02x}.lock"))
}

/// The system-wide lock directory: `hashline-locks` in the system temp dir.
fn shared_lock_dir() -> PathBuf {
    std::env::temp_dir().join("hashline-locks")
}

/// Creates the shared lock directory, sticky and writable by everyone (as `/tmp` is), so
/// every user's edits of a file take the one lock.
fn create_shared_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    match std::fs::DirBuilder::new().mode(0o1777).create(dir) {
        Ok(()) => {
            // The umask took bits off the mode; the creator sets them again.
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o1777))
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir.parent().unwrap_or(dir))?;
            create_shared_dir(dir)
        }
        Err(e) => Err(e),
    }
}

/// Locks every target's lock file, in sorted order, each once.
pub(crate) fn lock_all(dir: Option<&Path>, targets: &[&Target]) -> Result<LockGuard, FsError> {
    if targets.is_empty() {
        return Ok(LockGuard {
            files: Vec::new(),
            removable: Vec::new(),
        });
    }
    let dir = match dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| FsError::io(dir.display(), e))?;
            dir.to_path_buf()
        }
        None => {
            let dir = shared_lock_dir();
            create_shared_dir(&dir).map_err(|e| FsError::io(dir.display(), e))?;
            dir
        }
    };
    // Sorting and deduplicating the lock *files* (not the targets) covers two targets sharing
    // a slot: a second lock on the same file would wait for ourselves.
    let mut paths: Vec<PathBuf> = targets.iter().map(|t| lock_path(&dir, &t.key)).collect();
    let mut inode_paths: Vec<PathBuf> = targets
        .iter()
        .filter_map(|t| inode_lock_path(&dir, t))
        .collect();
    // Sorted, so each lock file is told apart in log time (a commit may name thousands).
    inode_paths.sort();
    paths.extend(inode_paths.iter().cloned());
    paths.sort();
    paths.dedup();
    let timeout = lock_timeout();
    let mut guard = LockGuard {
        files: Vec::with_capacity(paths.len()),
        removable: Vec::new(),
    };
    for path in paths {
        let removable = inode_paths.binary_search(&path).is_ok();
        let file = loop {
            let file = open_lock(&path)?;
            wait_for(&file, &path, timeout, targets)?;
            // A slot file is never removed; an inode lock file may have been unlinked by its
            // holder after we opened it: then ours is no longer the lock, and we take it anew.
            if !removable || is_file_at(&file, &path) {
                break file;
            }
        };
        // The holder's pid, for whoever times out waiting on us.
        let _ = file
            .set_len(0)
            .and_then(|()| (&file).write_all(format!("{}\n", std::process::id()).as_bytes()));
        if removable {
            guard.removable.push((path, guard.files.len()));
        }
        guard.files.push(file);
    }
    Ok(guard)
}

/// Opens (creating) the lock file at `path`, never through a symlink, writable by every user.
fn open_lock(path: &Path) -> Result<File, FsError> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(super::recover::NOFOLLOW)
        .mode(0o666)
        .open(path)
        .map_err(|e| FsError::io(path.display(), e))?;
    // Another user's edit of the file opens it too (the umask took its write bits off).
    let _ = file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    Ok(file)
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

/// The default lock wait: 30 seconds.
pub const DEFAULT_LOCK_TIMEOUT: Duration = Duration::from_secs(30);

/// The environment variable that sets the lock wait, in seconds (fractions allowed).
pub const LOCK_TIMEOUT_ENV: &str = "HASHLINE_LOCK_TIMEOUT";

/// The longest lock wait `HASHLINE_LOCK_TIMEOUT` may set: one day.
pub const MAX_LOCK_TIMEOUT: Duration = Duration::from_secs(86_400);

/// How long a lock is waited for: `HASHLINE_LOCK_TIMEOUT` seconds if set to a number (held to
/// [`MAX_LOCK_TIMEOUT`]), else [`DEFAULT_LOCK_TIMEOUT`]. The CLI refuses a value out of range
/// before it runs ([`super::env_problems`]).
pub fn lock_timeout() -> Duration {
    std::env::var(LOCK_TIMEOUT_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map_or(DEFAULT_LOCK_TIMEOUT, super::env::bounded_secs)
}

/// Takes `file`'s exclusive lock, polling until `timeout` has passed.
fn wait_for(
    file: &File,
    path: &Path,
    timeout: Duration,
    targets: &[&Target],
) -> Result<(), FsError> {
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        match fs4::FileExt::try_lock(file) {
            Ok(()) => return Ok(()),
            Err(fs4::TryLockError::WouldBlock) => {}
            Err(fs4::TryLockError::Error(e)) => return Err(FsError::io(path.display(), e)),
        }
        let waited = start.elapsed();
        if waited >= timeout {
            return Err(FsError::LockTimeout {
                path: targets
                    .iter()
                    .map(|t| t.display.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                holder: holder_pid(file),
                waited_ms: u64::try_from(waited.as_millis()).unwrap_or(u64::MAX),
            });
        }
        std::thread::sleep(pause.min(timeout - waited));
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// The pid the current holder wrote into the lock file.
fn holder_pid(mut file: &File) -> Option<u32> {
    let mut text = String::new();
    file.rewind().ok()?;
    file.take(32).read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}
