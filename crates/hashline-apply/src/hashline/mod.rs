//! The hashline patch language engine (seed `000`).
//!
//! * [`edit`]: the whole tool call on a [`Disk`] (a directory or in-memory files): split
//!   sections, parse, validate each section's tag (recovering a stale one from the session's
//!   snapshots when that can be proven, else the mismatch report), apply in memory, then write
//!   every file in one [`Disk::write`] (on a directory, one
//!   [`Transaction`](crate::fs::Transaction)) and record the new texts.
//! * [`apply_to_text`]: the same computation on in-memory files.
//! * [`preview`]: the final (non-streaming) preview: the numbered diff of one section.
//! * [`read`]: `read --anchors tag`.
//!
//! Inside: `lower` (hunks → core edits, bounds before expansion, blocks), `repair` (boundary
//! balance), `apply`, `recovery` (DEVIATIONS §1 merge), `mismatch`, `section` (one section),
//! `engine` (the front end of `crate::pipeline::execute`), `result` (tool text).

mod apply;
mod dialect;
mod engine;
mod error;
mod lower;
pub mod messages;
mod mismatch;
mod read;
mod recovery;
mod repair;
mod result;
mod section;
#[cfg(test)]
mod test_support;

pub use dialect::DIALECT;
use hashline_core::{BlockResolver, ErrorCode, Pieces};
use hashline_state::SnapshotStore;

use crate::anchors::AnchorForm;
use crate::diff::LineDiff;
use crate::pipeline::disk::MemoryDisk;
use crate::pipeline::execute::{execute, execute_beside, Done, FrontEnd, Run};
use crate::pipeline::report::{change_report_shown, noop_report, Shown};
use crate::Disk;
use crate::{FileOp, FileReport, Outcome};

pub use crate::pipeline::disk::normalize_path;
use engine::Hashline;
pub use error::HashlineError;
pub use read::read;
use section::Mode;

/// Options of one edit call.
#[derive(Clone, Copy, Default)]
pub struct EditOptions<'a> {
    /// Resolves `replace block N:` / `delete block N`; `None`: block ops are refused.
    pub resolver: Option<&'a dyn BlockResolver>,
    /// Compute everything, write and record nothing.
    pub dry_run: bool,
    /// The edit guard's options.
    pub guard: crate::guard::GuardOptions<'a>,
    /// Leave `files[].anchors` empty: the caller will not show them (saves a diff of the
    /// whole file per report).
    pub skip_anchors: bool,
}

impl std::fmt::Debug for EditOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EditOptions")
            .field("resolver", &self.resolver.is_some())
            .field("dry_run", &self.dry_run)
            .field("guard", &self.guard)
            .finish()
    }
}

/// Apply a hashline tool input to the files of `ws`.
///
/// Every section is parsed, validated and applied in memory first; any refusal leaves every file
/// untouched. Two sections on one canonical file, or a no-op section among several, refuse the
/// call. A single no-op section returns the seed's no-op text (`ok`, nothing written, the
/// snapshot re-recorded). Otherwise all files are written in one [`Transaction`](crate::fs::Transaction) under the
/// files' locks (refusing if a file changed since it was read) and each new text is recorded in
/// `store`. With `dry_run`, nothing is written or recorded and `files[].diff` shows the change.
pub fn edit(
    ws: &dyn Disk,
    store: &dyn SnapshotStore,
    input: &str,
    opts: &EditOptions<'_>,
) -> Outcome {
    run(ws, store, input, opts)
}

/// [`edit`] on in-memory files: `files` maps paths (normalized with [`normalize_path`]) to
/// bytes and is updated in place on success. Store keys are the normalized paths.
pub fn apply_to_text(
    files: &mut std::collections::BTreeMap<String, Vec<u8>>,
    store: &dyn SnapshotStore,
    input: &str,
    opts: &EditOptions<'_>,
) -> Outcome {
    let disk = MemoryDisk::from_map(std::mem::take(files));
    let outcome = run(&disk, store, input, opts);
    *files = disk.into_map();
    outcome
}

/// The final preview (`computeHashlineDiff`): exactly one section, the same tag rules as
/// [`edit`] (a stale head/tail-only section applies without a warning), nothing written or
/// recorded. Success: `text` is the seed's numbered diff; an unchanged result is refused with
/// `No changes would be made to <path>.`
pub fn preview(
    ws: &dyn Disk,
    store: &dyn SnapshotStore,
    input: &str,
    opts: &EditOptions<'_>,
) -> Outcome {
    let mode = Mode {
        record_mismatch: false,
        drift_warning: false,
    };
    let mut front = match Hashline::new(input, ws.cwd(), opts, mode) {
        Ok(front) => front,
        Err(e) => return Outcome::refused(e.code(), e.to_string()),
    };
    if front.intents().len() != 1 {
        return Outcome::refused(
            ErrorCode::Parse,
            "Streaming diff preview supports exactly one hashline section.",
        );
    }
    let run = Run {
        dry_run: true,
        guard: opts.guard,
    };
    let done = match execute(ws, store, &mut front, &run) {
        Ok(done) => done,
        Err(e) => return Outcome::refused(e.code(), e.to_string()),
    };
    let Some(d) = done.first() else {
        return Outcome::refused(ErrorCode::Parse, messages::NO_SECTIONS);
    };
    if d.noop {
        return Outcome::refused(ErrorCode::Noop, messages::preview_noop(&d.target.display));
    }
    let (numbered, shown) = shown(d);
    Outcome {
        undo: None,
        ok: true,
        code: None,
        files: vec![report(d, shown, FileOp::Update, false, false)],
        text: numbered,
        warnings: d.warnings.clone(),
    }
}

/// The report of section `d`, of what its texts show (`shown`).
fn report(d: &Done, shown: Shown, op: FileOp, written: bool, anchors: bool) -> FileReport {
    let path = &d.target.display;
    let form = anchors.then_some(AnchorForm::Tag);
    let texts = (d.old_text.as_str(), &d.new_pieces());
    change_report_shown(path, op, texts, shown, (form, written))
}

/// Section `d`'s numbered diff (its preview) and what its report shows, from one diff.
fn shown(d: &Done) -> (String, Shown) {
    let new = d.new_pieces();
    let diff = LineDiff::of_pieces(&Pieces::whole(&d.old_text), &new, d.changes.as_deref());
    let shown = Shown::of(&diff, &d.target.display, d.new_tag());
    (diff.numbered(), shown)
}

/// The shared body of [`edit`] and [`apply_to_text`].
fn run(disk: &dyn Disk, store: &dyn SnapshotStore, input: &str, opts: &EditOptions<'_>) -> Outcome {
    let mode = Mode {
        record_mismatch: !opts.dry_run,
        drift_warning: true,
    };
    let mut front = match Hashline::new(input, disk.cwd(), opts, mode) {
        Ok(front) => front,
        Err(e) => return Outcome::refused(e.code(), e.to_string()),
    };
    let run = Run {
        dry_run: opts.dry_run,
        guard: opts.guard,
    };
    // Each section's diffs are worked out while the files are written.
    let beside = |done: &[Done]| done.iter().map(shown).collect::<Vec<_>>();
    let (done, diffs) = match execute_beside(disk, store, &mut front, &run, beside) {
        Ok(done) => done,
        Err(e) => return Outcome::refused(e.code(), e.to_string()),
    };
    if let [only] = done.as_slice() {
        if only.noop {
            return Outcome {
                undo: None,
                ok: true,
                code: None,
                text: messages::noop(&only.target.display),
                warnings: only.warnings.clone(),
                // A no-op's new text is the text read.
                files: vec![noop_report(&only.target.display, &only.old_text)],
            };
        }
    }
    let warnings: Vec<String> = done
        .iter()
        .flat_map(|d| d.warnings.iter().cloned())
        .collect();
    let text = done
        .iter()
        .zip(&diffs)
        .map(|(d, (numbered, shown))| {
            result::section_text(&d.target.display, &shown.tag, numbered, &d.warnings)
        })
        .collect::<Vec<_>>()
        .join("\n\n");
    Outcome {
        undo: done.first().and_then(|d| d.undo),
        ok: true,
        code: None,
        text,
        warnings,
        files: done
            .iter()
            .zip(diffs)
            .map(|(d, (_, shown))| {
                report(d, shown, FileOp::Update, !opts.dry_run, !opts.skip_anchors)
            })
            .collect(),
    }
}
