//! Symlinks named by a request: a deletion removes the link itself, never the file it points
//! to ([`Workspace::link`], [`Workspace::remove_links`]).
//!
//! A request path is resolved through every symlink (an edit of `link` edits the file behind
//! it), but a deletion of `link` means the link: the directories on its way are resolved and
//! confined as for any path, the last name is not followed. The removal is one `unlinkat`
//! through the parent's directory handle (opened without following symlinks), after checking
//! the name is still a symlink; a call removes only links (the executor refuses a deletion of a
//! link beside other changes, `E_SYMLINK`), so it is all or nothing without a journal: a
//! failure puts back the links already removed. It is not recorded for undo (the log's
//! marker makes `undo` refuse rather than skip it).

use std::ffi::CString;
use std::path::Path;

use rustix::fs::AtFlags;
use rustix::io::Errno;

use super::beneath::{self, Parent};
use super::disk::Written;
use super::resolve::Confinement;
use super::workspace::{Target, Workspace};
use super::FsError;

impl Workspace {
    /// The symlink `path` names itself, when its last name is one: its directories resolved
    /// and confined like any path's, the last name not followed (`None`: not a symlink, or a
    /// path whose last name is `.`, `..` or empty).
    pub fn link(&self, path: &str) -> Result<Option<Target>, FsError> {
        let given = Path::new(path);
        let Some(name) = given.file_name() else {
            return Ok(None);
        };
        if path.rsplit('/').next() != name.to_str() {
            return Ok(None); // `a/.`, `a/`: not a name of its own
        }
        let parent = given.parent().and_then(Path::to_str).unwrap_or("");
        let dir = if parent.is_empty() {
            self.root().to_path_buf()
        } else {
            Confinement {
                root: self.root(),
                alias: self.alias(),
            }
            .resolve(parent)?
        };
        let real = dir.join(name);
        let is_link = std::fs::symlink_metadata(&real).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link || real == self.root() || !real.starts_with(self.root()) {
            return Ok(None);
        }
        if self.in_state_dir(&real) {
            return Err(FsError::InStateDir {
                path: path.to_owned(),
            });
        }
        Ok(Some(Target {
            display: path.to_owned(),
            key: real.to_string_lossy().into_owned(),
            real,
        }))
    }

    /// Removes every symlink of `links` (targets from [`Workspace::link`]), all or nothing:
    /// each must still be a symlink ([`FsError::Changed`] otherwise). The files they point to
    /// are untouched. Not recorded for undo: with an undo log, the returned [`Written`] says
    /// so and `undo` refuses to skip the call.
    pub fn remove_links(&self, links: &[&Target]) -> Result<Written, FsError> {
        let mut removed: Vec<(Parent, CString)> = Vec::with_capacity(links.len());
        for link in links {
            match remove_one(self.root(), link) {
                Ok(done) => removed.push(done),
                Err(e) => {
                    for (parent, text) in removed.iter().rev() {
                        let _ = rustix::fs::symlinkat(
                            text.as_c_str(),
                            &parent.dir.fd,
                            parent.name.as_os_str(),
                        );
                    }
                    return Err(e);
                }
            }
        }
        Ok(match &self.undo {
            Some(log) => {
                log.mark_unrecorded(self.root());
                Written::unrecorded()
            }
            None => Written::default(),
        })
    }
}

/// Removes the symlink `link`; returns its parent and what it pointed to (to put it back).
fn remove_one(root: &Path, link: &Target) -> Result<(Parent, CString), FsError> {
    let parent = beneath::open_parent(root, &link.real, &link.display, None)?.ok_or_else(|| {
        FsError::NotFound {
            path: link.display.clone(),
        }
    })?;
    let name = parent.name.as_os_str();
    let changed = || FsError::Changed {
        path: link.display.clone(),
    };
    let text = match rustix::fs::readlinkat(&parent.dir.fd, name, Vec::new()) {
        Ok(text) => text,
        Err(Errno::INVAL | Errno::NOENT) => return Err(changed()),
        Err(e) => return Err(FsError::io(&link.display, e.into())),
    };
    rustix::fs::unlinkat(&parent.dir.fd, name, AtFlags::empty())
        .map_err(|e| FsError::io(&link.display, e.into()))?;
    Ok((parent, text))
}
