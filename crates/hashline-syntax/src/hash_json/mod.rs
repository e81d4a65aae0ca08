//! Request shape of the hash-anchored JSON edit dialect (seed `001`,
//! `../shared/docs/dialects/hash-json.md` §4).
//!
//! The checks run in two steps because the peer interleaves them with file access:
//! 1. [`parse_envelope`]: JSON text → normalization (§4.1) → envelope validation (§4.2) →
//!    the "No edits provided." check. Runs before any file I/O.
//! 2. [`parse_items`]: item validation and parsing (§4.3), item by item. The engine runs it only
//!    after the file checks, as the peer does (a binary file with a bad item reports the binary).
//!
//! Every refusal is a [`RequestError`] carrying the exact model-facing message and its stable
//! [`ErrorCode`]. Nothing here panics on any input.

mod envelope;
mod item;
pub mod js;
pub mod json;

pub use envelope::parse_envelope;
pub use item::{parse_anchor, parse_items};

use hashline_core::ErrorCode;

/// A refusal of the request's shape, with the seed's message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RequestError {
    /// Stable code.
    pub code: ErrorCode,
    /// The full message, e.g. `[E_BAD_SHAPE] Edit request must be an object.`.
    pub message: String,
}

impl RequestError {
    pub(crate) fn new(code: ErrorCode, message: impl Into<String>) -> RequestError {
        RequestError {
            code,
            message: message.into(),
        }
    }

    pub(crate) fn shape(message: impl std::fmt::Display) -> RequestError {
        RequestError::new(ErrorCode::BadShape, format!("[E_BAD_SHAPE] {message}"))
    }

    pub(crate) fn op(message: impl std::fmt::Display) -> RequestError {
        RequestError::new(ErrorCode::BadOp, format!("[E_BAD_OP] {message}"))
    }
}

impl From<RequestError> for hashline_core::Refusal {
    fn from(e: RequestError) -> hashline_core::Refusal {
        hashline_core::Refusal::new(e.code, e.message)
    }
}

/// What the success response shows (`returnMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReturnMode {
    /// Fresh anchors around the changed lines (the default).
    #[default]
    Changed,
    /// A pointer to the full content, with a structure outline.
    Full,
    /// Pointers to requested line ranges, with their outline.
    Ranges,
}

impl ReturnMode {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ReturnMode::Changed => "changed",
            ReturnMode::Full => "full",
            ReturnMode::Ranges => "ranges",
        }
    }
}

/// One requested line range of `returnMode: "ranges"` (1-based, inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReturnRange {
    /// First line.
    pub start: u64,
    /// Last line, when given (defaults to `start`).
    pub end: Option<u64>,
}

/// A request whose envelope is valid; its items are still raw.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    /// The file to edit, as the request wrote it.
    pub path: String,
    /// The raw edit items (non-empty).
    pub edits: Vec<json::Json>,
    /// The response mode.
    pub return_mode: ReturnMode,
    /// The requested ranges (non-empty exactly when the mode is ranges).
    pub return_ranges: Vec<ReturnRange>,
    /// `"allowSyntaxErrors": true`: let the edit land even if it adds a syntax error.
    pub allow_syntax_errors: bool,
}

/// A validated anchor: exactly four characters of the hash alphabet.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Anchor(pub String);

impl Anchor {
    /// The hash.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Anchor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where an item lands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ItemOp {
    /// Replace the inclusive range `start..=end` (empty `lines` deletes it).
    Replace {
        /// First line's hash.
        start: Anchor,
        /// Last line's hash.
        end: Anchor,
    },
    /// Insert after `pos`, or at end of file without one.
    Append {
        /// The anchor line.
        pos: Option<Anchor>,
    },
    /// Insert before `pos`, or at the start of the file without one.
    Prepend {
        /// The anchor line.
        pos: Option<Anchor>,
    },
}

/// One parsed edit item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditItem {
    /// Its index in the request's `edits` array (0-based, as messages print it).
    pub index: usize,
    /// What it does.
    pub op: ItemOp,
    /// The payload as sent, except that a replace's `[""]` became `[]` (a deletion).
    pub lines: Vec<String>,
}
