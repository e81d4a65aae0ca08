//! The undo log: the old bytes of the files each committed call changed, kept so that
//! `hashline undo` can put them back.
//!
//! Layout, in the workspace's undo directory (`<state>/undo` for the CLI):
//!
//! * `<N>/record.json` + `<N>/old-<n>` — call `N` (ids count up from 1 and are never reused):
//!   its session, root, time and the journal's plan entries (target, fingerprints of the old
//!   and new bytes, old mode), and the old bytes of every file it replaced or removed. The
//!   record is sealed with the journal directory's key (`seal.rs`); `undo` acts only on a
//!   record whose seal verifies and whose names are the engine's own (`trust.rs`), and
//!   refuses any other ([`FsError::Tampered`]), leaving it in place.
//! * `.new-<journal id>/` — a record being assembled by a commit (its journal still exists).
//! * `.gone-<N>/` — a record being removed.
//! * `unrecorded-<hash>` — the last id given out when a call of one session on one root
//!   landed without a record (it could not be written, or was too large): `undo` without an
//!   id refuses while that session's newest record is not newer.
//! * `seq` — the last id given out; `log.lock` — `flock`ed by whoever publishes, prunes or
//!   removes a record.
//!
//! A record is published by one `rename` of its complete, fsynced directory, after the last
//! change of its transaction landed and before the journal is removed: a crash never leaves a
//! record of a call that did not land (recovery removes the journal's `.new-` directory
//! instead; that call is then not undoable). A record only claims that the call turned each
//! file's old bytes into its new ones; `undo` checks the new bytes are still there.
//!
//! Bounded: at most [`undo_max_calls`] records and [`undo_max_bytes`] bytes of old contents;
//! the oldest records are dropped first when a new one is published, and a call whose old
//! bytes alone exceed the byte bound is not recorded.

use std::fs::{File, OpenOptions};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::journal::{self, Entry};
use super::recover::NOFOLLOW;
use super::seal::{Domain, Seal};
use super::FsError;

/// Environment variable: the most calls the undo log keeps (0 turns it off).
pub const UNDO_MAX_CALLS_ENV: &str = "HASHLINE_UNDO_MAX_CALLS";
/// Environment variable: the most bytes of old file contents the undo log keeps.
pub const UNDO_MAX_BYTES_ENV: &str = "HASHLINE_UNDO_MAX_BYTES";
/// Default of [`undo_max_calls`].
pub const DEFAULT_UNDO_MAX_CALLS: usize = 100;
/// Default of [`undo_max_bytes`] (64 MiB).
pub const DEFAULT_UNDO_MAX_BYTES: u64 = 64 << 20;

/// The most calls the undo log keeps (`HASHLINE_UNDO_MAX_CALLS`, default 100).
pub fn undo_max_calls() -> usize {
    env_number(UNDO_MAX_CALLS_ENV).map_or(DEFAULT_UNDO_MAX_CALLS, |n| n as usize)
}

/// The most bytes of old contents the undo log keeps (`HASHLINE_UNDO_MAX_BYTES`, default
/// 64 MiB).
pub fn undo_max_bytes() -> u64 {
    env_number(UNDO_MAX_BYTES_ENV).unwrap_or(DEFAULT_UNDO_MAX_BYTES)
}

fn env_number(key: &str) -> Option<u64> {
    std::env::var(key).ok()?.trim().parse().ok()
}

const RECORD: &str = "record.json";
/// The record format (2: sealed).
const RECORD_VERSION: u32 = 2;
const LOCK: &str = "log.lock";
const SEQ: &str = "seq";
/// Prefix of the markers of calls that landed without a record.
const UNRECORDED: &str = "unrecorded-";

/// What [`UndoLog::publish`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Published {
    /// Recorded under this id.
    Id(u64),
    /// The log is off (`HASHLINE_UNDO_MAX_CALLS=0`): nothing is recorded, nothing marked.
    Off,
    /// The call's old bytes alone exceed the byte bound: not recorded.
    TooLarge,
}

/// What one call changed, as stored in `record.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Record {
    /// Format version.
    pub(super) version: u32,
    /// The session that made the call.
    pub(super) session: String,
    /// The canonical workspace root (bytes).
    pub(super) root: Vec<u8>,
    /// Seconds since the Unix epoch when the call landed.
    pub(super) created: u64,
    /// The journal's entries: target, fingerprints, backup name, old mode.
    pub(super) entries: Vec<Entry>,
    /// The directories the call made for the files it created (absolute, outermost first):
    /// an undo removes those that are empty again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) dirs: Vec<Vec<u8>>,
}

impl Record {
    /// Total bytes of the old contents kept.
    fn size(&self) -> u64 {
        self.entries
            .iter()
            .filter_map(|e| e.old.map(|p| p.len))
            .sum()
    }
}

/// The undo log of one session, in one directory.
#[derive(Debug, Clone)]
pub(crate) struct UndoLog {
    dir: PathBuf,
    session: String,
}

/// A held `log.lock`.
struct LogLock(#[allow(dead_code)] File);

impl UndoLog {
    /// The log in `dir`, writing records for `session`.
    pub(crate) fn new(dir: PathBuf, session: String) -> UndoLog {
        UndoLog { dir, session }
    }

    /// The log's directory.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// The session records are written for.
    pub(crate) fn session(&self) -> &str {
        &self.session
    }

    fn io(&self) -> impl Fn(std::io::Error) -> FsError + '_ {
        move |e| FsError::io(self.dir.display(), e)
    }

    fn lock(&self) -> Result<LogLock, FsError> {
        std::fs::create_dir_all(&self.dir).map_err(self.io())?;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .custom_flags(NOFOLLOW)
            .open(self.dir.join(LOCK))
            .map_err(self.io())?;
        fs4::FileExt::lock(&file).map_err(self.io())?;
        Ok(LogLock(file))
    }

    fn staging(&self, journal_id: &str) -> PathBuf {
        self.dir.join(format!(".new-{journal_id}"))
    }

    /// Publishes the record of a transaction whose every change landed: moves the journal's
    /// backups (in `journal_dir`) into a fresh record sealed with `seal`, gives it the next
    /// id, drops the oldest records beyond the bounds; or says why it kept none.
    pub(super) fn publish(
        &self,
        journal_dir: &Path,
        journal_id: &str,
        root: &Path,
        entries: &[Entry],
        dirs: &[std::path::PathBuf],
        seal: &Seal,
    ) -> Result<Published, FsError> {
        let record = Record {
            version: RECORD_VERSION,
            session: self.session.clone(),
            root: root.as_os_str().as_bytes().to_vec(),
            created: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            entries: entries.to_vec(),
            dirs: dirs
                .iter()
                .map(|d| d.as_os_str().as_bytes().to_vec())
                .collect(),
        };
        let (max_calls, max_bytes) = (undo_max_calls(), undo_max_bytes());
        if max_calls == 0 {
            return Ok(Published::Off);
        }
        if record.size() > max_bytes {
            return Ok(Published::TooLarge);
        }
        let staging = self.staging(journal_id);
        std::fs::create_dir_all(&self.dir).map_err(self.io())?;
        let _ = std::fs::remove_dir_all(&staging);
        std::fs::create_dir(&staging).map_err(self.io())?;
        for backup in entries.iter().filter_map(|e| e.backup.as_deref()) {
            let (from, to) = (journal_dir.join(backup), staging.join(backup));
            if std::fs::rename(&from, &to).is_err() {
                let bytes = std::fs::read(&from).map_err(self.io())?;
                journal::write_synced(&to, &bytes).map_err(self.io())?;
            }
        }
        let json = seal.seal(Domain::Undo, &record)?;
        journal::write_synced(&staging.join(RECORD), &json).map_err(self.io())?;
        journal::sync_dir(&staging).map_err(self.io())?;
        let _lock = self.lock()?;
        let ids = self.ids();
        let id = self.last_seq().max(ids.last().copied().unwrap_or(0)) + 1;
        let seq_tmp = self.dir.join(format!(".seq-{journal_id}"));
        journal::write_synced(&seq_tmp, id.to_string().as_bytes()).map_err(self.io())?;
        if let Err(e) = std::fs::rename(&seq_tmp, self.dir.join(SEQ)) {
            let _ = std::fs::remove_file(&seq_tmp);
            return Err(self.io()(e));
        }
        std::fs::rename(&staging, self.dir.join(id.to_string())).map_err(self.io())?;
        journal::sync_dir(&self.dir).map_err(self.io())?;
        self.prune(max_calls, max_bytes, seal);
        Ok(Published::Id(id))
    }

    /// The marker of calls of this session on `root` that landed unrecorded.
    fn marker(&self, root: &Path) -> PathBuf {
        let mut key = self.session.as_bytes().to_vec();
        key.push(0);
        key.extend_from_slice(root.as_os_str().as_bytes());
        let hash = xxhash_rust::xxh3::xxh3_64(&key);
        self.dir.join(format!("{UNRECORDED}{hash:016x}"))
    }

    /// Notes that a call of this session on `root` landed without a record: the marker holds
    /// the newest id given out so far, so that `undo` without an id refuses while this
    /// session's newest record is not newer (it would revert an older call in this one's
    /// place). Best effort: a log that cannot be written at all holds no record to revert.
    pub(super) fn mark_unrecorded(&self, root: &Path) {
        let newest = self.last_seq().max(self.ids().last().copied().unwrap_or(0));
        let _ = std::fs::create_dir_all(&self.dir);
        let marker = self.marker(root);
        let temp = marker.with_extension("tmp");
        if journal::write_synced(&temp, newest.to_string().as_bytes()).is_ok() {
            let _ = std::fs::rename(&temp, &marker);
        } else {
            let _ = std::fs::remove_file(&temp);
        }
    }

    /// The newest id given out when a call of this session on `root` last landed unrecorded.
    pub(super) fn unrecorded_after(&self, root: &Path) -> Option<u64> {
        let bytes = read_nofollow(&self.marker(root)).ok()?;
        std::str::from_utf8(&bytes).ok()?.trim().parse().ok()
    }

    /// Removes the record a killed commit of journal `journal_id` was assembling.
    pub(super) fn discard_staging(&self, journal_id: &str) {
        let _ = std::fs::remove_dir_all(self.staging(journal_id));
    }

    fn last_seq(&self) -> u64 {
        std::fs::read_to_string(self.dir.join(SEQ))
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0)
    }

    /// Every published id, ascending.
    pub(super) fn ids(&self) -> Vec<u64> {
        let mut ids: Vec<u64> = std::fs::read_dir(&self.dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse().ok())
            .collect();
        ids.sort_unstable();
        ids
    }

    /// Record `id` (`Ok(None)`: no such record), refused ([`FsError::Tampered`]) when it does
    /// not parse or its seal (with `seal`'s key) does not verify.
    pub(super) fn load(&self, id: u64, seal: &Seal) -> Result<Option<Record>, FsError> {
        let path = self.dir.join(id.to_string()).join(RECORD);
        let bytes = match read_nofollow(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(FsError::io(path.display(), e)),
        };
        seal.open(Domain::Undo, &bytes)
            .map(Some)
            .map_err(|why| FsError::Tampered {
                path: path.display().to_string(),
                reason: why.to_string(),
            })
    }

    /// The old bytes kept as `backup` in record `id` (never through a symlink).
    pub(super) fn backup(&self, id: u64, backup: &str) -> Result<Vec<u8>, FsError> {
        read_nofollow(&self.dir.join(id.to_string()).join(backup)).map_err(self.io())
    }

    /// Removes record `id` (it was undone).
    pub(super) fn remove(&self, id: u64) -> Result<(), FsError> {
        let _lock = self.lock()?;
        self.drop_record(id);
        Ok(())
    }

    /// Unpublishes record `id` with one rename, then deletes it (caller holds the lock).
    fn drop_record(&self, id: u64) {
        let gone = self.dir.join(format!(".gone-{id}"));
        if std::fs::rename(self.dir.join(id.to_string()), &gone).is_ok() {
            let _ = journal::sync_dir(&self.dir);
            let _ = std::fs::remove_dir_all(&gone);
        }
    }

    /// Drops the oldest records until at most `max_calls` remain and their old contents fit in
    /// `max_bytes`; removes leftovers of interrupted removals (caller holds the lock).
    fn prune(&self, max_calls: usize, max_bytes: u64, seal: &Seal) {
        let ids = self.ids();
        let sizes: Vec<u64> = ids
            .iter()
            .map(|&id| self.load(id, seal).ok().flatten().map_or(0, |r| r.size()))
            .collect();
        let mut total: u64 = sizes.iter().sum();
        let mut count = ids.len();
        for (id, size) in ids.iter().zip(sizes) {
            if count <= max_calls && total <= max_bytes {
                break;
            }
            self.drop_record(*id);
            count -= 1;
            total -= size;
        }
        for entry in std::fs::read_dir(&self.dir).into_iter().flatten().flatten() {
            if entry.file_name().as_bytes().starts_with(b".gone-") {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

/// A file of the log, read whole without following a symlink.
fn read_nofollow(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut file = OpenOptions::new()
        .read(true)
        .custom_flags(NOFOLLOW)
        .open(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}
