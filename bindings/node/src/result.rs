//! The typed result of every call: [`Reply`] (the package's `Result`) and its parts, plain
//! JavaScript objects.

use napi_derive::napi;

/// One warning: `[W_CODE] text`, split.
#[napi(object, use_nullable = true)]
pub struct Warning {
    /// The stable code (`W_MERGED_LINES`, …), or `null`.
    pub code: Option<String>,
    /// The whole warning as the model sees it.
    pub text: String,
}

/// What happened to one file.
#[napi(object, use_nullable = true)]
pub struct File {
    /// The path as the request named it.
    pub path: String,
    /// For a rename, the new path.
    pub new_path: Option<String>,
    /// What happened: `read`, `create`, `update`, `noop`, `delete` or `rename`.
    pub op: String,
    /// The file's tag after the call, when it has one.
    pub tag: Option<String>,
    /// The unified diff of the change (empty for reads and no-ops).
    pub diff: String,
    /// Whether the change was written (false in a dry run or a refusal).
    pub written: bool,
    /// The first changed line of the new text, 1-based.
    pub first_changed_line: Option<u32>,
}

/// The fresh anchors of one changed region of a written file.
#[napi(object, use_nullable = true)]
pub struct Anchors {
    /// The file.
    pub path: String,
    /// First line shown (1-based).
    pub first: u32,
    /// Last line shown.
    pub last: u32,
    /// The rows of lines `first..=last` as the dialect's read shows them.
    pub rows: Vec<String>,
}

/// A call's answer: `ok` and `code`, the model-facing `text`, coded `warnings`, `files`,
/// fresh `anchors`, the `undo` id of a call that wrote, the `preview` id `astEdit` queued,
/// and the CLI's `--json` object as `json`.
#[napi(object, use_nullable = true)]
pub struct Reply {
    /// Whether the call did what it was asked (`false`: refused, nothing written).
    pub ok: bool,
    /// The refusal's stable `E_…` code; `null` when `ok`.
    pub code: Option<String>,
    /// The model-facing text: what the CLI prints, what the MCP tool result shows.
    pub text: String,
    /// The warnings, each with its code.
    pub warnings: Vec<Warning>,
    /// What happened to each file.
    pub files: Vec<File>,
    /// The fresh anchors of every changed region, file by file.
    pub anchors: Vec<Anchors>,
    /// The call's id in the undo log, when it wrote and was recorded.
    pub undo: Option<i64>,
    /// The id of the preview an `astEdit` queued.
    pub preview: Option<i64>,
    /// The CLI's `--json` object, serialized.
    pub json: String,
}

/// One MCP tool call's answer, as the server gives it.
#[napi(object, use_nullable = true)]
pub struct ToolReply {
    /// The model-facing text (the tool result's content).
    pub text: String,
    /// The call was refused: nothing was written.
    pub is_error: bool,
    /// The structured content as JSON text.
    pub structured: String,
}

/// `n` as a JavaScript number's `u32` field (line numbers never come near the bound).
fn line(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Reply {
    /// The answer of a facade call.
    pub(crate) fn from_answer(answer: hashline::Answer) -> Reply {
        let (outcome, json, preview) = match &answer {
            Ok(reply) => (
                reply.outcome(),
                reply.json().into_owned(),
                reply.preview().and_then(|p| p.id).map(|id| id.get()),
            ),
            Err(refusal) => (refusal.outcome(), refusal.json().into_owned(), None),
        };
        let code = match &answer {
            Ok(_) => None,
            Err(refusal) => Some(refusal.code().as_str().to_string()),
        };
        let warnings = outcome
            .warnings
            .iter()
            .map(|w| Warning {
                code: hashline::Warning::parse(w).code.map(str::to_string),
                text: w.clone(),
            })
            .collect();
        let files = outcome
            .files
            .iter()
            .map(|f| File {
                path: f.path.clone(),
                new_path: f.new_path.clone(),
                op: op_name(&f.op),
                tag: f.tag.clone(),
                diff: f.diff.clone(),
                written: f.written,
                first_changed_line: f.first_changed_line.map(line),
            })
            .collect();
        let anchors = outcome
            .files
            .iter()
            .flat_map(|f| {
                let path = f.new_path.as_ref().unwrap_or(&f.path);
                f.anchors.iter().map(move |a| Anchors {
                    path: path.clone(),
                    first: line(a.first),
                    last: line(a.last),
                    rows: a.rows.clone(),
                })
            })
            .collect();
        Reply {
            ok: outcome.ok,
            code,
            text: outcome.text.clone(),
            warnings,
            files,
            anchors,
            undo: outcome.undo.and_then(|u| i64::try_from(u).ok()),
            preview,
            json,
        }
    }
}

/// A file operation's name as the `--json` object spells it.
fn op_name(op: &hashline::FileOp) -> String {
    serde_json::to_value(op)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{op:?}").to_lowercase())
}
