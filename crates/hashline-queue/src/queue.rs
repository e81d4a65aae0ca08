//! [`PreviewQueue`]: the session's pending previews, in the state database (`sql.rs`, feature
//! `sqlite`) or in memory (`memory.rs`).

use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use hashline_ast::{Preview, RewriteRequest};

use crate::error::QueueError;
use crate::memory::MemoryRows;
use crate::model::{queued_files, PreviewId, QueuedFile, QueuedPreview};

/// Format of the stored `request` / `files` JSON; a row of another format is refused as corrupt.
const FORMAT: i64 = 1;

/// Where the queue's rows live.
#[derive(Debug)]
enum Db {
    /// The session store's database (shared by every process of the session).
    #[cfg(feature = "sqlite")]
    Shared(std::sync::Arc<hashline_state::SqliteStore>),
    /// In this process's memory (tests, in-process engines; gone when dropped).
    Own(Mutex<MemoryRows>),
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
    #[cfg(feature = "sqlite")]
    pub fn new(
        store: std::sync::Arc<hashline_state::SqliteStore>,
    ) -> Result<PreviewQueue, QueueError> {
        crate::sql::ensure_schema(&store)?;
        let session = store.session().to_owned();
        Ok(PreviewQueue {
            db: Db::Shared(store),
            session,
        })
    }

    /// A queue for `session` in this process's memory (gone when dropped).
    pub fn in_memory(session: &str) -> Result<PreviewQueue, QueueError> {
        Ok(PreviewQueue {
            db: Db::Own(Mutex::new(MemoryRows::default())),
            session: session.to_owned(),
        })
    }

    /// The session this queue serves.
    pub fn session(&self) -> &str {
        &self.session
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
        let id = match &self.db {
            #[cfg(feature = "sqlite")]
            Db::Shared(store) => crate::sql::insert(
                store,
                &self.session,
                created,
                FORMAT,
                &request_json,
                &files_json,
            )?,
            Db::Own(rows) => lock(rows).insert(created, FORMAT, request_json, files_json),
        };
        PreviewId::new(id).ok_or_else(|| QueueError::Db {
            path: String::new(),
            message: format!("the queue returned row id {id}"),
        })
    }

    /// Replace the files (and so the matches) of preview `id`, which keeps its id.
    pub(crate) fn replace_files(
        &self,
        id: PreviewId,
        files: &[crate::model::QueuedFile],
    ) -> Result<(), QueueError> {
        let files_json = to_json(&files)?;
        match &self.db {
            #[cfg(feature = "sqlite")]
            Db::Shared(store) => crate::sql::set_files(store, &self.session, id.get(), &files_json),
            Db::Own(rows) => {
                lock(rows).set_files(id.get(), files_json);
                Ok(())
            }
        }
    }

    /// Every pending preview of the session, newest first.
    pub fn list(&self) -> Result<Vec<QueuedPreview>, QueueError> {
        let rows = match &self.db {
            #[cfg(feature = "sqlite")]
            Db::Shared(store) => crate::sql::newest_first(store, &self.session)?,
            Db::Own(rows) => lock(rows).newest_first(),
        };
        rows.into_iter().map(Row::decode).collect()
    }

    /// The pending preview `id`, or the newest when `id` is `None`.
    pub fn get(&self, id: Option<PreviewId>) -> Result<QueuedPreview, QueueError> {
        let wanted = id.map(PreviewId::get);
        let row = match &self.db {
            #[cfg(feature = "sqlite")]
            Db::Shared(store) => crate::sql::get(store, &self.session, wanted)?,
            Db::Own(rows) => lock(rows).get(wanted),
        };
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
        match &self.db {
            #[cfg(feature = "sqlite")]
            Db::Shared(store) => crate::sql::remove(store, &self.session, id.get()),
            Db::Own(rows) => Ok(lock(rows).remove(id.get())),
        }
    }
}

/// The memory rows, even after a panic elsewhere held the lock (every change is one step).
fn lock(rows: &Mutex<MemoryRows>) -> MutexGuard<'_, MemoryRows> {
    rows.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One raw row: the preview's JSON as stored.
#[derive(Debug, Clone)]
pub(crate) struct Row {
    pub(crate) id: i64,
    pub(crate) created_ms: i64,
    pub(crate) format: i64,
    pub(crate) request: String,
    pub(crate) files: String,
}

impl Row {
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

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}
