//! Directory handles under the root: every read and write of the fs layer goes through them.
//!
//! [`super::Workspace::resolve`] works on names, so a directory of the tree swapped for a symlink
//! after it ran would be followed by a plain `open(path)`. Here a target's parent directory is
//! opened from the root one component at a time with `openat(O_DIRECTORY | O_NOFOLLOW)`
//! (rustix): a component that is now a symlink fails (`ELOOP`/`ENOTDIR`) and the call is refused
//! with [`FsError::Swapped`], never followed. The file itself is opened, created, renamed and
//! removed relative to that handle (`openat`, `renameat`, `unlinkat` with `O_NOFOLLOW`), so
//! once a handle is open, later swaps of its path cannot redirect a write.
//!
//! Special files are refused before they are opened ([`FsError::NotRegular`]: an `lstat`
//! through the handle first, then `open(O_NONBLOCK | O_NOFOLLOW)` and an `fstat` that must show
//! the same regular file), and every read is bounded ([`max_file_bytes`]).

use std::ffi::OsString;
use std::fs::File;
use std::io::{ErrorKind, Read};
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use rustix::fs::{AtFlags, Mode, OFlags, CWD};
use rustix::io::Errno;

use super::FsError;

/// The default read cap: 1 GiB (the engine edits 100 MB generated files; a file this large
/// already costs a few times its size in memory).
pub const DEFAULT_MAX_FILE_BYTES: u64 = 1 << 30;

/// The environment variable that overrides the read cap (bytes).
pub const MAX_FILE_BYTES_ENV: &str = "HASHLINE_MAX_FILE_BYTES";

/// The largest file any command reads: `HASHLINE_MAX_FILE_BYTES` if set to a number, else
/// [`DEFAULT_MAX_FILE_BYTES`].
pub fn max_file_bytes() -> u64 {
    std::env::var(MAX_FILE_BYTES_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(DEFAULT_MAX_FILE_BYTES)
}

/// A directory opened under the root without following symlinks, with its on-disk path (for
/// messages and journals).
#[derive(Debug)]
pub(super) struct Dir {
    /// The open directory (shared by every target of a commit in it: [`Dir::share`]).
    pub(super) fd: Arc<OwnedFd>,
    /// Its absolute path as resolved.
    pub(super) path: PathBuf,
}

/// A target's parent directory handle and the file's name in it.
#[derive(Debug)]
pub(super) struct Parent {
    /// The directory.
    pub(super) dir: Dir,
    /// The file's name inside it.
    pub(super) name: OsString,
}

/// Maps an `openat` error on a directory component to a refusal.
fn component_error(display: &str, dir: &Dir, name: &OsString, errno: Errno) -> FsError {
    let swapped = errno == Errno::LOOP
        || (errno == Errno::NOTDIR
            && rustix::fs::statat(&dir.fd, name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW).is_ok_and(
                |st| {
                    rustix::fs::FileType::from_raw_mode(st.st_mode) == rustix::fs::FileType::Symlink
                },
            ));
    if swapped {
        FsError::Swapped {
            path: display.to_owned(),
        }
    } else if errno == Errno::NOTDIR {
        FsError::io(
            display,
            std::io::Error::new(
                ErrorKind::NotADirectory,
                format!("{} is not a directory", dir.path.join(name).display()),
            ),
        )
    } else {
        FsError::io(display, errno.into())
    }
}

const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

/// Opens the root directory (a canonical path: following its own ancestors is fine).
pub(super) fn open_root(root: &Path) -> Result<Dir, FsError> {
    let fd = rustix::fs::openat(CWD, root, DIR_FLAGS, Mode::empty())
        .map_err(|e| FsError::io(root.display(), e.into()))?;
    Ok(Dir {
        fd: Arc::new(fd),
        path: root.to_path_buf(),
    })
}

/// The components of `real` below `root` (`None` if `real` is not strictly under it, or holds
/// `..`/`.` after resolution, which a resolved target never does).
fn relative_names(root: &Path, real: &Path) -> Option<Vec<OsString>> {
    let rest = real.strip_prefix(root).ok()?;
    let mut names = Vec::new();
    for component in rest.components() {
        match component {
            Component::Normal(name) => names.push(name.to_owned()),
            _ => return None,
        }
    }
    Some(names)
}

/// Opens the parent of `real` (under `root`) component by component without following
/// symlinks. A missing component gives `Ok(None)` unless `created` is given, in which case it
/// is made (`mkdirat`, mode 0o777 minus the umask) and recorded, outermost first.
pub(super) fn open_parent(
    root: &Path,
    real: &Path,
    display: &str,
    mut created: Option<&mut Vec<PathBuf>>,
) -> Result<Option<Parent>, FsError> {
    let mut names = relative_names(root, real).ok_or_else(|| FsError::OutsideRoot {
        path: display.to_owned(),
    })?;
    let name = names.pop().ok_or_else(|| FsError::IsDirectory {
        path: display.to_owned(),
    })?;
    let mut dir = open_root(root)?;
    for component in names {
        let opened = rustix::fs::openat(&dir.fd, component.as_os_str(), DIR_FLAGS, Mode::empty());
        let fd = match opened {
            Ok(fd) => fd,
            Err(Errno::NOENT) => match created.as_deref_mut() {
                None => return Ok(None),
                Some(made) => {
                    match rustix::fs::mkdirat(&dir.fd, component.as_os_str(), Mode::from(0o777)) {
                        Ok(()) => made.push(dir.path.join(&component)),
                        Err(Errno::EXIST) => {}
                        Err(e) => return Err(FsError::io(display, e.into())),
                    }
                    rustix::fs::openat(&dir.fd, component.as_os_str(), DIR_FLAGS, Mode::empty())
                        .map_err(|e| component_error(display, &dir, &component, e))?
                }
            },
            Err(e) => return Err(component_error(display, &dir, &component, e)),
        };
        dir = Dir {
            fd: Arc::new(fd),
            path: dir.path.join(&component),
        };
    }
    Ok(Some(Parent { dir, name }))
}

/// An open regular file and its metadata (from the open handle).
pub(super) struct Opened {
    /// The file.
    pub(super) file: File,
    /// Its metadata.
    pub(super) meta: std::fs::Metadata,
}

/// Opens `name` in `parent` for reading: `Ok(None)` if it does not exist, refused if it is a
/// symlink (swapped in), a directory or not a regular file — checked by `lstat` before the
/// open (so a FIFO or device is never opened) and by `fstat` after it (same inode).
pub(super) fn open_regular(parent: &Parent, display: &str) -> Result<Option<Opened>, FsError> {
    let name = parent.name.as_os_str();
    let before = match rustix::fs::statat(&parent.dir.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => st,
        Err(Errno::NOENT) => return Ok(None),
        Err(e) => return Err(FsError::io(display, e.into())),
    };
    check_kind(rustix::fs::FileType::from_raw_mode(before.st_mode), display)?;
    let flags =
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
    let fd = match rustix::fs::openat(&parent.dir.fd, name, flags, Mode::empty()) {
        Ok(fd) => fd,
        Err(Errno::NOENT) => return Ok(None),
        Err(Errno::LOOP) => {
            return Err(FsError::Swapped {
                path: display.to_owned(),
            })
        }
        Err(e) => return Err(FsError::io(display, e.into())),
    };
    let file = File::from(fd);
    let meta = file.metadata().map_err(|e| FsError::io(display, e))?;
    if meta.is_dir() {
        return Err(FsError::IsDirectory {
            path: display.to_owned(),
        });
    }
    if !meta.is_file() || meta.ino() != before.st_ino || meta.dev() != before.st_dev {
        return Err(FsError::NotRegular {
            path: display.to_owned(),
        });
    }
    Ok(Some(Opened { file, meta }))
}

/// Refuses anything but a regular file (directories with their own error).
fn check_kind(kind: rustix::fs::FileType, display: &str) -> Result<(), FsError> {
    use rustix::fs::FileType;
    match kind {
        FileType::RegularFile => Ok(()),
        FileType::Directory => Err(FsError::IsDirectory {
            path: display.to_owned(),
        }),
        FileType::Symlink => Err(FsError::Swapped {
            path: display.to_owned(),
        }),
        _ => Err(FsError::NotRegular {
            path: display.to_owned(),
        }),
    }
}

/// Reads an opened regular file whole, refusing one larger than [`max_file_bytes`] (also when
/// it grows past the cap while being read).
pub(super) fn read_bounded(opened: &mut Opened, display: &str) -> Result<Vec<u8>, FsError> {
    let cap = max_file_bytes();
    let too_large = || FsError::TooLarge {
        path: display.to_owned(),
        limit: cap,
    };
    if opened.meta.len() > cap {
        return Err(too_large());
    }
    let bytes = read_whole(&mut opened.file, opened.meta.len(), cap)
        .map_err(|e| FsError::io(display, e))?;
    if bytes.len() as u64 > cap {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Files from this size on are read by two threads at once, a half each: copying the bytes
/// and faulting in the fresh pages they land in is most of a big read (100 MB: 48 → 31 ms).
const PARALLEL_READ_BYTES: u64 = 8 << 20;

/// `file` read whole from its start (at most `cap + 1` bytes), `len` being the size its
/// `fstat` gave. From [`PARALLEL_READ_BYTES`] on, the two halves of `len` are read at once
/// (`pread`); a file that grew meanwhile is read on to its end, one that shrank is read again
/// from its start, so the bytes are what a plain read would have returned.
fn read_whole(file: &mut File, len: u64, cap: u64) -> std::io::Result<Vec<u8>> {
    read_whole_from(file, len, cap, PARALLEL_READ_BYTES)
}

/// [`read_whole`] in halves from `parallel` bytes on (the tests' small files take that path).
fn read_whole_from(file: &mut File, len: u64, cap: u64, parallel: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Seek, SeekFrom};
    use std::os::unix::fs::FileExt;
    let sequential = |file: &mut File, mut bytes: Vec<u8>| -> std::io::Result<Vec<u8>> {
        let start = bytes.len() as u64;
        file.seek(SeekFrom::Start(start))?;
        file.take(cap.saturating_add(1).saturating_sub(start))
            .read_to_end(&mut bytes)?;
        Ok(bytes)
    };
    let size = usize::try_from(len).unwrap_or(0);
    if len < parallel || len > cap {
        return sequential(file, Vec::with_capacity(size));
    }
    // Zeroed pages are mapped lazily: the reads fault them in, on two cores.
    let mut bytes = vec![0u8; size];
    let half = size / 2;
    let shared: &File = file;
    let (head, tail) = bytes.split_at_mut(half);
    let halves = hashline_core::par::both(
        || shared.read_exact_at(head, 0),
        || shared.read_exact_at(tail, half as u64),
    );
    match halves {
        (Ok(()), Ok(())) => sequential(file, bytes),
        // Shorter than its `fstat` said (truncated meanwhile), or a half failed: again, plainly.
        (Err(e), _) | (_, Err(e)) if e.kind() != ErrorKind::UnexpectedEof => Err(e),
        _ => sequential(file, Vec::with_capacity(size)),
    }
}

/// Reads the regular file at `real` (under `root`) through directory handles: `None` when it
/// (or a directory on its way) does not exist.
pub(super) fn read(
    root: &Path,
    real: &Path,
    display: &str,
) -> Result<Option<(Vec<u8>, std::fs::Metadata)>, FsError> {
    let Some(parent) = open_parent(root, real, display, None)? else {
        return Ok(None);
    };
    let Some(mut opened) = open_regular(&parent, display)? else {
        return Ok(None);
    };
    let bytes = read_bounded(&mut opened, display)?;
    Ok(Some((bytes, opened.meta)))
}

/// Whether the regular file at `real` (under `root`, through directory handles) holds exactly
/// `expected`, compared piece by piece as it is read (its content is never held whole), with its
/// metadata; `None` when it (or a directory on its way) does not exist. A file larger than
/// [`max_file_bytes`] is refused as [`read`] refuses it.
pub(super) fn holds(
    root: &Path,
    real: &Path,
    display: &str,
    expected: &[u8],
) -> Result<Option<(bool, std::fs::Metadata)>, FsError> {
    let Some(parent) = open_parent(root, real, display, None)? else {
        return Ok(None);
    };
    let Some(mut opened) = open_regular(&parent, display)? else {
        return Ok(None);
    };
    let cap = max_file_bytes();
    if opened.meta.len() > cap {
        return Err(FsError::TooLarge {
            path: display.to_owned(),
            limit: cap,
        });
    }
    if opened.meta.len() != expected.len() as u64 {
        return Ok(Some((false, opened.meta)));
    }
    let mut buf = vec![0u8; 256 << 10];
    let mut at = 0usize;
    loop {
        let n = match opened.file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(FsError::io(display, e)),
        };
        // A file that grew while being read differs.
        if expected.get(at..at + n) != Some(&buf[..n]) {
            return Ok(Some((false, opened.meta)));
        }
        at += n;
    }
    Ok(Some((at == expected.len(), opened.meta)))
}

/// A file name as bytes (for temp-name matching).
pub(super) fn name_bytes(name: &OsString) -> &[u8] {
    name.as_os_str().as_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `len` bytes that differ from place to place.
    fn file_of(len: usize) -> (tempfile::NamedTempFile, Vec<u8>) {
        let bytes: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
        let mut file = tempfile::NamedTempFile::new().expect("temp file");
        std::io::Write::write_all(&mut file, &bytes).expect("write");
        (file, bytes)
    }

    #[test]
    fn a_big_file_read_in_halves_is_the_file() {
        let len = PARALLEL_READ_BYTES as usize + 12_345;
        let (file, bytes) = file_of(len);
        let mut handle = File::open(file.path()).expect("open");
        assert_eq!(
            read_whole(&mut handle, len as u64, u64::MAX).expect("read"),
            bytes
        );
    }

    #[test]
    fn a_file_that_grew_or_shrank_since_its_stat_is_read_as_it_is() {
        let len = PARALLEL_READ_BYTES as usize + 999;
        let (file, bytes) = file_of(len);
        // Grown: the stat said less; the rest is read on.
        let mut handle = File::open(file.path()).expect("open");
        let grown = read_whole(&mut handle, PARALLEL_READ_BYTES, u64::MAX).expect("read");
        assert_eq!(grown, bytes);
        // Shrunk: the stat said more; the halves hit the end and the file is read plainly.
        let mut handle = File::open(file.path()).expect("open");
        let shrunk = read_whole(&mut handle, len as u64 + 4096, u64::MAX).expect("read");
        assert_eq!(shrunk, bytes);
        // Past the cap, at most one byte more than the cap is read (the caller refuses it).
        let mut handle = File::open(file.path()).expect("open");
        let capped =
            read_whole(&mut handle, PARALLEL_READ_BYTES, PARALLEL_READ_BYTES + 10).expect("read");
        assert_eq!(capped.len() as u64, PARALLEL_READ_BYTES + 11);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Whatever size the file's `stat` claimed (the file grew or shrank since) and whatever
        /// the cap, a read in halves returns what a plain read would: the file's bytes, cut
        /// one past the cap.
        #[test]
        fn a_read_in_halves_is_a_plain_read(
            file_len in 0usize..5_000,
            stat_len in 0u64..6_000,
            cap in 0u64..6_000,
        ) {
            let (file, bytes) = file_of(file_len);
            let mut handle = File::open(file.path()).expect("open");
            let got = read_whole_from(&mut handle, stat_len, cap, 16).expect("read");
            let plain = (cap as usize).saturating_add(1).min(bytes.len());
            proptest::prop_assert_eq!(&got[..], &bytes[..plain]);
        }
    }
}
