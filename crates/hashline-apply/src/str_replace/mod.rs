//! The text-editor tool dialect (`--dialect str-replace`): Anthropic's `view`, `create`,
//! `str_replace`, `insert` and `undo_edit` on one JSON request, with the texts of
//! openhands-aci 0.3.3's `OHEditor` (`../shared/conformance/str-replace`).
//!
//! A front end only: the request's shape and the oracle's parameter texts are
//! `hashline_syntax::str_replace`; here are the path checks in the oracle's order, the search for
//! `old_str` (`matching`), the plan of each command (`front`), the directory listing
//! (`listing`) and the result texts (`texts`). Resolving, locking, the guard, encoding (every
//! untouched byte, ending, BOM and the mode survive: DEVIATIONS §22), the one transaction and
//! the session record are the executor's. Departures from the oracle (DEVIATIONS §22–27):
//! paths stay inside the root and nothing is run; no silent strip (`W_STRIPPED_MATCH` or
//! `E_NO_MATCH`); `undo_edit` of a `create` removes the file and says so, and is refused when
//! the file changed since the edit; an edit after a `view` is matched in the viewed text and
//! carried onto the disk (`pipeline::recorded`) or refused with fresh context; an edit
//! of a file never viewed says so (`W_UNREAD`).

mod dialect;
mod front;
mod listing;
mod matching;
mod texts;

pub use dialect::DIALECT;
use hashline_core::ErrorCode;
use hashline_state::{SnapshotStore, UndoEntry};
use hashline_syntax::str_replace::{parse_request, Command};

use crate::anchors::AnchorForm;
use crate::fs::FsError;
use crate::pipeline::execute::{execute, Land, Run};
use crate::pipeline::files::open_resolved;
use crate::pipeline::report::{change_report, read_report, record_read, FirstLine};
use crate::{Disk, Entry};
use crate::{FileOp, FileReport, Outcome};
use hashline_core::Refusal;

use front::{validate, Placed, StrReplace};
use texts::{
    display, invalid_path, line_range, numbered, py_lines, CONTEXT, REVIEW, REVIEW_INSERT,
};

/// The warning of an edit to a file the session never viewed.
pub const UNREAD: &str = "[W_UNREAD]";
/// The warning of a replacement matched without `old_str`'s surrounding white space.
pub const STRIPPED: &str = "[W_STRIPPED_MATCH]";
/// The oracle's default size limit (10 MB).
pub const DEFAULT_MAX_BYTES: u64 = 10 * 1024 * 1024;

/// Options of [`edit`].
#[derive(Debug, Clone, Copy)]
pub struct EditOptions<'a> {
    /// Compute and report everything, write and record nothing.
    pub dry_run: bool,
    /// The edit guard's options.
    pub guard: crate::guard::GuardOptions<'a>,
    /// Files larger than this are refused (`E_FILE_TOO_LARGE`).
    pub max_bytes: u64,
    /// Leave `files[].anchors` empty: the caller will not show them (saves a diff of the
    /// whole file per report).
    pub skip_anchors: bool,
}

impl Default for EditOptions<'_> {
    fn default() -> Self {
        EditOptions {
            dry_run: false,
            guard: crate::guard::GuardOptions::default(),
            max_bytes: DEFAULT_MAX_BYTES,
            skip_anchors: false,
        }
    }
}

/// One request of the tool: `request` is the JSON object (`command`, `path`, …). `view` records
/// the text it shows in `store` (a read); the edits run through the shared executor and record
/// their result and an undo entry.
pub fn edit(
    ws: &dyn Disk,
    store: &dyn SnapshotStore,
    request: &str,
    opts: &EditOptions<'_>,
) -> Outcome {
    let mut warnings = Vec::new();
    match run(ws, store, request, opts, &mut warnings) {
        Ok(mut outcome) => {
            let coded: Vec<&String> = warnings.iter().filter(|w| w.starts_with("[W_")).collect();
            for w in coded {
                outcome.text.push_str("\n\n");
                outcome.text.push_str(w);
            }
            outcome.warnings = warnings;
            outcome
        }
        Err(r) => Outcome::refused_with(r.code, r.message, warnings),
    }
}

fn run(
    ws: &dyn Disk,
    store: &dyn SnapshotStore,
    request: &str,
    opts: &EditOptions<'_>,
    warnings: &mut Vec<String>,
) -> Result<Outcome, Refusal> {
    let raw = parse_request(request)?;
    let shown = display(&raw.path);
    let target = ws.resolve(&shown).map_err(|e| fs_refusal(&e, &shown))?;
    let entry = ws.entry(&target);
    let is_dir = entry == Entry::Directory;
    match (raw.command.as_str(), entry.exists()) {
        ("create", true) => return Err(exists(&shown)),
        ("create", false) => {}
        (_, false) => return Err(missing(&shown)),
        _ => {}
    }
    if raw.command != "view" && is_dir {
        return Err(Refusal::new(
            ErrorCode::IsDirectory,
            invalid_path(
                &shown,
                &format!("The path {shown} is a directory and only the `view` command can be used on directories."),
            ),
        ));
    }
    let command = raw.command()?;
    if let Command::View { range, range_sent } = command {
        return view(
            ws,
            store,
            (&shown, is_dir),
            range,
            range_sent,
            opts.max_bytes,
        );
    }
    let undo = match command {
        Command::UndoEdit => Some(
            store
                .pop_undo(&target.key)
                .map_err(|e| Refusal::new(ErrorCode::Io, format!("session store: {e}")))?
                .ok_or_else(|| no_history(&shown))?,
        ),
        _ => None,
    };
    let lint = raw.flag("enable_linting");
    let mut front = StrReplace {
        path: shown.clone(),
        shown: shown.clone(),
        command,
        max_bytes: opts.max_bytes,
        undo,
        placed: Placed::default(),
        warnings: Vec::new(),
    };
    let run = Run {
        dry_run: opts.dry_run,
        guard: opts.guard,
    };
    let executed = execute(ws, store, &mut front, &run);
    warnings.append(&mut front.warnings);
    let done = match executed {
        Ok(done) => done,
        Err(e) => {
            if let Some(entry) = &front.undo {
                // The undo did not happen: the entry stays.
                let _ = store.push_undo(&target.key, entry);
            }
            return Err(e);
        }
    };
    let Some(done) = done.into_iter().next() else {
        return Err(missing(&shown));
    };
    warnings.extend(done.warnings.iter().cloned());
    // The seed's reply and the undo entry need the new text in one buffer.
    let joined = done.new_pieces().to_text();
    let (old, new) = (done.old_text.as_str(), &*joined);
    if !opts.dry_run && !matches!(front.command, Command::UndoEdit) {
        let entry = UndoEntry {
            before: (done.land != Land::Create).then(|| old.to_owned()),
            after: new.to_owned(),
        };
        if let Err(e) = store.push_undo(&done.target.key, &entry) {
            warnings.push(format!(
                "[W_STATE_NOT_RECORDED] session store: {e}; this edit cannot be undone"
            ));
        }
    }
    let line = front.placed.line;
    let text = match &front.command {
        Command::Create { .. } => format!("File created successfully at: {shown}"),
        Command::StrReplace { new_str, .. } => {
            let from = line.saturating_sub(CONTEXT);
            let to = line + CONTEXT + new_str.matches('\n').count();
            let snippet = line_range(new, from + 1, to);
            format!(
                "The file {shown} has been edited. {}{REVIEW}",
                numbered(&snippet, &format!("a snippet of {shown}"), from + 1)
            )
        }
        Command::Insert { new_str, .. } => {
            let rows = new_str.split('\n').count();
            let from = line.saturating_sub(CONTEXT);
            let to = (py_lines(old).len() + rows).min(line + CONTEXT + rows);
            let snippet = line_range(new, from + 1, to);
            let lint = if lint {
                "\nNo linting issues found in the changes.\n"
            } else {
                ""
            };
            format!(
                "The file {shown} has been edited. {}{lint}{REVIEW_INSERT}",
                numbered(&snippet, "a snippet of the edited file", (line + 1).saturating_sub(CONTEXT).max(1))
            )
        }
        Command::UndoEdit if done.land == Land::Delete => format!(
            "Last edit to {shown} undone successfully. That edit created {shown}, so undoing it removed the file."
        ),
        Command::UndoEdit | Command::View { .. } => format!(
            "Last edit to {shown} undone successfully. {}",
            numbered(new, &shown, 1)
        ),
    };
    let (op, first) = match done.land {
        Land::Create => (FileOp::Create, FirstLine::Given(Some(1))),
        Land::Delete => (FileOp::Delete, FirstLine::Given(None)),
        _ => (FileOp::Update, FirstLine::Diff),
    };
    let form = (!opts.skip_anchors).then_some(AnchorForm::View);
    let texts = (old, &done.new_tagged(), done.changes.as_deref());
    let file = change_report(&shown, op, texts, (first, form), !opts.dry_run);
    Ok(Outcome {
        undo: done.undo,
        ..ok(text, file)
    })
}

/// `view`: a directory's listing, or the file's numbered lines (recorded as a read).
fn view(
    ws: &dyn Disk,
    store: &dyn SnapshotStore,
    (shown, is_dir): (&str, bool),
    range: Option<(i64, i64)>,
    range_sent: Option<String>,
    max_bytes: u64,
) -> Result<Outcome, Refusal> {
    hashline_core::name::check(shown).map_err(|e| Refusal::new(e.code(), e.to_string()))?;
    let target = ws.resolve(shown).map_err(|e| fs_refusal(&e, shown))?;
    let opened = open_resolved(ws, target).map_err(|e| fs_refusal(&e, shown))?;
    if is_dir {
        if let Some(sent) = range_sent {
            return Err(Refusal::new(
                ErrorCode::BadShape,
                format!("Invalid `view_range` parameter: {sent}. The `view_range` parameter is not allowed when `path` points to a directory."),
            ));
        }
        let text = listing::list(ws, &opened.target.real, shown);
        return Ok(ok(
            text,
            read_report(shown, hashline_anchor::tag::file_tag("")),
        ));
    }
    let bytes = ws
        .read(&opened.target)
        .map_err(|e| fs_refusal(&e, shown))?
        .ok_or_else(|| missing(shown))?;
    let text = validate(bytes, shown, max_bytes)?.into_text();
    let (tag, warnings) = record_read(store, &opened.target.key, &text);
    let out = match range {
        None => numbered(&text, shown, 1),
        Some((start, end)) => {
            view_range(&text, shown, start, end, &range_sent.unwrap_or_default())?
        }
    };
    let mut outcome = ok(out, read_report(shown, tag));
    outcome.warnings = warnings;
    Ok(outcome)
}

fn view_range(
    text: &str,
    shown: &str,
    start: i64,
    end: i64,
    sent: &str,
) -> Result<String, Refusal> {
    let count = py_lines(text).len();
    let n = i64::try_from(count).unwrap_or(i64::MAX);
    let invalid = |why: String| {
        Refusal::new(
            ErrorCode::LineRange,
            format!("Invalid `view_range` parameter: {sent}. {why}"),
        )
    };
    if start < 1 || start > n {
        return Err(invalid(format!(
            "Its first element `{start}` should be within the range of lines of the file: [1, {n}]."
        )));
    }
    let mut note = None;
    let end = if end == -1 {
        n
    } else if end > n {
        note = Some(format!(
            "We only show up to {n} since there's only {n} lines in this file"
        ));
        n
    } else {
        end
    };
    if end < start {
        return Err(invalid(format!(
            "Its second element `{end}` should be greater than or equal to the first element `{start}`."
        )));
    }
    let (from, to) = (
        usize::try_from(start).unwrap_or(1),
        usize::try_from(end).unwrap_or(1),
    );
    let lines = line_range(text, from, to);
    let joined = lines.lines().collect::<Vec<_>>().join("\n");
    let mut out = numbered(&joined, shown, from);
    if let Some(note) = note {
        out.push_str(&format!("\nNOTE: {note}\n"));
    }
    Ok(out)
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

fn missing(shown: &str) -> Refusal {
    Refusal::new(
        ErrorCode::FileNotFound,
        invalid_path(
            shown,
            &format!("The path {shown} does not exist. Please provide a valid path."),
        ),
    )
}

fn exists(shown: &str) -> Refusal {
    Refusal::new(
        ErrorCode::FileExists,
        invalid_path(
            shown,
            &format!(
                "File already exists at: {shown}. Cannot overwrite files using command `create`."
            ),
        ),
    )
}

fn no_history(shown: &str) -> Refusal {
    Refusal::new(
        ErrorCode::NoHistory,
        format!("No edit history found for {shown}."),
    )
}

/// A file-system failure in the tool's words.
fn fs_refusal(e: &FsError, shown: &str) -> Refusal {
    let text = match e {
        FsError::OutsideRoot { .. } => invalid_path(
            shown,
            "The path is outside the workspace root; only files under the root can be viewed or edited.",
        ),
        FsError::NotFound { .. } => {
            format!("Invalid `path` parameter: {shown}. The path {shown} does not exist. Please provide a valid path.")
        }
        FsError::ReadOnly { .. } => format!(
            "Ran into [Errno 13] Permission denied: '{shown}' while trying to write to {shown}"
        ),
        FsError::Changed { .. } => format!(
            "{shown} changed on disk while this edit was being applied; nothing was written. View it again and retry."
        ),
        other => format!("Ran into {other} while trying to access {shown}"),
    };
    Refusal::new(e.code(), text)
}
