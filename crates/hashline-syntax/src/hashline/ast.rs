//! The parsed form of a hashline patch: what the parser produces and the applier consumes.

use std::ops::Range;

/// A 4-hex snapshot tag as written in a section header (upper-cased on parse).
pub type TagText = String;

/// One `¶PATH#TAG` section after splitting (same-path sections already merged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The normalized path as written (quotes and V4A noise stripped).
    pub path: String,
    /// The tag, upper-cased, if the header carried a valid 4-hex one.
    pub tag: Option<TagText>,
    /// The body: the section's lines after its header(s), joined with `\n` (merged sections
    /// concatenated). Body line 1 is the first line after the header.
    pub body: String,
    /// Byte span of the (first) header line in the whole input.
    pub header_span: Range<usize>,
    /// Byte offset in the whole input of each body line's start (for diagnostics).
    pub body_line_offsets: Vec<usize>,
}

/// Options of [`crate::hashline::split_sections`].
#[derive(Debug, Clone, Default)]
pub struct SplitOptions {
    /// Working directory: absolute header paths inside it become relative.
    pub cwd: Option<String>,
    /// Fallback path for an input with no header (streaming previews only).
    pub fallback_path: Option<String>,
}

/// What a hunk does, with its numbers as written (1-based original lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HunkOp {
    /// `replace N..M:`
    Replace {
        /// First line.
        start: u64,
        /// Last line, inclusive.
        end: u64,
    },
    /// `replace block N:`
    ReplaceBlock {
        /// The line the block begins on.
        line: u64,
    },
    /// `delete N..M`
    Delete {
        /// First line.
        start: u64,
        /// Last line, inclusive.
        end: u64,
    },
    /// `delete block N`
    DeleteBlock {
        /// The line the block begins on.
        line: u64,
    },
    /// `insert before N:`
    InsertBefore(u64),
    /// `insert after N:`
    InsertAfter(u64),
    /// `insert head:`
    InsertHead,
    /// `insert tail:`
    InsertTail,
}

/// One hunk: a header and its body rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    /// The operation.
    pub op: HunkOp,
    /// Body rows (text after `+`, or auto-piped raw lines), in order.
    pub rows: Vec<String>,
    /// Body-relative line number (1-based) of the header.
    pub header_line: usize,
    /// Byte span of the header line within the section body.
    pub header_span: Range<usize>,
}

/// The parsed body of one section.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParsedBody {
    /// Hunks in patch order.
    pub hunks: Vec<Hunk>,
    /// Parse warnings (the auto-pipe warning, at most once).
    pub warnings: Vec<String>,
}

/// A refusal of the patch text, with the seed's exact message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    /// The complete message, e.g. ``line 3: `-` rows are not valid; …``.
    pub message: String,
    /// Body-relative line the message cites (0 for input-level errors).
    pub line: usize,
    /// Byte span in the text that was parsed (the body, or the whole input for split errors).
    pub span: Range<usize>,
}

impl ParseError {
    /// The stable error code of every refusal of the patch text: [`hashline_core::ErrorCode::Parse`].
    pub fn code(&self) -> hashline_core::ErrorCode {
        hashline_core::ErrorCode::Parse
    }
}
