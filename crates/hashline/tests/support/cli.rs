//! Running the real `hashline` binary from tests.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// What one CLI call printed and returned.
#[derive(Debug)]
pub struct Run {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Exit code.
    pub code: i32,
}

impl Run {
    /// Standard output parsed as the `--json` object.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.stdout))
    }
}

/// Run `hashline --root ROOT --state STATE ARGS…` with `stdin`.
pub fn hashline(root: &Path, state: &Path, args: &[&str], stdin: &[u8]) -> Run {
    hashline_env(root, state, args, stdin, &[])
}

/// [`hashline`] with environment variables set (`HASHLINE_SESSION` and the state bounds are
/// removed first, so the caller's environment does not leak in).
pub fn hashline_env(
    root: &Path,
    state: &Path,
    args: &[&str],
    stdin: &[u8],
    env: &[(&str, &str)],
) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hashline"))
        .arg("--root")
        .arg(root)
        .arg("--state")
        .arg(state)
        .args(args)
        .env_remove("HASHLINE_SESSION")
        .env_remove("HASHLINE_STATE_MAX_AGE")
        .env_remove("HASHLINE_STATE_MAX_BYTES")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hashline");
    if let Some(mut pipe) = child.stdin.take() {
        // A call that does not read its input may exit before it is written.
        if let Err(e) = pipe.write_all(stdin) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
        }
    }
    let out = child.wait_with_output().expect("wait for hashline");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// `ast-edit` rewriting `void 0` to `undefined` in JavaScript: the rewrite the memory, scale
/// and name tests preview (the paths follow).
pub const VOID_0: [&str; 7] = [
    "ast-edit",
    "--pat",
    "void 0",
    "--out",
    "undefined",
    "--lang",
    "js",
];
