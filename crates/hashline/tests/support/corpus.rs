//! The conformance corpus in `../shared/conformance`, beside the repository.

use std::fs;
use std::path::{Path, PathBuf};

/// `../shared/conformance/<dialect>`, or `None` when `../shared` is missing (the calling test
/// is skipped and says so; with `CI` set it fails).
pub fn corpus(dialect: &str) -> Option<PathBuf> {
    super::shared::path(&format!("conformance/{dialect}"))
}

/// The sub-folders of `dir`, sorted; an unreadable `dir` panics.
pub fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("conformance folder {} unreadable ({e})", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// `../shared/mistakes`, the model-mistake corpus, or `None` (the calling test is skipped).
pub fn mistakes() -> Option<PathBuf> {
    super::shared::path("mistakes")
}

/// Applies a recorded case's `manifest.json` entries to the tree at `base`: empty directories
/// (git drops them) are made and every file's and directory's octal mode is set.
pub fn apply_manifest(base: &Path, entries: &serde_json::Value) {
    use std::os::unix::fs::PermissionsExt;
    for e in entries.as_array().into_iter().flatten() {
        let Some(path) = e["path"].as_str() else {
            continue;
        };
        if e["type"] == "dir" {
            fs::create_dir_all(base.join(path)).expect("empty dir");
        }
        if let (Some(mode), "file" | "dir") = (e["mode"].as_str(), e["type"].as_str().unwrap_or(""))
        {
            let mode = u32::from_str_radix(mode, 8).expect("octal mode");
            let _ = fs::set_permissions(base.join(path), fs::Permissions::from_mode(mode));
        }
    }
}

/// Every file beside a case's root: the sandbox minus `root/` and `state/`.
pub fn beside_root(sandbox: &Path) -> std::collections::BTreeMap<String, super::tree::Entry> {
    super::tree::snapshot(sandbox)
        .into_iter()
        .filter(|(p, _)| !p.starts_with("root/") && !p.starts_with("state/"))
        .collect()
}

/// A case's trees (the root, the files beside it) against the wanted ones: `Err` lists the
/// differences, prefixed by `what`.
pub fn same_trees(
    want: (&super::tree::Tree, &super::tree::Tree),
    got: (&super::tree::Tree, &super::tree::Tree),
    what: &str,
) -> Result<(), String> {
    let diff = super::tree::diff_trees(want.0, got.0) + &super::tree::diff_trees(want.1, got.1);
    if diff.is_empty() {
        Ok(())
    } else {
        Err(format!("{what}:\n{diff}"))
    }
}
