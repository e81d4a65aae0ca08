//! One section against one file: tag validation, recovery or the mismatch report, and the
//! in-memory result.

use hashline_anchor::tag::file_tag;
use hashline_core::{OutLine, TextFile};
use hashline_state::SnapshotStore;
use hashline_syntax::hashline::Hunk;

use super::apply::{apply_hunks, is_anchored, Applied};
use super::error::HashlineError;
use super::lower::{resolve_blocks, BlockCtx};
use super::{messages, mismatch, recovery};

/// How a section is being prepared.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mode {
    /// Record the live text in the store before reporting a mismatch (the seed does; a dry run
    /// or a preview does not touch the store).
    pub record_mismatch: bool,
    /// Warn when a head/tail-only section lands on a stale tag (the tool does, the final
    /// preview does not).
    pub drift_warning: bool,
}

/// A section's edits applied in memory to the live file.
#[derive(Debug, Clone)]
pub(crate) struct SectionResult {
    /// Output lines in terms of the live file's lines.
    pub out: Vec<OutLine>,
    /// The new LF text.
    pub text: String,
    /// Parse warnings, then the recovery banner, then apply warnings.
    pub warnings: Vec<String>,
}

/// Everything a section needs besides the file.
pub(crate) struct SectionInput<'a> {
    /// The section's path as written (for messages).
    pub path: &'a str,
    /// The section's tag (upper-case).
    pub tag: &'a str,
    /// Parsed hunks.
    pub hunks: &'a [Hunk],
    /// Parse warnings.
    pub parse_warnings: &'a [String],
    /// The store key of the file.
    pub key: &'a str,
}

/// Validate the tag against `live`, recover if stale, and apply.
pub(crate) fn prepare(
    input: &SectionInput<'_>,
    live: &TextFile,
    store: &dyn SnapshotStore,
    ctx: BlockCtx<'_>,
    mode: Mode,
) -> Result<SectionResult, HashlineError> {
    let live_tag = file_tag(live.text());
    let mut warnings: Vec<String> = input.parse_warnings.to_vec();
    if live_tag == input.tag {
        let applied = apply_hunks(live, input.hunks, ctx)?;
        return Ok(finish(applied, warnings));
    }
    if !is_anchored(input.hunks) {
        let applied = apply_hunks(live, input.hunks, ctx)?;
        if mode.drift_warning {
            warnings.push(messages::HEAD_TAIL_DRIFT.to_string());
        }
        return Ok(finish(applied, warnings));
    }
    let snapshot = store.by_tag(input.key, input.tag)?;
    let mut blocks = Vec::new();
    if let Some(v) = &snapshot {
        blocks = resolve_blocks(&v.text, input.hunks, ctx)?;
        let is_head = store.head(input.key)?.is_some_and(|h| h.tag == v.tag);
        if let Some(applied) = recovery::recover(&v.text, is_head, live, input.hunks, ctx)? {
            return Ok(finish(applied, warnings));
        }
    }
    if mode.record_mismatch {
        store.record(input.key, live.text())?;
    }
    let anchors = mismatch::anchor_lines(input.hunks, &blocks, live.line_count());
    Err(HashlineError::Mismatch(mismatch::message(
        input.path,
        input.tag,
        &live_tag,
        snapshot.is_some(),
        live.text(),
        &anchors,
    )))
}

fn finish(applied: Applied, mut warnings: Vec<String>) -> SectionResult {
    warnings.extend(applied.warnings);
    SectionResult {
        out: applied.out,
        text: applied.text,
        warnings,
    }
}
