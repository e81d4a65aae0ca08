//! [`Sandbox`]: a temp root and, beside it (outside the root), a state directory, with the
//! binary run against both.

use std::fs;
use std::path::PathBuf;

use super::cli::{hashline, Run};

/// A temp root and state directory for one test.
pub struct Sandbox {
    _tmp: tempfile::TempDir,
    /// The root (`--root`).
    pub root: PathBuf,
    /// The state directory (`--state`), outside the root.
    pub state: PathBuf,
}

impl Sandbox {
    /// A fresh, empty root and a state directory not yet created.
    pub fn new() -> Sandbox {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path().join("root");
        let state = tmp.path().join("state");
        fs::create_dir_all(&root).expect("create root");
        Sandbox {
            _tmp: tmp,
            root,
            state,
        }
    }

    /// `hashline --root ROOT --state STATE ARGS…` with `stdin`.
    pub fn run(&self, args: &[&str], stdin: &[u8]) -> Run {
        hashline(&self.root, &self.state, args, stdin)
    }

    /// Write `bytes` at `rel` below the root (a plain write, not through hashline).
    pub fn put(&self, rel: &str, bytes: &[u8]) {
        let file = self.root.join(rel);
        if let Some(parent) = file.parent() {
            fs::create_dir_all(parent).expect("create parent");
        }
        fs::write(file, bytes).expect("write file");
    }
}
