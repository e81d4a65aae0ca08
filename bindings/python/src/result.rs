//! The typed result of every call: [`PyReply`] (`hashline.Result`) and its parts.

use pyo3::prelude::*;

/// One warning: `[W_CODE] text`, split.
#[pyclass(name = "Warning", module = "hashline", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct PyWarning {
    /// The stable code (`W_MERGED_LINES`, …), or `None`.
    code: Option<String>,
    /// The whole warning as the model sees it.
    text: String,
}

#[pymethods]
impl PyWarning {
    fn __repr__(&self) -> String {
        format!("Warning(code={}, text={:?})", py_opt(&self.code), self.text)
    }
}

/// What happened to one file.
#[pyclass(name = "File", module = "hashline", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct PyFile {
    /// The path as the request named it.
    path: String,
    /// For a rename, the new path.
    new_path: Option<String>,
    /// What happened: `read`, `create`, `update`, `noop`, `delete` or `rename`.
    op: String,
    /// The file's tag after the call, when it has one.
    tag: Option<String>,
    /// The unified diff of the change (empty for reads and no-ops).
    diff: String,
    /// Whether the change was written (false in a dry run or a refusal).
    written: bool,
    /// The first changed line of the new text, 1-based.
    first_changed_line: Option<usize>,
}

#[pymethods]
impl PyFile {
    fn __repr__(&self) -> String {
        format!(
            "File(path={:?}, op={:?}, tag={}, written={})",
            self.path,
            self.op,
            py_opt(&self.tag),
            if self.written { "True" } else { "False" }
        )
    }
}

/// The fresh anchors of one changed region of a written file.
#[pyclass(name = "Anchors", module = "hashline", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct PyAnchors {
    /// The file.
    path: String,
    /// First line shown (1-based).
    first: usize,
    /// Last line shown.
    last: usize,
    /// The rows of lines `first..=last` as the dialect's read shows them.
    rows: Vec<String>,
}

#[pymethods]
impl PyAnchors {
    fn __repr__(&self) -> String {
        format!(
            "Anchors(path={:?}, first={}, last={}, rows={:?})",
            self.path, self.first, self.last, self.rows
        )
    }
}

/// A call's answer: `ok` and `code`, the model-facing `text`, coded `warnings`, `files`,
/// fresh `anchors`, the `undo` id of a call that wrote, the `preview` id `ast_edit` queued,
/// and the CLI's `--json` object as `json`.
#[pyclass(name = "Result", module = "hashline", frozen, get_all)]
pub(crate) struct PyReply {
    /// Whether the call did what it was asked (`False`: refused, nothing written).
    ok: bool,
    /// The refusal's stable `E_…` code; `None` when `ok`.
    code: Option<String>,
    /// The model-facing text: what the CLI prints, what the MCP tool result shows.
    text: String,
    /// The warnings, each with its code.
    warnings: Vec<PyWarning>,
    /// What happened to each file.
    files: Vec<PyFile>,
    /// The fresh anchors of every changed region, file by file.
    anchors: Vec<PyAnchors>,
    /// The call's id in the undo log, when it wrote and was recorded.
    undo: Option<u64>,
    /// The id of the preview an `ast_edit` queued.
    preview: Option<i64>,
    /// The CLI's `--json` object, serialized.
    json: String,
}

#[pymethods]
impl PyReply {
    fn __bool__(&self) -> bool {
        self.ok
    }

    fn __repr__(&self) -> String {
        let first = self.text.lines().next().unwrap_or_default();
        format!(
            "Result(ok={}, code={}, files={}, undo={}, text={first:?}…)",
            if self.ok { "True" } else { "False" },
            py_opt(&self.code),
            self.files.len(),
            self.undo.map_or("None".to_string(), |u| u.to_string())
        )
    }
}

impl PyReply {
    /// The answer of a facade call.
    pub(crate) fn from_answer(answer: hashline::Answer) -> PyReply {
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
            .map(|w| {
                let parsed = hashline::Warning::parse(w);
                PyWarning {
                    code: parsed.code.map(str::to_string),
                    text: w.clone(),
                }
            })
            .collect();
        let files = outcome
            .files
            .iter()
            .map(|f| PyFile {
                path: f.path.clone(),
                new_path: f.new_path.clone(),
                op: op_name(&f.op),
                tag: f.tag.clone(),
                diff: f.diff.clone(),
                written: f.written,
                first_changed_line: f.first_changed_line,
            })
            .collect();
        let anchors = outcome
            .files
            .iter()
            .flat_map(|f| {
                let path = f.new_path.as_ref().unwrap_or(&f.path);
                f.anchors.iter().map(move |a| PyAnchors {
                    path: path.clone(),
                    first: a.first,
                    last: a.last,
                    rows: a.rows.clone(),
                })
            })
            .collect();
        PyReply {
            ok: outcome.ok,
            code,
            text: outcome.text.clone(),
            warnings,
            files,
            anchors,
            undo: outcome.undo,
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

/// `value` as Python's `repr` shows it: `None`, or the quoted string.
fn py_opt(value: &Option<String>) -> String {
    value
        .as_ref()
        .map_or_else(|| "None".to_string(), |v| format!("{v:?}"))
}
