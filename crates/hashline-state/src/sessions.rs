//! Every session of a state database, for `hashline state`: listing, pruning, and the automatic
//! pruning calls run (at most once per [`AUTO_PRUNE_EVERY_MS`]).
//!
//! A session is its rows in every table of the database that has a `session` column (this
//! crate's `state_…` tables, `queue_preview` of the preview queue, …): the tables are found in
//! `sqlite_master`, so a crate that keeps per-session rows beside the store has them listed and
//! pruned too without this crate knowing it. A session's size is the bytes of its rows' values
//! (a text kept in a blob file at its length; blob files no row refers to go with a prune);
//! its last use is the newest value among its rows' `*_ms` columns (`state_snapshot.time_ms`:
//! every read, edit and write records a snapshot).

use std::collections::BTreeMap;

use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};

use crate::{now_ms, PruneRule, Pruned, SessionInfo, SqliteStore, StoreError};

/// How often (milliseconds) [`SqliteStore::auto_prune`] does its work at most.
pub const AUTO_PRUNE_EVERY_MS: u64 = 60 * 60 * 1000;

/// A table holding per-session rows.
struct SessionTable {
    name: String,
    columns: Vec<String>,
}

/// `ident` as an SQL identifier.
fn quote(ident: &str) -> String {
    format!("\"{}\"", ident.replace('"', "\"\""))
}

fn session_tables(conn: &Connection) -> rusqlite::Result<Vec<SessionTable>> {
    let mut stmt = conn.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
         ORDER BY name",
    )?;
    let names = stmt
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut tables = Vec::new();
    for name in names {
        let mut info = conn.prepare(&format!("PRAGMA table_info({})", quote(&name)))?;
        let columns = info
            .query_map([], |r| r.get::<_, String>(1))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        if columns.iter().any(|c| c == "session") {
            tables.push(SessionTable { name, columns });
        }
    }
    Ok(tables)
}

/// Every session, most recently used first (then by name).
fn list(conn: &Connection) -> rusqlite::Result<Vec<SessionInfo>> {
    let mut by_name: BTreeMap<String, SessionInfo> = BTreeMap::new();
    for table in session_tables(conn)? {
        let bytes = table
            .columns
            .iter()
            .map(|c| format!("COALESCE(length(CAST({} AS BLOB)), 0)", quote(c)))
            .collect::<Vec<_>>()
            .join(" + ");
        let times: Vec<String> = table
            .columns
            .iter()
            .filter(|c| c.ends_with("_ms"))
            .map(|c| format!("COALESCE(MAX({}), 0)", quote(c)))
            .collect();
        let last = match times.len() {
            0 => "0".to_string(),
            1 => times[0].clone(),
            _ => format!("max({})", times.join(", ")),
        };
        let sql = format!(
            "SELECT session, COUNT(*), SUM({bytes}), {last} FROM {} GROUP BY session",
            quote(&table.name)
        );
        let mut stmt = conn.prepare(&sql)?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, Option<i64>>(2)?.unwrap_or(0),
                r.get::<_, Option<i64>>(3)?.unwrap_or(0),
            ))
        })?;
        for row in rows {
            let (name, rows, bytes, last) = row?;
            let entry = by_name.entry(name.clone()).or_insert(SessionInfo {
                name,
                rows: 0,
                bytes: 0,
                last_used_ms: 0,
            });
            entry.rows += u64::try_from(rows).unwrap_or(0);
            entry.bytes += u64::try_from(bytes).unwrap_or(0);
            entry.last_used_ms = entry.last_used_ms.max(u64::try_from(last).unwrap_or(0));
        }
    }
    // A large text lives in a blob file (its row's `text` is empty): it counts at its length.
    let has_blobs = session_tables(conn)?
        .iter()
        .any(|t| t.name == "state_snapshot" && t.columns.iter().any(|c| c == "in_blob"));
    if has_blobs {
        let mut stmt =
            conn.prepare("SELECT session, digest FROM state_snapshot WHERE in_blob = 1")?;
        let rows = stmt.query_map([], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
        })?;
        for row in rows {
            let (name, digest) = row?;
            let len = digest.as_deref().and_then(crate::sqlite::blob::text_len);
            if let (Some(entry), Some(len)) = (by_name.get_mut(&name), len) {
                entry.bytes = entry.bytes.saturating_add(len);
            }
        }
    }
    let mut sessions: Vec<SessionInfo> = by_name.into_values().collect();
    sessions.sort_by(|a, b| {
        b.last_used_ms
            .cmp(&a.last_used_ms)
            .then_with(|| a.name.cmp(&b.name))
    });
    Ok(sessions)
}

/// Split `sessions` (most recently used first) by `rule` at `now`: sessions older than the age
/// bound go, then the least recently used until the rest fit the byte bound; `keep` stays.
fn choose(sessions: Vec<SessionInfo>, rule: &PruneRule, now: u64, keep: &str) -> Pruned {
    let mut pruned = Pruned::default();
    let mut total: u64 = 0;
    for session in sessions {
        let too_old = rule
            .older_than_ms
            .is_some_and(|age| now.saturating_sub(session.last_used_ms) > age);
        let too_big = rule
            .max_bytes
            .is_some_and(|max| total.saturating_add(session.bytes) > max);
        if session.name != keep && (too_old || too_big) {
            pruned.removed.push(session);
        } else {
            total = total.saturating_add(session.bytes);
            pruned.kept.push(session);
        }
    }
    pruned.removed.reverse();
    pruned
}

fn remove(tx: &rusqlite::Transaction<'_>, names: &[SessionInfo]) -> rusqlite::Result<()> {
    for table in session_tables(tx)? {
        let mut stmt = tx.prepare(&format!(
            "DELETE FROM {} WHERE session = ?1",
            quote(&table.name)
        ))?;
        for session in names {
            stmt.execute(params![session.name])?;
        }
    }
    Ok(())
}

const META_TABLE: &str =
    "CREATE TABLE IF NOT EXISTS state_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;";
const LAST_AUTO_PRUNE: &str = "last_auto_prune_ms";

impl SqliteStore {
    /// Every session of the database, most recently used first.
    pub fn sessions(&self) -> Result<Vec<SessionInfo>, StoreError> {
        list(&self.connection()).map_err(|e| self.error(e))
    }

    /// Remove the sessions `rule` selects (never this store's own session), in one
    /// transaction; with `dry_run`, only say which. The database file does not shrink by
    /// itself: [`SqliteStore::compact`] gives the space back.
    pub fn prune(&self, rule: &PruneRule, dry_run: bool) -> Result<Pruned, StoreError> {
        let mut conn = self.connection();
        let mut run = || -> rusqlite::Result<Pruned> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let pruned = choose(list(&tx)?, rule, now_ms(), self.session());
            if !dry_run && !pruned.removed.is_empty() {
                remove(&tx, &pruned.removed)?;
                self.collect_blobs(&tx)?;
            }
            tx.commit()?;
            Ok(pruned)
        };
        run().map_err(|e| self.error(e))
    }

    /// Give the space of removed rows back to the file system (`VACUUM`, then a WAL
    /// checkpoint). Takes the database's write lock for as long as it copies the database.
    pub fn compact(&self) -> Result<(), StoreError> {
        let conn = self.connection();
        conn.execute_batch("VACUUM; PRAGMA wal_checkpoint(TRUNCATE);")
            .map_err(|e| self.error(e))
    }

    /// [`SqliteStore::prune`] by `rule`, at most once per [`AUTO_PRUNE_EVERY_MS`] across every
    /// process sharing the database (the time of the last run is kept in `state_meta`). `None`
    /// when it was not due.
    pub fn auto_prune(&self, rule: &PruneRule) -> Result<Option<Pruned>, StoreError> {
        let now = now_ms();
        let due = |last: Option<i64>| {
            let last = last.and_then(|l| u64::try_from(l).ok()).unwrap_or(0);
            now.saturating_sub(last) >= AUTO_PRUNE_EVERY_MS
        };
        let mut conn = self.connection();
        // A plain read first, so that a call that is not due takes no write lock (the table
        // does not exist before the first run: then it is due).
        let last: Option<i64> = conn
            .query_row(
                "SELECT value FROM state_meta WHERE key = ?1",
                params![LAST_AUTO_PRUNE],
                |r| r.get(0),
            )
            .optional()
            .unwrap_or(None);
        if !due(last) {
            return Ok(None);
        }
        let mut run = || -> rusqlite::Result<Option<Pruned>> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute_batch(META_TABLE)?;
            let last: Option<i64> = tx
                .query_row(
                    "SELECT value FROM state_meta WHERE key = ?1",
                    params![LAST_AUTO_PRUNE],
                    |r| r.get(0),
                )
                .optional()?;
            if !due(last) {
                return Ok(None);
            }
            tx.execute(
                "INSERT OR REPLACE INTO state_meta (key, value) VALUES (?1, ?2)",
                params![LAST_AUTO_PRUNE, i64::try_from(now).unwrap_or(i64::MAX)],
            )?;
            let pruned = choose(list(&tx)?, rule, now, self.session());
            if !pruned.removed.is_empty() {
                remove(&tx, &pruned.removed)?;
                self.collect_blobs(&tx)?;
            }
            tx.commit()?;
            Ok(Some(pruned))
        };
        run().map_err(|e| self.error(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SnapshotStore;

    fn info(name: &str, bytes: u64, last: u64) -> SessionInfo {
        SessionInfo {
            name: name.into(),
            rows: 1,
            bytes,
            last_used_ms: last,
        }
    }

    fn names(list: &[SessionInfo]) -> Vec<&str> {
        list.iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn choose_prunes_by_age_then_by_size_least_recent_first_never_the_current_one() {
        let sessions = vec![info("a", 50, 1_000), info("b", 50, 900), info("c", 50, 10)];
        let by_age = PruneRule {
            older_than_ms: Some(500),
            max_bytes: None,
        };
        let p = choose(sessions.clone(), &by_age, 1_000, "a");
        assert_eq!(names(&p.removed), ["c"]);
        let by_size = PruneRule {
            older_than_ms: None,
            max_bytes: Some(60),
        };
        let p = choose(sessions.clone(), &by_size, 1_000, "a");
        assert_eq!(names(&p.removed), ["c", "b"]);
        assert_eq!(names(&p.kept), ["a"]);
        // The current session stays even when it alone is over the bound.
        let p = choose(sessions, &by_size, 1_000, "c");
        assert_eq!(names(&p.removed), ["b"]);
        assert_eq!(names(&p.kept), ["a", "c"]);
    }

    #[test]
    fn a_large_text_counts_at_its_length_and_its_blob_goes_with_its_session() {
        let dir = tempfile::tempdir().expect("dir");
        let big = "z".repeat(200_000);
        let other = SqliteStore::open(dir.path(), "big").expect("open");
        other.record("/big", &big).expect("record");
        let me = SqliteStore::open(dir.path(), "me").expect("open");
        me.record("/a", "a\n").expect("record");
        let listed = me.sessions().expect("list");
        let size = listed.iter().find(|s| s.name == "big").map(|s| s.bytes);
        assert!(size.is_some_and(|b| b >= 200_000), "{listed:?}");
        let blobs = || std::fs::read_dir(dir.path().join("blobs")).map_or(0, |d| d.count());
        assert_eq!(blobs(), 1);
        let rule = PruneRule {
            older_than_ms: None,
            max_bytes: Some(1_000),
        };
        let pruned = me.prune(&rule, false).expect("prune");
        assert_eq!(names(&pruned.removed), ["big"]);
        assert_eq!(blobs(), 0, "the blob no row refers to is removed");
    }

    #[test]
    fn sessions_are_listed_pruned_and_auto_pruned_once_per_period() {
        let dir = tempfile::tempdir().expect("dir");
        for (session, text) in [("old", "x".repeat(1000)), ("new", "y".repeat(10))] {
            let store = SqliteStore::open(dir.path(), session).expect("open");
            store.record("/a", &text).expect("record");
        }
        // A table of another crate with a session column counts too.
        let me = SqliteStore::open(dir.path(), "me").expect("open");
        me.connection()
            .execute_batch(
                "CREATE TABLE other_rows (session TEXT, body TEXT, created_ms INTEGER);
                 INSERT INTO other_rows VALUES ('other', 'zzzz', 5);",
            )
            .expect("other table");
        let listed = me.sessions().expect("list");
        assert_eq!(names(&listed)[2..], ["other"]);
        let old = listed.iter().find(|s| s.name == "old").expect("old");
        assert!(old.bytes >= 1000 && old.rows >= 2, "{old:?}");
        assert_eq!(
            listed.iter().find(|s| s.name == "other").map(|s| s.bytes),
            Some(4 + 5 + 1)
        );

        let rule = PruneRule {
            older_than_ms: Some(60_000),
            max_bytes: None,
        };
        let dry = me.prune(&rule, true).expect("dry run");
        assert_eq!(names(&dry.removed), ["other"]);
        assert_eq!(me.sessions().expect("list").len(), 3);
        let done = me.auto_prune(&rule).expect("auto").expect("due");
        assert_eq!(names(&done.removed), ["other"]);
        let count: i64 = me
            .connection()
            .query_row("SELECT COUNT(*) FROM other_rows", [], |r| r.get(0))
            .expect("count");
        assert_eq!(count, 0);
        // Not due again within the period, even for a rule that would remove more.
        let all = PruneRule {
            older_than_ms: Some(0),
            max_bytes: Some(0),
        };
        assert_eq!(me.auto_prune(&all).expect("auto"), None);
        let p = me.prune(&all, false).expect("prune");
        assert_eq!(names(&p.removed).len(), 2);
        assert_eq!(names(&me.sessions().expect("list")), Vec::<&str>::new());
        me.compact().expect("vacuum");
    }
}
