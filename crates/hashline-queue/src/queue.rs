//! [`PreviewQueue`]: the session's pending previews in SQLite (`queue_preview` table).

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use hashline_ast::{Preview, RewriteRequest};
use hashline_state::rusqlite::{self, params, Connection, OptionalExtension, TransactionBehavior};
use hashline_state::SqliteStore;

use crate::error::QueueError;
use crate::model::{queued_files, PreviewId, QueuedFile, QueuedPreview};

/// Format of the stored `request` / `files` JSON; a row of another format is refused as corrupt.
const FORMAT: i64 = 1;

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

/// Where the queue's table lives.
#[derive(Debug)]
enum Db {
    /// The session store's database (shared by every process of the session).
    Shared(Arc<SqliteStore>),
    /// A private in-memory database (tests, in-process engines).
    Own(Mutex<Connection>),
}

/// The pending previews of one session.
///
/// A preview is stored with its request, and per file the display and absolute path, the tag,
/// a [`crate::Fingerprint`] of the previewed bytes and the exact edits (byte ranges and new
/// text), so [`PreviewQueue::apply`] never re-runs the search.
#[derive(Debug)]
pub struct PreviewQueue {
    db: Db,
    session: String,
}

impl PreviewQueue {
    /// The queue of `store`'s session, in `store`'s database (creates the table on first use).
    pub fn new(store: Arc<SqliteStore>) -> Result<PreviewQueue, QueueError> {
        let session = store.session().to_owned();
        let queue = PreviewQueue {
            db: Db::Shared(store),
            session,
        };
        queue.ensure_schema()?;
        Ok(queue)
    }

    /// A queue for `session` in a private in-memory database (gone when dropped).
    pub fn in_memory(session: &str) -> Result<PreviewQueue, QueueError> {
        let conn = Connection::open_in_memory().map_err(|e| db_error(":memory:", e))?;
        let queue = PreviewQueue {
            db: Db::Own(Mutex::new(conn)),
            session: session.to_owned(),
        };
        queue.ensure_schema()?;
        Ok(queue)
    }

    /// The session this queue serves.
    pub fn session(&self) -> &str {
        &self.session
    }

    /// Runs `body` on the connection (held only for the call).
    fn with<T>(
        &self,
        body: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, QueueError> {
        let (result, path) = match &self.db {
            Db::Shared(store) => (
                body(&mut store.connection()),
                store.db_path().display().to_string(),
            ),
            Db::Own(conn) => (
                body(&mut conn.lock().unwrap_or_else(PoisonError::into_inner)),
                ":memory:".to_string(),
            ),
        };
        result.map_err(|e| db_error(&path, e))
    }

    /// Creates the table unless it exists (a read when it does).
    fn ensure_schema(&self) -> Result<(), QueueError> {
        self.with(|conn| {
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

    /// Queue `preview` (made by `request`); returns its id.
    pub fn push(
        &self,
        request: &RewriteRequest,
        preview: &Preview,
    ) -> Result<PreviewId, QueueError> {
        let files = queued_files(preview);
        let request_json = to_json(request)?;
        let files_json = to_json(&files)?;
        let created = i64::try_from(now_ms()).unwrap_or(i64::MAX);
        let id = self.with(|conn| {
            conn.prepare_cached(
                "INSERT INTO queue_preview (session, created_ms, format, request, files)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                self.session,
                created,
                FORMAT,
                request_json,
                files_json
            ])?;
            Ok(conn.last_insert_rowid())
        })?;
        PreviewId::new(id).ok_or_else(|| QueueError::Db {
            path: String::new(),
            message: format!("SQLite returned row id {id}"),
        })
    }

    /// Replace the files (and so the matches) of preview `id`, which keeps its id.
    pub(crate) fn replace_files(
        &self,
        id: PreviewId,
        files: &[crate::model::QueuedFile],
    ) -> Result<(), QueueError> {
        let files_json = to_json(&files)?;
        self.with(|conn| {
            conn.prepare_cached(
                "UPDATE queue_preview SET files = ?3 WHERE session = ?1 AND id = ?2",
            )?
            .execute(params![self.session, id.get(), files_json])
            .map(|_| ())
        })
    }

    /// Every pending preview of the session, newest first.
    pub fn list(&self) -> Result<Vec<QueuedPreview>, QueueError> {
        let rows = self.with(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, created_ms, format, request, files FROM queue_preview
                 WHERE session = ?1 ORDER BY id DESC",
            )?;
            let rows = stmt.query_map(params![self.session], Row::read)?;
            rows.collect::<rusqlite::Result<Vec<Row>>>()
        })?;
        rows.into_iter().map(Row::decode).collect()
    }

    /// The pending preview `id`, or the newest when `id` is `None`.
    pub fn get(&self, id: Option<PreviewId>) -> Result<QueuedPreview, QueueError> {
        let row = self.with(|conn| {
            conn.prepare_cached(
                "SELECT id, created_ms, format, request, files FROM queue_preview
                 WHERE session = ?1 AND (?2 IS NULL OR id = ?2) ORDER BY id DESC LIMIT 1",
            )?
            .query_row(params![self.session, id.map(PreviewId::get)], Row::read)
            .optional()
        })?;
        row.ok_or(QueueError::NoPreview { id })?.decode()
    }

    /// Drop preview `id` (the newest when `None`) without touching any file; returns it.
    /// `Ok(None)` when no id was given and nothing is pending; an unknown id is
    /// [`QueueError::NoPreview`].
    pub fn discard(&self, id: Option<PreviewId>) -> Result<Option<QueuedPreview>, QueueError> {
        let preview = match self.get(id) {
            Ok(p) => p,
            Err(QueueError::NoPreview { id: None }) => return Ok(None),
            // A row this build cannot read can still be dropped.
            Err(QueueError::Corrupt { id, .. }) => {
                self.remove(id)?;
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        self.remove(preview.id)?;
        Ok(Some(preview))
    }

    /// Delete row `id`; true when it existed.
    pub(crate) fn remove(&self, id: PreviewId) -> Result<bool, QueueError> {
        self.with(|conn| {
            conn.prepare_cached("DELETE FROM queue_preview WHERE session = ?1 AND id = ?2")?
                .execute(params![self.session, id.get()])
                .map(|n| n > 0)
        })
    }
}

/// One raw row.
struct Row {
    id: i64,
    created_ms: i64,
    format: i64,
    request: String,
    files: String,
}

impl Row {
    fn read(row: &rusqlite::Row<'_>) -> rusqlite::Result<Row> {
        Ok(Row {
            id: row.get(0)?,
            created_ms: row.get(1)?,
            format: row.get(2)?,
            request: row.get(3)?,
            files: row.get(4)?,
        })
    }

    fn decode(self) -> Result<QueuedPreview, QueueError> {
        let id = PreviewId::new(self.id).ok_or_else(|| QueueError::Db {
            path: String::new(),
            message: format!("preview row id {} is not positive", self.id),
        })?;
        let corrupt = |reason: String| QueueError::Corrupt { id, reason };
        if self.format != FORMAT {
            return Err(corrupt(format!(
                "stored in format {} by another hashline version; this build reads format {FORMAT}",
                self.format
            )));
        }
        let request: RewriteRequest =
            serde_json::from_str(&self.request).map_err(|e| corrupt(e.to_string()))?;
        let files: Vec<QueuedFile> =
            serde_json::from_str(&self.files).map_err(|e| corrupt(e.to_string()))?;
        Ok(QueuedPreview {
            id,
            created_ms: u64::try_from(self.created_ms).unwrap_or(0),
            request,
            files,
        })
    }
}

fn to_json(value: &impl serde::Serialize) -> Result<String, QueueError> {
    serde_json::to_string(value).map_err(|e| QueueError::Db {
        path: String::new(),
        message: format!("cannot serialize the preview: {e}"),
    })
}

fn db_error(path: &str, e: rusqlite::Error) -> QueueError {
    QueueError::Db {
        path: path.to_owned(),
        message: e.to_string(),
    }
}

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}
