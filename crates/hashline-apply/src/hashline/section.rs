//! One section against one file: tag validation, recovery or the mismatch report, and the
//! edits (in the live text's numbering) spliced in memory.

use hashline_anchor::tag::file_tag;
use hashline_core::TextFile;
use hashline_state::SnapshotStore;
use hashline_syntax::hashline::Hunk;

use super::apply::{apply_hunks, is_anchored, Applied};
use super::error::HashlineError;
use super::lower::{resolve_blocks, BlockCtx};
use super::{messages, mismatch, recovery};
use crate::merge::forget_older;

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
) -> Result<Applied, HashlineError> {
    let live_tag = file_tag(live.text());
    let mut warnings: Vec<String> = input.parse_warnings.to_vec();
    // The tag is the live file's, but does it also name another text of the session? (A store
    // that cannot be read leaves the seed's behaviour: the tag is taken as fresh.)
    let collides = live_tag == input.tag
        && is_anchored(input.hunks)
        && store
            .tag_collides(input.key, input.tag, live.text())
            .unwrap_or(false);
    if live_tag == input.tag && !collides {
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
        let others = recovery::other_readings(store, input.key, input.tag, &v.text)?;
        if v.text == live.text() {
            // The tag names this text and another one: apply only if both readings agree.
            if recovery::agrees_on_live(&others, live, input.hunks, ctx) {
                let applied = apply_hunks(live, input.hunks, ctx)?;
                return Ok(finish(applied, warnings));
            }
        } else {
            let is_head = store.head(input.key)?.is_some_and(|h| h.text == v.text);
            let recovered = recovery::recover(&v.text, is_head, &others, live, input.hunks, ctx)?;
            if let Some(applied) = recovered {
                return Ok(finish(applied, warnings));
            }
        }
    }
    let anchors = mismatch::anchor_lines(input.hunks, &blocks, live.line_count());
    if collides {
        if mode.record_mismatch {
            // The refusal shows the live text: from now on the tag names it alone.
            forget_older(store, input.key, live.text());
        }
        return Err(HashlineError::Mismatch(recovery::collision_message(
            input.path,
            input.tag,
            live.text(),
            &anchors,
        )));
    }
    // Asked before the live text is recorded (which may evict more).
    let known = if snapshot.is_some() {
        mismatch::Known::Held
    } else if store.evicted(input.key, input.tag).unwrap_or(false) {
        mismatch::Known::Evicted
    } else {
        mismatch::Known::Unknown
    };
    if mode.record_mismatch {
        store.record(input.key, live.text())?;
    }
    Err(HashlineError::Mismatch(mismatch::message(
        input.path,
        input.tag,
        &live_tag,
        known,
        live.text(),
        &anchors,
    )))
}

fn finish(mut applied: Applied, mut warnings: Vec<String>) -> Applied {
    warnings.append(&mut applied.warnings);
    applied.warnings = warnings;
    applied
}
