//! Applying one section's hunks to one text: lower, splice, render.

use hashline_core::{splice, Edit, OutLine, TextFile};
use hashline_syntax::hashline::{Hunk, HunkOp};

use super::error::HashlineError;
use super::lower::{lower, BlockCtx};
use super::messages;
use crate::guard;

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
    splice(lines, edits).map_err(|e| match e {
        hashline_core::SpliceError::LineOutOfRange { line, line_count } => {
            HashlineError::LineRange(messages::line_range(line as u64, line_count))
        }
        other => HashlineError::LineRange(other.to_string()),
    })
}

/// Lower and apply `hunks` to `file` (the text the hunks' numbers refer to).
pub(crate) fn apply_hunks(
    file: &TextFile,
    hunks: &[Hunk],
    ctx: BlockCtx<'_>,
) -> Result<Applied, HashlineError> {
    let lines: Vec<&str> = file.lines().collect();
    let lowered = lower(file.text(), &lines, hunks, ctx)?;
    let out = splice_edits(&lines, &lowered.edits)?;
    let text = file.render_text(&out);
    let mut warnings = lowered.warnings;
    warnings.extend(guard_edits(file, &lines, &lowered.edits, &text, ctx)?);
    Ok(Applied {
        out,
        text,
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
    let subject = guard::Subject {
        path: &path,
        lines,
        edits,
        before: file.text(),
        after,
        anchor: &anchor,
        label: &guard::op_label,
    };
    Ok(guard::check(&subject, &ctx.guard)?)
}

/// Whether the section names any line (anything but `insert head:` / `insert tail:`).
pub(crate) fn is_anchored(hunks: &[Hunk]) -> bool {
    hunks
        .iter()
        .any(|h| !matches!(h.op, HunkOp::InsertHead | HunkOp::InsertTail))
}
