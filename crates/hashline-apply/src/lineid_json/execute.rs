//! The lineid-json front end's call (semantics §8): order of checks, file modes (create, delete,
//! rename) and the exact result strings; the splice, guard, write and session store are the
//! shared pipeline's (`crate::pipeline`).

use hashline_anchor::lineid::{canonical_lines, render_read, render_row};
use hashline_core::kind::Nul;
use hashline_core::{Edit, ErrorCode, TextFile};
use hashline_state::SnapshotStore;
use hashline_syntax::lineid_json::{parse_request, EditOp, Request};

use super::error::EngineError;
use super::plan::{application_order, lower, resolve, validate};
use super::rebase::choose_base;
use super::EditOptions;
use crate::diff::first_changed_line;
use crate::fs::{FsError, Target, Workspace};
use crate::pipeline::commit::{commit, CommitError, Landing, Recorder, Staged};
use crate::pipeline::files::{
    lock_and_read, open_for_read, read_text, resolve as resolve_path, text_only, FileRefusal,
};
use crate::pipeline::report::{change_report, read_report};
use crate::pipeline::stage::{guard_and_encode, splice_file, REREAD_DIFFERS};
use crate::pipeline::Front;
use crate::{FileOp, FileReport, Outcome};

/// A failed commit: nothing was written.
fn commit_error(e: CommitError) -> EngineError {
    EngineError::Io {
        code: e.code(),
        message: e.to_string(),
    }
}

fn refusal(e: FileRefusal) -> EngineError {
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
    ws: &Workspace,
    store: &dyn SnapshotStore,
    path: &str,
    offset: Option<usize>,
    limit: Option<usize>,
) -> Outcome {
    let run = || -> Result<Outcome, EngineError> {
        let opened = open_for_read(ws, path).map_err(refusal)?;
        let text = read_text(ws, &opened, Nul::TextIfUtf8)
            .map_err(refusal)?
            .ok_or_else(|| EngineError::NotFound { path: path.into() })?;
        let mut warnings = Vec::new();
        if let Err(e) = store.record(&opened.target.key, &text) {
            warnings.push(crate::not_recorded("The file was read", &e));
        }
        let report = read_report(path, &text);
        Ok(Outcome {
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
/// delete too) is written through one [`Transaction`](crate::fs::Transaction), all or nothing; the new LF text is
/// recorded in `store` under the final target's key.
pub fn edit(
    ws: &Workspace,
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
        Err(e) => {
            let mut outcome = Outcome::refused(e.code(), e.text());
            outcome.warnings = warnings;
            outcome
        }
    }
}

/// The file report; `change` = the LF texts before and after, for the diff.
fn report(req: &Request, op: FileOp, change: Option<(&str, &str)>, written: bool) -> FileReport {
    let report = match change {
        Some((old, new)) => change_report(
            &req.file_path,
            op,
            (old, new),
            first_changed_line(old, new),
            written,
        ),
        None => FileReport {
            path: req.file_path.clone(),
            new_path: None,
            op,
            tag: None,
            diff: String::new(),
            first_changed_line: None,
            written,
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
    ws: &Workspace,
    store: &dyn SnapshotStore,
    request: &str,
    opts: &EditOptions<'_>,
    warnings: &mut Vec<String>,
) -> Result<Outcome, EngineError> {
    let req = parse_request(request).map_err(|e| EngineError::Request {
        code: e.code(),
        message: e.to_string(),
    })?;
    let target = resolve_path(ws, &req.file_path).map_err(refusal)?;
    let destination = match &req.rename {
        Some(r) => Some(resolve_path(ws, r).map_err(refusal)?).filter(|d| d.real != target.real),
        None => None,
    };
    let mut locked: Vec<&Target> = vec![&target];
    locked.extend(destination.as_ref());
    let (_guard, read) = lock_and_read(ws, &locked).map_err(fs_error)?;
    let recorder = Recorder {
        store,
        word: &|e| crate::not_recorded("The edit was written", e),
    };

    if req.delete {
        let bytes = read.ok_or_else(|| EngineError::NotFound {
            path: req.file_path.clone(),
        })?;
        if !opts.dry_run {
            let staged = Staged {
                target: &target,
                landing: Landing::Delete { expected: bytes },
                bytes: Vec::new(),
                text: "",
            };
            let recorded = commit(ws, vec![staged], &recorder).map_err(commit_error)?;
            warnings.extend(recorded.into_iter().flatten());
        }
        return Ok(ok(
            format!("Successfully deleted {}", req.file_path),
            report(&req, FileOp::Delete, None, !opts.dry_run),
        ));
    }

    let creating = read.is_none();
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
    if let (true, Some(dest)) = (creating, &destination) {
        // The peer writes the new path and then fails to unlink the missing one; refuse instead.
        return Err(EngineError::Io {
            code: ErrorCode::FileNotFound,
            message: format!(
                "File not found: {}. rename moves an existing file; to create {}, send it as filePath without rename.",
                req.file_path, dest.display
            ),
        });
    }
    if let Some(dest) = &destination {
        if !req.overwrite && ws.read(dest).map_err(fs_error)?.is_some() {
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
    if let Some(bytes) = &read {
        text_only(&req.file_path, bytes, "edit", Nul::TextIfUtf8).map_err(refusal)?;
    }
    let file = TextFile::decode(read.unwrap_or_default());
    let disk_lines = canonical_lines(file.text());

    let resolved = resolve(&req.edits, &disk_lines, warnings)?;
    let resolved = choose_base(
        store,
        &target,
        &disk_lines,
        resolved,
        !opts.dry_run,
        warnings,
    )?;
    let order = application_order(&resolved);
    validate(&resolved, &order, &disk_lines)?;
    let lowered = lower(&resolved, &order, &disk_lines, warnings)?;

    let core_lines: Vec<&str> = file.lines().collect();
    let spliced = splice_file(&file, &core_lines, &lowered.edits).map_err(|e| EngineError::Io {
        code: ErrorCode::LineRange,
        message: e.to_string(),
    })?;
    if spliced.text == file.text() && destination.is_none() {
        let suffix = if lowered.noops > 0 {
            format!(
                " No-op edits: {}. Re-read the file and provide content that differs from current lines.",
                lowered.noops
            )
        } else {
            String::new()
        };
        return Err(EngineError::Noop {
            path: req.file_path.clone(),
            suffix,
        });
    }
    let anchor = |n: usize| render_row(n, core_lines.get(n - 1).copied().unwrap_or(""));
    let label = |e: &Edit| format!("edits[{}]", e.origin);
    let front = Front {
        path: &req.file_path,
        anchor: &anchor,
        label: &label,
        allow_syntax_errors: req.allow_syntax_errors,
    };
    let checked = guard_and_encode(
        &front,
        &file,
        &core_lines,
        &lowered.edits,
        spliced,
        &opts.guard,
    )?;
    let (mut new_text, encoded) = (checked.text, checked.encoded);
    warnings.extend(checked.warnings);
    // Reported = re-read: the tag and the recorded text are the next read's.
    if let Some(shown) = encoded.reread.clone() {
        warnings.push(REREAD_DIFFERS.to_string());
        new_text = shown;
    }
    let new_bytes = encoded.bytes;
    warnings.extend(encoded.lost_bytes);
    // Moved, not copied: the bytes go to the transaction, the text stays for the report.
    let (original, old_text) = file.into_parts();

    let landing = match &destination {
        Some(dest) => Landing::Rename {
            expected: original,
            dest,
            overwrite: req.overwrite,
        },
        None if creating => Landing::Create,
        None => Landing::Update { expected: original },
    };
    if !opts.dry_run {
        let staged = Staged {
            target: &target,
            landing,
            bytes: new_bytes,
            text: &new_text,
        };
        let recorded = commit(ws, vec![staged], &recorder).map_err(commit_error)?;
        warnings.extend(recorded.into_iter().flatten());
    }
    let (text, op) = match &destination {
        Some(_) => (
            format!(
                "Moved {} to {}",
                req.file_path,
                req.rename.as_deref().unwrap_or_default()
            ),
            FileOp::Rename,
        ),
        None if creating => (format!("Updated {}", req.file_path), FileOp::Create),
        None => (format!("Updated {}", req.file_path), FileOp::Update),
    };
    Ok(ok(
        text,
        report(&req, op, Some((&old_text, &new_text)), !opts.dry_run),
    ))
}

fn ok(text: String, file: FileReport) -> Outcome {
    Outcome {
        ok: true,
        code: None,
        text,
        warnings: Vec::new(),
        files: vec![file],
    }
}
