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

impl FsError {
    /// The stable code of this failure.
    pub fn code(&self) -> ErrorCode {
        match self {
            FsError::OutsideRoot { .. } => ErrorCode::OutsideRoot,
            FsError::IsDirectory { .. } => ErrorCode::IsDirectory,
            FsError::NotFound { .. } => ErrorCode::FileNotFound,
            FsError::Exists { .. } => ErrorCode::FileExists,
            FsError::Changed { .. } => ErrorCode::StaleAnchor,
            FsError::Duplicate { .. } => ErrorCode::DuplicateFile,
            FsError::ReadOnly { .. } => ErrorCode::PermissionDenied,
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
