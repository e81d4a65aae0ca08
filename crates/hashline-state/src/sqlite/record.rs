//! [`SqliteStore::record_with`]: recording a text as the newest version of a path, in one
//! write transaction (read fusion, the bounds on versions and paths, the evicted tags, the
//! blob of a large text and the collection of blobs no row uses any more).

use std::borrow::Cow;

use hashline_core::Pieces;
use rusqlite::params;

use super::{blob, io_error, sql_int, SqliteStore};
use crate::{evicted, now_ms, StoreError};

impl SqliteStore {
    /// [`crate::SnapshotStore::record`] of the text `text` is made of, with its tag when the
    /// caller knows it. A large text is never joined: its blob is written from its parts.
    pub(super) fn record_with(
        &self,
        path: &str,
        text: &Pieces<'_>,
        tag: Option<&str>,
    ) -> Result<String, StoreError> {
        // A large text is hashed (twice, unless its tag is given) and compressed (unless its
        // blob exists) on two cores at once, before the write transaction. A small one goes
        // into its row: it is joined (when in parts) for it.
        let in_blob = text.len() >= blob::BLOB_MIN_BYTES;
        let row_text = if in_blob {
            Cow::Borrowed("")
        } else {
            text.to_text()
        };
        let (tag, digest, staged) = if in_blob {
            let hashed = blob::hash_and_stage(&self.blobs, text, tag);
            (hashed.tag, hashed.digest, hashed.staged)
        } else {
            let tag = tag.map_or_else(|| crate::file_tag(&row_text), str::to_owned);
            (tag, blob::digest(&row_text), None)
        };
        if self.is_newest(path, &digest)? {
            // A read of an unchanged file: its text is the path's newest version and the path
            // the session's most recently used one, so recording it would change nothing.
            return Ok(tag);
        }
        let time = i64::try_from(now_ms()).unwrap_or(i64::MAX);
        self.immediate(|tx| {
            let session = &self.session;
            // Read fusion: the old row of this text goes (a different text that only shares the
            // 16-bit tag stays); the new row gets the largest id. Rows of schema 1 have no
            // digest and are compared by text (only when there is one, as binding copies it).
            tx.prepare_cached(
                "DELETE FROM state_snapshot WHERE session = ?1 AND path = ?2 AND digest = ?3",
            )?
            .execute(params![session, path, digest])?;
            let legacy: bool = tx
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM state_snapshot WHERE session = ?1 AND path = ?2
                     AND tag = ?3 AND digest IS NULL)",
                )?
                .query_row(params![session, path, tag], |row| row.get(0))?;
            if legacy {
                // Only a database of schema 1 has such rows: a large text in parts is joined
                // for them.
                let joined;
                let text: &str = if in_blob {
                    joined = text.to_text();
                    &joined
                } else {
                    &row_text
                };
                tx.prepare_cached(
                    "DELETE FROM state_snapshot WHERE session = ?1 AND path = ?2 AND tag = ?3
                     AND digest IS NULL AND text = ?4",
                )?
                .execute(params![session, path, tag, text])?;
            }
            if in_blob {
                blob::place_or_ensure(staged, &self.blobs, &digest, text).map_err(io_error)?;
                tx.prepare_cached("INSERT OR IGNORE INTO state_blob (digest) VALUES (?1)")?
                    .execute(params![digest])?;
            }
            tx.prepare_cached(
                "INSERT INTO state_snapshot (session, path, tag, text, time_ms, digest, in_blob)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                session,
                path,
                tag,
                row_text,
                time,
                digest,
                in_blob
            ])?;
            let versions = sql_int(self.limits.max_versions);
            evicted::remember(
                tx,
                session,
                "SELECT path, tag FROM state_snapshot WHERE session = ?1 AND path = ?2 AND id NOT IN
                 (SELECT id FROM state_snapshot WHERE session = ?1 AND path = ?2
                  ORDER BY id DESC LIMIT ?3) ORDER BY id",
                &[&path, &versions],
            )?;
            // Only the two evictions below can leave a blob no row refers to (the row of the
            // same text removed above is inserted again): the blobs are swept after them alone.
            let mut evicted_rows = tx
                .prepare_cached(
                    "DELETE FROM state_snapshot WHERE session = ?1 AND path = ?2 AND id NOT IN
                     (SELECT id FROM state_snapshot WHERE session = ?1 AND path = ?2
                      ORDER BY id DESC LIMIT ?3)",
                )?
                .execute(params![session, path, sql_int(self.limits.max_versions)])?;
            tx.prepare_cached(
                "INSERT INTO state_path (session, path, used) VALUES (?1, ?2,
                 (SELECT COALESCE(MAX(used), 0) + 1 FROM state_path WHERE session = ?1))
                 ON CONFLICT (session, path) DO UPDATE SET used = excluded.used",
            )?
            .execute(params![session, path])?;
            let keep = sql_int(self.limits.max_paths);
            evicted::remember(
                tx,
                session,
                "SELECT path, tag FROM state_snapshot WHERE session = ?1 AND path IN
                 (SELECT path FROM state_path WHERE session = ?1 ORDER BY used DESC LIMIT -1 OFFSET ?2)
                 ORDER BY id",
                &[&keep],
            )?;
            evicted_rows += tx
                .prepare_cached(
                    "DELETE FROM state_snapshot WHERE session = ?1 AND path IN
                     (SELECT path FROM state_path WHERE session = ?1 ORDER BY used DESC LIMIT -1 OFFSET ?2)",
                )?
                .execute(params![session, keep])?;
            tx.prepare_cached(
                "DELETE FROM state_path WHERE session = ?1 AND path IN
                 (SELECT path FROM state_path WHERE session = ?1 ORDER BY used DESC LIMIT -1 OFFSET ?2)",
            )?
            .execute(params![session, keep])?;
            if evicted_rows > 0 {
                self.collect_blobs(tx)?;
            }
            Ok(())
        })?;
        Ok(tag)
    }
}
