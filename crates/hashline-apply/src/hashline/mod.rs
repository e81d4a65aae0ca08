//! The hashline patch language engine (seed `000`).
//!
//! * [`edit`]: the whole tool call on a [`Workspace`]: split sections, parse, validate each
//!   section's tag (recovering a stale one from the session's snapshots when that can be proven,
//!   else the mismatch report), apply in memory, then write every file in one
//!   [`Transaction`](crate::fs::Transaction) and record the new texts.
//! * [`apply_to_text`]: the same computation on in-memory files.
//! * [`preview`]: the final (non-streaming) preview: the numbered diff of one section.
//! * [`read`]: `read --anchors tag`.
//!
//! Inside: `lower` (hunks → core edits, bounds before expansion, blocks), `repair` (boundary
//! balance), `apply`, `recovery` (DEVIATIONS §1 merge), `mismatch`, `section` (one section),
//! `engine` (the call), `result` (tool text), `memory` (in-memory files).

mod apply;
mod engine;
mod error;
mod lower;
mod memory;
pub mod messages;
mod mismatch;
mod read;
mod recovery;
mod repair;
mod result;
mod section;
#[cfg(test)]
mod test_support;

use hashline_core::{BlockResolver, ErrorCode};
use hashline_state::SnapshotStore;

use crate::diff::{first_changed_line, numbered};
use crate::fs::{Target, Workspace};
use crate::pipeline::commit::{lock_and_commit, Landing, Recorder, Staged};
use crate::pipeline::report::{change_report, noop_report};
use crate::{FileOp, FileReport, Outcome};

use engine::{plan, Files, Planned};
pub use error::HashlineError;
pub use memory::normalize_path;
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

struct WsFiles<'a>(&'a Workspace);

impl Files for WsFiles<'_> {
    type Handle = Target;

    fn resolve(&self, path: &str) -> Result<(Target, String), HashlineError> {
        let t = crate::pipeline::files::resolve(self.0, path)
            .map_err(|e| HashlineError::Fs(e.code, e.message))?;
        let key = t.key.clone();
        Ok((t, key))
    }

    fn read(&self, handle: &Target) -> Result<Option<Vec<u8>>, HashlineError> {
        Ok(self.0.read(handle)?)
    }

    fn cwd(&self) -> Option<String> {
        Some(self.0.root().display().to_string())
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
    ws: &Workspace,
    store: &dyn SnapshotStore,
    input: &str,
    opts: &EditOptions<'_>,
) -> Outcome {
    run(&WsFiles(ws), store, input, opts, |planned| {
        let recorder = Recorder {
            store,
            word: &store_warning,
        };
        let staged: Vec<Staged<'_>> = planned
            .iter_mut()
            .map(|p| Staged {
                target: &p.handle,
                // The bytes move into the transaction: the report needs only the texts.
                landing: Landing::Update {
                    expected: std::mem::take(&mut p.old_bytes),
                },
                bytes: std::mem::take(&mut p.new_bytes),
                text: &p.new_text,
            })
            .collect();
        let recorded = lock_and_commit(ws, staged, &recorder)
            .map_err(|e| HashlineError::Fs(e.code(), e.to_string()))?;
        for (p, warnings) in planned.iter_mut().zip(recorded) {
            p.warnings.extend(warnings);
        }
        Ok(())
    })
}

/// [`edit`] on in-memory files: `files` maps paths (normalized with [`normalize_path`]) to
/// bytes and is updated in place on success. Store keys are the normalized paths.
pub fn apply_to_text(
    files: &mut std::collections::BTreeMap<String, Vec<u8>>,
    store: &dyn SnapshotStore,
    input: &str,
    opts: &EditOptions<'_>,
) -> Outcome {
    let snapshot = memory::MemoryFiles::new(files);
    let mut writes: Vec<(String, Vec<u8>)> = Vec::new();
    let outcome = run(&snapshot, store, input, opts, |planned| {
        let recorder = Recorder {
            store,
            word: &store_warning,
        };
        for p in planned.iter_mut() {
            writes.push((p.key.clone(), std::mem::take(&mut p.new_bytes)));
            p.warnings.extend(recorder.record(&p.key, &p.new_text));
        }
        Ok(())
    });
    files.extend(writes);
    outcome
}

/// The final preview (`computeHashlineDiff`): exactly one section, the same tag rules as
/// [`edit`] (a stale head/tail-only section applies without a warning), nothing written or
/// recorded. Success: `text` is the seed's numbered diff; an unchanged result is refused with
/// `No changes would be made to <path>.`
pub fn preview(
    ws: &Workspace,
    store: &dyn SnapshotStore,
    input: &str,
    opts: &EditOptions<'_>,
) -> Outcome {
    let files = WsFiles(ws);
    let split = hashline_syntax::hashline::SplitOptions {
        cwd: files.cwd(),
        fallback_path: None,
    };
    match hashline_syntax::hashline::split_sections(input, &split) {
        Ok(s) if s.len() != 1 => {
            return Outcome::refused(
                ErrorCode::Parse,
                "Streaming diff preview supports exactly one hashline section.",
            )
        }
        Err(e) => return Outcome::refused(ErrorCode::Parse, e.message),
        Ok(_) => {}
    }
    let mode = Mode {
        record_mismatch: false,
        drift_warning: false,
    };
    let planned = match plan(&files, store, input, opts, mode) {
        Ok(p) => p,
        Err(e) => return Outcome::refused(e.code(), e.to_string()),
    };
    let Some(p) = planned.first() else {
        return Outcome::refused(ErrorCode::Parse, messages::NO_SECTIONS);
    };
    if p.is_noop() {
        return Outcome::refused(ErrorCode::Noop, messages::preview_noop(&p.display));
    }
    Outcome {
        ok: true,
        code: None,
        text: numbered(&p.old_text, &p.new_text),
        warnings: p.warnings.clone(),
        files: vec![report(p, FileOp::Update, false)],
    }
}

fn report<H>(p: &Planned<H>, op: FileOp, written: bool) -> FileReport {
    let first = first_changed_line(&p.old_text, &p.new_text);
    change_report(&p.display, op, (&p.old_text, &p.new_text), first, written)
}

/// The warning of a write the session store could not record.
fn store_warning(e: &hashline_state::StoreError) -> String {
    crate::not_recorded("The edit was written", e)
}

/// The shared body of [`edit`] and [`apply_to_text`]; `commit` writes and records every planned
/// file (adding the store's failures to its warnings) and may take its `old_bytes` /
/// `new_bytes` (nothing reads them afterwards).
fn run<F: Files>(
    files: &F,
    store: &dyn SnapshotStore,
    input: &str,
    opts: &EditOptions<'_>,
    commit: impl FnOnce(&mut [Planned<F::Handle>]) -> Result<(), HashlineError>,
) -> Outcome {
    let mode = Mode {
        record_mismatch: !opts.dry_run,
        drift_warning: true,
    };
    let mut planned = match plan(files, store, input, opts, mode) {
        Ok(p) => p,
        Err(e) => return Outcome::refused(e.code(), e.to_string()),
    };
    if let [only] = planned.as_slice() {
        if only.is_noop() {
            if !opts.dry_run {
                if let Err(e) = store.record(&only.key, &only.old_text) {
                    return Outcome::refused(ErrorCode::Io, e.to_string());
                }
            }
            return Outcome {
                ok: true,
                code: None,
                text: messages::noop(&only.display),
                warnings: only.warnings.clone(),
                files: vec![noop_report(&only.display, &only.new_text)],
            };
        }
    }
    if !opts.dry_run {
        if let Err(e) = commit(&mut planned) {
            return Outcome::refused(e.code(), e.to_string());
        }
    }
    let warnings: Vec<String> = planned
        .iter()
        .flat_map(|p| p.warnings.iter().cloned())
        .collect();
    let text = planned
        .iter()
        .map(|p| {
            result::section_text(
                &p.display,
                &p.new_tag,
                &p.old_text,
                &p.new_text,
                &p.warnings,
            )
        })
        .collect::<Vec<_>>()
        .join("\n\n");
    Outcome {
        ok: true,
        code: None,
        text,
        warnings,
        files: planned
            .iter()
            .map(|p| report(p, FileOp::Update, !opts.dry_run))
            .collect(),
    }
}
