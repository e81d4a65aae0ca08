//! `view` of a directory: its entries two levels deep, hidden ones excluded and counted, as the
//! oracle lists them — read through the file system, never through a shell (DEVIATIONS §24: the
//! oracle builds an unquoted `find` command, so a name like `d$(touch x)` runs `touch`).

use std::path::Path;

use super::texts::{clip, DIR_CLIPPED};

/// The listing of directory `dir`, shown as `shown` (`.` for the root).
pub(crate) fn list(dir: &Path, shown: &str) -> String {
    let prefix = if shown == "." {
        String::new()
    } else {
        format!("{shown}/")
    };
    let mut entries: Vec<(String, bool)> = Vec::new();
    let mut hidden = 0;
    for (name, path, is_dir) in children(dir) {
        if name.starts_with('.') {
            hidden += 1;
            continue;
        }
        let shown_child = format!("{prefix}{name}");
        if is_dir {
            for (sub, _, sub_dir) in children(&path) {
                if !sub.starts_with('.') {
                    entries.push((format!("{shown_child}/{sub}"), sub_dir));
                }
            }
        }
        entries.push((shown_child, is_dir));
    }
    // `sort` in the C.UTF-8 locale: byte order of the whole line.
    entries.sort();
    let mut lines = vec![format!("{shown}/")];
    for (path, is_dir) in entries {
        lines.push(if is_dir { format!("{path}/") } else { path });
    }
    let listing = clip(&lines.join("\n"), DIR_CLIPPED);
    let mut out = format!(
        "Here's the files and directories up to 2 levels deep in {shown}, excluding hidden items:\n{listing}"
    );
    if hidden > 0 {
        out.push_str(&format!(
            "\n\n{hidden} hidden files/directories in this directory are excluded. You can use 'ls -la {shown}' to see them."
        ));
    }
    out
}

/// The entries of `dir`: name, path, and whether it is a directory (symlinks followed, as
/// `find -L` does). Unreadable directories list nothing.
fn children(dir: &Path) -> Vec<(String, std::path::PathBuf, bool)> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    read.flatten()
        .map(|e| {
            let path = e.path();
            let is_dir = std::fs::metadata(&path).is_ok_and(|m| m.is_dir());
            (e.file_name().to_string_lossy().into_owned(), path, is_dir)
        })
        .collect()
}
