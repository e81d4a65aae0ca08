//! The queue's rows in the session store's SQLite database (table `queue_preview`), shared by
//! every process of the session (feature `sqlite`).

use hashline_state::rusqlite::{self, params, Connection, OptionalExtension, TransactionBehavior};
use hashline_state::SqliteStore;

use crate::error::QueueError;
use crate::queue::Row;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS queue_preview (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    session    TEXT    NOT NULL,
    created_ms INTEGER NOT NULL,
    format     INTEGER NOT NULL,
    request    TEXT    NOT NULL,
    files      TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS queue_preview_by_session ON queue_preview (session, id);
";

/// Runs `body` on the store's connection (held only for the call).
fn with<T>(
    store: &SqliteStore,
    body: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
) -> Result<T, QueueError> {
    body(&mut store.connection()).map_err(|e| QueueError::Db {
        path: store.db_path().display().to_string(),
        message: e.to_string(),
    })
}

/// Creates the table unless it exists (a read when it does).
pub(crate) fn ensure_schema(store: &SqliteStore) -> Result<(), QueueError> {
    with(store, |conn| {
        let exists: Option<i64> = conn
            .query_row(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'queue_preview'",
                [],
                |row| row.get(0),
            )
            .optional()?;
        if exists.is_none() {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute_batch(SCHEMA)?;
            tx.commit()?;
        }
        Ok(())
    })
}

/// Store a new row of `session`; its id.
pub(crate) fn insert(
    store: &SqliteStore,
    session: &str,
    created_ms: i64,
    format: i64,
    request: &str,
    files: &str,
) -> Result<i64, QueueError> {
    with(store, |conn| {
        conn.prepare_cached(
            "INSERT INTO queue_preview (session, created_ms, format, request, files)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![session, created_ms, format, request, files])?;
        Ok(conn.last_insert_rowid())
    })
}

/// Replace the files of row `id` of `session`.
pub(crate) fn set_files(
    store: &SqliteStore,
    session: &str,
    id: i64,
    files: &str,
) -> Result<(), QueueError> {
    with(store, |conn| {
        conn.prepare_cached("UPDATE queue_preview SET files = ?3 WHERE session = ?1 AND id = ?2")?
            .execute(params![session, id, files])
            .map(|_| ())
    })
}

/// Every row of `session`, newest first.
pub(crate) fn newest_first(store: &SqliteStore, session: &str) -> Result<Vec<Row>, QueueError> {
    with(store, |conn| {
        let mut stmt = conn.prepare_cached(
            "SELECT id, created_ms, format, request, files FROM queue_preview
             WHERE session = ?1 ORDER BY id DESC",
        )?;
        let rows = stmt.query_map(params![session], read)?;
        rows.collect::<rusqlite::Result<Vec<Row>>>()
    })
}

/// Row `id` of `session`, or its newest when `None`.
pub(crate) fn get(
    store: &SqliteStore,
    session: &str,
    id: Option<i64>,
) -> Result<Option<Row>, QueueError> {
    with(store, |conn| {
        conn.prepare_cached(
            "SELECT id, created_ms, format, request, files FROM queue_preview
             WHERE session = ?1 AND (?2 IS NULL OR id = ?2) ORDER BY id DESC LIMIT 1",
        )?
        .query_row(params![session, id], read)
        .optional()
    })
}

/// Delete row `id` of `session`; true when it existed.
pub(crate) fn remove(store: &SqliteStore, session: &str, id: i64) -> Result<bool, QueueError> {
    with(store, |conn| {
        conn.prepare_cached("DELETE FROM queue_preview WHERE session = ?1 AND id = ?2")?
            .execute(params![session, id])
            .map(|n| n > 0)
    })
}

fn read(row: &rusqlite::Row<'_>) -> rusqlite::Result<Row> {
    Ok(Row {
        id: row.get(0)?,
        created_ms: row.get(1)?,
        format: row.get(2)?,
        request: row.get(3)?,
        files: row.get(4)?,
    })
}
