//! Candidate files of a call: explicit files, directory walks and globs under the workspace root.
//!
//! Walks have ripgrep's defaults: they honour `.gitignore` (also outside a git repository),
//! `.ignore` and git excludes and skip hidden files and directories, unless [`Walk`] says
//! otherwise (`--no-ignore`, `--hidden`). They never follow symlinks, always skip `.git`, and
//! skip `node_modules` unless the glob text names it (as the seed does). An explicitly named
//! file is always a candidate, hidden, ignored or not, and so is the directory a walk starts
//! from. Results are deduplicated and sorted by display path.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};
use ignore::WalkBuilder;

use crate::error::AstError;

/// One file to consider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// Root-relative path with `/` separators.
    pub display: String,
    /// Canonical absolute path.
    pub abs: PathBuf,
    /// Named directly by the request (not found by a walk).
    pub explicit: bool,
    /// Another name of a file an earlier candidate names (a hard link: same device and
    /// inode): that candidate's display path. Such a candidate is not previewed, only noted,
    /// since one call may write a file through one name only.
    pub same_file: Option<String>,
}

/// Which files a directory walk skips besides `.git` and `node_modules`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Walk {
    /// Visit hidden files and directories too.
    pub hidden: bool,
    /// Ignore `.gitignore`, `.ignore` and git excludes.
    pub no_ignore: bool,
}

/// The sorted, deduplicated candidates of `paths` under the canonicalized `root`.
pub(crate) fn collect(
    root: &Path,
    paths: &[String],
    glob: Option<&str>,
    how: Walk,
    exclude: &[PathBuf],
) -> Result<Vec<Candidate>, AstError> {
    if paths.is_empty() {
        return Err(AstError::NoPaths);
    }
    let root = root.canonicalize().map_err(|source| AstError::Io {
        path: root.to_path_buf(),
        source,
    })?;
    let extra = glob.map(compile_glob).transpose()?;
    let extra_names_modules = glob.is_some_and(|g| g.contains("node_modules"));
    let mut found: BTreeMap<String, Candidate> = BTreeMap::new();
    let mut add = |abs: PathBuf, explicit: bool| {
        let display = display_path(&root, &abs);
        found
            .entry(display.clone())
            .and_modify(|c| c.explicit |= explicit)
            .or_insert(Candidate {
                display,
                abs,
                explicit,
                same_file: None,
            });
    };
    for (index, raw) in paths.iter().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(AstError::EmptyPath { index });
        }
        if let Some((base, pattern)) = split_glob(raw) {
            let base_abs = resolve(&root, raw, base)?;
            refuse_excluded(&base_abs, raw, exclude)?;
            if !base_abs.is_dir() {
                return Err(AstError::PathNotFound {
                    path: raw.to_string(),
                });
            }
            let matcher = compile_glob(pattern)?;
            let modules = raw.contains("node_modules");
            for file in walk(&base_abs, Some(&matcher), modules, how, exclude) {
                add(file, false);
            }
            continue;
        }
        let abs = resolve(&root, raw, raw)?;
        refuse_excluded(&abs, raw, exclude)?;
        if abs.is_file() {
            add(abs, true);
        } else if abs.is_dir() {
            for file in walk(&abs, extra.as_ref(), extra_names_modules, how, exclude) {
                add(file, false);
            }
        } else {
            return Err(AstError::PathNotFound {
                path: raw.to_string(),
            });
        }
    }
    Ok(same_files(found.into_values().collect()))
}

/// `candidates` (in walk order) with every later name of one file (device and inode) marked
/// as the first one's [`Candidate::same_file`].
#[cfg(not(unix))]
fn same_files(candidates: Vec<Candidate>) -> Vec<Candidate> {
    candidates
}

/// `candidates` (in walk order) with every later name of one file (device and inode) marked
/// as the first one's [`Candidate::same_file`].
#[cfg(unix)]
fn same_files(mut candidates: Vec<Candidate>) -> Vec<Candidate> {
    use std::os::unix::fs::MetadataExt;
    let mut first: std::collections::HashMap<(u64, u64), String> = Default::default();
    for candidate in &mut candidates {
        let Ok(meta) = candidate.abs.metadata() else {
            continue;
        };
        if meta.nlink() < 2 {
            continue;
        }
        match first.entry((meta.dev(), meta.ino())) {
            std::collections::hash_map::Entry::Occupied(kept) => {
                candidate.same_file = Some(kept.get().clone());
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(candidate.display.clone());
            }
        }
    }
    candidates
}

/// A path in an excluded directory (the caller's state directory) is refused, not searched.
fn refuse_excluded(abs: &Path, shown: &str, exclude: &[PathBuf]) -> Result<(), AstError> {
    if exclude.iter().any(|dir| abs.starts_with(dir)) {
        return Err(AstError::InStateDir {
            path: shown.to_string(),
        });
    }
    Ok(())
}

pub(crate) fn compile_glob(glob: &str) -> Result<GlobMatcher, AstError> {
    GlobBuilder::new(glob)
        .literal_separator(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| AstError::BadGlob {
            glob: glob.to_string(),
            reason: e.kind().to_string(),
        })
}

/// `src/**/*.ts` → (`src`, `**/*.ts`); `*.ts` → (`.`, `*.ts`); `None` when `raw` has no glob
/// metacharacter.
pub(crate) fn split_glob(raw: &str) -> Option<(&str, &str)> {
    let first_meta = raw.find(['*', '?', '[', '{'])?;
    match raw[..first_meta].rfind('/') {
        Some(0) => Some(("/", &raw[1..])),
        Some(slash) => Some((&raw[..slash], &raw[slash + 1..])),
        None => Some((".", raw)),
    }
}

/// `path` (relative to `root` or absolute) canonicalized; it must exist and stay inside `root`.
fn resolve(root: &Path, shown: &str, path: &str) -> Result<PathBuf, AstError> {
    let joined = root.join(path);
    let abs = joined.canonicalize().map_err(|source| {
        if source.kind() == std::io::ErrorKind::NotFound {
            AstError::PathNotFound {
                path: shown.to_string(),
            }
        } else {
            AstError::Io {
                path: joined.clone(),
                source,
            }
        }
    })?;
    if !abs.starts_with(root) {
        return Err(AstError::OutsideRoot {
            path: shown.to_string(),
        });
    }
    Ok(abs)
}

/// Root-relative display path with `/` separators (the file name if `abs` is the root itself).
pub(crate) fn display_path(root: &Path, abs: &Path) -> String {
    let rel = abs.strip_prefix(root).unwrap_or(abs);
    let parts: Vec<String> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    if parts.is_empty() {
        abs.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    } else {
        parts.join("/")
    }
}

/// Regular files under `dir` (symlinks not followed), filtered by `matcher` on the path relative
/// to `dir`. Unreadable entries are skipped.
fn walk(
    dir: &Path,
    matcher: Option<&GlobMatcher>,
    allow_node_modules: bool,
    how: Walk,
    exclude: &[PathBuf],
) -> Vec<PathBuf> {
    let exclude = exclude.to_vec();
    let mut builder = WalkBuilder::new(dir);
    let honour_ignores = !how.no_ignore;
    builder
        .hidden(!how.hidden)
        .git_ignore(honour_ignores)
        .git_exclude(honour_ignores)
        .git_global(honour_ignores)
        .ignore(honour_ignores)
        .parents(honour_ignores)
        .require_git(false)
        .follow_links(false)
        .filter_entry(move |entry| {
            if entry.depth() == 0 || !entry.file_type().is_some_and(|t| t.is_dir()) {
                return true;
            }
            let name = entry.file_name();
            name != ".git"
                && (allow_node_modules || name != "node_modules")
                && !exclude.iter().any(|dir| entry.path().starts_with(dir))
        });
    let mut out = Vec::new();
    for entry in builder.build().flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.path();
        if let Some(m) = matcher {
            let rel = path.strip_prefix(dir).unwrap_or(path);
            if !m.is_match(rel) {
                continue;
            }
        }
        out.push(path.to_path_buf());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for (p, body) in [
            ("a.ts", "a"),
            ("src/b.ts", "b"),
            ("src/deep/c.tsx", "c"),
            ("src/ignored.ts", "x"),
            (".hidden/h.ts", "h"),
            ("node_modules/m/index.ts", "m"),
            (".git/config.ts", "g"),
            (".gitignore", "src/ignored.ts\n"),
        ] {
            let path = root.join(p);
            fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            fs::write(path, body).expect("write");
        }
        dir
    }

    fn names(paths: &[&str], glob: Option<&str>, root: &Path) -> Vec<String> {
        names_with(paths, glob, root, Walk::default())
    }

    fn names_with(paths: &[&str], glob: Option<&str>, root: &Path, how: Walk) -> Vec<String> {
        let owned: Vec<String> = paths.iter().map(|s| s.to_string()).collect();
        collect(root, &owned, glob, how, &[])
            .expect("collect")
            .into_iter()
            .map(|c| c.display)
            .collect()
    }

    #[test]
    fn walk_honours_gitignore_hidden_and_node_modules() {
        let dir = tree();
        assert_eq!(
            names(&["."], None, dir.path()),
            ["a.ts", "src/b.ts", "src/deep/c.tsx"]
        );
        let hidden = Walk {
            hidden: true,
            ..Walk::default()
        };
        assert_eq!(
            names_with(&["."], None, dir.path(), hidden),
            [
                ".gitignore",
                ".hidden/h.ts",
                "a.ts",
                "src/b.ts",
                "src/deep/c.tsx"
            ]
        );
        let no_ignore = Walk {
            no_ignore: true,
            ..Walk::default()
        };
        assert_eq!(
            names_with(&["."], None, dir.path(), no_ignore),
            ["a.ts", "src/b.ts", "src/deep/c.tsx", "src/ignored.ts"]
        );
        // A hidden directory named as the start of a walk is walked.
        assert_eq!(names(&[".hidden"], None, dir.path()), [".hidden/h.ts"]);
    }

    #[test]
    fn globs_in_paths_and_glob_filter() {
        let dir = tree();
        assert_eq!(names(&["*.ts"], None, dir.path()), ["a.ts"]);
        assert_eq!(
            names(&["src/**/*.ts*"], None, dir.path()),
            ["src/b.ts", "src/deep/c.tsx"]
        );
        assert_eq!(names(&["src"], Some("*.ts"), dir.path()), ["src/b.ts"]);
        assert_eq!(
            names(&["**/node_modules/**/*.ts"], None, dir.path()),
            ["node_modules/m/index.ts"]
        );
    }

    #[test]
    fn explicit_files_win_over_ignores_and_dedupe() {
        let dir = tree();
        assert_eq!(
            names(
                &["src/ignored.ts", "./src/ignored.ts", "src/b.ts"],
                None,
                dir.path()
            ),
            ["src/b.ts", "src/ignored.ts"]
        );
    }

    #[test]
    fn refusals() {
        let dir = tree();
        let root = dir.path();
        let err =
            |p: &str| collect(root, &[p.to_string()], None, Walk::default(), &[]).expect_err(p);
        assert!(matches!(err("missing.ts"), AstError::PathNotFound { .. }));
        assert!(matches!(err("  "), AstError::EmptyPath { index: 0 }));
        assert!(matches!(err(".."), AstError::OutsideRoot { .. }));
        assert!(matches!(err("src/[.ts"), AstError::BadGlob { .. }));
        assert!(matches!(
            collect(root, &[], None, Walk::default(), &[]),
            Err(AstError::NoPaths)
        ));
    }

    #[test]
    fn split_glob_finds_the_static_base() {
        assert_eq!(split_glob("src/**/*.ts"), Some(("src", "**/*.ts")));
        assert_eq!(split_glob("*.ts"), Some((".", "*.ts")));
        assert_eq!(split_glob("/abs/*.ts"), Some(("/abs", "*.ts")));
        assert_eq!(split_glob("src/a.ts"), None);
    }
}
