//! File-level steps outside the executor: the read-only check, and the open-and-decode of a
//! `read` command.

use hashline_core::TextFile;

use crate::fs::{FsError, LockGuard, Target, Workspace};

/// Whether the file exists and its permissions forbid writing it.
pub(crate) fn is_read_only(target: &Target) -> bool {
    std::fs::metadata(&target.real).is_ok_and(|m| m.permissions().readonly())
}

/// A file opened for a `read` command: resolved, and locked when a running edit could be seen
/// half done.
pub(crate) struct ForRead {
    /// The resolved file.
    pub target: Target,
    /// Held until the read is recorded (see [`Workspace::lock_for_read`]).
    _guard: Option<LockGuard>,
}

/// Resolve `path` for a read and take the read lock: a hard-linked file is rewritten in place,
/// so the read waits for a running edit rather than show half.
pub(crate) fn open_for_read(ws: &Workspace, path: &str) -> Result<ForRead, FsError> {
    let target = ws.resolve(path)?;
    let guard = ws.lock_for_read(&target)?;
    Ok(ForRead {
        target,
        _guard: guard,
    })
}

/// The LF text of an opened file, `None` when it does not exist. Only the text is kept: the
/// bytes are dropped as soon as they are decoded (a 100 MB file is 100 MB less peak memory).
pub(crate) fn read_text(ws: &Workspace, file: &ForRead) -> Result<Option<String>, FsError> {
    Ok(ws
        .read(&file.target)?
        .map(|bytes| TextFile::decode(bytes).into_parts().1))
}
