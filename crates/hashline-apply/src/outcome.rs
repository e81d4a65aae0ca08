//! The result every engine returns, whatever the dialect.

use hashline_core::ErrorCode;
use serde::Serialize;

/// What a command did, in the form the CLI prints (`text`) and the form `--json` serializes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Applied / read / previewed (true), or refused (false).
    pub ok: bool,
    /// The refusal's stable code; `None` on success.
    pub code: Option<ErrorCode>,
    /// Exactly the text the seed tool of the dialect would return to the model, including any
    /// warnings block the dialect prints (e.g. `\n\nWarnings:\n…`). Plain CLI output is this.
    pub text: String,
    /// Warnings, one per entry, in the order the dialect emits them (also inside `text` where
    /// the dialect prints them; `--json` carries this list).
    pub warnings: Vec<String>,
    /// Per-file facts.
    pub files: Vec<FileReport>,
    /// The undo id of the call when it wrote files and was recorded (`hashline undo ID`);
    /// `None` when it wrote nothing or was not recorded. Reports carry it as their own `undo`
    /// field, so it is not serialized here.
    #[serde(skip)]
    pub undo: Option<u64>,
}

/// What happened to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileOp {
    /// Read only.
    Read,
    /// Created.
    Create,
    /// Changed in place.
    Update,
    /// Nothing changed.
    Noop,
    /// Deleted.
    Delete,
    /// Moved to another path (and possibly changed).
    Rename,
}

/// One file touched (or that would be touched, in a dry run) by a command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileReport {
    /// The path as the request named it.
    pub path: String,
    /// For a rename, the new path.
    pub new_path: Option<String>,
    /// What happened.
    pub op: FileOp,
    /// The file's hashline tag after the command, when it has one.
    pub tag: Option<String>,
    /// Unified diff of the change (empty for reads and no-ops).
    pub diff: String,
    /// First changed line of the new text, 1-based.
    pub first_changed_line: Option<usize>,
    /// Whether the change was written (false in a dry run or on refusal).
    pub written: bool,
    /// Fresh anchors of the changed regions of a written change, in the dialect's anchor form
    /// (what the next edit needs without a re-read; [`crate::anchors`]). Empty (and left out
    /// of `--json`) for reads, no-ops, deletes, dry runs and refusals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub anchors: Vec<crate::anchors::AnchorRegion>,
}

impl Outcome {
    /// A success with the model-facing `text`, no warnings and no file reports.
    pub fn success(text: impl Into<String>) -> Outcome {
        Outcome {
            undo: None,
            ok: true,
            code: None,
            text: text.into(),
            warnings: Vec::new(),
            files: Vec::new(),
        }
    }

    /// A refusal with `code` and the model-facing `text`.
    pub fn refused(code: ErrorCode, text: impl Into<String>) -> Outcome {
        Outcome {
            undo: None,
            ok: false,
            code: Some(code),
            text: text.into(),
            warnings: Vec::new(),
            files: Vec::new(),
        }
    }

    /// [`Outcome::refused`] that keeps the `warnings` gathered before the refusal.
    pub fn refused_with(
        code: ErrorCode,
        text: impl Into<String>,
        warnings: Vec<String>,
    ) -> Outcome {
        Outcome {
            warnings,
            ..Outcome::refused(code, text)
        }
    }
}

/// The coded warning of a snapshot the session store could not record (a read-only, full or
/// broken state database), for every command and dialect alike: the call itself did its work
/// (`done`: "The file was read", "The edit was written"), so it succeeds and warns, never
/// refuses; only the session's memory of the text is missing.
pub fn not_recorded(done: &str, e: &hashline_state::StoreError) -> String {
    format!(
        "[W_STATE_NOT_RECORDED] {done}, but the session state could not record it ({e}). Anchors of it work while the file is unchanged; if it changes, read it again before editing. Make the state directory (--state) writable to fix this."
    )
}

/// The warnings block the seed tools append to their text: `\n\nWarnings:\n` and one warning
/// per line; empty without warnings.
pub fn warnings_block(warnings: &[String]) -> String {
    if warnings.is_empty() {
        String::new()
    } else {
        format!("\n\nWarnings:\n{}", warnings.join("\n"))
    }
}
