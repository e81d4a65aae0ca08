//! The MCP end-to-end scenario through the Python `mcp` package from PyPI
//! (`tests/mcp_python/client.py`): the same agent session as `tests/it/mcp_node.rs` (the
//! TypeScript SDK) — tools/list, every structured result checked against its tool's
//! outputSchema (JSON Schema 2020-12, `jsonschema`), no reply naming a command line, every
//! dialect's edit showing fresh anchors, the fixes replies propose accepted, an ast_edit over
//! 3,000 files within 64 KiB and paged, one abandoned through the SDK (`notifications/cancelled`)
//! queueing nothing, a fenced patch, undo, refusals and every malformed message answered.
//!
//! The packages live in a virtual environment outside the repository (`$HASHLINE_PY_VENV`,
//! default `$HOME/.cache/hashline-py`), created and filled with `python3 -m pip install mcp
//! jsonschema` when needed. When that cannot be done (no `python3`, no network) the test says so
//! on the terminal and passes: it is skipped visibly, never silently.

use crate::support;

use std::path::Path;
use std::process::Command;

use support::python::{python_with, skip, venv_dir};

#[test]
fn python_mcp_client_scenario() {
    let venv = venv_dir("HASHLINE_PY_VENV", "hashline-py");
    let python = match python_with(&venv, "mcp, jsonschema", &["mcp", "jsonschema"]) {
        Ok(python) => python,
        Err(reason) => return skip("mcp_python", "the Python `mcp` package", &reason),
    };
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    support::agent::tree(root.path());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_python/client.py");
    let mut command = Command::new(&python);
    command
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_hashline"))
        .arg(root.path())
        .arg(state.path())
        .arg("mcp-python");
    support::agent::run_session(command, "Python");
}
