//! The harness of the hash-json conformance run through the binary: folders of the corpus, a
//! sandbox per run, and the outcome of one CLI call.

use std::fs;
use std::path::{Path, PathBuf};

use hashline_apply::fs::Workspace;
use hashline_core::ErrorCode;
use hashline_state::{SnapshotStore, SqliteStore};
use serde_json::Value;

use crate::support::cli::Run;

/// The hash-json corpus.
pub fn corpus() -> Option<PathBuf> {
    crate::support::corpus::corpus("hash-json")
}

pub use crate::support::corpus::subdirs;

/// The last component of `dir`.
pub fn name_of(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A corpus file as text.
pub fn text_of(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{} unreadable: {e}", path.display()))
}

/// `Err(why())` unless `ok`.
pub fn check(ok: bool, why: impl FnOnce() -> String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(why())
    }
}

pub use crate::support::sandbox::Sandbox;

impl Sandbox {
    /// What the session `default` recorded for `rel`.
    pub fn recorded(&self, rel: &str) -> Option<String> {
        let key = Workspace::new(&self.root)
            .expect("workspace")
            .resolve(rel)
            .expect("inside root")
            .key;
        let store = SqliteStore::open(&self.state, "default").expect("open state");
        store.head(&key).expect("store").map(|s| s.text)
    }
}

/// `{ok, code, text, warnings}` of one `--json` run, or of a plain run (code unknown).
pub struct Seen {
    /// `ok` (plain mode: exit 0).
    pub ok: bool,
    /// The refusal's code (`--json` only).
    pub code: Option<ErrorCode>,
    /// The model-facing text.
    pub text: String,
    /// The warnings list (`--json` only).
    pub warnings: Vec<String>,
    /// The exit code.
    pub exit: i32,
}

impl Seen {
    /// A `--json` run.
    pub fn from_json(run: &Run) -> Result<Seen, String> {
        let v: Value = serde_json::from_str(&run.stdout).map_err(|e| {
            format!(
                "not JSON ({e}), exit {}: {}{}",
                run.code, run.stdout, run.stderr
            )
        })?;
        Ok(Seen {
            ok: v["ok"].as_bool().unwrap_or(false),
            code: serde_json::from_value(v["code"].clone()).ok(),
            text: v["text"].as_str().unwrap_or_default().to_owned(),
            warnings: v["warnings"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|w| w.as_str().map(str::to_owned))
                .collect(),
            exit: run.code,
        })
    }

    /// A plain-mode run: stdout is the text plus at most one newline.
    pub fn from_plain(run: &Run) -> Seen {
        let text = run.stdout.strip_suffix('\n').unwrap_or(&run.stdout);
        Seen {
            ok: run.code == 0,
            code: None,
            text: text.to_owned(),
            warnings: Vec::new(),
            exit: run.code,
        }
    }

    /// Applied, exit 0, `response` exactly, every listed warning inside the text.
    pub fn expect_applied(&self, response: &str) -> Result<(), String> {
        check(self.ok && self.exit == 0, || {
            format!("refused (exit {}): {}", self.exit, self.text)
        })?;
        check(self.text == response, || {
            format!("response\n{}\nwant\n{response}", self.text)
        })?;
        for w in &self.warnings {
            check(self.text.contains(w.as_str()), || {
                format!("warning {w:?} is not in the text")
            })?;
        }
        Ok(())
    }

    /// Refused, exit 1, `code` (when known) and `message` exactly.
    pub fn expect_refused(&self, code: ErrorCode, message: &str) -> Result<(), String> {
        check(!self.ok && self.exit == 1, || {
            format!("exit {}, want a refusal: {}", self.exit, self.text)
        })?;
        if let Some(got) = self.code {
            check(got == code, || {
                format!("code {got}, want {code}: {}", self.text)
            })?;
        }
        check(self.text == message, || {
            format!("message\n{}\nwant\n{message}", self.text)
        })
    }
}
