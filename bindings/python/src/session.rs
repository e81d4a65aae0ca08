//! `hashline.Session`: one agent session over one root, every call run with the interpreter
//! detached.

use std::path::PathBuf;

use hashline::{
    AstEditOptions, EditOptions, EngineConfig, ErrorCode, PreviewId, ReadOptions, ResolveAction,
    Rule,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use crate::result::PyReply;
use crate::{dialect, misuse};

/// A session over the directory `root`: `read`, `edit`, `write`, `ast_edit`, `resolve`,
/// `undo`. Snapshots live in memory (`state=None`) or in the state directory `state` under
/// the session name `session` (shared with the CLI and MCP server of the same state).
#[pyclass(name = "Session", module = "hashline", frozen)]
pub(crate) struct PySession {
    inner: hashline::Session,
}

#[pymethods]
impl PySession {
    #[new]
    #[pyo3(signature = (root, state=None, session="default"))]
    fn new(
        py: Python<'_>,
        root: PathBuf,
        state: Option<PathBuf>,
        session: &str,
    ) -> PyResult<PySession> {
        let config = match state {
            None => EngineConfig::in_memory(root),
            Some(dir) => EngineConfig::persistent(root, dir, session),
        };
        let opened = py.detach(|| hashline::Session::open(config));
        opened
            .map(|inner| PySession { inner })
            .map_err(|e| misuse(py, e.code(), e.to_string()))
    }

    /// Read `path` with the anchors of `dialect` (default: `¶PATH#TAG` and `N:TEXT` rows);
    /// records what it showed.
    #[pyo3(signature = (path, *, offset=None, limit=None, dialect=None))]
    fn read(
        &self,
        py: Python<'_>,
        path: &str,
        offset: Option<usize>,
        limit: Option<usize>,
        dialect: Option<&str>,
    ) -> PyResult<PyReply> {
        let mut options = ReadOptions::new().anchors(self::dialect(py, dialect)?.read_anchors());
        if let Some(line) = offset {
            options = options.offset(line);
        }
        if let Some(lines) = limit {
            options = options.limit(lines);
        }
        Ok(PyReply::from_answer(
            py.detach(|| self.inner.read(path, &options)),
        ))
    }

    /// Apply `request` (a patch as text, or a JSON dialect's request as a dict) in `dialect`
    /// (default: detected).
    #[pyo3(signature = (request, dialect=None, *, dry_run=false, allow_syntax_errors=false, overwrite=false))]
    fn edit(
        &self,
        py: Python<'_>,
        request: &Bound<'_, PyAny>,
        dialect: Option<&str>,
        dry_run: bool,
        allow_syntax_errors: bool,
        overwrite: bool,
    ) -> PyResult<PyReply> {
        let dialect = self::dialect(py, dialect)?;
        let text: String = if request.is_instance_of::<PyString>() {
            request.extract()?
        } else if request.is_instance_of::<PyDict>() {
            py.import("json")?
                .call_method1("dumps", (request,))?
                .extract()?
        } else {
            return Err(misuse(
                py,
                ErrorCode::Usage,
                "`request` is a patch as a str, or a JSON dialect's request as a dict".into(),
            ));
        };
        let options = EditOptions::new()
            .dry_run(dry_run)
            .allow_syntax_errors(allow_syntax_errors)
            .overwrite(overwrite);
        Ok(PyReply::from_answer(
            py.detach(|| self.inner.edit(&text, dialect, &options)),
        ))
    }

    /// Create or replace `path` with `content` (str or bytes, written byte for byte), then
    /// show its anchors. An existing file this session never read is refused (`E_NOT_READ`)
    /// unless `overwrite`.
    #[pyo3(signature = (path, content, *, dialect=None, overwrite=false))]
    fn write(
        &self,
        py: Python<'_>,
        path: &str,
        content: &Bound<'_, PyAny>,
        dialect: Option<&str>,
        overwrite: bool,
    ) -> PyResult<PyReply> {
        let anchors = self::dialect(py, dialect)?.read_anchors();
        let bytes: Vec<u8> = if let Ok(bytes) = content.cast::<PyBytes>() {
            bytes.as_bytes().to_vec()
        } else if let Ok(text) = content.extract::<String>() {
            text.into_bytes()
        } else {
            return Err(misuse(
                py,
                ErrorCode::Usage,
                "`content` is the new file as str or bytes".into(),
            ));
        };
        Ok(PyReply::from_answer(py.detach(|| {
            self.inner.write_with(path, &bytes, anchors, overwrite)
        })))
    }

    /// Preview structural rewrites (`rules`: `(pattern, rewrite)` pairs) over `paths` and
    /// queue the preview; nothing is written. `Result.preview` is the id `resolve` takes.
    #[pyo3(signature = (rules, paths, *, lang=None, max_files=None, allow_syntax_errors=false, hidden=false, no_ignore=false))]
    #[allow(clippy::too_many_arguments)]
    fn ast_edit(
        &self,
        py: Python<'_>,
        rules: Vec<(String, String)>,
        paths: Vec<String>,
        lang: Option<String>,
        max_files: Option<usize>,
        allow_syntax_errors: bool,
        hidden: bool,
        no_ignore: bool,
    ) -> PyResult<PyReply> {
        if rules.is_empty() || paths.is_empty() {
            return Err(misuse(
                py,
                ErrorCode::Usage,
                "give at least one (pattern, rewrite) rule and one path".into(),
            ));
        }
        let rules: Vec<Rule> = rules.iter().map(|(p, o)| Rule::new(p, o)).collect();
        let mut options = AstEditOptions::new()
            .allow_syntax_errors(allow_syntax_errors)
            .hidden(hidden)
            .no_ignore(no_ignore);
        if let Some(lang) = lang {
            options = options.lang(lang);
        }
        if let Some(files) = max_files {
            options = options.max_files(files);
        }
        Ok(PyReply::from_answer(
            py.detach(|| self.inner.ast_edit(rules, paths, &options)),
        ))
    }

    /// `apply` (write a queued preview, default the newest; `only`: `FILE:MATCH` ids),
    /// `discard` it, or `list` the pending previews.
    #[pyo3(signature = (action="list", id=None, only=None))]
    fn resolve(
        &self,
        py: Python<'_>,
        action: &str,
        id: Option<i64>,
        only: Option<Vec<String>>,
    ) -> PyResult<PyReply> {
        let id = match id {
            None => None,
            Some(n) => Some(PreviewId::new(n).ok_or_else(|| {
                misuse(
                    py,
                    ErrorCode::Usage,
                    format!("preview id {n} is not positive"),
                )
            })?),
        };
        let action = match (action, only) {
            ("apply", only) => ResolveAction::Apply { id, only },
            ("discard", None) => ResolveAction::Discard { id },
            ("list", None) if id.is_none() => ResolveAction::List,
            _ => {
                return Err(misuse(
                    py,
                    ErrorCode::Usage,
                    format!(
                        "resolve takes \"apply\" (id, only), \"discard\" (id) or \"list\", not \
                         {action:?} with these arguments"
                    ),
                ))
            }
        };
        Ok(PyReply::from_answer(
            py.detach(|| self.inner.resolve(action)),
        ))
    }

    /// Put back the files of call `id` (default: this session's newest call that wrote).
    #[pyo3(signature = (id=None))]
    fn undo(&self, py: Python<'_>, id: Option<u64>) -> PyReply {
        PyReply::from_answer(py.detach(|| self.inner.undo(id)))
    }

    /// The undoable calls of this root, newest first (the result's `text`).
    fn undo_list(&self, py: Python<'_>) -> PyReply {
        PyReply::from_answer(py.detach(|| self.inner.undo_list()))
    }

    /// Run MCP tool `name` with `arguments` (a JSON object as text) as the MCP server does;
    /// `dialect` is the default, as the server's `--dialect`. Answers `(text, is_error,
    /// structured)`, `structured` as JSON text. Used by `hashline.tools`.
    #[pyo3(signature = (name, arguments, dialect=None))]
    fn call_tool(
        &self,
        py: Python<'_>,
        name: &str,
        arguments: &str,
        dialect: Option<&str>,
    ) -> PyResult<(String, bool, String)> {
        let dialect = self::dialect(py, dialect)?;
        let arguments = match serde_json::from_str::<serde_json::Value>(arguments) {
            Ok(serde_json::Value::Object(map)) => Some(map),
            Ok(serde_json::Value::Null) => None,
            Ok(_) | Err(_) => {
                // As the server answers arguments that do not fit: a refusal the model reads.
                let text = format!(
                    "The `{name}` arguments are not a JSON object. Send them as one object \
                     (see the tool's input schema) and call it again. Nothing was done."
                );
                let structured = serde_json::json!({
                    "schema_version": hashline::JSON_SCHEMA_VERSION,
                    "ok": false,
                    "code": ErrorCode::BadShape.as_str(),
                    "warnings": [],
                    "files": [],
                });
                return Ok((text, true, structured.to_string()));
            }
        };
        let reply = py.detach(|| hashline::mcp::call_tool(&self.inner, dialect, name, arguments));
        Ok((reply.text, reply.is_error, reply.structured.to_string()))
    }
}
