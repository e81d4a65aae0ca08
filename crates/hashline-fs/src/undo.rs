//! `undo`: putting back the files one recorded call changed (see `undo_log.rs` for the log).

use std::os::unix::ffi::OsStrExt;

use super::journal::{Entry, Print};
use super::seal::Seal;
use super::trust;
use super::undo_log::{Record, UndoLog};
use super::{FsError, Target, Transaction, Workspace};

/// One file an undo put back.
#[derive(Debug, Clone)]
pub struct UndoneFile {
    /// The file (its display name is relative to the root).
    pub target: Target,
    /// The bytes it holds again; `None`: the call had created it, so it was removed.
    pub restored: Option<Vec<u8>>,
}

/// What [`Workspace::undo`] did.
#[derive(Debug, Clone)]
pub struct Undone {
    /// The call undone.
    pub id: u64,
    /// Every file of the call, in the call's order.
    pub files: Vec<UndoneFile>,
}

/// One undoable call, for `undo --list`.
#[derive(Debug, Clone)]
pub struct UndoEntry {
    /// Its id.
    pub id: u64,
    /// The session that made it.
    pub session: String,
    /// Seconds since the Unix epoch when it landed.
    pub created: u64,
    /// Its files (relative to the root) and what the call did to each: `create`, `update` or
    /// `delete`.
    pub files: Vec<(String, &'static str)>,
    /// Why the call cannot be undone, when it cannot (its record is refused: the
    /// [`FsError::Tampered`] message); `session`, `created` and `files` are then empty.
    pub refused: Option<String>,
}

impl Workspace {
    /// The undoable calls of this root, newest first.
    pub fn undo_list(&self) -> Vec<UndoEntry> {
        let Some(log) = &self.undo else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for id in log.ids().into_iter().rev() {
            let record = match self.own_record(log, id) {
                Ok(Some(record)) => record,
                Ok(None) => continue,
                Err(e) => {
                    out.push(UndoEntry {
                        id,
                        session: String::new(),
                        created: 0,
                        files: Vec::new(),
                        refused: Some(e.to_string()),
                    });
                    continue;
                }
            };
            out.push(UndoEntry {
                id,
                files: record
                    .entries
                    .iter()
                    .map(|e| (self.shown(e), what(e)))
                    .collect(),
                session: record.session,
                created: record.created,
                refused: None,
            });
        }
        out
    }

    /// Puts back the old bytes (and mode) of every file call `id` changed (`None`: this
    /// session's newest undoable call), all or nothing through one [`Transaction`] (journaled,
    /// not itself recorded), then drops the record. Refuses with [`FsError::UndoChanged`]
    /// naming the first file that no longer holds what the call wrote, with
    /// [`FsError::UndoUnknown`] when there is no such call, and with [`FsError::Tampered`] when
    /// the record (or, without `id`, a newer one, whose session is then unknown) is not one the
    /// engine wrote: nothing it names is touched.
    pub fn undo(&self, id: Option<u64>) -> Result<Undone, FsError> {
        let log = self.undo.as_ref().ok_or(FsError::UndoUnknown { id })?;
        let (id, record) = match id {
            Some(id) => (id, self.own_record(log, id)?),
            None => {
                let mut found = None;
                for id in log.ids().into_iter().rev() {
                    match self.own_record(log, id)? {
                        Some(record) if record.session == log.session() => {
                            found = Some((id, Some(record)));
                            break;
                        }
                        _ => {}
                    }
                }
                if let Some(after) = self.unrecorded_after(log) {
                    // A later call of this session landed unrecorded: undoing the record
                    // before it would leave that call's change and revert an older one.
                    if found.as_ref().is_none_or(|(id, _)| *id <= after) {
                        return Err(FsError::UndoNotRecorded);
                    }
                }
                found.ok_or(FsError::UndoUnknown { id: None })?
            }
        };
        let record = record.ok_or(FsError::UndoUnknown { id: Some(id) })?;
        let targets: Vec<Target> = record.entries.iter().map(|e| self.target(e)).collect();
        let refs: Vec<&Target> = targets.iter().collect();
        let _guard = self.lock(&refs)?;
        let mut tx = Transaction::unlogged();
        let mut files = Vec::with_capacity(targets.len());
        for (entry, target) in record.entries.iter().zip(&targets) {
            let current = self.read(target)?;
            if current.as_deref().map(Print::of) != entry.new {
                return Err(FsError::UndoChanged {
                    id,
                    path: target.display.clone(),
                });
            }
            let old = match (&entry.backup, entry.old) {
                (Some(backup), Some(print)) => {
                    let bytes = log.backup(id, backup)?;
                    if Print::of(&bytes) != print {
                        return Err(FsError::io(
                            &target.display,
                            std::io::Error::other(format!("undo record {id} is damaged")),
                        ));
                    }
                    Some(bytes)
                }
                _ => None,
            };
            match (current, &old) {
                (Some(current), Some(old)) => {
                    tx.restore(target, Some(current), old.clone(), entry.mode)
                }
                (Some(current), None) => tx.delete(target, current),
                (None, Some(old)) => tx.restore(target, None::<Vec<u8>>, old.clone(), entry.mode),
                (None, None) => {}
            }
            files.push(UndoneFile {
                target: target.clone(),
                restored: old,
            });
        }
        tx.commit(self)?;
        self.remove_made_dirs(&record);
        log.remove(id)?;
        Ok(Undone { id, files })
    }

    /// Whether this session's newest call on this root landed without an undo record (it
    /// could not be written, or was too large), so that `undo` without an id refuses
    /// ([`FsError::UndoNotRecorded`]) instead of reverting an older call in its place.
    pub fn undo_blocked(&self) -> bool {
        let Some(log) = &self.undo else {
            return false;
        };
        let Some(after) = self.unrecorded_after(log) else {
            return false;
        };
        let newest = log.ids().into_iter().rev().find(
            |&id| matches!(self.own_record(log, id), Ok(Some(r)) if r.session == log.session()),
        );
        newest.is_none_or(|id| id <= after)
    }

    /// The newest id given out when this session's last unrecorded call landed, if one did.
    fn unrecorded_after(&self, log: &UndoLog) -> Option<u64> {
        log.unrecorded_after(self.root())
    }

    /// Removes the directories the call made for its new files, innermost first, where they
    /// are empty again (`remove_dir` refuses any other); never the root or above it.
    fn remove_made_dirs(&self, record: &Record) {
        for dir in record.dirs.iter().rev() {
            let dir = std::path::Path::new(std::ffi::OsStr::from_bytes(dir));
            if dir.starts_with(self.root()) && dir != self.root() {
                let _ = std::fs::remove_dir(dir);
            }
        }
    }

    /// Record `id` if it belongs to this root (`Ok(None)`: none, or another root's), refused
    /// when its seal does not verify or it names a place the engine never writes.
    fn own_record(&self, log: &UndoLog, id: u64) -> Result<Option<Record>, FsError> {
        let Some(record) = log.load(id, &Seal::in_dir(&self.journal_dir()))? else {
            return Ok(None);
        };
        if record.root != self.root().as_os_str().as_bytes() {
            return Ok(None);
        }
        trust::check_record(self, &record).map_err(|reason| FsError::Tampered {
            path: log.dir().join(id.to_string()).display().to_string(),
            reason,
        })?;
        Ok(Some(record))
    }

    /// An entry's file as a [`Target`], shown relative to the root.
    fn target(&self, entry: &Entry) -> Target {
        let real = entry.target_path();
        Target {
            display: self.shown(entry),
            key: real.to_string_lossy().into_owned(),
            real,
        }
    }

    fn shown(&self, entry: &Entry) -> String {
        let real = entry.target_path();
        real.strip_prefix(self.root())
            .unwrap_or(&real)
            .to_string_lossy()
            .into_owned()
    }
}

/// What the call did to an entry's file.
fn what(entry: &Entry) -> &'static str {
    match (entry.old, entry.new) {
        (None, _) => "create",
        (_, None) => "delete",
        _ => "update",
    }
}
