//! Refusals of the LINE#ID engine: each carries the exact model-facing text (without the
//! executor's `Error: ` prefix) and a stable [`ErrorCode`].

use hashline_core::{ErrorCode, Refusal};

/// Why an edit call is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The request's shape (seed messages from `hashline_syntax::lineid_json`).
    #[error("{message}")]
    Request {
        /// The message.
        message: String,
        /// Its code.
        code: ErrorCode,
    },
    /// A malformed anchor, with the "Did you mean" hint when one applies.
    #[error("{message}")]
    BadRef {
        /// The message.
        message: String,
    },
    /// `Line number N out of bounds (file has M lines)`.
    #[error("Line number {line} out of bounds (file has {line_count} lines)")]
    OutOfBounds {
        /// The line named.
        line: usize,
        /// Lines in the file.
        line_count: usize,
    },
    /// The `hash mismatch - …` report (its full text after `Error: `).
    #[error("{report}")]
    Mismatch {
        /// The report, `>>>` context included.
        report: String,
    },
    /// `Invalid range: start line S cannot be greater than end line E`.
    #[error("Invalid range: start line {start} cannot be greater than end line {end}")]
    InvalidRange {
        /// Range start.
        start: usize,
        /// Range end.
        end: usize,
    },
    /// Two edits touch the same lines (the peer's range message, or ours for DEVIATIONS §4).
    #[error("{message}")]
    Overlap {
        /// The message.
        message: String,
    },
    /// An insert with nothing left to insert.
    #[error("{message}")]
    EmptyInsert {
        /// The seed's message.
        message: String,
    },
    /// A pasted anchor prefix or diff marker that would be written into the file.
    #[error("{message}")]
    Pasted {
        /// The message.
        message: String,
    },
    /// `No changes made to …`.
    #[error("No changes made to {path}. The edits produced identical content.{suffix}")]
    Noop {
        /// The path as sent.
        path: String,
        /// ` No-op edits: k. …` when edits were no-ops.
        suffix: String,
    },
    /// The anchors belong to an older recorded read and the change cannot be merged safely.
    #[error("{message}")]
    Stale {
        /// The message with fresh anchors.
        message: String,
    },
    /// A shared step refused: the edit guard (a suspected model mistake) or a file-level check.
    #[error(transparent)]
    Guard(#[from] Refusal),
    /// `File not found: …`.
    #[error("File not found: {path}")]
    NotFound {
        /// The path as sent.
        path: String,
    },
    /// A file-system or store failure.
    #[error("{message}")]
    Io {
        /// The message.
        message: String,
        /// Its code.
        code: ErrorCode,
    },
}

impl EngineError {
    /// The stable code of the refusal.
    pub fn code(&self) -> ErrorCode {
        match self {
            EngineError::Request { code, .. } | EngineError::Io { code, .. } => *code,
            EngineError::BadRef { .. } => ErrorCode::BadRef,
            EngineError::OutOfBounds { .. } => ErrorCode::LineRange,
            EngineError::Mismatch { .. } | EngineError::Stale { .. } => ErrorCode::StaleAnchor,
            EngineError::InvalidRange { .. } => ErrorCode::LineRange,
            EngineError::Overlap { .. } => ErrorCode::EditConflict,
            EngineError::EmptyInsert { .. } => ErrorCode::BadShape,
            EngineError::Pasted { .. } => ErrorCode::PastedAnchor,
            EngineError::Noop { .. } => ErrorCode::Noop,
            EngineError::NotFound { .. } => ErrorCode::FileNotFound,
            EngineError::Guard(g) => g.code,
        }
    }

    /// The model-facing text: `Error: {message}`.
    pub fn text(&self) -> String {
        format!("Error: {self}")
    }
}
