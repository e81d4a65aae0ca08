//! [`SourceTree`]: where [`preview_in`](crate::preview_in) finds and reads its files when they
//! are not in a directory on disk (an embedder's in-memory or remote tree).

use std::collections::BTreeMap;
use std::path::PathBuf;

use globset::GlobMatcher;

use crate::error::AstError;
use crate::files::{compile_glob, split_glob, Candidate, Walk};

/// What a name is in a [`SourceTree`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// A file.
    File,
    /// A directory.
    Directory,
}

/// A tree of files that is not (or not only) a directory on disk. Names are `/`-separated
/// and relative to the tree's root (`""` is the root).
///
/// A directory walk visits every file but hidden ones (unless
/// [`RewriteRequest::hidden`](crate::RewriteRequest::hidden)) and skips `.git` and
/// `node_modules`, as on disk; ignore files (`.gitignore`, `.ignore`) are only read in a
/// directory on disk.
pub trait SourceTree: Sync {
    /// `path` as the tree names it (its canonical form), or `None` when it leaves the tree.
    fn canonical(&self, path: &str) -> Option<String>;
    /// What the canonical `name` is; `None` when nothing is there.
    fn kind(&self, name: &str) -> Option<SourceKind>;
    /// The entries of directory `name`: each child's name and whether it is a directory.
    fn children(&self, name: &str) -> Vec<(String, bool)>;
    /// The bytes of file `name`.
    fn read(&self, name: &str) -> std::io::Result<Vec<u8>>;
}

/// The sorted, deduplicated candidates of `paths` in `tree` (the counterpart of
/// `files::collect` for a directory on disk): files, directories (walked) and globs.
pub(crate) fn collect_in(
    tree: &dyn SourceTree,
    paths: &[String],
    glob: Option<&str>,
    how: Walk,
) -> Result<Vec<Candidate>, AstError> {
    if paths.is_empty() {
        return Err(AstError::NoPaths);
    }
    let extra = glob.map(compile_glob).transpose()?;
    let extra_names_modules = glob.is_some_and(|g| g.contains("node_modules"));
    let mut found: BTreeMap<String, Candidate> = BTreeMap::new();
    let mut add = |name: String, explicit: bool| {
        found
            .entry(name.clone())
            .and_modify(|c| c.explicit |= explicit)
            .or_insert(Candidate {
                abs: PathBuf::from(&name),
                display: name,
                explicit,
                same_file: None,
            });
    };
    let canonical = |shown: &str, path: &str| {
        tree.canonical(path).ok_or_else(|| AstError::OutsideRoot {
            path: shown.to_owned(),
        })
    };
    for (index, raw) in paths.iter().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(AstError::EmptyPath { index });
        }
        let not_found = || AstError::PathNotFound {
            path: raw.to_owned(),
        };
        if let Some((base, pattern)) = split_glob(raw) {
            let base = canonical(raw, base)?;
            if tree.kind(&base) != Some(SourceKind::Directory) {
                return Err(not_found());
            }
            let matcher = compile_glob(pattern)?;
            let walk = Walker {
                tree,
                matcher: Some(&matcher),
                node_modules: raw.contains("node_modules"),
                how,
            };
            for name in walk.files(&base) {
                add(name, false);
            }
            continue;
        }
        let name = canonical(raw, raw)?;
        match tree.kind(&name) {
            Some(SourceKind::File) => add(name, true),
            Some(SourceKind::Directory) => {
                let walk = Walker {
                    tree,
                    matcher: extra.as_ref(),
                    node_modules: extra_names_modules,
                    how,
                };
                for name in walk.files(&name) {
                    add(name, false);
                }
            }
            None => return Err(not_found()),
        }
    }
    Ok(found.into_values().collect())
}

/// A walk of a [`SourceTree`] directory.
struct Walker<'a> {
    tree: &'a dyn SourceTree,
    matcher: Option<&'a GlobMatcher>,
    node_modules: bool,
    how: Walk,
}

impl Walker<'_> {
    /// Every file under `dir` the walk keeps, filtered by the matcher on the path relative to
    /// `dir`.
    fn files(&self, dir: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![dir.to_owned()];
        while let Some(current) = stack.pop() {
            for (name, is_dir) in self.tree.children(&current) {
                if !self.how.hidden && name.starts_with('.') {
                    continue;
                }
                let full = join(&current, &name);
                if is_dir {
                    if name != ".git" && (self.node_modules || name != "node_modules") {
                        stack.push(full);
                    }
                    continue;
                }
                let rel = full
                    .strip_prefix(dir)
                    .map(|r| r.trim_start_matches('/'))
                    .unwrap_or(&full);
                if self.matcher.is_none_or(|m| m.is_match(rel)) {
                    out.push(full);
                }
            }
        }
        out
    }
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_owned()
    } else {
        format!("{}/{name}", dir.trim_end_matches('/'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files in a map; directories implied by the files under them.
    struct Map(BTreeMap<String, Vec<u8>>);

    impl SourceTree for Map {
        fn canonical(&self, path: &str) -> Option<String> {
            hashline_core::name::normalize_path(path.trim_start_matches('/'))
        }
        fn kind(&self, name: &str) -> Option<SourceKind> {
            if self.0.contains_key(name) {
                Some(SourceKind::File)
            } else if name.is_empty() || self.0.keys().any(|k| k.starts_with(&format!("{name}/"))) {
                Some(SourceKind::Directory)
            } else {
                None
            }
        }
        fn children(&self, name: &str) -> Vec<(String, bool)> {
            let prefix = if name.is_empty() {
                String::new()
            } else {
                format!("{name}/")
            };
            let mut out: Vec<(String, bool)> = Vec::new();
            for key in self.0.keys().filter(|k| k.starts_with(&prefix)) {
                let rest = &key[prefix.len()..];
                let (child, nested) = match rest.split_once('/') {
                    Some((child, _)) => (child, true),
                    None => (rest, false),
                };
                if out.last().is_none_or(|(last, _)| last != child) {
                    out.push((child.to_owned(), nested));
                }
            }
            out
        }
        fn read(&self, name: &str) -> std::io::Result<Vec<u8>> {
            self.0
                .get(name)
                .cloned()
                .ok_or_else(|| std::io::ErrorKind::NotFound.into())
        }
    }

    fn tree() -> Map {
        Map([
            "a.ts",
            "src/b.ts",
            "src/deep/c.tsx",
            ".hidden/h.ts",
            "node_modules/m/i.ts",
        ]
        .iter()
        .map(|k| (k.to_string(), b"x\n".to_vec()))
        .collect())
    }

    fn names(paths: &[&str], how: Walk) -> Result<Vec<String>, AstError> {
        let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
        collect_in(&tree(), &paths, None, how).map(|c| c.into_iter().map(|c| c.display).collect())
    }

    #[test]
    fn walks_skip_hidden_and_node_modules_and_globs_filter() {
        let all = names(&["."], Walk::default()).expect("walk");
        assert_eq!(all, ["a.ts", "src/b.ts", "src/deep/c.tsx"]);
        let hidden = Walk {
            hidden: true,
            ..Walk::default()
        };
        let with = names(&["."], hidden).expect("walk");
        assert_eq!(with, [".hidden/h.ts", "a.ts", "src/b.ts", "src/deep/c.tsx"]);
        let globbed = names(&["src/**/*.tsx"], Walk::default()).expect("glob");
        assert_eq!(globbed, ["src/deep/c.tsx"]);
        let named = names(&["./src/../a.ts"], Walk::default()).expect("file");
        assert_eq!(named, ["a.ts"]);
    }

    #[test]
    fn missing_and_outside_names_are_refused() {
        assert!(matches!(
            names(&["nope.ts"], Walk::default()),
            Err(AstError::PathNotFound { .. })
        ));
        assert!(matches!(
            names(&["../x.ts"], Walk::default()),
            Err(AstError::OutsideRoot { .. })
        ));
        assert!(matches!(
            names(&[], Walk::default()),
            Err(AstError::NoPaths)
        ));
    }
}
