//! A state database that is not a database (random bytes, a file written over it): moved
//! aside, so the session goes on with a fresh one instead of every command failing.
//!
//! Only a file whose first bytes are not SQLite's header is moved: a real database that
//! cannot be opened for another reason (locked, unreadable, a newer schema) is left alone and
//! the failure reported. The check is made again right before the rename, so a process that
//! saw the garbage never moves a fresh database another process made in its place.

use std::io::Read;
use std::path::{Path, PathBuf};

/// The first 16 bytes of every SQLite 3 database file.
const HEADER: &[u8; 16] = b"SQLite format 3\0";

/// Whether the file at `path` exists, holds bytes, and does not start with SQLite's header.
fn is_garbage(path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::with_capacity(HEADER.len());
    if file
        .take(HEADER.len() as u64)
        .read_to_end(&mut head)
        .is_err()
    {
        return false;
    }
    !head.is_empty() && head.as_slice() != HEADER
}

/// Moves the database at `db_path` (with its `-wal` and `-shm` files) to
/// `<name>.corrupt-<unix seconds>` when it is not a database; the new path, or `None` when it
/// was left (it is a database, or could not be moved).
pub(super) fn move_aside(db_path: &Path) -> Option<PathBuf> {
    if !is_garbage(db_path) {
        return None;
    }
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let suffix = format!(".corrupt-{secs}");
    let aside = with_suffix(db_path, &suffix);
    std::fs::rename(db_path, &aside).ok()?;
    for side in ["-wal", "-shm"] {
        let from = with_suffix(db_path, side);
        if from.exists() {
            let _ = std::fs::rename(&from, with_suffix(&from, &suffix));
        }
    }
    Some(aside)
}

/// `path` with `suffix` appended to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_file_that_is_no_database_moves() {
        let dir = tempfile::tempdir().expect("dir");
        let db = dir.path().join("state.sqlite3");
        assert_eq!(move_aside(&db), None, "missing");
        std::fs::write(&db, b"").expect("empty");
        assert_eq!(move_aside(&db), None, "empty: a new database");
        std::fs::write(&db, b"SQLite format 3\0 and the rest").expect("header");
        assert_eq!(move_aside(&db), None, "a database");
        std::fs::write(&db, b"SQLite").expect("short");
        assert!(move_aside(&db).is_some(), "a short file");
        std::fs::write(&db, b"\x8f random bytes, no header at all").expect("garbage");
        std::fs::write(with_suffix(&db, "-wal"), b"wal").expect("wal");
        let aside = move_aside(&db).expect("moved");
        assert!(!db.exists());
        assert!(aside.to_string_lossy().contains(".corrupt-"));
        assert!(!with_suffix(&db, "-wal").exists());
    }
}
