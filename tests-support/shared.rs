//! The data of `../shared`, beside the clone: conformance corpora, golden vectors, model
//! mistakes. A public clone has no such folder, so a test that needs it says
//! `skipped: <test>: ../shared/<rel> is missing (…)` on the terminal and passes; when `CI` is
//! set it fails instead (`.ci/run` requires `../shared`). Every test that reads `../shared`
//! includes this one file (`#[path = …] mod shared;`), so the decision is made here only.
//!
//! `HASHLINE_TEST_SHARED=DIR` reads the data from `DIR` instead (an empty or missing folder
//! simulates a public clone).
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// The `../shared` folder beside the workspace (every crate sits at `crates/<name>`).
pub fn root() -> PathBuf {
    match std::env::var_os("HASHLINE_TEST_SHARED").filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// `../shared/<rel>` when it exists. Otherwise the calling test is skipped: it says so on the
/// terminal and gets `None`; with `CI` set it panics, as CI must run every suite.
pub fn path(rel: &str) -> Option<PathBuf> {
    let path = root().join(rel);
    if path.exists() {
        return Some(path);
    }
    let why = "the project's conformance data sits in ../shared beside its own clone; \
               a public clone skips the tests that need it";
    if std::env::var_os("CI").is_some() {
        panic!(
            "../shared/{rel} is missing at {}: CI requires it",
            path.display()
        );
    }
    let test = std::thread::current().name().unwrap_or("a test").to_owned();
    // Written past the test harness's capture, so `cargo test` shows it.
    let _ = writeln!(
        std::io::stderr().lock(),
        "skipped: {test}: ../shared/{rel} is missing ({why})"
    );
    None
}
