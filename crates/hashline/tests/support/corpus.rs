//! The conformance corpus in `../shared/conformance`, beside the repository.

use std::fs;
use std::path::{Path, PathBuf};

/// `../shared/conformance/<dialect>`.
pub fn corpus(dialect: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/conformance")
        .join(dialect)
}

/// The sub-folders of `dir`, sorted; a missing `dir` panics with how to get the corpus.
pub fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| {
            panic!(
                "conformance folder {} missing ({e}); clone ../shared beside the repo",
                dir.display()
            )
        })
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// `../shared/mistakes`: the model-mistake corpus.
pub fn mistakes() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/mistakes")
}
