//! The lineid-json front end of the executor (semantics §8): its file checks in the seed's
//! order, anchor resolution and autocorrection (its plan), file modes (create, delete, rename)
//! and the exact result strings; everything else is `crate::pipeline::execute`.

use hashline_anchor::lineid::{canonical_lines, render_read, render_row};
use hashline_core::kind::Nul;
use hashline_core::{Edit, ErrorCode, LineChange, SpliceError, TextFile};
use hashline_state::{SnapshotStore, StoreError};
use hashline_syntax::lineid_json::{parse_request, EditOp, Request};

use super::error::EngineError;
use super::plan::{application_order, lower, resolve, validate};
use super::rebase::choose_base;
use super::EditOptions;
use crate::anchors::AnchorForm;
use crate::fs::FsError;
use crate::pipeline::commit::CommitError;
use crate::pipeline::execute::{execute, EditPlan, FrontEnd, Intent, Land, Opened, Plan, Run};
use crate::pipeline::files::{open_for_read, read_text, text_only, Decoding};
use crate::pipeline::report::NewTagged;
use crate::pipeline::report::{change_report, read_report, record_read, FirstLine};
use crate::pipeline::stage::Spliced;
use crate::Disk;
use crate::{FileOp, FileReport, Outcome};
use hashline_core::Refusal;

/// A failed commit: nothing was written.
fn commit_error(e: CommitError) -> EngineError {
    EngineError::Io {
        code: e.code(),
        message: e.to_string(),
    }
}

fn refusal(e: Refusal) -> EngineError {
    EngineError::Io {
        code: e.code,
        message: e.message,
    }
}

fn fs_error(e: FsError) -> EngineError {
    EngineError::Io {
        code: e.code(),
        message: e.to_string(),
    }
}

/// `read --anchors lineid`: `N#ID|content` rows of the file's canonical lines (`offset` = 1-based
/// first line, `limit` = most rows), and the whole LF text recorded in `store`.
pub fn read(
    ws: &dyn Disk,
    store: &dyn SnapshotStore,
    path: &str,
    offset: Option<usize>,
    limit: Option<usize>,
) -> Outcome {
    let run = || -> Result<Outcome, EngineError> {
        let opened = open_for_read(ws, path).map_err(refusal)?;
        let text = read_text(ws, &opened, Nul::TextIfUtf8, Decoding::Utf8)
            .map_err(refusal)?
            .ok_or_else(|| EngineError::NotFound { path: path.into() })?;
        let (tag, warnings) = record_read(store, &opened.target.key, &text);
        let report = read_report(path, tag);
        Ok(Outcome {
            undo: None,
            ok: true,
            code: None,
            text: render_read(&text, offset, limit) + &crate::warnings_block(&warnings),
            warnings,
            files: vec![report],
        })
    };
    run().unwrap_or_else(|e| Outcome::refused(e.code(), e.text()))
}

/// The whole tool call: `request` is the JSON text `{"filePath", "edits", "delete"?, "rename"?,
/// "overwrite"?}`. Every anchor is validated before anything is applied; the change (a rename or
/// delete too) is written through one [`Transaction`](crate::fs::Transaction), all or nothing. The new text is
/// recorded in `store` only when the reply shows its anchors (`EditOptions::fresh_anchors`); a
/// rename or delete forgets the old key.
pub fn edit(
    ws: &dyn Disk,
    store: &dyn SnapshotStore,
    request: &str,
    opts: &EditOptions<'_>,
) -> Outcome {
    let mut warnings = Vec::new();
    match run(ws, store, request, opts, &mut warnings) {
        Ok(mut outcome) => {
            // The seed prints no warnings; the guard's coded ones must reach the model.
            let coded: Vec<String> = warnings
                .iter()
                .filter(|w| w.starts_with("[W_"))
                .cloned()
                .collect();
            outcome.text.push_str(&crate::warnings_block(&coded));
            outcome.warnings = warnings;
            outcome
        }
        Err(e) => Outcome::refused_with(e.code(), e.text(), warnings),
    }
}

/// The file report; `change` = the LF texts before and after, for the diff.
fn report(
    req: &Request,
    op: FileOp,
    change: Option<(&str, &NewTagged<'_>, Option<&[LineChange]>)>,
    written: bool,
    form: Option<AnchorForm>,
) -> FileReport {
    let report = match change {
        Some(texts) => change_report(&req.file_path, op, texts, (FirstLine::Diff, form), written),
        None => FileReport {
            path: req.file_path.clone(),
            new_path: None,
            op,
            tag: None,
            diff: String::new(),
            first_changed_line: None,
            written,
            anchors: Vec::new(),
        },
    };
    FileReport {
        new_path: if op == FileOp::Rename {
            req.rename.clone()
        } else {
            None
        },
        ..report
    }
}

fn run(
    ws: &dyn Disk,
    store: &dyn SnapshotStore,
    request: &str,
    opts: &EditOptions<'_>,
    warnings: &mut Vec<String>,
) -> Result<Outcome, EngineError> {
    let req = parse_request(request).map_err(|e| EngineError::Request {
        code: e.code(),
        message: e.to_string(),
    })?;
    let mut front = LineId {
        req,
        warnings: Vec::new(),
        noops: 0,
        fresh_anchors: opts.fresh_anchors,
    };
    let run = Run {
        dry_run: opts.dry_run,
        guard: opts.guard,
    };
    let executed = execute(ws, store, &mut front, &run);
    warnings.append(&mut front.warnings);
    let done = executed?;
    let Some(done) = done.into_iter().next() else {
        return Err(EngineError::NotFound {
            path: front.req.file_path.clone(),
        });
    };
    warnings.extend(done.warnings.iter().cloned());
    let req = &front.req;
    let written = !opts.dry_run;
    let form = opts.fresh_anchors.then_some(AnchorForm::Lineid);
    let new = done.new_tagged();
    let change = Some((done.old_text.as_str(), &new, done.changes.as_deref()));
    let (text, file) = match done.land {
        Land::Delete => (
            format!("Successfully deleted {}", req.file_path),
            report(req, FileOp::Delete, None, written, form),
        ),
        Land::Move { .. } => (
            format!(
                "Moved {} to {}",
                req.file_path,
                req.rename.as_deref().unwrap_or_default()
            ),
            report(req, FileOp::Rename, change, written, form),
        ),
        Land::Create => (
            format!("Updated {}", req.file_path),
            report(req, FileOp::Create, change, written, form),
        ),
        Land::Update => (
            format!("Updated {}", req.file_path),
            report(req, FileOp::Update, change, written, form),
        ),
    };
    Ok(Outcome {
        undo: done.undo,
        ..ok(text, file)
    })
}

/// The lineid-json front end: the request's file, its anchors and autocorrections, its texts.
struct LineId {
    req: Request,
    /// Warnings of the plan (kept when the call is refused).
    warnings: Vec<String>,
    /// Edits that change nothing (for the no-op refusal).
    noops: usize,
    /// The reply carries fresh anchors: the result is recorded.
    fresh_anchors: bool,
}

impl FrontEnd for LineId {
    type Error = EngineError;

    fn intents(&self) -> Vec<Intent> {
        vec![Intent {
            path: self.req.file_path.clone(),
            dest: self.req.rename.clone(),
        }]
    }

    fn fs_error(&self, _i: usize, e: FsError) -> EngineError {
        fs_error(e)
    }

    fn plan(&mut self, opened: Opened<'_>) -> Result<Plan, EngineError> {
        let req = &self.req;
        if req.delete {
            let bytes = opened.bytes.ok_or_else(|| EngineError::NotFound {
                path: req.file_path.clone(),
            })?;
            return Ok(Plan::Delete(bytes));
        }
        let creating = opened.bytes.is_none();
        if creating
            && !req
                .edits
                .iter()
                .all(|e| e.pos.is_none() && e.op != EditOp::Replace)
        {
            return Err(EngineError::NotFound {
                path: req.file_path.clone(),
            });
        }
        if let (true, Some(dest)) = (creating, opened.dest) {
            // The peer writes the new path and then fails to unlink the missing one; refuse.
            return Err(EngineError::Io {
                code: ErrorCode::FileNotFound,
                message: format!(
                    "File not found: {}. rename moves an existing file; to create {}, send it as filePath without rename.",
                    req.file_path, dest.display
                ),
            });
        }
        if let Some(dest) = opened.dest {
            if !req.overwrite && opened.read_dest().map_err(fs_error)?.is_some() {
                return Err(EngineError::Io {
                    code: ErrorCode::FileExists,
                    message: format!(
                        "Cannot move {} to {}: {} already exists. Add \"overwrite\": true to the request to replace it.",
                        req.file_path,
                        dest.display,
                        dest.display
                    ),
                });
            }
        }
        if let Some(bytes) = &opened.bytes {
            text_only(&req.file_path, bytes, "edit", Nul::TextIfUtf8)?;
        }
        let file = TextFile::decode(opened.bytes.unwrap_or_default());
        let disk_lines = canonical_lines(file.text());
        let warnings = &mut self.warnings;
        let resolved = resolve(&req.edits, &disk_lines, warnings)?;
        let resolved = choose_base(
            opened.store,
            opened.target,
            (file.text(), &disk_lines),
            resolved,
            !opened.dry_run,
            warnings,
        )?;
        let order = application_order(&resolved);
        validate(&resolved, &order, &disk_lines)?;
        let lowered = lower(&resolved, &order, &disk_lines, warnings)?;
        self.noops = lowered.noops;
        let land = match opened.dest {
            Some(_) => Land::Move {
                overwrite: req.overwrite,
            },
            None if creating => Land::Create,
            None => Land::Update,
        };
        Ok(Plan::Edit(EditPlan {
            file,
            edits: lowered.edits,
            spliced: None,
            land,
            warnings: Vec::new(),
        }))
    }

    fn splice_error(&self, e: SpliceError) -> EngineError {
        EngineError::Io {
            code: ErrorCode::LineRange,
            message: e.to_string(),
        }
    }

    fn spliced(
        &mut self,
        _i: usize,
        plan: &EditPlan,
        spliced: &Spliced,
    ) -> Result<(), EngineError> {
        let file = plan.file.text();
        if !spliced.text.is(file, file) || matches!(plan.land, Land::Move { .. }) {
            return Ok(());
        }
        let suffix = if self.noops > 0 {
            format!(
                " No-op edits: {}. Re-read the file and provide content that differs from current lines.",
                self.noops
            )
        } else {
            String::new()
        };
        Err(EngineError::Noop {
            path: self.req.file_path.clone(),
            suffix,
        })
    }

    fn anchor(&self, _i: usize, lines: &[&str], n: usize) -> String {
        render_row(n, lines.get(n - 1).copied().unwrap_or(""))
    }

    fn label(&self, _i: usize, e: &Edit) -> String {
        format!("edits[{}]", e.origin)
    }

    fn allow_syntax_errors(&self) -> bool {
        self.req.allow_syntax_errors
    }

    fn store_error(&self, e: StoreError) -> EngineError {
        EngineError::Io {
            code: ErrorCode::Io,
            message: format!("session store: {e}"),
        }
    }

    /// The seed's reply shows no anchors of the new text, so the session has not seen it: the
    /// next edit's anchors come from the last read and are carried over from it. A reply that
    /// carries fresh anchors (`EditOptions::fresh_anchors`) shows it: then it is recorded.
    fn records_result(&self) -> bool {
        self.fresh_anchors
    }

    fn store_warning(&self, e: &StoreError) -> String {
        crate::not_recorded("The edit was written", e)
    }

    fn commit_error(&self, e: CommitError) -> EngineError {
        commit_error(e)
    }
}

fn ok(text: String, file: FileReport) -> Outcome {
    Outcome {
        undo: None,
        ok: true,
        code: None,
        text,
        warnings: Vec::new(),
        files: vec![file],
    }
}
