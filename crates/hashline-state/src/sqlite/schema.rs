//! The database schema and its migrations (`PRAGMA user_version`).
//!
//! * 1: `state_snapshot` rows hold their text; `state_path` orders paths by use.
//! * 2: rows also hold the text's content digest and whether the text lives in a blob file
//!   (`in_blob`, the row's `text` then empty); `state_blob` lists the blob files the database
//!   owns. A schema-1 database is migrated in place (its rows keep their texts and stay
//!   readable: a `NULL` digest means "compare by text").

use std::time::{Duration, Instant};

use rusqlite::{Connection, TransactionBehavior};

use super::BUSY_TIMEOUT;

/// The schema version this build writes.
pub(crate) const VERSION: i64 = 2;

const SCHEMA_V1: &str = "
CREATE TABLE IF NOT EXISTS state_snapshot (
    id      INTEGER PRIMARY KEY,
    session TEXT    NOT NULL,
    path    TEXT    NOT NULL,
    tag     TEXT    NOT NULL,
    text    TEXT    NOT NULL,
    time_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS state_snapshot_by_path ON state_snapshot (session, path, id);
CREATE TABLE IF NOT EXISTS state_path (
    session TEXT    NOT NULL,
    path    TEXT    NOT NULL,
    used    INTEGER NOT NULL,
    PRIMARY KEY (session, path)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS state_path_by_use ON state_path (session, used);
";

/// From 1 to 2: content digests and blob files.
const MIGRATE_V2: &str = "
ALTER TABLE state_snapshot ADD COLUMN digest TEXT;
ALTER TABLE state_snapshot ADD COLUMN in_blob INTEGER NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS state_blob (
    digest TEXT PRIMARY KEY
) WITHOUT ROWID;
";

/// Creates the schema on first use and migrates an older one; afterwards only reads
/// `user_version`.
pub(crate) fn ensure(conn: &mut Connection) -> Result<(), String> {
    let version = user_version(conn).map_err(|e| e.to_string())?;
    if version == VERSION {
        return Ok(());
    }
    if version > VERSION {
        return Err(format!(
            "schema version {version} is newer than this build's ({VERSION}); upgrade hashline"
        ));
    }
    enable_wal(conn)?;
    let mut create = || -> rusqlite::Result<()> {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // Another process may have created or migrated it while we waited for the write lock.
        let found = user_version(&tx)?;
        if found < 1 {
            tx.execute_batch(SCHEMA_V1)?;
        }
        if found < 2 {
            tx.execute_batch(MIGRATE_V2)?;
        }
        if found < VERSION {
            tx.pragma_update(None, "user_version", VERSION)?;
        }
        tx.commit()
    };
    create().map_err(|e| format!("cannot create the schema: {e}"))
}

/// Switches the database to WAL mode. It must happen outside a transaction and is persistent,
/// so it runs once per database. SQLite answers `SQLITE_BUSY` without calling the busy handler
/// while another connection is creating the database, so this retries until [`BUSY_TIMEOUT`].
/// A file system without WAL support keeps its journal mode: the store still works, with less
/// concurrency.
fn enable_wal(conn: &Connection) -> Result<(), String> {
    let deadline = Instant::now() + BUSY_TIMEOUT;
    loop {
        match conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())) {
            Ok(()) => return Ok(()),
            Err(e)
                if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                    && Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(format!("cannot enable WAL mode: {e}")),
        }
    }
}

fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA user_version", [], |row| row.get(0))
}

/// A schema-1 database, as older builds created it (for the migration tests).
#[cfg(test)]
pub(crate) fn create_v1(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(SCHEMA_V1)?;
    conn.pragma_update(None, "user_version", 1)
}
