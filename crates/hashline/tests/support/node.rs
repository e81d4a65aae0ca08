//! npm packages for the tests that drive a JavaScript client: a folder outside the repository
//! (`$HASHLINE_NODE_DIR`, default `$HOME/.cache/hashline-node`) holding the test's
//! `package.json` and `package-lock.json`, installed with `npm ci` when the lock changed. When
//! that cannot be done (no `node` or `npm`, no network) the test is skipped: it says
//! `skipped: <test>: …` on the terminal and passes, and with `CI` set it fails instead, as
//! `tests-support/shared.rs` does for `../shared`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::python::run;

/// The install folder named by `$HASHLINE_NODE_DIR`, else `$HOME/.cache/hashline-node`.
pub fn modules_dir() -> PathBuf {
    super::python::venv_dir("HASHLINE_NODE_DIR", "hashline-node")
}

/// `dir` with `node_modules` installed from `spec` (a folder with `package.json` and
/// `package-lock.json`): `npm ci` runs when the lock differs from the one last installed there.
/// `Err` says why it could not be done.
pub fn install(spec: &Path, dir: &Path) -> Result<(), String> {
    run(Path::new("node"), &["--version"], Duration::from_secs(60))?;
    let lock = std::fs::read(spec.join("package-lock.json")).map_err(|e| e.to_string())?;
    let stamp = dir.join("node_modules/.hashline-installed-lock");
    if std::fs::read(&stamp).is_ok_and(|installed| installed == lock) {
        return Ok(());
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for file in ["package.json", "package-lock.json"] {
        std::fs::copy(spec.join(file), dir.join(file)).map_err(|e| format!("{file}: {e}"))?;
    }
    let prefix = dir.to_string_lossy().into_owned();
    let args = [
        "ci",
        "--prefix",
        &prefix,
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
    ];
    run(Path::new("npm"), &args, Duration::from_secs(600))?;
    std::fs::write(&stamp, &lock).map_err(|e| format!("{}: {e}", stamp.display()))
}

/// Say on the terminal (past the test harness's capture) that `test` is skipped because
/// `what` is not available; with `CI` set, fail instead.
pub fn skip(test: &str, what: &str, reason: &str) {
    if std::env::var_os("CI").is_some() {
        panic!("{test}: {what} is not available ({reason}): CI requires it");
    }
    let _ = writeln!(
        std::io::stderr().lock(),
        "skipped: {test}: {what} is not available ({reason})"
    );
}
