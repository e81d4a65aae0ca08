//! `view` of a directory: its entries two levels deep, hidden ones excluded and counted, as the
//! oracle lists them — read through the file system, never through a shell (DEVIATIONS §24: the
//! oracle builds an unquoted `find` command, so a name like `d$(touch x)` runs `touch`).

use std::path::{Path, PathBuf};

use super::texts::{clip, DIR_CLIPPED};
use crate::Disk;

/// The listing of directory `dir` of `disk`, shown as `shown` (`.` for the root).
pub(crate) fn list(disk: &dyn Disk, dir: &Path, shown: &str) -> String {
    let children = |dir: &Path| -> Vec<(String, PathBuf, bool)> {
        let entries = disk.children(dir).into_iter();
        entries.map(|(n, d)| (n.clone(), dir.join(n), d)).collect()
    };
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
        // A name that would print like another (NFD, zero-width characters) or hold a control
        // character is shown escaped (`cafe\u{301}.txt`), as every printed name is.
        let path = hashline_core::name::display(&path);
        lines.push(if is_dir {
            format!("{path}/")
        } else {
            path.into_owned()
        });
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
