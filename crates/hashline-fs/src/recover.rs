//! Recovery: finishing or undoing the transactions a killed process left in the journal.
//!
//! A journal whose `<id>.lock` can be taken belongs to a process that is gone. Its plan says
//! what was meant; its markers say how far it got:
//!
//! * no marker — killed while staging: nothing visible changed; only its temp files are
//!   removed (*discarded*);
//! * `COMMITTED` — killed during the renames: every change not yet made is made (*rolled
//!   forward*): a temp still present is renamed into place (a hard-linked file is rewritten in
//!   place from it, only when it holds its old bytes or a prefix of the new ones, what a killed
//!   truncate-then-write leaves), a file to remove still holding its old bytes is removed;
//! * `ROLLBACK` — killed while undoing a failed commit: every target holding what the commit
//!   wrote (or, rewritten in place, a prefix of the new or old bytes; or missing where it was
//!   removed) gets its old bytes back from the journal's backup, created files holding what the
//!   commit wrote are removed (*rolled back*); a target holding anything else changed since the
//!   crash and is left alone, a conflict, as when rolling forward.
//!
//! A plan is acted on only when its seal verifies with the state directory's key, every
//! name in it is one the engine uses (`trust.rs`), and each marker present is the sealed one
//! hashline wrote for that journal and plan (an empty or hand-made `COMMITTED` would roll a
//! journal forward that never reached its commit point); any other is refused
//! ([`FsError::Tampered`], listed in [`Recovery::refused`]) and left in place for a person to
//! look at: nothing it names is touched. A plan that does not parse at all is what a process
//! killed while writing it leaves (no temp file exists yet): that journal alone is removed.
//!
//! Every step compares fingerprints first, so running a recovery twice is harmless. A target
//! that holds neither the old nor the new bytes (another writer since the crash) is left alone
//! and reported as a conflict. The temps named by the journal (`.hashline-<id>-*`) are removed
//! from every directory it touches, then the journal itself.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fs::OpenOptions;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, Mode};
use rustix::io::Errno;

use super::beneath::{self, Parent};
use super::content::Content;
use super::journal::{self, Entry, Kind, Plan, Print};
use super::seal::{Domain, Seal, Unsealed};
use super::stage::{write_in_place, write_temp};
use super::trust;
use super::{FsError, Target, Workspace};

/// What one recovery pass did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Recovery {
    /// Transactions finished (killed after their commit point).
    pub rolled_forward: usize,
    /// Transactions undone (killed while rolling back).
    pub rolled_back: usize,
    /// Transactions dropped (killed before their commit point: nothing had changed).
    pub discarded: usize,
    /// Temp files removed.
    pub temps_removed: usize,
    /// Journals of processes still running, left alone.
    pub live: usize,
    /// Files left alone because they hold neither the old nor the new bytes (another writer).
    pub conflicts: Vec<String>,
    /// Journals refused and left in place ([`FsError::Tampered`]: a seal that does not verify,
    /// a name the engine never writes), each the refusal's message.
    pub refused: Vec<String>,
}

impl Recovery {
    /// True when nothing was found to recover.
    pub fn is_empty(&self) -> bool {
        self.rolled_forward + self.rolled_back + self.discarded + self.temps_removed == 0
            && self.conflicts.is_empty()
            && self.refused.is_empty()
    }
}

impl std::fmt::Display for Recovery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "recovered {} interrupted transaction(s): {} rolled forward, {} rolled back, {} \
             discarded; {} temp file(s) removed",
            self.rolled_forward + self.rolled_back + self.discarded,
            self.rolled_forward,
            self.rolled_back,
            self.discarded,
            self.temps_removed
        )?;
        if self.live > 0 {
            write!(f, "; {} in progress in other processes", self.live)?;
        }
        for refusal in &self.refused {
            write!(f, "\n[E_STATE_TAMPERED] {refusal}")?;
        }
        for path in &self.conflicts {
            write!(
                f,
                "\n[W_RECOVERY_CONFLICT] {path} changed since the interrupted edit; left as it is"
            )?;
        }
        Ok(())
    }
}

/// `O_NOFOLLOW`: a file of the state directory is never opened through a symlink.
pub(super) const NOFOLLOW: i32 = rustix::fs::OFlags::NOFOLLOW.bits() as i32;

/// Recovers every dead transaction of `ws`'s root found in `ws`'s journal directory.
pub(super) fn recover(ws: &Workspace) -> Result<Recovery, FsError> {
    let mut report = Recovery::default();
    let dir = ws.journal_dir();
    let listing = match std::fs::read_dir(&dir) {
        Ok(listing) => listing,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(report),
        Err(e) => return Err(FsError::io(dir.display(), e)),
    };
    let mut ids: Vec<String> = Vec::new();
    let mut locks: Vec<PathBuf> = Vec::new();
    for entry in listing.flatten() {
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            ids.push(name);
        } else if name.ends_with(".lock") || name.ends_with(".lock.new") {
            locks.push(entry.path());
        }
    }
    ids.sort();
    for id in &ids {
        recover_one(ws, &dir, id, &mut report)?;
    }
    for lock in locks {
        remove_orphan_lock(&lock, &ids);
    }
    Ok(report)
}

/// Removes a lock file left by a process killed before its journal directory existed: one
/// that can be locked and has no journal. A provisional `.lock.new` that can be locked is
/// removed too: its owner died before renaming it, or has yet to lock it, and then retries
/// under a fresh id when its rename finds the file gone (`Journal::begin`).
fn remove_orphan_lock(path: &Path, ids: &[String]) {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let Some(name) = name else { return };
    let id = name.trim_end_matches(".new").trim_end_matches(".lock");
    if ids.iter().any(|i| i == id) {
        return;
    }
    let opened = OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(NOFOLLOW)
        .open(path);
    let Ok(file) = opened else {
        return;
    };
    if fs4::FileExt::try_lock(&file).is_ok() && !path.with_file_name(id).exists() {
        let _ = std::fs::remove_file(path);
    }
}

/// Recovers journal `id` if its process is gone.
fn recover_one(
    ws: &Workspace,
    journal_dir: &Path,
    id: &str,
    report: &mut Recovery,
) -> Result<(), FsError> {
    let lock_path = journal_dir.join(format!("{id}.lock"));
    let lock = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(NOFOLLOW)
        .open(&lock_path)
        .map_err(|e| FsError::io(lock_path.display(), e))?;
    if fs4::FileExt::try_lock(&lock).is_err() {
        report.live += 1;
        return Ok(());
    }
    let dir = journal_dir.join(id);
    let plan_path = dir.join(journal::PLAN);
    let refuse = |reason: String| FsError::Tampered {
        path: plan_path.display().to_string(),
        reason,
    };
    let seal = Seal::in_dir(journal_dir);
    let plan_bytes = read_plan(&plan_path);
    let opened = plan_bytes
        .as_deref()
        .map(|bytes| seal.open(Domain::Journal, bytes));
    let plan: Plan = match opened {
        None | Some(Err(Unsealed::Unreadable)) => {
            // Killed before its plan was durable: no temp file was made yet.
            journal::remove_journal(&dir, &lock_path);
            return Ok(());
        }
        Some(Err(Unsealed::Forged(reason))) => {
            report.refused.push(refuse(reason).to_string());
            return Ok(());
        }
        Some(Ok(plan)) => plan,
    };
    if plan.root != ws.root().as_os_str().as_bytes() {
        return Ok(()); // another workspace's: recovered when that root is used
    }
    if let Err(reason) = trust::check_plan(ws, id, &plan) {
        report.refused.push(refuse(reason).to_string());
        return Ok(());
    }
    // The markers decide what is done: each must be the one hashline wrote for this plan.
    let plan_bytes = plan_bytes.unwrap_or_default();
    let marked = |marker: &str| {
        marker_state(&seal, &dir, id, marker, &plan_bytes).map_err(|reason| FsError::Tampered {
            path: dir.join(marker).display().to_string(),
            reason,
        })
    };
    let (rollback, committed) = match (marked(journal::ROLLBACK), marked(journal::COMMITTED)) {
        (Ok(rollback), Ok(committed)) => (rollback, committed),
        (Err(e), _) | (_, Err(e)) => {
            report.refused.push(e.to_string());
            return Ok(());
        }
    };
    let targets: Vec<Target> = plan.entries.iter().map(target_of).collect();
    let refs: Vec<&Target> = targets.iter().collect();
    let _guard = ws.lock(&refs)?;
    if rollback {
        for (n, entry) in plan.entries.iter().enumerate().rev() {
            roll_back(ws.root(), &dir, n, entry, id, report)?;
        }
        report.rolled_back += 1;
    } else if committed {
        for entry in &plan.entries {
            roll_forward(ws.root(), entry, report)?;
        }
        report.rolled_forward += 1;
    } else {
        report.discarded += 1;
    }
    report.temps_removed += remove_temps(ws.root(), &plan.entries, id);
    if let Some(log) = &ws.undo {
        // A record the killed commit was assembling is never published.
        log.discard_staging(id);
    }
    journal::remove_journal(&dir, &lock_path);
    Ok(())
}

/// Whether journal `id` in `dir` holds `marker` (`COMMITTED` or `ROLLBACK`): `Ok(false)` when
/// there is none, `Ok(true)` when it is the sealed marker hashline writes for this plan
/// (`plan`: the plan file's bytes), and the reason it is not trusted otherwise (empty, made by
/// hand, copied from another journal, a symlink or no file).
fn marker_state(
    seal: &Seal,
    dir: &Path,
    id: &str,
    marker: &str,
    plan: &[u8],
) -> Result<bool, String> {
    use std::io::Read;
    let path = dir.join(marker);
    let mut file = match OpenOptions::new()
        .read(true)
        .custom_flags(NOFOLLOW)
        .open(&path)
    {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(format!("its {marker} marker cannot be opened: {e}")),
    };
    let mut bytes = Vec::new();
    (&mut file)
        .take(64 << 10)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("its {marker} marker cannot be read: {e}"))?;
    let body: journal::MarkerBody = seal
        .open(Domain::Marker, &bytes)
        .map_err(|why| format!("its {marker} marker is not one hashline wrote: {why}"))?;
    if body != journal::MarkerBody::new(id, marker, plan) {
        return Err(format!(
            "its {marker} marker is not one hashline wrote: it names another journal or plan"
        ));
    }
    Ok(true)
}

/// The bytes of a plan file (never through a symlink); `None` when there is none to read.
fn read_plan(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut file = OpenOptions::new()
        .read(true)
        .custom_flags(NOFOLLOW)
        .open(path)
        .ok()?;
    let mut bytes = Vec::new();
    // A plan is a few hundred bytes a file; 64 MiB holds one of a hundred thousand files.
    (&mut file).take(64 << 20).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// The target of an entry, for locks and messages.
fn target_of(entry: &Entry) -> Target {
    let real = entry.target_path();
    let shown = real.to_string_lossy().into_owned();
    Target {
        display: shown.clone(),
        key: shown,
        real,
    }
}

/// The directory handle of an entry's target (`None`: its directory is gone).
fn parent_of(root: &Path, entry: &Entry) -> Result<Option<Parent>, FsError> {
    let real = entry.target_path();
    beneath::open_parent(root, &real, &real.to_string_lossy(), None)
}

/// The fingerprint of what the target holds now (`None`: missing).
fn current(root: &Path, entry: &Entry) -> Result<Option<Print>, FsError> {
    let real = entry.target_path();
    Ok(beneath::read(root, &real, &real.to_string_lossy())?.map(|(bytes, _)| Print::of(&bytes)))
}

fn temp_exists(parent: &Parent, temp: &[u8]) -> bool {
    rustix::fs::statat(
        &parent.dir.fd,
        std::ffi::OsStr::from_bytes(temp),
        AtFlags::SYMLINK_NOFOLLOW,
    )
    .is_ok()
}

fn io(entry: &Entry) -> impl Fn(Errno) -> FsError + '_ {
    move |e| FsError::io(entry.target_path().display(), e.into())
}

/// Makes one change the killed commit had not made yet.
fn roll_forward(root: &Path, entry: &Entry, report: &mut Recovery) -> Result<(), FsError> {
    let Some(parent) = parent_of(root, entry)? else {
        return Ok(());
    };
    let now = current(root, entry)?;
    let conflict = |report: &mut Recovery| {
        report
            .conflicts
            .push(entry.target_path().display().to_string())
    };
    match (entry.kind, entry.temp.as_deref()) {
        (Kind::Put, Some(temp)) if temp_exists(&parent, temp) => {
            if now == entry.old {
                let dir = &parent.dir.fd;
                let temp = std::ffi::OsStr::from_bytes(temp);
                rustix::fs::renameat(dir, temp, dir, parent.name.as_os_str()).map_err(io(entry))?;
            } else if now != entry.new {
                conflict(report);
            }
        }
        (Kind::InPlace, Some(temp)) if temp_exists(&parent, temp) && now != entry.new => {
            let temp_path = parent.dir.path.join(std::ffi::OsStr::from_bytes(temp));
            let bytes =
                std::fs::read(&temp_path).map_err(|e| FsError::io(temp_path.display(), e))?;
            if Some(Print::of(&bytes)) == entry.new && !torn_or_old(root, entry, &bytes)? {
                // Neither the old bytes nor a prefix of the new ones (what a killed
                // truncate-then-write leaves): another writer changed it since.
                conflict(report);
            } else if Some(Print::of(&bytes)) == entry.new {
                write_in_place(&parent, &Content::from(&bytes), None).map_err(|_| {
                    FsError::io(
                        entry.target_path().display(),
                        std::io::Error::other("cannot rewrite in place"),
                    )
                })?;
            }
        }
        (Kind::Remove, _) if now.is_some() => {
            if now == entry.old {
                rustix::fs::unlinkat(&parent.dir.fd, parent.name.as_os_str(), AtFlags::empty())
                    .map_err(io(entry))?;
            } else {
                conflict(report);
            }
        }
        _ => {}
    }
    Ok(())
}

/// True when an in-place target holds its old bytes or a prefix of `new` (the state a commit
/// killed between its truncate and the end of its write leaves).
fn torn_or_old(root: &Path, entry: &Entry, new: &[u8]) -> Result<bool, FsError> {
    let real = entry.target_path();
    Ok(match beneath::read(root, &real, &real.to_string_lossy())? {
        Some((bytes, _)) => Some(Print::of(&bytes)) == entry.old || new.starts_with(&bytes),
        None => false,
    })
}

/// Puts one target back to its old bytes (from the journal's backup).
fn roll_back(
    root: &Path,
    journal: &Path,
    n: usize,
    entry: &Entry,
    id: &str,
    report: &mut Recovery,
) -> Result<(), FsError> {
    let Some(parent) = parent_of(root, entry)? else {
        return Ok(());
    };
    let now = current(root, entry)?;
    if now == entry.old {
        return Ok(());
    }
    let Some(_) = entry.old else {
        // A created file: removed if it holds what the commit wrote.
        if now == entry.new {
            rustix::fs::unlinkat(&parent.dir.fd, parent.name.as_os_str(), AtFlags::empty())
                .map_err(io(entry))?;
        } else {
            report
                .conflicts
                .push(entry.target_path().display().to_string());
        }
        return Ok(());
    };
    let Some(backup) = &entry.backup else {
        return Ok(());
    };
    let path = journal.join(backup);
    let bytes = std::fs::read(&path).map_err(|e| FsError::io(path.display(), e))?;
    if Print::of(&bytes) != entry.old.unwrap_or(Print::of(&bytes)) {
        return Ok(()); // a torn backup cannot be: it was fsynced before the commit point
    }
    if !rolled_back_over(root, entry, now, &bytes)? {
        // Neither what the commit wrote nor what a killed write leaves: changed since.
        report
            .conflicts
            .push(entry.target_path().display().to_string());
        return Ok(());
    }
    if entry.kind == Kind::InPlace && now.is_some() {
        return write_in_place(&parent, &Content::from(&bytes), None).map_err(|_| {
            FsError::io(
                entry.target_path().display(),
                std::io::Error::other("cannot rewrite in place"),
            )
        });
    }
    let temp = OsString::from(format!("{}b{n}.tmp", journal::temp_prefix(id)));
    write_temp(&parent, &temp, &bytes, None).map_err(|e| FsError::io(path.display(), e))?;
    let dir = &parent.dir.fd;
    if let Some(mode) = entry.mode {
        let _ = rustix::fs::chmodat(dir, temp.as_os_str(), Mode::from(mode), AtFlags::empty());
    }
    rustix::fs::renameat(dir, temp.as_os_str(), dir, parent.name.as_os_str()).map_err(io(entry))
}

/// Whether a target holding `now` (not its old bytes) may get its old bytes `old` back: it holds
/// what the commit wrote, or is missing where the commit removed it, or (rewritten in place) a
/// prefix of the new or old bytes, what a write killed between its truncate and its end
/// leaves. Anything else is another writer's change since the crash, as rolling forward
/// judges it.
fn rolled_back_over(
    root: &Path,
    entry: &Entry,
    now: Option<Print>,
    old: &[u8],
) -> Result<bool, FsError> {
    Ok(match (entry.kind, now) {
        (Kind::Remove, None) => true,
        (_, None) => false,
        (_, now) if now == entry.new => true,
        (Kind::InPlace, Some(_)) => {
            let real = entry.target_path();
            match beneath::read(root, &real, &real.to_string_lossy())? {
                Some((bytes, _)) => old.starts_with(&bytes) || torn_new(root, entry, &bytes)?,
                None => false,
            }
        }
        _ => false,
    })
}

/// Whether `bytes` are a prefix of the new bytes of an in-place entry (its temp, while present).
fn torn_new(root: &Path, entry: &Entry, bytes: &[u8]) -> Result<bool, FsError> {
    let (Some(parent), Some(temp)) = (parent_of(root, entry)?, entry.temp.as_deref()) else {
        return Ok(false);
    };
    let temp_path = parent.dir.path.join(std::ffi::OsStr::from_bytes(temp));
    Ok(std::fs::read(&temp_path)
        .ok()
        .is_some_and(|new| Some(Print::of(&new)) == entry.new && new.starts_with(bytes)))
}

/// Removes every `.hashline-<id>-*` file from the directories the plan touches; returns how
/// many were removed.
fn remove_temps(root: &Path, entries: &[Entry], id: &str) -> usize {
    let prefix = journal::temp_prefix(id);
    let mut dirs: BTreeSet<PathBuf> = BTreeSet::new();
    let mut removed = 0;
    for entry in entries {
        let Ok(Some(parent)) = parent_of(root, entry) else {
            continue;
        };
        if !dirs.insert(parent.dir.path.clone()) {
            continue;
        }
        let Ok(listing) = std::fs::read_dir(&parent.dir.path) else {
            continue;
        };
        for name in listing.flatten().map(|e| e.file_name()) {
            if beneath::name_bytes(&name).starts_with(prefix.as_bytes())
                && rustix::fs::unlinkat(&parent.dir.fd, name.as_os_str(), AtFlags::empty()).is_ok()
            {
                removed += 1;
            }
        }
        let _ = rustix::fs::fsync(&parent.dir.fd);
    }
    removed
}
