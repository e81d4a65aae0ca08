//! The seam between line edits and syntax: resolving `replace block N:` to a line span.

use std::path::Path;

/// An inclusive, 1-based line span of a syntactic block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockSpan {
    /// First line of the block (the line the block op named).
    pub start: usize,
    /// Last line of the block, inclusive.
    pub end: usize,
}

/// Finds the syntactic block that begins on a line.
///
/// `text` is LF-normalized and BOM-free; `line` is 1-based. `None` means "no block begins there":
/// the language is unknown, the line is blank or a closing delimiter, or the block does not parse.
/// Implementations must never panic on any input.
pub trait BlockResolver: Send + Sync {
    /// Resolve the block that begins on `line` of `text`, the content of the file at `path`.
    fn resolve(&self, path: &Path, text: &str, line: usize) -> Option<BlockSpan>;
}
