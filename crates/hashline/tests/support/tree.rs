//! Copying, describing and comparing small file trees (regular files, symlinks, hard links,
//! executable bits) for golden fixtures.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// One entry of a tree, as compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A regular file: its bytes and whether it is executable.
    File { bytes: Vec<u8>, exec: bool },
    /// A symlink and its target as written.
    Link(PathBuf),
}

/// A tree as compared: every file and symlink by relative path.
pub type Tree = BTreeMap<String, Entry>;

/// Every file and symlink below `root`, by relative path (directories implied).
pub fn snapshot(root: &Path) -> BTreeMap<String, Entry> {
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Entry>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = rd.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let rel = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            out.insert(rel, Entry::Link(fs::read_link(&path).unwrap_or_default()));
        } else if meta.is_dir() {
            walk(root, &path, out);
        } else {
            out.insert(
                rel,
                Entry::File {
                    bytes: fs::read(&path).unwrap_or_default(),
                    exec: is_exec(&meta),
                },
            );
        }
    }
}

#[cfg(unix)]
fn is_exec(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_exec(_: &fs::Metadata) -> bool {
    false
}

/// Groups of paths below `root` that are hard links of one inode (each group sorted, ≥ 2).
#[cfg(unix)]
pub fn hard_link_groups(root: &Path) -> Vec<Vec<String>> {
    use std::os::unix::fs::MetadataExt;
    let mut by_inode: BTreeMap<(u64, u64), Vec<String>> = BTreeMap::new();
    for (rel, entry) in snapshot(root) {
        if let Entry::File { .. } = entry {
            if let Ok(meta) = fs::symlink_metadata(root.join(&rel)) {
                if meta.nlink() > 1 {
                    by_inode
                        .entry((meta.dev(), meta.ino()))
                        .or_default()
                        .push(rel);
                }
            }
        }
    }
    by_inode.into_values().filter(|g| g.len() > 1).collect()
}

/// Copy `from` into `to` (files with permissions, symlinks as symlinks).
pub fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("create fixture root");
    for (rel, entry) in snapshot(from) {
        let dest = to.join(&rel);
        if let Some(parent) = dest.parent() {
            fs::create_dir_all(parent).expect("create fixture dir");
        }
        match entry {
            Entry::File { .. } => {
                fs::copy(from.join(&rel), &dest).expect("copy fixture file");
            }
            Entry::Link(target) => symlink(&target, &dest),
        }
    }
}

/// Write `tree` below `root`, replacing what was there.
pub fn write_tree(root: &Path, tree: &BTreeMap<String, Entry>) {
    let _ = fs::remove_dir_all(root);
    fs::create_dir_all(root).expect("create tree root");
    for (rel, entry) in tree {
        let dest = root.join(rel);
        if let Some(parent) = dest.parent() {
            fs::create_dir_all(parent).expect("create tree dir");
        }
        match entry {
            Entry::File { bytes, exec } => {
                fs::write(&dest, bytes).expect("write tree file");
                set_exec(&dest, *exec);
            }
            Entry::Link(target) => symlink(target, &dest),
        }
    }
}

#[cfg(unix)]
fn set_exec(path: &Path, exec: bool) {
    use std::os::unix::fs::PermissionsExt;
    if let Ok(meta) = fs::metadata(path) {
        let mut perms = meta.permissions();
        let mode = perms.mode();
        perms.set_mode(if exec { mode | 0o111 } else { mode & !0o111 });
        let _ = fs::set_permissions(path, perms);
    }
}

#[cfg(not(unix))]
fn set_exec(_: &Path, _: bool) {}

#[cfg(unix)]
pub fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("create symlink");
}

#[cfg(not(unix))]
pub fn symlink(_: &Path, _: &Path) {}

/// Human-readable differences between an expected and an actual tree ("" when equal).
pub fn diff_trees(expected: &BTreeMap<String, Entry>, actual: &BTreeMap<String, Entry>) -> String {
    let mut msg = String::new();
    for (path, want) in expected {
        match actual.get(path) {
            None => msg.push_str(&format!("  missing: {path}\n")),
            Some(got) if got != want => msg.push_str(&format!(
                "  differs: {path}: expected {}, got {}\n",
                show(want),
                show(got)
            )),
            Some(_) => {}
        }
    }
    for path in actual.keys().filter(|p| !expected.contains_key(*p)) {
        msg.push_str(&format!("  unexpected: {path}\n"));
    }
    msg
}

fn show(e: &Entry) -> String {
    match e {
        Entry::File { bytes, exec } => format!(
            "{:?}{}",
            String::from_utf8_lossy(bytes),
            if *exec { " (exec)" } else { "" }
        ),
        Entry::Link(t) => format!("symlink -> {}", t.display()),
    }
}
