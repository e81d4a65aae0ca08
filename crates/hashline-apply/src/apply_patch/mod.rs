//! The V4A `apply_patch` dialect (OpenAI Codex's patch format): `edit --dialect apply-patch`
//! ([`edit`]). A front end of the executor only: the parser is
//! `hashline_syntax::apply_patch`; here are the context search and the texts.
//!
//! Behaviour: Codex 0.169.0's (`../shared/conformance/apply-patch`), except where
//! `../shared/conformance/DEVIATIONS.md` §16–21 decides otherwise: every file lands or none
//! does; nothing outside the root; `*** Add File:` or `*** Move to:` onto an existing file is
//! refused (`E_FILE_EXISTS`) unless [`EditOptions::overwrite`] is set (`--overwrite`); a
//! context found only loosely is applied with a `[W_LOOSE_CONTEXT]` warning, one found twice is
//! refused (`E_AMBIGUOUS_CONTEXT`); bytes, BOM, line endings, a missing final newline and modes
//! survive; a `+`-only chunk after `@@ context` lands after that context.
//!
//! * `seek`: Codex's four matching levels, with the ambiguity check.
//! * `lower`: chunks placed and lowered to core edits (kept rows untouched).
//! * `front`: the executor's front end (hunks per file, played in patch order).
//! * `texts`: Codex's summary and error texts, and ours.

mod dialect;
mod front;
mod index;
mod lower;
mod seek;
mod texts;

pub use dialect::DIALECT;
pub use hashline_core::Refusal;

use hashline_state::SnapshotStore;
use hashline_syntax::apply_patch::parse_patch;

use crate::anchors::AnchorForm;
use crate::pipeline::execute::{execute, Done, Land, Run};
use crate::pipeline::report::{change_report, FirstLine};
use crate::Disk;
use crate::{FileOp, FileReport, Outcome};
use hashline_core::ErrorCode;

/// Options of [`edit`].
#[derive(Debug, Clone, Copy, Default)]
pub struct EditOptions<'a> {
    /// Compute and report everything, write nothing.
    pub dry_run: bool,
    /// Let `*** Add File:` and `*** Move to:` replace an existing file (Codex always does).
    pub overwrite: bool,
    /// The edit guard's options.
    pub guard: crate::guard::GuardOptions<'a>,
    /// Leave `files[].anchors` empty: the caller will not show them (saves a diff of the
    /// whole file per report).
    pub skip_anchors: bool,
}

/// Apply the V4A `patch` under `ws`: every file or none. Success: Codex's summary (plus any
/// `[W_…]` warnings); refusal: Codex's error text where Codex refuses too, else ours.
pub fn edit(
    ws: &dyn Disk,
    store: &dyn SnapshotStore,
    patch: &str,
    opts: &EditOptions<'_>,
) -> Outcome {
    match run(ws, store, patch, opts) {
        Ok(outcome) => outcome,
        Err((e, warnings)) => Outcome::refused_with(e.code, e.message, warnings),
    }
}

fn run(
    ws: &dyn Disk,
    store: &dyn SnapshotStore,
    patch: &str,
    opts: &EditOptions<'_>,
) -> Result<Outcome, (Refusal, Vec<String>)> {
    let parsed =
        parse_patch(patch).map_err(|e| (Refusal::new(ErrorCode::Parse, e.to_string()), vec![]))?;
    if parsed.hunks.is_empty() {
        return Err((texts::no_hunks(), Vec::new()));
    }
    let root = ws.cwd().unwrap_or_default();
    let mut front =
        front::ApplyPatch::new(parsed.hunks, root, opts.overwrite).map_err(|e| (e, Vec::new()))?;
    let run = Run {
        dry_run: opts.dry_run,
        guard: opts.guard,
    };
    let executed = execute(ws, store, &mut front, &run);
    let mut warnings = std::mem::take(&mut front.notes);
    let done = executed.map_err(|e| (e, warnings.clone()))?;
    warnings.extend(done.iter().flat_map(|d| d.warnings.iter().cloned()));
    let coded: Vec<String> = warnings
        .iter()
        .filter(|w| w.starts_with("[W_"))
        .cloned()
        .collect();
    let mut text = texts::summary(front.hunks());
    if !coded.is_empty() {
        text = format!("{}{}", text.trim_end(), crate::warnings_block(&coded));
    }
    let files = done
        .iter()
        .map(|d| report(d, !opts.dry_run, !opts.skip_anchors))
        .collect();
    Ok(Outcome {
        undo: done.first().and_then(|d| d.undo),
        ok: true,
        code: None,
        text,
        warnings,
        files,
    })
}

/// The report of one file.
fn report(d: &Done, written: bool, anchors: bool) -> FileReport {
    let path = &d.target.display;
    let (op, new_path) = match d.land {
        _ if d.noop => (FileOp::Noop, None),
        Land::Delete => (FileOp::Delete, None),
        Land::Create => (FileOp::Create, None),
        Land::Update => (FileOp::Update, None),
        Land::Move { .. } => (FileOp::Rename, d.dest.as_ref().map(|t| t.display.clone())),
    };
    let new = d.new_tagged();
    let change = (d.old_text.as_str(), &new, d.changes.as_deref());
    FileReport {
        new_path,
        ..change_report(
            path,
            op,
            change,
            (FirstLine::Diff, anchors.then_some(AnchorForm::Plain)),
            written,
        )
    }
}
