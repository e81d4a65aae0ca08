//! The low-level half of a commit: staging temp files, moving them into place, and undoing.
//!
//! Order: create missing parent directories and stage every temp file (flushed to disk) first —
//! nothing visible has changed yet; then apply the operations one by one, recording how to undo
//! each; on the first failure undo everything in reverse. Temps are `NamedTempFile`s, so every
//! one not moved into place is deleted when dropped, on every path out of here.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use super::attrs::Attrs;
use super::workspace::read_with_meta;
use super::{FsError, Target};

/// A file as validation found it.
#[derive(Debug)]
pub(super) struct Existing {
    /// Its bytes (equal to what the caller expected, once validated).
    pub(super) bytes: Vec<u8>,
    /// Its permissions and owner, copied onto whatever replaces it.
    pub(super) attrs: Attrs,
    /// Its hard-link count (1 where the platform does not say).
    links: u64,
    /// Nobody may write it (no write bit): a change to it is refused, not renamed over it.
    pub(super) read_only: bool,
}

impl Existing {
    /// The target's current state; `None` if it does not exist.
    pub(super) fn inspect(target: &Target) -> Result<Option<Existing>, FsError> {
        Ok(
            read_with_meta(&target.real, &target.display)?.map(|(bytes, meta)| Existing {
                bytes,
                attrs: Attrs::of(&meta),
                links: link_count(&meta),
                read_only: meta.permissions().readonly(),
            }),
        )
    }
}

#[cfg(unix)]
fn link_count(meta: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(meta)
}

#[cfg(not(unix))]
fn link_count(_meta: &std::fs::Metadata) -> u64 {
    1
}

/// One validated low-level operation.
#[derive(Debug)]
pub(super) enum Op {
    /// Put `bytes` at the target through a temp file and a rename. `old: None` = the target
    /// must still not exist when the rename happens.
    Put {
        target: Target,
        bytes: Vec<u8>,
        old: Option<Existing>,
        attrs: Option<Attrs>,
    },
    /// Rewrite a hard-linked file in place, so every link sees the new bytes.
    InPlace {
        target: Target,
        bytes: Vec<u8>,
        old: Existing,
    },
    /// Remove the target.
    Remove { target: Target, old: Existing },
}

impl Op {
    /// Create a file that does not exist (with `attrs`, or the process default).
    pub(super) fn create(target: Target, bytes: Vec<u8>, attrs: Option<Attrs>) -> Op {
        Op::Put {
            target,
            bytes,
            old: None,
            attrs,
        }
    }

    /// Replace an existing file's content, keeping its permissions and hard links.
    pub(super) fn replace(target: Target, bytes: Vec<u8>, old: Existing) -> Op {
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
        bytes: Vec<u8>,
        old: Existing,
        attrs: Option<Attrs>,
    ) -> Op {
        Op::Put {
            target,
            bytes,
            old: Some(old),
            attrs,
        }
    }

    /// Remove an existing file.
    pub(super) fn remove(target: Target, old: Existing) -> Op {
        Op::Remove { target, old }
    }
}

/// How to undo one applied operation.
enum Undo {
    /// Put the old bytes back (the path was replaced or removed).
    Restore { path: PathBuf, old: Existing },
    /// Remove a file the commit created.
    Delete { path: PathBuf },
    /// Rewrite a hard-linked file's old bytes in place.
    Rewrite { path: PathBuf, old: Vec<u8> },
}

/// Refuses early when `target` could not be created: its nearest existing ancestor must be a
/// directory (missing ones are created at commit).
pub(super) fn check_parent(target: &Target) -> Result<(), FsError> {
    let mut dir = target.real.parent();
    while let Some(current) = dir {
        match std::fs::metadata(current) {
            Ok(meta) if meta.is_dir() => return Ok(()),
            Ok(_) => {
                return Err(FsError::io(
                    &target.display,
                    std::io::Error::new(
                        ErrorKind::NotADirectory,
                        format!("{} is not a directory", current.display()),
                    ),
                ))
            }
            Err(e) if e.kind() == ErrorKind::NotFound => dir = current.parent(),
            Err(e) => return Err(FsError::io(&target.display, e)),
        }
    }
    Ok(())
}

/// An operation ready to apply: every `Put` holds its flushed temp file.
enum Ready {
    Put {
        target: Target,
        temp: NamedTempFile,
        old: Option<Existing>,
    },
    InPlace {
        target: Target,
        bytes: Vec<u8>,
        old: Existing,
    },
    Remove {
        target: Target,
        old: Existing,
    },
}

impl Ready {
    fn path(&self) -> &Path {
        match self {
            Ready::Put { target, .. }
            | Ready::InPlace { target, .. }
            | Ready::Remove { target, .. } => &target.real,
        }
    }
}

/// Stages and applies `ops`, all or nothing.
pub(super) fn run(ops: Vec<Op>) -> Result<(), FsError> {
    let mut created_dirs = Vec::new();
    let mut ready = Vec::with_capacity(ops.len());
    for op in ops {
        ready.push(match op {
            Op::Put {
                target,
                bytes,
                old,
                attrs,
            } => match stage(&target, &bytes, attrs.as_ref(), &mut created_dirs) {
                Ok(temp) => Ready::Put { target, temp, old },
                Err(e) => {
                    drop(ready); // deletes the temps staged so far
                    remove_dirs(&created_dirs);
                    return Err(e);
                }
            },
            Op::InPlace { target, bytes, old } => Ready::InPlace { target, bytes, old },
            Op::Remove { target, old } => Ready::Remove { target, old },
        });
    }

    let mut touched_dirs: Vec<PathBuf> = Vec::new();
    for op in &ready {
        if let Some(dir) = op.path().parent() {
            if !touched_dirs.iter().any(|d| d == dir) {
                touched_dirs.push(dir.to_path_buf());
            }
        }
    }
    let mut undo = Vec::with_capacity(ready.len());
    let mut pending = ready.into_iter();
    for op in pending.by_ref() {
        if let Err(e) = apply(op, &mut undo) {
            drop(pending); // deletes the temps not moved into place
            return Err(rollback(undo, &created_dirs, e));
        }
    }
    sync_dirs(&touched_dirs);
    Ok(())
}

/// Applies one operation, pushing its undo step once something on disk changed.
fn apply(op: Ready, undo: &mut Vec<Undo>) -> Result<(), FsError> {
    match op {
        Ready::Put { target, temp, old } => {
            let placed = if old.is_some() {
                temp.persist(&target.real)
            } else {
                temp.persist_noclobber(&target.real)
            };
            if let Err(failed) = placed {
                // Dropping `failed.file` deletes the temp.
                let error = failed.error;
                return Err(if error.kind() == ErrorKind::AlreadyExists {
                    FsError::Exists {
                        path: target.display,
                    }
                } else {
                    FsError::io(&target.display, error)
                });
            }
            undo.push(match old {
                Some(old) => Undo::Restore {
                    path: target.real,
                    old,
                },
                None => Undo::Delete { path: target.real },
            });
        }
        Ready::InPlace { target, bytes, old } => {
            // Recorded first: a failed write may have truncated the file already.
            undo.push(Undo::Rewrite {
                path: target.real.clone(),
                old: old.bytes,
            });
            write_in_place(&target.real, &bytes).map_err(|e| FsError::io(&target.display, e))?;
        }
        Ready::Remove { target, old } => {
            std::fs::remove_file(&target.real).map_err(|e| FsError::io(&target.display, e))?;
            undo.push(Undo::Restore {
                path: target.real,
                old,
            });
        }
    }
    Ok(())
}

/// Undoes `undo` in reverse and removes the directories the commit created. Returns `cause`,
/// or [`FsError::RollbackFailed`] naming the first file that could not be restored.
fn rollback(undo: Vec<Undo>, created_dirs: &[PathBuf], cause: FsError) -> FsError {
    let mut failure: Option<(PathBuf, std::io::Error)> = None;
    for step in undo.into_iter().rev() {
        let (path, result) = match step {
            Undo::Restore { path, old } => {
                let result = put(&path, &old.bytes, Some(&old.attrs));
                (path, result)
            }
            Undo::Delete { path } => {
                let result = std::fs::remove_file(&path);
                (path, result)
            }
            Undo::Rewrite { path, old } => {
                let result = write_in_place(&path, &old);
                (path, result)
            }
        };
        if let Err(e) = result {
            failure.get_or_insert((path, e));
        }
    }
    remove_dirs(created_dirs);
    match failure {
        None => cause,
        Some((path, source)) => FsError::RollbackFailed {
            path: path.display().to_string(),
            source,
            cause: Box::new(cause),
        },
    }
}

/// Creates the missing parents of `target`, then a flushed temp file beside it holding
/// `bytes` with `attrs` (or the process default for new files).
fn stage(
    target: &Target,
    bytes: &[u8],
    attrs: Option<&Attrs>,
    created_dirs: &mut Vec<PathBuf>,
) -> Result<NamedTempFile, FsError> {
    let dir = target.real.parent().ok_or_else(|| FsError::IsDirectory {
        path: target.display.clone(),
    })?;
    create_parents(dir, created_dirs).map_err(|e| FsError::io(&target.display, e))?;
    temp_with(dir, bytes, attrs).map_err(|e| FsError::io(&target.display, e))
}

/// A flushed `.hashline-*.tmp` in `dir` holding `bytes`.
fn temp_with(dir: &Path, bytes: &[u8], attrs: Option<&Attrs>) -> std::io::Result<NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".hashline-").suffix(".tmp");
    #[cfg(unix)]
    if attrs.is_none() {
        // What `File::create` would give: 0o666 minus the umask (tempfile's default is 0o600).
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut temp = builder.tempfile_in(dir)?;
    temp.write_all(bytes)?;
    if let Some(attrs) = attrs {
        attrs.apply(temp.as_file())?;
    }
    temp.as_file().sync_all()?;
    Ok(temp)
}

/// Atomically puts `bytes` at `path` (temp file + rename).
fn put(path: &Path, bytes: &[u8], attrs: Option<&Attrs>) -> std::io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| std::io::Error::new(ErrorKind::InvalidInput, "path has no parent"))?;
    temp_with(dir, bytes, attrs)?
        .persist(path)
        .map(drop)
        .map_err(|failed| failed.error)
}

/// Rewrites the file at `path` in place (same inode, so every hard link sees it).
fn write_in_place(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = OpenOptions::new().write(true).truncate(true).open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Creates `dir` and its missing ancestors, recording (outermost first) each one created.
fn create_parents(dir: &Path, created: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut missing = Vec::new();
    let mut current = Some(dir);
    while let Some(path) = current {
        match std::fs::symlink_metadata(path) {
            Ok(_) => break,
            Err(e) if e.kind() == ErrorKind::NotFound => {
                missing.push(path.to_path_buf());
                current = path.parent();
            }
            Err(e) => return Err(e),
        }
    }
    for path in missing.into_iter().rev() {
        match std::fs::create_dir(&path) {
            Ok(()) => created.push(path),
            // Another process made it meanwhile: fine, but not ours to remove.
            Err(e) if e.kind() == ErrorKind::AlreadyExists && path.is_dir() => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Removes the directories a failed commit created, innermost first. A directory that is no
/// longer empty (another process wrote into it) is left in place.
fn remove_dirs(created: &[PathBuf]) {
    for dir in created.iter().rev() {
        // Failure here leaves an empty directory behind at worst; never a file.
        let _ = std::fs::remove_dir(dir);
    }
}

/// Flushes the directory entries of the renamed files (Unix). The commit is already visible
/// when this runs, so a failure only weakens crash durability and is not reported.
fn sync_dirs(dirs: &[PathBuf]) {
    if cfg!(unix) {
        for dir in dirs {
            let _ = File::open(dir).and_then(|d| d.sync_all());
        }
    }
}

#[cfg(test)]
mod tests;
