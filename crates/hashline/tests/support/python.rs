//! Python packages from PyPI for the tests that drive a Python reference implementation: a
//! virtual environment outside the repository, created and filled with `pip` when needed. When
//! that cannot be done (no `python3`, no network) the test says so on the terminal and passes:
//! it is skipped visibly, never silently.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The virtual environment named by `$var`, else `$HOME/.cache/<default>`.
pub fn venv_dir(var: &str, default: &str) -> PathBuf {
    if let Some(dir) = std::env::var_os(var).filter(|v| !v.is_empty()) {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    home.join(".cache").join(default)
}

/// Run `program args…` to completion within `limit`; `Err` says why it did not succeed.
pub fn run(program: &Path, args: &[&str], limit: Duration) -> Result<(), String> {
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

/// The Python of `venv` once `import {modules}` works there, installing `packages` with `pip`
/// (creating the environment) when it does not.
pub fn python_with(venv: &Path, modules: &str, packages: &[&str]) -> Result<PathBuf, String> {
    let python = venv.join("bin/python");
    let import = format!("import {modules}");
    let has = |python: &Path| run(python, &["-c", &import], Duration::from_secs(60));
    if python.exists() && has(&python).is_ok() {
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
    let mut args = vec!["-m", "pip", "install", "--quiet"];
    args.extend_from_slice(packages);
    run(&python, &args, Duration::from_secs(300))?;
    has(&python)?;
    Ok(python)
}

/// Say on the terminal (past the test harness's capture) that `test` is skipped.
pub fn skip(test: &str, what: &str, reason: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "\nSKIPPED {test}: {what} is not available ({reason})");
}
