//! [`Refusal`]: why an edit was not applied, with the exact model-facing message.

use hashline_core::ErrorCode;
use hashline_syntax::hash_json::RequestError;

/// A refused edit: its stable code and the full message the model sees.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    /// Stable code.
    pub code: ErrorCode,
    /// The complete message (may span several lines).
    pub message: String,
}

impl Refusal {
    /// A refusal with `code` and `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }
}

impl From<RequestError> for Refusal {
    fn from(e: RequestError) -> Refusal {
        Refusal {
            code: e.code,
            message: e.message,
        }
    }
}

impl From<crate::guard::GuardRefusal> for Refusal {
    fn from(g: crate::guard::GuardRefusal) -> Refusal {
        Refusal {
            code: g.code,
            message: g.message,
        }
    }
}

impl From<crate::pipeline::files::FileRefusal> for Refusal {
    fn from(e: crate::pipeline::files::FileRefusal) -> Refusal {
        Refusal {
            code: e.code,
            message: e.message,
        }
    }
}
