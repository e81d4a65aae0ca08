//! The tags of evicted versions in the SQLite store (table `state_evicted`): what
//! [`SnapshotStore::evicted`](crate::SnapshotStore::evicted) answers from, so that a refusal can
//! say a tag was read but evicted. Bounded to the newest [`MAX_EVICTED`] distinct tags per
//! session; only tags are kept, never texts.

use rusqlite::{params, Connection};

use crate::sqlite::sql_int;
use crate::MAX_EVICTED;

/// The tags of evicted versions (created on first use, so older databases need no migration;
/// no `*_ms` column: an eviction is not a use of the session).
const EVICTED_TABLE: [&str; 2] = [
    "CREATE TABLE IF NOT EXISTS state_evicted (
        id      INTEGER PRIMARY KEY,
        session TEXT    NOT NULL,
        path    TEXT    NOT NULL,
        tag     TEXT    NOT NULL
    )",
    "CREATE INDEX IF NOT EXISTS state_evicted_by_tag ON state_evicted (session, path, tag)",
];

/// Remember the tags of the versions `select` (a `SELECT path, tag FROM state_snapshot …` with
/// `?1` the session and `params` after it) is about to evict; keeps the newest [`MAX_EVICTED`]
/// distinct ones of the session.
pub(crate) fn remember(
    tx: &Connection,
    session: &str,
    select: &str,
    params: &[&dyn rusqlite::ToSql],
) -> rusqlite::Result<()> {
    for create in EVICTED_TABLE {
        tx.prepare_cached(create)?.execute([])?;
    }
    let mut all: Vec<&dyn rusqlite::ToSql> = vec![&session];
    all.extend_from_slice(params);
    let inserted = tx
        .prepare_cached(&format!(
            "INSERT INTO state_evicted (session, path, tag) SELECT ?1, path, tag FROM ({select})"
        ))?
        .execute(all.as_slice())?;
    if inserted > 0 {
        tx.prepare_cached(
            "DELETE FROM state_evicted WHERE session = ?1 AND id NOT IN
             (SELECT MAX(id) FROM state_evicted WHERE session = ?1 GROUP BY path, tag)",
        )?
        .execute(params![session])?;
        tx.prepare_cached(
            "DELETE FROM state_evicted WHERE session = ?1 AND id NOT IN
             (SELECT id FROM state_evicted WHERE session = ?1 ORDER BY id DESC LIMIT ?2)",
        )?
        .execute(params![session, sql_int(MAX_EVICTED)])?;
    }
    Ok(())
}

/// Whether `session` remembers `tag` of `path` as evicted (`false` before the table exists).
pub(crate) fn contains(
    conn: &Connection,
    session: &str,
    path: &str,
    tag: &str,
) -> rusqlite::Result<bool> {
    let exists: bool = conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master
             WHERE type = 'table' AND name = 'state_evicted')",
        )?
        .query_row([], |row| row.get(0))?;
    if !exists {
        return Ok(false);
    }
    conn.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM state_evicted
         WHERE session = ?1 AND path = ?2 AND tag = ?3)",
    )?
    .query_row(params![session, path, tag], |row| row.get(0))
}

/// Forget every evicted tag of `session`.
pub(crate) fn clear(tx: &Connection, session: &str) -> rusqlite::Result<()> {
    for create in EVICTED_TABLE {
        tx.prepare_cached(create)?.execute([])?;
    }
    tx.prepare_cached("DELETE FROM state_evicted WHERE session = ?1")?
        .execute(params![session])?;
    Ok(())
}
