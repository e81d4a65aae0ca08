//! Refusals of the hashline engine. Each carries the seed's exact model-facing message.

use hashline_core::{ErrorCode, Refusal};

/// Why a hashline call was refused. `Display` is the model-facing text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HashlineError {
    /// The patch text does not parse (splitter or body parser).
    #[error("{0}")]
    Parse(String),
    /// A section without a `#TAG`.
    #[error("{0}")]
    MissingTag(String),
    /// The file does not exist.
    #[error("{0}")]
    FileNotFound(String),
    /// The path leaves the workspace root.
    #[error("{0}")]
    OutsideRoot(String),
    /// The path is a directory.
    #[error("{0}")]
    IsDirectory(String),
    /// An anchor outside the file.
    #[error("{0}")]
    LineRange(String),
    /// A block op whose block could not be resolved (or no resolver is configured).
    #[error("{0}")]
    BlockUnresolved(String),
    /// A stale tag that recovery could not carry: the mismatch report.
    #[error("{0}")]
    Mismatch(String),
    /// A no-op section in a multi-section call.
    #[error("{0}")]
    Noop(String),
    /// Two sections on one canonical file.
    #[error("{0}")]
    DuplicateFile(String),
    /// The snapshot store failed.
    #[error("{0}")]
    Io(String),
    /// A file system refusal, with its own code.
    #[error("{1}")]
    Fs(ErrorCode, String),
    /// A shared step refused: the edit guard (a suspected model mistake) or a file-level check.
    #[error(transparent)]
    Guard(#[from] Refusal),
}

impl HashlineError {
    /// The stable code of this refusal.
    pub fn code(&self) -> ErrorCode {
        match self {
            HashlineError::Parse(_) => ErrorCode::Parse,
            HashlineError::MissingTag(_) => ErrorCode::MissingTag,
            HashlineError::FileNotFound(_) => ErrorCode::FileNotFound,
            HashlineError::OutsideRoot(_) => ErrorCode::OutsideRoot,
            HashlineError::IsDirectory(_) => ErrorCode::IsDirectory,
            HashlineError::LineRange(_) => ErrorCode::LineRange,
            HashlineError::BlockUnresolved(_) => ErrorCode::BlockUnresolved,
            HashlineError::Mismatch(_) => ErrorCode::StaleAnchor,
            HashlineError::Noop(_) => ErrorCode::Noop,
            HashlineError::DuplicateFile(_) => ErrorCode::DuplicateFile,
            HashlineError::Io(_) => ErrorCode::Io,
            HashlineError::Fs(code, _) => *code,
            HashlineError::Guard(g) => g.code,
        }
    }
}

impl From<hashline_state::StoreError> for HashlineError {
    fn from(e: hashline_state::StoreError) -> Self {
        HashlineError::Io(e.to_string())
    }
}

impl From<crate::fs::FsError> for HashlineError {
    fn from(e: crate::fs::FsError) -> Self {
        HashlineError::Fs(e.code(), e.to_string())
    }
}
