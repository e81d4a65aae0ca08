//! [`ApError`]: an apply-patch refusal, its code and its text (Codex's where Codex has one).

use hashline_core::ErrorCode;

use crate::guard::GuardRefusal;

/// A refused patch: nothing was written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ApError {
    /// The stable code.
    pub code: ErrorCode,
    /// The text (Codex's error text where Codex refuses too).
    pub message: String,
}

impl ApError {
    /// A refusal with `code` and `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApError {
        ApError {
            code,
            message: message.into(),
        }
    }
}

impl From<GuardRefusal> for ApError {
    fn from(g: GuardRefusal) -> ApError {
        ApError::new(g.code, g.message)
    }
}

impl From<crate::pipeline::files::FileRefusal> for ApError {
    fn from(e: crate::pipeline::files::FileRefusal) -> ApError {
        ApError::new(e.code, e.message)
    }
}
