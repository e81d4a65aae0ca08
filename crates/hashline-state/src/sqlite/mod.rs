//! [`SqliteStore`]: the snapshot store on SQLite, shared by every process of a session.
//!
//! One database file, `state.sqlite3`, inside the state directory. WAL mode lets readers and one
//! writer work at once; every call runs in one `BEGIN IMMEDIATE` transaction (a `busy_timeout`
//! waits for other processes), so concurrent CLI calls of one session see a consistent store.
//!
//! Opening is cheap once the database exists: open, set the busy timeout and
//! `synchronous = NORMAL`, read `PRAGMA user_version`. Schema work only happens the first time.
//!
//! Texts of 64 KiB and more live outside the database (schema 2): compressed, content-addressed
//! files under `<state>/blobs/` (see `blob.rs`), written once per distinct text, so recording a
//! large file again (a read of an unchanged file) writes one small row and never the text. A
//! text held as parts ([`Pieces`], an edited file's new text) is hashed and compressed from
//! its parts, never joined ([`SnapshotStore::record_pieces`]). Rows
//! of schema 1 (the text in the row, no digest) stay readable; opening a schema-1 database
//! migrates it in place.
//!
//! Other crates may keep their own tables in the same database through
//! [`SqliteStore::connection`]; such tables must be prefixed with the owning crate's short name
//! (`queue_…` for `hashline-queue`). This crate's tables are prefixed `state_`.

pub(crate) mod blob;
mod corrupt;
mod frame;
mod record;
mod schema;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_pieces;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use hashline_core::Pieces;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};

use crate::evicted;
use crate::{
    now_ms, Limits, Snapshot, SnapshotStore, StoreError, UndoEntry, MAX_PATHS, MAX_UNDO,
    MAX_VERSIONS,
};

/// The database file name inside the state directory.
pub const DB_FILE: &str = "state.sqlite3";
/// The schema version this build writes (`PRAGMA user_version`).
pub const SCHEMA_VERSION: i64 = schema::VERSION;
/// How long a recorded read of an unchanged file stands for a new one (milliseconds): within
/// it, reading the file again writes nothing.
const FRESH_MS: u64 = 10 * 60 * 1000;
/// How long a call waits for another process's write transaction.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The SQLite snapshot store of one session.
///
/// Versions are ordered by row id (a new or re-recorded version gets a fresh, larger id); path
/// recency by a per-session counter in `state_path.used`.
#[derive(Debug)]
pub struct SqliteStore {
    conn: Mutex<Connection>,
    session: String,
    limits: Limits,
    db_path: PathBuf,
    /// Where texts of [`blob::BLOB_MIN_BYTES`] and more are kept.
    blobs: PathBuf,
    /// Where a database that was not one was moved when the store opened.
    moved_aside: Option<PathBuf>,
}

impl SqliteStore {
    /// Opens (creating the directory and database if needed) the store of `session` in
    /// `state_dir`, with the seed's limits.
    pub fn open(state_dir: &Path, session: &str) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with_limits(state_dir, session, MAX_PATHS, MAX_VERSIONS)
    }

    /// Like [`SqliteStore::open`] with other bounds (each raised to at least 1). Processes
    /// sharing a session should use the same bounds: each call enforces its own.
    pub fn open_with_limits(
        state_dir: &Path,
        session: &str,
        max_paths: usize,
        max_versions: usize,
    ) -> Result<SqliteStore, StoreError> {
        let db_path = state_dir.join(DB_FILE);
        let backend = |message: String| StoreError::Backend {
            path: db_path.display().to_string(),
            message,
        };
        std::fs::create_dir_all(state_dir)
            .map_err(|e| backend(format!("cannot create the state directory: {e}")))?;
        let (conn, moved_aside) = match connect(&db_path) {
            Ok(conn) => (conn, None),
            Err(e) => match corrupt::move_aside(&db_path) {
                // Not a database at all: kept for a person, and a fresh one made.
                Some(aside) => (connect(&db_path).map_err(backend)?, Some(aside)),
                None => return Err(backend(e)),
            },
        };
        Ok(SqliteStore {
            conn: Mutex::new(conn),
            session: session.to_owned(),
            limits: Limits::new(max_paths, max_versions),
            db_path,
            blobs: blob::dir(state_dir),
            moved_aside,
        })
    }

    /// Where a state database that was not a database (random bytes, another file) was moved
    /// when this store opened, replaced by a fresh one (`None`: it opened as it was).
    pub fn moved_aside(&self) -> Option<&Path> {
        self.moved_aside.as_deref()
    }
}

/// Opens the database at `db_path` and makes sure of its schema.
fn connect(db_path: &Path) -> Result<Connection, String> {
    let backend = |e: rusqlite::Error| e.to_string();
    let mut conn = Connection::open(db_path).map_err(backend)?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(backend)?;
    // Per connection, no I/O: in WAL mode commits skip the fsync (a crash may lose the last
    // records of a cache, never corrupt it).
    conn.pragma_update(None, "synchronous", "NORMAL")
        .map_err(backend)?;
    // The last connection to close would checkpoint the WAL into the database and delete
    // it (four fsyncs and two unlinks: most of a small call's time). The WAL stays instead
    // and is checkpointed as it fills (every 1,000 pages), by whichever commit fills it.
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
        true,
    )
    .map_err(backend)?;
    schema::ensure(&mut conn)?;
    Ok(conn)
}

impl SqliteStore {
    /// The session this store reads and writes.
    pub fn session(&self) -> &str {
        &self.session
    }

    /// The database file.
    pub fn db_path(&self) -> &Path {
        &self.db_path
    }

    /// The shared connection, for crates that keep their own tables in the same database.
    /// Their table names must start with the crate's short name (`queue_…`); `state_…` is
    /// this crate's. Hold the guard briefly: every store call waits for it.
    pub fn connection(&self) -> MutexGuard<'_, Connection> {
        // A poisoned lock means a panic mid-call; SQLite rolled the open transaction back
        // when its guard dropped, so the connection is still consistent.
        self.conn
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(crate) fn error(&self, error: rusqlite::Error) -> StoreError {
        StoreError::Backend {
            path: self.db_path.display().to_string(),
            message: error.to_string(),
        }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction, committing on success.
    fn immediate<T>(
        &self,
        body: impl FnOnce(&rusqlite::Transaction<'_>) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        let mut conn = self.connection();
        let run = || -> rusqlite::Result<T> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let value = body(&tx)?;
            tx.commit()?;
            Ok(value)
        };
        run().map_err(|e| self.error(e))
    }

    /// Whether the text of `digest` is `path`'s newest version, recorded less than
    /// [`FRESH_MS`] ago, and `path` the session's most recently used path (read without a write
    /// transaction). An older row is recorded again, so a session's last use (what pruning by
    /// age goes by) is never more than that behind.
    fn is_newest(&self, path: &str, digest: &str) -> Result<bool, StoreError> {
        let conn = self.connection();
        let since = i64::try_from(now_ms().saturating_sub(FRESH_MS)).unwrap_or(i64::MAX);
        conn.prepare_cached(
            "SELECT COALESCE((SELECT digest = ?3 AND time_ms >= ?4 FROM state_snapshot
                              WHERE session = ?1 AND path = ?2 ORDER BY id DESC LIMIT 1)
                         AND (SELECT path FROM state_path WHERE session = ?1
                              ORDER BY used DESC LIMIT 1) = ?2, 0)",
        )
        .and_then(|mut stmt| {
            stmt.query_row(params![self.session, path, digest, since], |row| row.get(0))
        })
        .map_err(|e| self.error(e))
    }

    /// Marks `path` as the most recently used path of the session (if it is tracked).
    fn touch(&self, tx: &Connection, path: &str) -> rusqlite::Result<()> {
        tx.prepare_cached(
            "UPDATE state_path SET used = (SELECT COALESCE(MAX(used), 0) + 1 FROM state_path
             WHERE session = ?1) WHERE session = ?1 AND path = ?2",
        )?
        .execute(params![self.session, path])?;
        Ok(())
    }

    /// Every version of `path`, newest first; with `except` (a text and its digest), `None`
    /// in the place of each version holding that text, whose blob is not loaded. In a write
    /// transaction, as `head` and `by_tag`: blob files are removed by another process's write
    /// transaction, which a read snapshot does not hold off, so rows read without one may name
    /// a file that is gone by the time it is loaded.
    fn listed(
        &self,
        path: &str,
        except: Option<(&str, &str)>,
    ) -> Result<Vec<Option<Snapshot>>, StoreError> {
        self.immediate(|tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT tag, text, time_ms, digest, in_blob FROM state_snapshot
                 WHERE session = ?1 AND path = ?2 ORDER BY id DESC",
            )?;
            let rows = stmt.query_map(params![self.session, path], |row| {
                let Some((digest, text)) = except else {
                    return self.snapshot(path, row).map(Some);
                };
                if row.get::<_, Option<String>>(3)?.as_deref() == Some(digest) {
                    return Ok(None);
                }
                // A row of schema 1 (no digest) is loaded and compared.
                self.snapshot(path, row)
                    .map(|v| (v.text != text).then_some(v))
            })?;
            rows.collect()
        })
    }

    fn find(
        &self,
        tx: &Connection,
        path: &str,
        tag: Option<&str>,
    ) -> rusqlite::Result<Option<Snapshot>> {
        tx.prepare_cached(
            "SELECT tag, text, time_ms, digest, in_blob FROM state_snapshot
             WHERE session = ?1 AND path = ?2 AND (?3 IS NULL OR tag = ?3)
             ORDER BY id DESC LIMIT 1",
        )?
        .query_row(params![self.session, path, tag], |row| {
            self.snapshot(path, row)
        })
        .optional()
    }

    /// The [`Snapshot`] of a row `tag, text, time_ms, digest, in_blob` (its text loaded from
    /// its blob file when it has one).
    fn snapshot(&self, path: &str, row: &rusqlite::Row<'_>) -> rusqlite::Result<Snapshot> {
        let text = match row.get::<_, bool>(4)? {
            true => {
                let digest: String = row.get(3)?;
                blob::load(&self.blobs, &digest).map_err(io_error)?
            }
            false => row.get(1)?,
        };
        Ok(Snapshot {
            path: path.to_owned(),
            tag: row.get(0)?,
            text,
            time_ms: row
                .get::<_, i64>(2)
                .map(|t| u64::try_from(t).unwrap_or(0))?,
        })
    }

    /// Removes the blob files no row of any session refers to any more (inside the write
    /// transaction, so no other process is about to refer to one), and the temporary files a
    /// process killed while writing a blob left ([`blob::sweep_temps`]).
    pub(crate) fn collect_blobs(&self, tx: &Connection) -> rusqlite::Result<()> {
        blob::sweep_temps(&self.blobs, blob::STALE_TEMP);
        let unused: Vec<String> = tx
            .prepare_cached(
                "SELECT digest FROM state_blob WHERE digest NOT IN
                 (SELECT digest FROM state_snapshot WHERE in_blob = 1)",
            )?
            .query_map([], |row| row.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        for digest in unused {
            blob::remove(&self.blobs, &digest).map_err(io_error)?;
            tx.prepare_cached("DELETE FROM state_blob WHERE digest = ?1")?
                .execute(params![digest])?;
        }
        Ok(())
    }
}

/// A blob file's I/O failure as the error of the transaction it happened in.
fn io_error(e: std::io::Error) -> rusqlite::Error {
    rusqlite::Error::ToSqlConversionFailure(Box::new(e))
}

pub(crate) fn sql_int(value: usize) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// The undo history (created on first use, so older databases need no migration).
const UNDO_TABLE: &str = "CREATE TABLE IF NOT EXISTS state_undo (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    session TEXT    NOT NULL,
    path    TEXT    NOT NULL,
    before  TEXT,
    after   TEXT    NOT NULL
);";

impl SnapshotStore for SqliteStore {
    fn push_undo(&self, path: &str, entry: &UndoEntry) -> Result<(), StoreError> {
        let limit = i64::try_from(MAX_UNDO).unwrap_or(i64::MAX);
        let paths = i64::try_from(self.limits.max_paths).unwrap_or(i64::MAX);
        self.immediate(|tx| {
            tx.execute_batch(UNDO_TABLE)?;
            tx.prepare_cached(
                "INSERT INTO state_undo (session, path, before, after) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![self.session, path, entry.before, entry.after])?;
            tx.prepare_cached(
                "DELETE FROM state_undo WHERE session = ?1 AND path = ?2 AND id NOT IN
                 (SELECT id FROM state_undo WHERE session = ?1 AND path = ?2
                  ORDER BY id DESC LIMIT ?3)",
            )?
            .execute(params![self.session, path, limit])?;
            tx.prepare_cached(
                "DELETE FROM state_undo WHERE session = ?1 AND path NOT IN
                 (SELECT path FROM state_undo WHERE session = ?1
                  GROUP BY path ORDER BY MAX(id) DESC LIMIT ?2)",
            )?
            .execute(params![self.session, paths])?;
            Ok(())
        })
    }

    fn pop_undo(&self, path: &str) -> Result<Option<UndoEntry>, StoreError> {
        self.immediate(|tx| {
            tx.execute_batch(UNDO_TABLE)?;
            let row = tx
                .prepare_cached(
                    "SELECT id, before, after FROM state_undo WHERE session = ?1 AND path = ?2
                     ORDER BY id DESC LIMIT 1",
                )?
                .query_row(params![self.session, path], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get(1)?, r.get(2)?))
                })
                .optional()?;
            let Some((id, before, after)) = row else {
                return Ok(None);
            };
            tx.prepare_cached("DELETE FROM state_undo WHERE id = ?1")?
                .execute(params![id])?;
            Ok(Some(UndoEntry { before, after }))
        })
    }

    fn prepare(&self, text: &str) {
        self.prepare_pieces(&Pieces::whole(text));
    }

    fn prepare_pieces(&self, text: &Pieces<'_>) {
        if text.len() < blob::BLOB_MIN_BYTES {
            return;
        }
        let digest = blob::digest_pieces(text);
        // Compressed outside the write lock, then listed and placed in one write transaction,
        // as a record does: a blob whose record never comes (the write refused, the process
        // killed) is collected like any unused one. A failure here is the record's to report,
        // when it writes the blob again.
        let staged = blob::stage(&self.blobs, &digest, text).ok().flatten();
        let _ = self.immediate(|tx| {
            tx.prepare_cached("INSERT OR IGNORE INTO state_blob (digest) VALUES (?1)")?
                .execute(params![digest])?;
            blob::place_or_ensure(staged, &self.blobs, &digest, text).map_err(io_error)
        });
    }

    fn discard(&self, text: &str) {
        self.discard_pieces(&Pieces::whole(text));
    }

    fn discard_pieces(&self, text: &Pieces<'_>) {
        if text.len() < blob::BLOB_MIN_BYTES {
            return;
        }
        let digest = blob::digest_pieces(text);
        // In a write transaction, as every removal: a row of any process that uses the blob
        // keeps it. A failure leaves it to the next sweep.
        let _ = self.immediate(|tx| {
            let used: bool = tx
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM state_snapshot WHERE digest = ?1 AND in_blob = 1)",
                )?
                .query_row(params![digest], |row| row.get(0))?;
            if !used {
                blob::remove(&self.blobs, &digest).map_err(io_error)?;
                tx.prepare_cached("DELETE FROM state_blob WHERE digest = ?1")?
                    .execute(params![digest])?;
            }
            Ok(())
        });
    }

    fn record(&self, path: &str, text: &str) -> Result<String, StoreError> {
        self.record_with(path, &Pieces::whole(text), None)
    }

    fn record_tagged(&self, path: &str, tagged: &crate::Tagged<'_>) -> Result<String, StoreError> {
        self.record_with(path, &Pieces::whole(tagged.text()), Some(tagged.tag()))
    }

    fn record_pieces(
        &self,
        path: &str,
        text: &Pieces<'_>,
        tag: Option<&str>,
    ) -> Result<String, StoreError> {
        self.record_with(path, text, tag)
    }

    fn head(&self, path: &str) -> Result<Option<Snapshot>, StoreError> {
        self.immediate(|tx| {
            self.touch(tx, path)?;
            self.find(tx, path, None)
        })
    }

    fn versions_except(&self, path: &str, text: &str) -> Result<Vec<Option<Snapshot>>, StoreError> {
        self.listed(path, Some((&blob::digest(text), text)))
    }

    fn head_holds(&self, path: &str, text: &str) -> Result<Option<bool>, StoreError> {
        let digest = blob::digest(text);
        let newest: Option<Option<String>> = self.immediate(|tx| {
            self.touch(tx, path)?;
            tx.prepare_cached(
                "SELECT digest FROM state_snapshot WHERE session = ?1 AND path = ?2
                 ORDER BY id DESC LIMIT 1",
            )?
            .query_row(params![self.session, path], |row| row.get(0))
            .optional()
        })?;
        match newest {
            None => Ok(None),
            Some(Some(newest)) => Ok(Some(newest == digest)),
            // A row of schema 1 has no digest: its text is compared.
            Some(None) => Ok(self.head(path)?.map(|head| head.text == text)),
        }
    }

    fn by_tag(&self, path: &str, tag: &str) -> Result<Option<Snapshot>, StoreError> {
        self.immediate(|tx| {
            self.touch(tx, path)?;
            self.find(tx, path, Some(tag))
        })
    }

    fn versions(&self, path: &str) -> Result<Vec<Snapshot>, StoreError> {
        Ok(self.listed(path, None)?.into_iter().flatten().collect())
    }

    fn tag_collides(&self, path: &str, tag: &str, text: &str) -> Result<bool, StoreError> {
        let conn = self.connection();
        let digest = blob::digest(text);
        let run = || -> rusqlite::Result<bool> {
            let other: bool = conn
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM state_snapshot
                     WHERE session = ?1 AND path = ?2 AND tag = ?3 AND digest <> ?4)",
                )?
                .query_row(params![self.session, path, tag, digest], |row| row.get(0))?;
            if other {
                return Ok(true);
            }
            // Rows of schema 1 have no digest: compare their text (bound only when there is
            // one, as binding copies it).
            let legacy: bool = conn
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM state_snapshot
                     WHERE session = ?1 AND path = ?2 AND tag = ?3 AND digest IS NULL)",
                )?
                .query_row(params![self.session, path, tag], |row| row.get(0))?;
            if !legacy {
                return Ok(false);
            }
            conn.prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM state_snapshot
                 WHERE session = ?1 AND path = ?2 AND tag = ?3 AND digest IS NULL AND text <> ?4)",
            )?
            .query_row(params![self.session, path, tag, text], |row| row.get(0))
        };
        run().map_err(|e| self.error(e))
    }

    fn evicted(&self, path: &str, tag: &str) -> Result<bool, StoreError> {
        let conn = self.connection();
        evicted::contains(&conn, &self.session, path, tag).map_err(|e| self.error(e))
    }

    fn invalidate(&self, path: &str) -> Result<(), StoreError> {
        self.immediate(|tx| {
            tx.prepare_cached("DELETE FROM state_snapshot WHERE session = ?1 AND path = ?2")?
                .execute(params![self.session, path])?;
            tx.prepare_cached("DELETE FROM state_path WHERE session = ?1 AND path = ?2")?
                .execute(params![self.session, path])?;
            self.collect_blobs(tx)
        })
    }

    fn clear(&self) -> Result<(), StoreError> {
        self.immediate(|tx| {
            evicted::clear(tx, &self.session)?;
            tx.prepare_cached("DELETE FROM state_snapshot WHERE session = ?1")?
                .execute(params![self.session])?;
            tx.prepare_cached("DELETE FROM state_path WHERE session = ?1")?
                .execute(params![self.session])?;
            self.collect_blobs(tx)
        })
    }
}
