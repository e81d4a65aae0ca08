//! The file-system rule of `cargo xtask tidy`: library code reaches the disk only through
//! `hashline-fs` (its `Workspace`, `Transaction` and `Disk`), so confinement, locking,
//! journaling and atomic writes cannot be bypassed by accident. A use of `std::fs` anywhere
//! else in a crate's `src/` is a problem unless it is test code (a `#[cfg(test)]` module,
//! inline or in its own file), a comment, or one of the [`ALLOWED`] places, each with its
//! reason.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Places outside `hashline-fs` that may use `std::fs`, as path prefixes from the workspace
/// root, each with why.
pub const ALLOWED: &[(&str, &str)] = &[
    (
        "crates/hashline-state/src/sqlite/",
        "the state store's own database and blob files, inside the state directory",
    ),
    (
        "crates/hashline/src/cli/",
        "the CLI reads the patch file the user names and writes the man pages asked for",
    ),
    (
        "crates/hashline/src/state.rs",
        "`hashline state` reports the size of the state database",
    ),
    (
        "crates/hashline-ast/src/engine.rs",
        "ast-edit's preview reads the files of its walk (read only; writes go through Disk)",
    ),
];

/// Every use of `std::fs` in library code outside `hashline-fs` and [`ALLOWED`].
pub fn problems(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let Ok(crates) = std::fs::read_dir(root.join("crates")) else {
        return vec!["crates/: cannot be listed".to_string()];
    };
    for entry in crates.flatten() {
        if entry.file_name() == "hashline-fs" {
            continue;
        }
        collect(&entry.path().join("src"), &mut files);
    }
    files.sort();
    let test_only = test_modules(&files);
    let mut out = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(root).unwrap_or(file);
        let rel_text = rel.to_string_lossy().replace('\\', "/");
        if test_only.contains(file) || ALLOWED.iter().any(|(p, _)| rel_text.starts_with(p)) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        for (n, line) in library_lines(&text) {
            out.push(format!(
                "{rel_text}:{n}: std::fs outside hashline-fs (use its Workspace/Disk, or add the \
                 place to xtask/src/tidy_fs.rs ALLOWED with a reason): {}",
                line.trim()
            ));
        }
    }
    out
}

/// The lines of `text` before its first `#[cfg(test)]` that use `std::fs` in code (not in a
/// comment), numbered from 1.
fn library_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        let code = code.split("//").next().unwrap_or("");
        if code.contains("std::fs") {
            out.push((i + 1, line));
        }
    }
    out
}

/// Files that hold a module declared `#[cfg(test)] mod name;` (and everything under it).
pub(crate) fn test_modules(files: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut roots = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let mut after_cfg = false;
        for line in text.lines().map(str::trim) {
            if line.is_empty() {
                continue;
            }
            if after_cfg {
                if let Some(name) = line.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
                    let dir = module_dir(file);
                    roots.push(dir.join(format!("{name}.rs")));
                    roots.push(dir.join(name));
                }
            }
            after_cfg = line == "#[cfg(test)]";
        }
    }
    files
        .iter()
        .filter(|f| roots.iter().any(|r| f.starts_with(r)))
        .cloned()
        .collect()
}

/// The directory a file's child modules live in: its own for `lib.rs`, `main.rs` and
/// `mod.rs`, else a directory named after it.
fn module_dir(file: &Path) -> PathBuf {
    let parent = file.parent().unwrap_or(Path::new("."));
    match file.file_name().and_then(|n| n.to_str()) {
        Some("lib.rs" | "main.rs" | "mod.rs") => parent.to_path_buf(),
        _ => parent.join(file.file_stem().unwrap_or_default()),
    }
}

pub(crate) fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{library_lines, module_dir};
    use std::path::Path;

    #[test]
    fn code_before_the_test_module_counts_comments_do_not() {
        let text = "//! std::fs::write in a doc\nuse std::fs;\nlet x = 1; // std::fs\n#[cfg(test)]\nmod tests { use std::fs; }\n";
        assert_eq!(library_lines(text), [(2, "use std::fs;")]);
    }

    #[test]
    fn child_modules_live_beside_mod_rs_or_in_a_named_dir() {
        assert_eq!(module_dir(Path::new("a/src/lib.rs")), Path::new("a/src"));
        assert_eq!(
            module_dir(Path::new("a/src/merge.rs")),
            Path::new("a/src/merge")
        );
    }
}
