//! The low-level half of a commit: journal, temp files, the renames, and undoing.
//!
//! Order (see [`super::journal`] for the files): take a journal; write the plan (fsynced); open
//! every target's directory through [`super::beneath`] (creating missing ones), save the old
//! bytes of every replaced or removed file in the journal (a hard link to a file with one name
//! that a rename replaces, else a copy: `backup_linked`), stage every temp file
//! (`.hashline-<id>-<n>.tmp`, fsynced) — nothing visible has changed yet; check every target is
//! still exactly what validation read (device, inode, size, mtime, ctime); mark the journal
//! COMMITTED; then apply the operations one by one through the directory handles, each
//! re-checking its target right before its rename, recording how to undo each; on a failure mark
//! ROLLBACK and undo everything in reverse. The journal is removed at the end either way, except
//! when a rollback itself failed (the next call's recovery finishes it).

use std::borrow::Cow;
use std::ffi::OsString;
use std::fs::File;
use std::os::fd::OwnedFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustix::fs::{AtFlags, Mode, OFlags, RenameFlags};
use rustix::io::Errno;

use super::attrs::Attrs;
use super::beneath::{self, Parent};
use super::content::Content;
use super::disk::Written;
use super::journal::{self, Entry, Journal, Kind, Plan, Print};
use super::undo_log::{Published, UndoLog};
use super::{FsError, Target};
use dirs::Dirs;

/// What identifies one version of a file on disk: a write or a replacement changes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Stamp {
    fn of(meta: &std::fs::Metadata) -> Stamp {
        Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    fn of_stat(st: &rustix::fs::Stat) -> Stamp {
        #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
        Stamp {
            dev: st.st_dev as u64,
            ino: st.st_ino as u64,
            size: st.st_size as u64,
            mtime: (st.st_mtime as i64, st.st_mtime_nsec as i64),
            ctime: (st.st_ctime as i64, st.st_ctime_nsec as i64),
        }
    }
}

/// A file as validation found it.
#[derive(Debug)]
pub(super) struct Existing<'a> {
    /// Its bytes (equal to what the caller expected, once validated: then the caller's, borrowed).
    pub(super) bytes: Cow<'a, [u8]>,
    /// Its permissions and owner, copied onto whatever replaces it.
    pub(super) attrs: Attrs,
    /// Its hard-link count.
    links: u64,
    /// Nobody may write it (no write bit): a change to it is refused, not renamed over it.
    pub(super) read_only: bool,
    /// The version read: checked again right before the file is replaced.
    pub(super) stamp: Stamp,
    /// Its permission bits.
    mode: u32,
}

/// What [`Existing::holding`] found.
pub(super) enum Found<'a> {
    /// No such file.
    Missing,
    /// The file holds other bytes than expected.
    Differs,
    /// The file holds exactly the bytes expected (which it borrows).
    Holds(Existing<'a>),
}

impl<'a> Existing<'a> {
    /// The target's current state, read through directory handles under `root`; `None` if it
    /// does not exist.
    pub(super) fn inspect(root: &Path, target: &Target) -> Result<Option<Existing<'a>>, FsError> {
        Ok(beneath::read(root, &target.real, &target.display)?
            .map(|(bytes, meta)| Existing::of(Cow::Owned(bytes), &meta)))
    }

    /// The target's current state when it holds exactly `expected`, compared while it is read
    /// (so a large file is never held twice: its bytes are `expected`).
    pub(super) fn holding(
        root: &Path,
        target: &Target,
        expected: Cow<'a, [u8]>,
    ) -> Result<Found<'a>, FsError> {
        Ok(
            match beneath::holds(root, &target.real, &target.display, &expected)? {
                None => Found::Missing,
                Some((false, _)) => Found::Differs,
                Some((true, meta)) => Found::Holds(Existing::of(expected, &meta)),
            },
        )
    }

    fn of(bytes: Cow<'a, [u8]>, meta: &std::fs::Metadata) -> Existing<'a> {
        Existing {
            bytes,
            attrs: Attrs::of(meta),
            links: meta.nlink(),
            read_only: meta.permissions().readonly(),
            stamp: Stamp::of(meta),
            mode: meta.mode() & 0o7777,
        }
    }

    /// Device and inode: one file, whatever its names.
    pub(super) fn identity(&self) -> (u64, u64) {
        (self.stamp.dev, self.stamp.ino)
    }
}

/// One validated low-level operation.
#[derive(Debug)]
pub(super) enum Op<'a> {
    /// Put `bytes` at the target through a temp file and a rename. `old: None` = the target
    /// must still not exist when the rename happens.
    Put {
        target: Target,
        bytes: Content<'a>,
        old: Option<Existing<'a>>,
        attrs: Option<Attrs>,
    },
    /// Rewrite a hard-linked file in place, so every link sees the new bytes.
    InPlace {
        target: Target,
        bytes: Content<'a>,
        old: Existing<'a>,
    },
    /// Remove the target.
    Remove { target: Target, old: Existing<'a> },
}

impl<'a> Op<'a> {
    /// Create a file that does not exist (with `attrs`, or the process default).
    pub(super) fn create(target: Target, bytes: Content<'a>, attrs: Option<Attrs>) -> Op<'a> {
        Op::Put {
            target,
            bytes,
            old: None,
            attrs,
        }
    }

    /// Replace an existing file's content, keeping its permissions and hard links.
    pub(super) fn replace(target: Target, bytes: Content<'a>, old: Existing<'a>) -> Op<'a> {
        if old.links > 1 {
            Op::InPlace { target, bytes, old }
        } else {
            Op::Put {
                target,
                bytes,
                attrs: Some(old.attrs.clone()),
                old: Some(old),
            }
        }
    }

    /// Replace an existing file by another one (a rename with overwrite): the link is replaced.
    pub(super) fn overwrite(
        target: Target,
        bytes: Content<'a>,
        old: Existing<'a>,
        attrs: Option<Attrs>,
    ) -> Op<'a> {
        Op::Put {
            target,
            bytes,
            old: Some(old),
            attrs,
        }
    }

    /// Remove an existing file.
    pub(super) fn remove(target: Target, old: Existing<'a>) -> Op<'a> {
        Op::Remove { target, old }
    }

    /// The target and the existing file it changes.
    pub(super) fn parts(&self) -> (&Target, Option<&Existing<'a>>) {
        (self.target(), self.old())
    }

    fn target(&self) -> &Target {
        match self {
            Op::Put { target, .. } | Op::InPlace { target, .. } | Op::Remove { target, .. } => {
                target
            }
        }
    }

    fn old(&self) -> Option<&Existing<'a>> {
        match self {
            Op::Put { old, .. } => old.as_ref(),
            Op::InPlace { old, .. } | Op::Remove { old, .. } => Some(old),
        }
    }

    fn new_bytes(&self) -> Option<&Content<'a>> {
        match self {
            Op::Put { bytes, .. } | Op::InPlace { bytes, .. } => Some(bytes),
            Op::Remove { .. } => None,
        }
    }

    /// The journal entry of this op (`n` = its index).
    fn entry(&self, n: usize, id: &str) -> Entry {
        use std::os::unix::ffi::OsStrExt;
        let kind = match self {
            Op::Put { .. } => Kind::Put,
            Op::InPlace { .. } => Kind::InPlace,
            Op::Remove { .. } => Kind::Remove,
        };
        let old = self.old();
        Entry {
            kind,
            target: self.target().real.as_os_str().as_bytes().to_vec(),
            temp: (kind != Kind::Remove).then(|| journal::temp_name(id, n).into_encoded_bytes()),
            old: old.map(|o| Print::of(&o.bytes)),
            new: self.new_bytes().map(Content::print),
            backup: old.map(|_| journal::backup_name(n)),
            mode: old.map(|o| o.mode),
        }
    }
}

/// An op with its directory (its handle in [`Dirs`]), its name there and its temp name.
struct Staged<'a> {
    op: Op<'a>,
    dir: PathBuf,
    name: OsString,
    temp: Option<OsString>,
}

impl Staged<'_> {
    /// The directory handle and name of the target, from `dirs`.
    fn parent(&self, dirs: &Dirs<'_>) -> Result<Parent, FsError> {
        dirs.parent(&self.dir, &self.name, self.op.target())
    }

    /// The directory handle of the target, from `dirs`, as an I/O result.
    fn dir_fd(&self, dirs: &Dirs<'_>) -> std::io::Result<Arc<OwnedFd>> {
        dirs.fd(&self.dir, self.op.target())
            .map_err(|e| std::io::Error::other(e.to_string()))
    }
}

/// How to undo one applied operation (index into the staged list).
enum Undo {
    /// Put the old bytes back (the path was replaced or removed).
    Restore(usize),
    /// Remove a file the commit created.
    Delete(usize),
    /// Rewrite a hard-linked file's old bytes in place.
    Rewrite(usize),
}

/// Stages and applies `ops` under `root`, all or nothing, journaled in `journal_dir`; once
/// every change landed, records the call in `undo` (when given) and returns its undo id.
pub(super) fn run(
    root: &Path,
    journal_dir: &Path,
    ops: Vec<Op<'_>>,
    undo: Option<&UndoLog>,
) -> Result<Written, FsError> {
    use std::os::unix::ffi::OsStrExt;
    if ops.is_empty() {
        return Ok(Written::default());
    }
    let journal = Journal::begin(journal_dir)?;
    let plan = Plan {
        version: journal::PLAN_VERSION,
        root: root.as_os_str().as_bytes().to_vec(),
        pid: std::process::id(),
        entries: ops
            .iter()
            .enumerate()
            .map(|(n, op)| op.entry(n, &journal.id))
            .collect(),
    };
    let mut created_dirs = Vec::new();
    let result = run_journaled(root, &journal, &plan, ops, &mut created_dirs);
    match &result {
        Err(FsError::RollbackFailed { .. }) => {} // kept for the next call's recovery
        Err(_) => {
            remove_dirs(&created_dirs);
            journal.finish();
        }
        Ok(()) => {
            // Published before the journal goes (a kill in between leaves a true record and a
            // journal whose roll forward finds nothing to do); a failure only loses the undo,
            // and is marked so that `undo` never reverts an older call in this one's place.
            let written = match undo {
                None => Written::default(),
                Some(log) => {
                    let id = log.publish(
                        &journal.dir,
                        &journal.id,
                        root,
                        &plan.entries,
                        &created_dirs,
                        &journal.seal,
                    );
                    match id {
                        Ok(Published::Id(id)) => Written::with_undo(Some(id)),
                        Ok(Published::Off) => Written::default(),
                        Ok(Published::TooLarge) | Err(_) => {
                            log.discard_staging(&journal.id);
                            log.mark_unrecorded(root);
                            Written::unrecorded()
                        }
                    }
                }
            };
            journal.finish();
            return Ok(written);
        }
    }
    result.map(|()| Written::default())
}

fn run_journaled(
    root: &Path,
    journal: &Journal,
    plan: &Plan,
    ops: Vec<Op<'_>>,
    created_dirs: &mut Vec<PathBuf>,
) -> Result<(), FsError> {
    journal.write_plan(plan)?;
    let dirs = Dirs::new(root);
    let mut staged: Vec<Staged<'_>> = Vec::with_capacity(ops.len());
    let staging = stage_all(&dirs, journal, ops, created_dirs, &mut staged);
    if let Err(e) = staging.and_then(|()| late_check(&dirs, &staged)) {
        remove_temps(&dirs, &staged);
        return Err(e);
    }
    if let Err(e) = journal.mark(journal::COMMITTED) {
        remove_temps(&dirs, &staged);
        return Err(e);
    }
    let mut undo = Vec::with_capacity(staged.len());
    for (n, s) in staged.iter().enumerate() {
        if let Err(e) = apply(&dirs, n, s, &mut undo) {
            return Err(rollback(journal, &dirs, &staged, undo, e));
        }
    }
    remove_temps(&dirs, &staged);
    let _ = in_parallel(&distinct_dirs(&staged), |s| {
        rustix::fs::fsync(&*s.dir_fd(&dirs)?).map_err(Into::into)
    });
    Ok(())
}

/// Opens every target's directory, backs up old bytes, writes every temp file; then makes all of
/// them durable: every backup and temp file fsynced, then every distinct directory, on several
/// threads (the file system commits concurrent fsyncs together, so a call of a thousand files
/// waits for a few journal commits, not for four per file). Nothing is visible before the
/// journal is marked COMMITTED, which happens only after this returns.
///
/// File descriptors do not grow with the number of files: targets in one directory share its
/// handle, at most [`dirs::OPEN_DIRS`] directory handles stay open ([`Dirs`] opens a closed
/// one again, checked to be the same directory), and the written files are fsynced and closed
/// [`SYNC_BATCH`] at a time (all of them before the directories, as before). A directory
/// replaced between two targets' walks is caught as for any target: the target found through
/// the first handle is not the version validation read.
fn stage_all<'a>(
    dirs: &Dirs<'_>,
    journal: &Journal,
    ops: Vec<Op<'a>>,
    created_dirs: &mut Vec<PathBuf>,
    staged: &mut Vec<Staged<'a>>,
) -> Result<(), FsError> {
    // Written, not yet fsynced: each with the name to blame when its fsync fails.
    let mut written: Vec<(File, String)> = Vec::new();
    for (n, mut op) in ops.into_iter().enumerate() {
        if written.len() + 2 > SYNC_BATCH {
            sync_written(&mut written)?;
        }
        let create = matches!(op, Op::Put { old: None, .. }).then_some(&mut *created_dirs);
        let target = op.target();
        let walked = beneath::open_parent(dirs.root(), &target.real, &target.display, create)?
            .ok_or_else(|| FsError::NotFound {
                path: target.display.clone(),
            })?;
        // The walk's own handle closes here when its directory is open already.
        let parent = Parent {
            dir: dirs.adopt(walked.dir, target)?,
            name: walked.name,
        };
        let linked = match &mut op {
            Op::Put {
                old: Some(old),
                target,
                ..
            } => backup_linked(journal, n, &parent, old, &target.display)?,
            _ => None,
        };
        if let Some(file) = linked {
            written.push((file, journal.dir.display().to_string()));
        } else if let Some(old) = op.old() {
            let file = journal.backup_unsynced(n, &old.bytes)?;
            written.push((file, journal.dir.display().to_string()));
        }
        let target = op.target();
        let temp = match &op {
            Op::Remove { .. } => None,
            Op::Put { bytes, attrs, .. } => {
                let name = journal::temp_name(&journal.id, n);
                let file = write_temp_unsynced(&parent, &name, bytes, attrs.as_ref())
                    .map_err(|e| FsError::io(&target.display, e))?;
                written.push((file, target.display.clone()));
                Some(name)
            }
            Op::InPlace { bytes, .. } => {
                let name = journal::temp_name(&journal.id, n);
                let file = write_temp_unsynced(&parent, &name, bytes, None)
                    .map_err(|e| FsError::io(&target.display, e))?;
                written.push((file, target.display.clone()));
                Some(name)
            }
        };
        let Parent { dir, name } = parent;
        staged.push(Staged {
            op,
            dir: dir.path,
            name,
            temp,
        });
    }
    sync_written(&mut written)?;
    // The backups' names, as their fsyncs made them durable before.
    journal::sync_dir(&journal.dir).map_err(|e| FsError::io(journal.dir.display(), e))?;
    let distinct = distinct_dirs(staged);
    in_parallel(&distinct, |s| {
        rustix::fs::fsync(&*s.dir_fd(dirs)?).map_err(Into::into)
    })
    .map_err(|(i, e)| FsError::io(&distinct[i].op.target().display, e))
}

/// How many written files (backups and temp files) stay open before they are fsynced together
/// and closed: the bound on a commit's file descriptors for them, large enough that the file
/// system still commits many fsyncs at once.
const SYNC_BATCH: usize = 32;

/// Fsyncs every file of `written` (on several threads) and closes them.
fn sync_written(written: &mut Vec<(File, String)>) -> Result<(), FsError> {
    in_parallel(written, |(file, _)| file.sync_all())
        .map_err(|(i, e)| FsError::io(&written[i].1, e))?;
    written.clear();
    Ok(())
}

/// Op `n`'s backup as a hard link to the file a rename will replace (its only name): no copy of its bytes and
/// no new inode (a file system that allocates inodes slowly after many deletions makes each new
/// file costly). The rename leaves the old inode to the backup alone, so the backup keeps the
/// old bytes exactly as a copy would; it is fsynced with the temp files before the commit
/// point, like a copy. A link changes the file's ctime, so `old.stamp` takes the linked file's
/// new one, after checking that it is still the version read (device, inode, size, mtime;
/// otherwise the link goes and the commit is refused as changed). `None` when no link can be
/// made (the journal on another file system, links refused): the caller copies the bytes.
fn backup_linked(
    journal: &Journal,
    n: usize,
    parent: &Parent,
    old: &mut Existing,
    display: &str,
) -> Result<Option<File>, FsError> {
    if old.links != 1 {
        // Another name of the inode would still see (and could change) the backup.
        return Ok(None);
    }
    let path = journal.dir.join(journal::backup_name(n));
    let linked = rustix::fs::linkat(
        &parent.dir.fd,
        parent.name.as_os_str(),
        rustix::fs::CWD,
        &path,
        AtFlags::empty(),
    );
    if linked.is_err() {
        return Ok(None);
    }
    let opened = File::open(&path).and_then(|f| f.metadata().map(|m| (f, m)));
    let (file, meta) = match opened {
        Ok(found) => found,
        Err(e) => {
            let _ = std::fs::remove_file(&path);
            return Err(FsError::io(journal.dir.display(), e));
        }
    };
    let now = Stamp::of(&meta);
    let same = Stamp {
        ctime: old.stamp.ctime,
        ..now
    } == old.stamp;
    if !same || !meta.is_file() {
        let _ = std::fs::remove_file(&path);
        return Err(FsError::Changed {
            path: display.to_owned(),
        });
    }
    old.stamp = now;
    Ok(Some(file))
}

/// One staged operation per distinct directory (by its path as resolved).
fn distinct_dirs<'s>(staged: &'s [Staged<'_>]) -> Vec<&'s Staged<'s>> {
    let mut seen = std::collections::HashSet::new();
    staged
        .iter()
        .filter(|s| seen.insert(s.dir.clone()))
        .collect()
}

/// Runs `sync` on every item, on up to 8 threads; the first failure (its index and error).
pub(super) fn in_parallel<T: Sync>(
    items: &[T],
    sync: impl Fn(&T) -> std::io::Result<()> + Sync,
) -> Result<(), (usize, std::io::Error)> {
    const THREADS: usize = 8;
    if items.len() <= 1 {
        return items
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| sync(item).map_err(|e| (i, e)));
    }
    let per = items.len().div_ceil(THREADS);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(per)
            .enumerate()
            .map(|(k, chunk)| {
                let sync = &sync;
                let work = move || {
                    chunk
                        .iter()
                        .enumerate()
                        .try_for_each(|(i, item)| sync(item).map_err(|e| (k * per + i, e)))
                };
                // No thread to be had (a process or memory limit): this chunk here and now.
                std::thread::Builder::new()
                    .spawn_scoped(scope, work)
                    .map_err(|_| work())
            })
            .collect();
        let mut first = Ok(());
        for handle in handles {
            let result = match handle {
                Ok(handle) => handle.join().unwrap_or_else(|_| {
                    Err((0, std::io::Error::other("an fsync thread panicked")))
                }),
                Err(done_here) => done_here,
            };
            if first.is_ok() {
                first = result;
            }
        }
        first
    })
}

/// Creates `name` in `parent` (exclusively, never through a symlink) holding `bytes`, with
/// `attrs` (or 0o666 minus the umask), fsynced.
pub(super) fn write_temp(
    parent: &Parent,
    name: &OsString,
    bytes: &[u8],
    attrs: Option<&Attrs>,
) -> std::io::Result<()> {
    write_temp_unsynced(parent, name, &Content::from(bytes), attrs)?.sync_all()
}

/// [`write_temp`] without the fsync (the caller fsyncs the returned file before relying on it).
fn write_temp_unsynced(
    parent: &Parent,
    name: &OsString,
    bytes: &Content<'_>,
    attrs: Option<&Attrs>,
) -> std::io::Result<File> {
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mode = if attrs.is_some() { 0o600 } else { 0o666 };
    let fd = rustix::fs::openat(&parent.dir.fd, name.as_os_str(), flags, Mode::from(mode))?;
    let mut file = File::from(fd);
    bytes.write_to(&mut file)?;
    if let Some(attrs) = attrs {
        attrs.apply(&file)?;
    }
    Ok(file)
}

/// Refuses when the target is no longer exactly the version validation read (or, for a create,
/// when something appeared at it).
fn still_as_read(dirs: &Dirs<'_>, s: &Staged<'_>) -> Result<(), FsError> {
    let target = s.op.target();
    let dir = dirs.fd(&s.dir, target)?;
    let now = match rustix::fs::statat(&*dir, s.name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => Some(Stamp::of_stat(&st)),
        Err(Errno::NOENT) => None,
        Err(e) => return Err(FsError::io(&target.display, e.into())),
    };
    match (s.op.old(), now) {
        (None, None) => Ok(()),
        (None, Some(_)) => Err(FsError::Exists {
            path: target.display.clone(),
        }),
        (Some(old), Some(now)) if now == old.stamp => Ok(()),
        (Some(_), _) => Err(FsError::Changed {
            path: target.display.clone(),
        }),
    }
}

/// Every target checked once more after staging, before anything visible changes.
fn late_check(dirs: &Dirs<'_>, staged: &[Staged<'_>]) -> Result<(), FsError> {
    staged.iter().try_for_each(|s| still_as_read(dirs, s))
}

#[cfg(test)]
thread_local! {
    /// Test hook: fail the apply step with this index (after the COMMITTED mark).
    static FAIL_AT: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Applies one operation, pushing its undo step once something on disk changed.
fn apply(dirs: &Dirs<'_>, n: usize, s: &Staged<'_>, undo: &mut Vec<Undo>) -> Result<(), FsError> {
    let display = &s.op.target().display;
    let io = |e: Errno| FsError::io(display, e.into());
    #[cfg(test)]
    if FAIL_AT.with(|f| f.get()) == Some(n) {
        return Err(io(Errno::IO));
    }
    still_as_read(dirs, s)?;
    let parent = s.parent(dirs)?;
    let dir = &*parent.dir.fd;
    let name = parent.name.as_os_str();
    match (&s.op, &s.temp) {
        (Op::Put { old: Some(_), .. }, Some(temp)) => {
            rustix::fs::renameat(dir, temp.as_os_str(), dir, name).map_err(io)?;
            undo.push(Undo::Restore(n));
        }
        (Op::Put { old: None, .. }, Some(temp)) => {
            match rustix::fs::renameat_with(
                dir,
                temp.as_os_str(),
                dir,
                name,
                RenameFlags::NOREPLACE,
            ) {
                Ok(()) => {}
                Err(Errno::EXIST) => {
                    return Err(FsError::Exists {
                        path: display.clone(),
                    })
                }
                Err(Errno::INVAL | Errno::NOSYS) => {
                    // No renameat2 here: a hard link never replaces an existing name either.
                    rustix::fs::linkat(dir, temp.as_os_str(), dir, name, AtFlags::empty())
                        .map_err(|e| match e {
                            Errno::EXIST => FsError::Exists {
                                path: display.clone(),
                            },
                            e => io(e),
                        })?;
                }
                Err(e) => return Err(io(e)),
            }
            undo.push(Undo::Delete(n));
        }
        (Op::InPlace { bytes, old, .. }, Some(temp)) => {
            // Recorded first: a failed write may have truncated the file already.
            undo.push(Undo::Rewrite(n));
            write_in_place(&parent, bytes, Some(old.stamp)).map_err(|e| e.into_fs(display))?;
            let _ = rustix::fs::unlinkat(dir, temp.as_os_str(), AtFlags::empty());
        }
        (Op::Remove { .. }, _) => {
            rustix::fs::unlinkat(dir, name, AtFlags::empty()).map_err(io)?;
            undo.push(Undo::Restore(n));
        }
        (_, None) => return Err(io(Errno::INVAL)),
    }
    Ok(())
}

/// Why an in-place write failed.
pub(super) enum InPlaceError {
    /// The file is no longer the version read.
    Changed,
    /// An I/O failure.
    Io(std::io::Error),
}

impl InPlaceError {
    fn into_fs(self, display: &str) -> FsError {
        match self {
            InPlaceError::Changed => FsError::Changed {
                path: display.to_owned(),
            },
            InPlaceError::Io(e) => FsError::io(display, e),
        }
    }
}

/// Rewrites `parent/name` in place (same inode, so every hard link sees it), never through a
/// symlink; with `expect`, only if it is still that version.
pub(super) fn write_in_place(
    parent: &Parent,
    bytes: &Content<'_>,
    expect: Option<Stamp>,
) -> Result<(), InPlaceError> {
    let flags = OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let fd = rustix::fs::openat(
        &parent.dir.fd,
        parent.name.as_os_str(),
        flags,
        Mode::empty(),
    )
    .map_err(|e| InPlaceError::Io(e.into()))?;
    let mut file = File::from(fd);
    let meta = file.metadata().map_err(InPlaceError::Io)?;
    if !meta.is_file() || expect.is_some_and(|stamp| Stamp::of(&meta) != stamp) {
        return Err(InPlaceError::Changed);
    }
    file.set_len(0).map_err(InPlaceError::Io)?;
    bytes.write_to(&mut file).map_err(InPlaceError::Io)?;
    file.sync_all().map_err(InPlaceError::Io)
}

/// Marks the journal ROLLBACK, undoes `undo` in reverse, removes every temp. Returns `cause`,
/// or [`FsError::RollbackFailed`] naming the first file that could not be restored.
fn rollback(
    journal: &Journal,
    dirs: &Dirs<'_>,
    staged: &[Staged<'_>],
    undo: Vec<Undo>,
    cause: FsError,
) -> FsError {
    let _ = journal.mark(journal::ROLLBACK);
    let mut failure: Option<(PathBuf, std::io::Error)> = None;
    for step in undo.into_iter().rev() {
        let (n, result) = match step {
            Undo::Restore(n) => (n, restore(journal, dirs, n, &staged[n])),
            Undo::Delete(n) => {
                let s = &staged[n];
                let result = s.dir_fd(dirs).and_then(|dir| {
                    rustix::fs::unlinkat(&*dir, s.name.as_os_str(), AtFlags::empty())
                        .map_err(std::io::Error::from)
                });
                (n, result)
            }
            Undo::Rewrite(n) => {
                let s = &staged[n];
                let old = s.op.old().map_or(&[][..], |o| &o.bytes);
                let result = s
                    .parent(dirs)
                    .map_err(|e| std::io::Error::other(e.to_string()))
                    .and_then(|parent| {
                        write_in_place(&parent, &Content::from(old), None).map_err(|e| match e {
                            InPlaceError::Io(e) => e,
                            InPlaceError::Changed => std::io::Error::other("not a regular file"),
                        })
                    });
                (n, result)
            }
        };
        if let Err(e) = result {
            failure.get_or_insert((staged[n].op.target().real.clone(), e));
        }
    }
    remove_temps(dirs, staged);
    match failure {
        None => cause,
        Some((path, source)) => FsError::RollbackFailed {
            path: path.display().to_string(),
            source,
            cause: Box::new(cause),
        },
    }
}

/// Puts op `n`'s old bytes (and attributes) back at its target through a journal-named temp.
fn restore(journal: &Journal, dirs: &Dirs<'_>, n: usize, s: &Staged<'_>) -> std::io::Result<()> {
    let Some(old) = s.op.old() else {
        return Ok(());
    };
    let parent = s
        .parent(dirs)
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    let temp = OsString::from(format!("{}r{n}.tmp", journal::temp_prefix(&journal.id)));
    write_temp(&parent, &temp, &old.bytes, Some(&old.attrs))?;
    let dir = &*parent.dir.fd;
    rustix::fs::renameat(dir, temp.as_os_str(), dir, parent.name.as_os_str())
        .map_err(std::io::Error::from)
}

/// Removes every staged temp still there.
fn remove_temps(dirs: &Dirs<'_>, staged: &[Staged<'_>]) {
    for s in staged {
        if let Some(temp) = &s.temp {
            if let Ok(dir) = s.dir_fd(dirs) {
                let _ = rustix::fs::unlinkat(&*dir, temp.as_os_str(), AtFlags::empty());
            }
        }
    }
}

/// Removes the directories a failed commit created, innermost first. A directory that is no
/// longer empty (another process wrote into it) is left in place.
fn remove_dirs(created: &[PathBuf]) {
    for dir in created.iter().rev() {
        // Failure here leaves an empty directory behind at worst; never a file.
        let _ = std::fs::remove_dir(dir);
    }
}

/// Refuses early when `target` could not be created: its nearest existing ancestor must be a
/// directory (missing ones are created at commit, through directory handles).
pub(super) fn check_parent(target: &Target) -> Result<(), FsError> {
    let mut dir = target.real.parent();
    while let Some(current) = dir {
        match std::fs::symlink_metadata(current) {
            Ok(meta) if meta.is_dir() => return Ok(()),
            Ok(_) => {
                return Err(FsError::io(
                    &target.display,
                    std::io::Error::new(
                        std::io::ErrorKind::NotADirectory,
                        format!("{} is not a directory", current.display()),
                    ),
                ))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => dir = current.parent(),
            Err(e) => return Err(FsError::io(&target.display, e)),
        }
    }
    Ok(())
}

mod dirs;
#[cfg(test)]
mod tests;
