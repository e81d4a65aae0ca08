//! The MCP end-to-end scenario through the Python `mcp` package from PyPI
//! (`tests/mcp_python/client.py`), in a virtual environment outside the repository
//! (`$HASHLINE_PY_VENV`, default `$HOME/.cache/hashline-py`), created and filled with
//! `python3 -m pip install mcp` when needed. When that cannot be done (no `python3`, no network)
//! the test says so on the terminal and passes: it is skipped visibly, never silently.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where the virtual environment lives.
fn venv_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("HASHLINE_PY_VENV").filter(|v| !v.is_empty()) {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    home.join(".cache/hashline-py")
}

/// Run `program args…` to completion within `limit`; `Err` says why it did not succeed.
fn run(program: &Path, args: &[&str], limit: Duration) -> Result<(), String> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let deadline = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => {
                let out = child.wait_with_output().map_err(|e| e.to_string())?;
                let stderr = String::from_utf8_lossy(&out.stderr);
                let last = stderr.lines().last().unwrap_or("").to_string();
                return Err(format!(
                    "{} {args:?} failed ({status}): {last}",
                    program.display()
                ));
            }
            Ok(None) if Instant::now() > deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{} {args:?} took over {limit:?}",
                    program.display()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// A Python with the `mcp` package, installing it when needed.
fn python_with_mcp() -> Result<PathBuf, String> {
    let venv = venv_dir();
    let python = venv.join("bin/python");
    let has_mcp = |python: &Path| run(python, &["-c", "import mcp"], Duration::from_secs(60));
    if python.exists() && has_mcp(&python).is_ok() {
        return Ok(python);
    }
    if !python.exists() {
        let venv_arg = venv.to_string_lossy().into_owned();
        run(
            Path::new("python3"),
            &["-m", "venv", &venv_arg],
            Duration::from_secs(120),
        )?;
    }
    run(
        &python,
        &["-m", "pip", "install", "--quiet", "mcp"],
        Duration::from_secs(300),
    )?;
    has_mcp(&python)?;
    Ok(python)
}

/// Say on the terminal (past the test harness's capture) that the test is skipped.
fn skip(reason: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "\nSKIPPED mcp_python: the Python `mcp` package is not available ({reason})"
    );
}

const A: &str = "function greet(name) {\n  console.log(name);\n}\n";

#[test]
fn python_mcp_client_scenario() {
    let python = match python_with_mcp() {
        Ok(python) => python,
        Err(reason) => return skip(&reason),
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
