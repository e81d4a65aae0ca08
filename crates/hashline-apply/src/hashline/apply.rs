//! Applying one section's hunks to one text: lower, splice, render.

use hashline_core::{splice, Edit, OutLine, SpliceError, TextFile};
use hashline_syntax::hashline::{Hunk, HunkOp};

use super::error::HashlineError;
use super::lower::{lower, BlockCtx};
use super::messages;
use crate::guard;
use crate::pipeline::stage::{guard_and_encode, splice_file, Encoded, Spliced};
use crate::pipeline::Front;

/// One section applied in memory to one text.
#[derive(Debug, Clone)]
pub(crate) struct Applied {
    /// The new LF text.
    pub text: String,
    /// The bytes to write and what encoding them found.
    pub encoded: Encoded,
    /// Repair warnings and repeated-line notices, then the guard's.
    pub warnings: Vec<String>,
}

/// Splice `edits` into `lines`; a bounds failure (already excluded by lowering) is reported in
/// the seed's words rather than panicking.
pub(crate) fn splice_edits(lines: &[&str], edits: &[Edit]) -> Result<Vec<OutLine>, HashlineError> {
    splice(lines, edits).map_err(splice_error)
}

/// A splice failure in the seed's words.
fn splice_error(e: SpliceError) -> HashlineError {
    match e {
        SpliceError::LineOutOfRange { line, line_count } => {
            HashlineError::LineRange(messages::line_range(line as u64, line_count))
        }
        other => HashlineError::LineRange(other.to_string()),
    }
}

/// Lower and apply `hunks` to `file` (the text the hunks' numbers refer to).
pub(crate) fn apply_hunks(
    file: &TextFile,
    hunks: &[Hunk],
    ctx: BlockCtx<'_>,
) -> Result<Applied, HashlineError> {
    let lines: Vec<&str> = file.lines().collect();
    let lowered = lower(file.text(), &lines, hunks, ctx)?;
    let spliced = splice_file(file, &lines, &lowered.edits).map_err(splice_error)?;
    check(file, &lines, &lowered.edits, spliced, lowered.warnings, ctx)
}

/// Guard and encode `spliced`, the result of `edits` (in the numbering of `lines`, the lines of
/// `file`); anchors in the guard's messages are this dialect's `N:TEXT`. `warnings` come first.
pub(crate) fn check(
    file: &TextFile,
    lines: &[&str],
    edits: &[Edit],
    spliced: Spliced,
    mut warnings: Vec<String>,
    ctx: BlockCtx<'_>,
) -> Result<Applied, HashlineError> {
    let path = ctx.path.to_string_lossy();
    let anchor = |n: usize| format!("{n}:{}", lines.get(n - 1).copied().unwrap_or(""));
    let front = Front {
        path: &path,
        anchor: &anchor,
        label: &guard::op_label,
        allow_syntax_errors: false,
    };
    let checked = guard_and_encode(&front, file, lines, edits, spliced, &ctx.guard)?;
    warnings.extend(checked.warnings);
    Ok(Applied {
        text: checked.text,
        encoded: checked.encoded,
        warnings,
    })
}

/// Whether the section names any line (anything but `insert head:` / `insert tail:`).
pub(crate) fn is_anchored(hunks: &[Hunk]) -> bool {
    hunks
        .iter()
        .any(|h| !matches!(h.op, HunkOp::InsertHead | HunkOp::InsertTail))
}
