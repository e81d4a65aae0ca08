//! Applying one section's hunks to one text: lower and splice.

use hashline_core::{splice, Edit, OutLine, SpliceError, TextFile};
use hashline_syntax::hashline::{Hunk, HunkOp};

use super::error::HashlineError;
use super::lower::{lower, BlockCtx};
use super::messages;
use crate::pipeline::stage::{splice_file, Spliced};

/// One section's hunks lowered to edits of the live text and spliced in memory (the
/// executor guards and encodes them).
#[derive(Debug, Clone)]
pub(crate) struct Applied {
    /// The edits, in the numbering of the live text's lines.
    pub edits: Vec<Edit>,
    /// Their splice into the live text.
    pub spliced: Spliced,
    /// Repair warnings and repeated-line notices.
    pub warnings: Vec<String>,
}

/// Splice `edits` into `lines`; a bounds failure (already excluded by lowering) is reported in
/// the seed's words rather than panicking.
pub(crate) fn splice_edits(lines: &[&str], edits: &[Edit]) -> Result<Vec<OutLine>, HashlineError> {
    splice(lines, edits).map_err(splice_error)
}

/// A splice failure in the seed's words.
pub(crate) fn splice_error(e: SpliceError) -> HashlineError {
    match e {
        SpliceError::LineOutOfRange { line, line_count } => {
            HashlineError::LineRange(messages::line_range(line as u64, line_count))
        }
        other => HashlineError::LineRange(other.to_string()),
    }
}

/// Lower and splice `hunks` into `file` (the text the hunks' numbers refer to).
pub(crate) fn apply_hunks(
    file: &TextFile,
    hunks: &[Hunk],
    ctx: BlockCtx<'_>,
) -> Result<Applied, HashlineError> {
    let lines: Vec<&str> = file.line_slices();
    let lowered = lower(file.text(), &lines, hunks, ctx)?;
    let spliced = splice_file(file, &lines, &lowered.edits).map_err(splice_error)?;
    Ok(Applied {
        edits: lowered.edits,
        spliced,
        warnings: lowered.warnings,
    })
}

/// Whether the section names any line (anything but `insert head:` / `insert tail:`).
pub(crate) fn is_anchored(hunks: &[Hunk]) -> bool {
    hunks
        .iter()
        .any(|h| !matches!(h.op, HunkOp::InsertHead | HunkOp::InsertTail))
}
