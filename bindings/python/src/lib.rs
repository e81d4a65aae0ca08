//! `hashline._hashline`: the facade's [`hashline::Session`] for Python.
//!
//! Every call answers a [`Result`](result::PyReply) (`ok`, `code`, `text`, `warnings`,
//! `files`, `anchors`, `undo`): a refusal of the engine (a stale anchor, a guard's finding)
//! is a result with `ok=False` and its code, as the facade answers `Err(Refusal)` and the MCP
//! server `isError`. Misuse of the API (an unknown dialect name, a root that cannot be
//! opened, a bad action) raises `HashlineError` with a `code`. The engine runs with the
//! interpreter detached ([`Python::detach`]): other Python threads run meanwhile.

mod result;
mod session;

use pyo3::prelude::*;

pyo3::create_exception!(
    hashline,
    HashlineError,
    pyo3::exceptions::PyException,
    "Misuse of the API: the message says what to fix; `code` is a stable E_ code."
);

/// A `HashlineError` with `code` (an `E_…` code of `docs/ERRORS.md`) and `message`.
pub(crate) fn misuse(py: Python<'_>, code: hashline::ErrorCode, message: String) -> PyErr {
    let err = HashlineError::new_err(format!("[{}] {message}", code.as_str()));
    // Setting an attribute on a fresh exception object cannot fail but for memory.
    let _ = err.value(py).setattr("code", code.as_str());
    err
}

/// `name` as a dialect (`None`: auto), or `HashlineError` naming the dialects.
pub(crate) fn dialect(py: Python<'_>, name: Option<&str>) -> PyResult<hashline::Dialect> {
    match name {
        None => Ok(hashline::Dialect::Auto),
        Some(name) => name
            .parse()
            .map_err(|e: String| misuse(py, hashline::ErrorCode::Usage, e)),
    }
}

/// The six tools as the MCP server lists them for `dialect`: a JSON array of objects with
/// `name`, `title`, `description` and `input_schema`.
#[pyfunction]
#[pyo3(signature = (dialect=None))]
fn tool_specs(py: Python<'_>, dialect: Option<&str>) -> PyResult<String> {
    let dialect = self::dialect(py, dialect)?;
    serde_json::to_string(&hashline::mcp::tool_specs(dialect))
        .map_err(|e| misuse(py, hashline::ErrorCode::Io, e.to_string()))
}

/// The module: `Session`, `Result` and its parts, `HashlineError`, `tool_specs`.
#[pymodule]
fn _hashline(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<session::PySession>()?;
    m.add_class::<result::PyReply>()?;
    m.add_class::<result::PyWarning>()?;
    m.add_class::<result::PyFile>()?;
    m.add_class::<result::PyAnchors>()?;
    m.add("HashlineError", m.py().get_type::<HashlineError>())?;
    m.add_function(wrap_pyfunction!(tool_specs, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
