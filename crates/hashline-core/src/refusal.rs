//! [`Refusal`]: the one refusal every layer below the facade returns: a stable code and the
//! whole model-facing message (what is wrong and what to do next).

use crate::name::UnsafeName;
use crate::ErrorCode;

/// A refused request: its stable [`ErrorCode`] and the complete message the model reads (may
/// span several lines; in the seed tool's words where it has them). Its `Display` is the
/// message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    /// The stable code.
    pub code: ErrorCode,
    /// What the model reads.
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

    /// The stable code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }
}

impl From<UnsafeName> for Refusal {
    fn from(e: UnsafeName) -> Refusal {
        Refusal::new(e.code(), e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_its_message() {
        let r = Refusal::new(ErrorCode::BadShape, "two\nlines");
        assert_eq!(
            (r.code(), r.to_string().as_str()),
            (ErrorCode::BadShape, "two\nlines")
        );
    }
}
