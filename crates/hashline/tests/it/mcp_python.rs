//! The MCP end-to-end scenario through the Python `mcp` package from PyPI
//! (`tests/mcp_python/client.py`), in a virtual environment outside the repository
//! (`$HASHLINE_PY_VENV`, default `$HOME/.cache/hashline-py`), created and filled with
//! `python3 -m pip install mcp` when needed. When that cannot be done (no `python3`, no network)
//! the test says so on the terminal and passes: it is skipped visibly, never silently.

use crate::support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::python::{python_with, skip, venv_dir};

const A: &str = "function greet(name) {\n  console.log(name);\n}\n";

#[test]
fn python_mcp_client_scenario() {
    let venv = venv_dir("HASHLINE_PY_VENV", "hashline-py");
    let python = match python_with(&venv, "mcp", &["mcp"]) {
        Ok(python) => python,
        Err(reason) => return skip("mcp_python", "the Python `mcp` package", &reason),
    };
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    std::fs::write(root.path().join("a.js"), A).expect("a.js");
    std::fs::write(root.path().join("b.txt"), "one\ntwo\nthree\n").expect("b.txt");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_python/client.py");
    let mut child = Command::new(&python)
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_hashline"))
        .arg(root.path())
        .arg(state.path())
        .arg("mcp-python")
        .env_remove("HASHLINE_SESSION")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the Python client");
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the Python MCP client did not finish within 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "Python client failed:\n{stdout}\n{stderr}"
    );
    for step in [
        "list_tools ok",
        "read ok",
        "edit ok",
        "stale edit refused ok",
        "ast_edit + resolve ok",
        "refusals ok",
    ] {
        assert!(stdout.contains(step), "missing step `{step}`:\n{stdout}");
    }
}
