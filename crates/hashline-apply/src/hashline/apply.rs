//! Applying one section's hunks to one text: lower, splice, render.

use hashline_core::{splice, Edit, OutLine, SpliceError, TextFile};
use hashline_syntax::hashline::{Hunk, HunkOp};

use super::error::HashlineError;
use super::lower::{lower, BlockCtx};
use super::messages;
use crate::guard;
use crate::pipeline::stage::{self, splice_file};
use crate::pipeline::Front;

/// One section applied in memory to one text.
#[derive(Debug, Clone)]
pub(crate) struct Applied {
    /// The output lines, in terms of the text's original lines.
    pub out: Vec<OutLine>,
    /// The new LF text.
    pub text: String,
    /// Repair warnings and repeated-line notices.
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
    let mut warnings = lowered.warnings;
    warnings.extend(guard_edits(
        file,
        &lines,
        &lowered.edits,
        &spliced.text,
        ctx,
    )?);
    Ok(Applied {
        out: spliced.out,
        text: spliced.text,
        warnings,
    })
}

/// Run the edit guard on `edits` (in the numbering of `lines`, the lines of `file`) whose result
/// is `after`; anchors in its messages are this dialect's `N:TEXT`.
pub(crate) fn guard_edits(
    file: &TextFile,
    lines: &[&str],
    edits: &[Edit],
    after: &str,
    ctx: BlockCtx<'_>,
) -> Result<Vec<String>, HashlineError> {
    let path = ctx.path.to_string_lossy();
    let anchor = |n: usize| format!("{n}:{}", lines.get(n - 1).copied().unwrap_or(""));
    let front = Front {
        path: &path,
        anchor: &anchor,
        label: &guard::op_label,
    };
    Ok(stage::guard(
        &front,
        file.text(),
        lines,
        edits,
        after,
        &ctx.guard,
    )?)
}

/// Whether the section names any line (anything but `insert head:` / `insert tail:`).
pub(crate) fn is_anchored(hunks: &[Hunk]) -> bool {
    hunks
        .iter()
        .any(|h| !matches!(h.op, HunkOp::InsertHead | HunkOp::InsertTail))
}
