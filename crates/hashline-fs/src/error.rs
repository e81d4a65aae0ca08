//! [`FsError`]: why a path could not be resolved, read, locked or written.

use hashline_core::ErrorCode;

/// A file system failure. Every variant names the path as the request wrote it when there is
/// one (or the on-disk path for failures below the request's level).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FsError {
    /// The path (or a symlink on the way) resolves outside the workspace root.
    #[error("path resolves outside the workspace root: {path}")]
    OutsideRoot {
        /// The path as written.
        path: String,
    },
    /// The path lies in hashline's own state directory (locks, journals, undo log, database).
    #[error(
        "{path} is inside hashline's state directory (--state), which no command reads or \
         writes; name a file of the project"
    )]
    InStateDir {
        /// The path as written.
        path: String,
    },
    /// A directory on the path is a file: nothing can lie below it.
    #[error(
        "{path}: {file} is a file, not a directory, so nothing can be inside it; name a path \
         whose directories are directories (did you mean {file}?)"
    )]
    UnderFile {
        /// The path as written.
        path: String,
        /// The file on its way, relative to the root.
        file: String,
    },
    /// A file to edit or create is named with a trailing `/`, which names a directory.
    #[error(
        "{path} ends with `/`, so it names a directory, and hashline edits and creates files \
         only; name the file without the trailing slash (a file inside it: {path}NAME)"
    )]
    TrailingSlash {
        /// The path as written.
        path: String,
    },
    /// The path is a directory.
    #[error("path is a directory: {path}")]
    IsDirectory {
        /// The path as written.
        path: String,
    },
    /// The file does not exist.
    #[error("file not found: {path}")]
    NotFound {
        /// The path as written.
        path: String,
    },
    /// A create or rename would replace a file that exists.
    #[error("file already exists: {path}")]
    Exists {
        /// The path as written.
        path: String,
    },
    /// The file changed since the caller read it.
    #[error("file changed on disk since it was read: {path}")]
    Changed {
        /// The path as written.
        path: String,
    },
    /// Symlinks nest too deeply (or loop).
    #[error("too many levels of symbolic links: {path}")]
    TooManyLinks {
        /// The path as written.
        path: String,
    },
    /// The file has no write permission. A rename would replace it all the same (only the
    /// directory's permission counts), so it is refused instead: read-only marks a file that
    /// is not to be changed.
    #[error("file is read-only: {path}; make it writable first (chmod u+w) or leave it unchanged")]
    ReadOnly {
        /// The path as written.
        path: String,
    },
    /// One transaction names the same file twice.
    #[error("file named twice in one transaction: {path}")]
    Duplicate {
        /// The path as written.
        path: String,
    },
    /// Two names of one request reach the same file (hard links, or a symlink resolved
    /// differently): refused, so one edit is never silently lost.
    #[error(
        "{path} and {other} are the same file (hard links); edit it through one name only, in \
         one section"
    )]
    SameFile {
        /// The second name, as written.
        path: String,
        /// The first name, as written.
        other: String,
    },
    /// A directory on the path (or the file) was replaced by a symlink while the call ran:
    /// refused, never followed.
    #[error(
        "{path}: a directory on its path became a symbolic link while the call ran; nothing \
         was written through it; check the tree and retry"
    )]
    Swapped {
        /// The path as written.
        path: String,
    },
    /// A FIFO, socket or device: never opened for reading.
    #[error("{path} is not a regular file (a FIFO, socket or device); only regular files can be read or edited")]
    NotRegular {
        /// The path as written.
        path: String,
    },
    /// The file is larger than the read cap.
    #[error(
        "{path} is larger than {limit} bytes, the most hashline reads; edit it with another tool \
         or raise HASHLINE_MAX_FILE_BYTES"
    )]
    TooLarge {
        /// The path as written.
        path: String,
        /// The cap, in bytes.
        limit: u64,
    },
    /// Another process held a lock longer than the lock timeout.
    #[error(
        "timed out after {waited_ms} ms waiting for the lock on {path}, held by {}; if that \
         process is stuck, stop it and retry (HASHLINE_LOCK_TIMEOUT sets the wait in seconds)",
        holder.map_or_else(|| "another process".to_owned(), |pid| format!("process {pid}"))
    )]
    LockTimeout {
        /// The locked paths, as written.
        path: String,
        /// The holder's pid, when it recorded one.
        holder: Option<u32>,
        /// How long the lock was waited for.
        waited_ms: u64,
    },
    /// `undo` of a call the undo log does not hold (`id: None`: the session has none).
    #[error("{}", match id {
        Some(id) => format!("there is no undoable call {id} for this root; `hashline undo --list` shows the recent ones"),
        None => "nothing to undo: this session has no recorded call for this root; `hashline undo --list` shows the recent ones".to_owned(),
    })]
    UndoUnknown {
        /// The id asked for.
        id: Option<u64>,
    },
    /// `undo` without an id refused: this session's newest call landed without an undo
    /// record, so undoing its newest recorded call would revert an older one in its place.
    #[error(
        "cannot undo: this session's last change was made but not recorded for undo (its \
         reply warned [W_UNDO_NOT_RECORDED]), so `hashline undo` will not revert an older call \
         in its place; `hashline undo --list` shows the recorded calls, `hashline undo ID` undoes \
         one of them on purpose, or restore the file by hand"
    )]
    UndoNotRecorded,
    /// `undo` refused: a file no longer holds what the call wrote.
    #[error(
        "cannot undo call {id}: {path} changed since that call; nothing was restored. Undo the \
         later calls first, or edit the file by hand"
    )]
    UndoChanged {
        /// The call.
        id: u64,
        /// The file that changed, relative to the root.
        path: String,
    },
    /// A record in the state directory (a journal plan, an undo record) that the engine did not
    /// write, or that names a place it never uses: not acted on, left in place.
    #[error(
        "{path} is not a record hashline wrote ({reason}); nothing was done with it and it is \
         left in place: look at it, then delete it by hand"
    )]
    Tampered {
        /// The record's file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An I/O failure.
    #[error("{path}: {source}")]
    Io {
        /// The path involved.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A commit failed and restoring the files it had already changed failed too: the named
    /// file may hold the new content.
    #[error("{cause}; restoring {path} also failed: {source}")]
    RollbackFailed {
        /// The file that could not be restored.
        path: String,
        /// Why restoring failed.
        #[source]
        source: std::io::Error,
        /// Why the commit was rolled back.
        cause: Box<FsError>,
    },
}

impl From<FsError> for hashline_core::Refusal {
    fn from(e: FsError) -> hashline_core::Refusal {
        hashline_core::Refusal::new(e.code(), e.to_string())
    }
}

impl FsError {
    /// The stable code of this failure.
    pub fn code(&self) -> ErrorCode {
        match self {
            FsError::OutsideRoot { .. } => ErrorCode::OutsideRoot,
            FsError::InStateDir { .. } => ErrorCode::StatePath,
            FsError::IsDirectory { .. } | FsError::TrailingSlash { .. } => ErrorCode::IsDirectory,
            FsError::NotFound { .. } => ErrorCode::FileNotFound,
            FsError::Exists { .. } => ErrorCode::FileExists,
            FsError::Changed { .. } => ErrorCode::StaleAnchor,
            FsError::Duplicate { .. } | FsError::SameFile { .. } => ErrorCode::DuplicateFile,
            FsError::Swapped { .. } => ErrorCode::OutsideRoot,
            FsError::NotRegular { .. } => ErrorCode::NotRegularFile,
            FsError::TooLarge { .. } => ErrorCode::FileTooLarge,
            FsError::LockTimeout { .. } => ErrorCode::LockTimeout,
            FsError::UndoUnknown { .. } => ErrorCode::UndoUnknown,
            FsError::UndoChanged { .. } => ErrorCode::UndoChanged,
            FsError::UndoNotRecorded => ErrorCode::UndoNotRecorded,
            FsError::UnderFile { .. } => ErrorCode::NotADirectory,
            FsError::ReadOnly { .. } => ErrorCode::PermissionDenied,
            FsError::Tampered { .. } => ErrorCode::StateTampered,
            FsError::Io { source, .. } if source.kind() == std::io::ErrorKind::PermissionDenied => {
                ErrorCode::PermissionDenied
            }
            FsError::TooManyLinks { .. } | FsError::Io { .. } | FsError::RollbackFailed { .. } => {
                ErrorCode::Io
            }
        }
    }

    /// An [`FsError::Io`] for `path`.
    pub(crate) fn io(path: impl std::fmt::Display, source: std::io::Error) -> FsError {
        FsError::Io {
            path: path.to_string(),
            source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_the_contract_ones() {
        let p = || "a".to_owned();
        assert_eq!(
            FsError::OutsideRoot { path: p() }.code().as_str(),
            "E_OUTSIDE_ROOT"
        );
        assert_eq!(
            FsError::IsDirectory { path: p() }.code().as_str(),
            "E_IS_DIRECTORY"
        );
        assert_eq!(
            FsError::NotFound { path: p() }.code().as_str(),
            "E_FILE_NOT_FOUND"
        );
        assert_eq!(
            FsError::Exists { path: p() }.code().as_str(),
            "E_FILE_EXISTS"
        );
        assert_eq!(
            FsError::Changed { path: p() }.code().as_str(),
            "E_STALE_ANCHOR"
        );
        assert_eq!(FsError::TooManyLinks { path: p() }.code().as_str(), "E_IO");
        assert_eq!(
            FsError::Duplicate { path: p() }.code().as_str(),
            "E_DUPLICATE_FILE"
        );
        let io = FsError::io("a", std::io::Error::other("boom"));
        assert_eq!(io.code().as_str(), "E_IO");
        assert_eq!(io.to_string(), "a: boom");
    }
}
