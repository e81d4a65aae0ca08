//! Path resolution confined to a root: `..` and symlink chains, one component at a time.
//!
//! The walk starts at the canonical root and never leaves it: a `..` at the root, or a symlink
//! whose target lies outside, refuses the whole path. Each component costs one `lstat` (plus a
//! `readlink` for a symlink); once a component is missing, the rest is appended as written, so a
//! path to a file that does not exist yet — or a dangling link — resolves to where it would be.

use std::ffi::OsString;
use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

use super::FsError;

/// Symlinks followed at most while resolving one path (Linux's `MAXSYMLINKS`).
pub(crate) const MAX_LINKS: usize = 40;

/// One pending step of the walk.
enum Step {
    Parent,
    Name(OsString),
}

/// The fixed inputs of a walk.
pub(crate) struct Confinement<'a> {
    /// The canonical root.
    pub(crate) root: &'a Path,
    /// The root as the caller spelled it (absolute), when that differs from `root`: absolute
    /// paths may use either spelling.
    pub(crate) alias: Option<&'a Path>,
}

impl Confinement<'_> {
    /// `path` relative to the root, if `path` (absolute) lies under it lexically.
    fn strip<'p>(&self, path: &'p Path) -> Option<&'p Path> {
        path.strip_prefix(self.root)
            .ok()
            .or_else(|| self.alias.and_then(|alias| path.strip_prefix(alias).ok()))
    }

    /// Resolves `input` (relative to the root, or absolute) to its final on-disk target.
    pub(crate) fn resolve(&self, input: &str) -> Result<PathBuf, FsError> {
        let outside = || FsError::OutsideRoot {
            path: input.to_owned(),
        };
        let given = Path::new(input);
        let relative = if given.has_root() || given.is_absolute() {
            self.strip(given).ok_or_else(outside)?
        } else {
            given
        };
        // Pending steps, next one last (so symlink targets can be pushed in front cheaply).
        let mut pending: Vec<Step> = Vec::new();
        push_steps(&mut pending, relative).ok_or_else(outside)?;

        let mut resolved = self.root.to_path_buf();
        let mut depth = 0usize; // components of `resolved` below the root
        let mut missing_from: Option<usize> = None; // depth of the first missing component
        let mut links = 0usize;
        while let Some(step) = pending.pop() {
            let name = match step {
                Step::Parent => {
                    if depth == 0 {
                        return Err(outside());
                    }
                    resolved.pop();
                    depth -= 1;
                    if missing_from.is_some_and(|m| depth < m) {
                        missing_from = None;
                    }
                    continue;
                }
                Step::Name(name) => name,
            };
            resolved.push(&name);
            depth += 1;
            if missing_from.is_some() {
                continue;
            }
            let meta = match std::fs::symlink_metadata(&resolved) {
                Ok(meta) => meta,
                Err(e) if e.kind() == ErrorKind::NotFound => {
                    missing_from = Some(depth);
                    continue;
                }
                // The component before this one was a file (it was looked at and is no
                // directory, no symlink): name it.
                Err(e) if e.kind() == ErrorKind::NotADirectory => {
                    return Err(self.under_file(input, &resolved));
                }
                Err(e) => return Err(FsError::io(input, e)),
            };
            if !meta.file_type().is_symlink() {
                continue;
            }
            links += 1;
            if links > MAX_LINKS {
                return Err(FsError::TooManyLinks {
                    path: input.to_owned(),
                });
            }
            let target = std::fs::read_link(&resolved).map_err(|e| FsError::io(input, e))?;
            resolved.pop();
            depth -= 1;
            let relative_target = if target.has_root() || target.is_absolute() {
                resolved = self.root.to_path_buf();
                depth = 0;
                self.strip(&target).ok_or_else(outside)?
            } else {
                &target
            };
            push_steps(&mut pending, relative_target).ok_or_else(outside)?;
        }
        Ok(resolved)
    }
}

impl Confinement<'_> {
    /// The refusal of `input`, whose walk reached `below` under a file.
    fn under_file(&self, input: &str, below: &Path) -> FsError {
        let file = below.parent().unwrap_or(below);
        FsError::UnderFile {
            path: input.to_owned(),
            file: file
                .strip_prefix(self.root)
                .unwrap_or(file)
                .display()
                .to_string(),
        }
    }
}

/// Pushes the components of the relative `path` so that its first component is popped next.
/// `None` when `path` carries a root or prefix (it is not relative after all).
fn push_steps(pending: &mut Vec<Step>, path: &Path) -> Option<()> {
    let start = pending.len();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => pending.push(Step::Parent),
            Component::Normal(name) => pending.push(Step::Name(name.to_owned())),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    pending[start..].reverse();
    Some(())
}
