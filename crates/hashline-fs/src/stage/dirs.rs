//! The directory handles of one commit, at most [`OPEN_DIRS`] open at a time, so a commit's
//! file descriptors do not grow with the number of directories it writes into.
//!
//! A handle is first opened by the staging walk (`beneath::open_parent`). When more directories
//! are open than the bound, the oldest handle nobody is using is closed; a later step that
//! needs it opens the directory again from the root, component by component without following
//! symlinks, and accepts it only if it is the same directory (device and inode) as the first
//! time: a directory renamed away and replaced while the commit ran is refused as changed,
//! never written through.

use std::collections::{HashMap, VecDeque};
use std::ffi::OsString;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use super::super::beneath::{self, Dir, Parent};
use super::super::{FsError, Target};

/// How many directory handles a commit keeps open at most (a few more while several threads
/// fsync at once).
pub(super) const OPEN_DIRS: usize = 64;

/// The directories of one commit's targets.
pub(super) struct Dirs<'r> {
    root: &'r Path,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// The handles open now, by the directory's path.
    open: HashMap<PathBuf, Arc<OwnedFd>>,
    /// Their paths, oldest first (the order handles are closed in).
    order: VecDeque<PathBuf>,
    /// Device and inode of every directory as first opened.
    ids: HashMap<PathBuf, (u64, u64)>,
}

impl<'r> Dirs<'r> {
    /// No directory opened yet, under `root`.
    pub(super) fn new(root: &'r Path) -> Self {
        Dirs {
            root,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// Takes in a directory the staging walk just opened for `target`: the handle of that
    /// path already open when there is one (the new one closes), else this one. Its identity
    /// is the one later reopenings must match.
    pub(super) fn adopt(&self, dir: Dir, target: &Target) -> Result<Dir, FsError> {
        let mut inner = self.lock();
        if let Some(fd) = inner.open.get(&dir.path) {
            return Ok(Dir {
                fd: Arc::clone(fd),
                path: dir.path,
            });
        }
        let id = identity(&dir.fd, target)?;
        match inner.ids.get(&dir.path) {
            Some(&first) if first != id => {
                return Err(FsError::Changed {
                    path: target.display.clone(),
                })
            }
            Some(_) => {}
            None => {
                inner.ids.insert(dir.path.clone(), id);
            }
        }
        inner.insert(dir.path.clone(), Arc::clone(&dir.fd));
        Ok(dir)
    }

    /// The root every directory is opened under.
    pub(super) fn root(&self) -> &'r Path {
        self.root
    }

    /// The handle of `target`'s directory (named `dir`): the open one, or the directory opened
    /// again from the root and checked to be the one first opened.
    pub(super) fn fd(&self, dir: &Path, target: &Target) -> Result<Arc<OwnedFd>, FsError> {
        let mut inner = self.lock();
        if let Some(fd) = inner.open.get(dir) {
            return Ok(Arc::clone(fd));
        }
        let changed = || FsError::Changed {
            path: target.display.clone(),
        };
        let parent = beneath::open_parent(self.root, &target.real, &target.display, None)?
            .ok_or_else(changed)?;
        if parent.dir.path != dir || inner.ids.get(dir) != Some(&identity(&parent.dir.fd, target)?)
        {
            return Err(changed());
        }
        inner.insert(dir.to_path_buf(), Arc::clone(&parent.dir.fd));
        Ok(parent.dir.fd)
    }

    /// `target`'s directory handle with the file's `name` in it.
    pub(super) fn parent(
        &self,
        dir: &Path,
        name: &OsString,
        target: &Target,
    ) -> Result<Parent, FsError> {
        Ok(Parent {
            dir: Dir {
                fd: self.fd(dir, target)?,
                path: dir.to_path_buf(),
            },
            name: name.clone(),
        })
    }

    /// How many handles are open now.
    #[cfg(test)]
    pub(super) fn open_count(&self) -> usize {
        self.lock().open.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // The map stays consistent whatever a panicking holder did (each change is one insert
        // or remove), so a poisoned lock is still usable.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Inner {
    /// Keeps `fd` open for `path`, closing the oldest handles nobody else holds while more than
    /// [`OPEN_DIRS`] are open.
    fn insert(&mut self, path: PathBuf, fd: Arc<OwnedFd>) {
        self.open.insert(path.clone(), fd);
        self.order.push_back(path);
        let mut busy = VecDeque::new();
        while self.open.len() > OPEN_DIRS {
            let Some(oldest) = self.order.pop_front() else {
                break;
            };
            match self.open.get(&oldest) {
                Some(fd) if Arc::strong_count(fd) > 1 => busy.push_back(oldest),
                Some(_) => {
                    self.open.remove(&oldest);
                }
                None => {}
            }
        }
        while let Some(path) = busy.pop_back() {
            self.order.push_front(path);
        }
    }
}

/// The device and inode of the directory `fd`.
fn identity(fd: &OwnedFd, target: &Target) -> Result<(u64, u64), FsError> {
    let st = rustix::fs::fstat(fd).map_err(|e| FsError::io(&target.display, e.into()))?;
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
    Ok((st.st_dev as u64, st.st_ino as u64))
}

#[cfg(test)]
mod tests {
    use super::super::tests::target;
    use super::*;

    /// Walks to `rel`'s directory and hands it to `dirs`, as staging does.
    fn adopt(dirs: &Dirs<'_>, root: &Path, rel: &str) -> PathBuf {
        let t = target(root, rel);
        let walked = beneath::open_parent(root, &t.real, rel, None)
            .expect("walk")
            .expect("directory exists");
        dirs.adopt(walked.dir, &t).expect("adopt").path
    }

    fn tree(dirs: usize) -> tempfile::TempDir {
        let tmp = tempfile::tempdir().expect("tempdir");
        for k in 0..dirs {
            std::fs::create_dir(tmp.path().join(format!("d{k}"))).expect("mkdir");
        }
        tmp
    }

    #[test]
    fn at_most_the_bound_stays_open_and_a_closed_one_opens_again() {
        let tmp = tree(200);
        let root = std::fs::canonicalize(tmp.path()).expect("canonical root");
        let dirs = Dirs::new(&root);
        for k in 0..200 {
            adopt(&dirs, &root, &format!("d{k}/f"));
            assert!(dirs.open_count() <= OPEN_DIRS);
        }
        // d0 was closed long ago: it opens again, and is the directory first opened.
        let t = target(&root, "d0/f");
        let fd = dirs.fd(&root.join("d0"), &t).expect("reopened");
        let st = rustix::fs::fstat(&*fd).expect("fstat");
        let first = std::fs::metadata(root.join("d0")).expect("stat");
        assert_eq!(
            st.st_ino as u64,
            std::os::unix::fs::MetadataExt::ino(&first)
        );
        assert!(dirs.open_count() <= OPEN_DIRS);
    }

    #[test]
    fn a_directory_replaced_while_closed_is_refused_as_changed() {
        let tmp = tree(OPEN_DIRS + 1);
        let root = std::fs::canonicalize(tmp.path()).expect("canonical root");
        let dirs = Dirs::new(&root);
        for k in 0..=OPEN_DIRS {
            adopt(&dirs, &root, &format!("d{k}/f"));
        }
        // d0 is closed now; someone moves it away and puts another directory in its place.
        std::fs::rename(root.join("d0"), root.join("moved")).expect("rename");
        std::fs::create_dir(root.join("d0")).expect("mkdir");
        let t = target(&root, "d0/f");
        match dirs.fd(&root.join("d0"), &t) {
            Err(FsError::Changed { path }) => assert_eq!(path, "d0/f"),
            other => panic!("expected Changed, got {other:?}"),
        }
        // And a walk of staging that meets the new one is refused the same way.
        let walked = beneath::open_parent(&root, &t.real, "d0/f", None)
            .expect("walk")
            .expect("exists");
        assert!(matches!(
            dirs.adopt(walked.dir, &t),
            Err(FsError::Changed { .. })
        ));
    }
}
