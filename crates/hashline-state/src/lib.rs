//! The per-session snapshot store: which versions of a file this session has seen.
//!
//! `read`, `write` and every committed edit record the text they showed or wrote; an edit whose
//! tag names an older recorded version can then be recovered (hashline language) or re-based
//! (JSON dialects) instead of landing on the wrong line. Keys are canonical path strings.
//!
//! * [`SnapshotStore`]: the trait every engine takes.
//! * [`MemoryStore`]: bounded in-memory LRU (30 paths × 4 versions, the seed's limits).
//! * `SqliteStore` (feature `sqlite`): the same contract on SQLite in WAL mode, shared by
//!   several processes of one session.
//!
//! ```
//! use hashline_state::{MemoryStore, SnapshotStore};
//!
//! let store = MemoryStore::new();
//! let old = store.record("/repo/a.txt", "one\n")?; // the tag the read showed
//! store.record("/repo/a.txt", "one\ntwo\n")?;
//! assert_eq!(store.head("/repo/a.txt")?.map(|s| s.text).as_deref(), Some("one\ntwo\n"));
//! // An edit against the old tag finds the version it was written for.
//! let then = store.by_tag("/repo/a.txt", &old)?.expect("still recorded");
//! assert_eq!(then.text, "one\n");
//! # Ok::<(), hashline_state::StoreError>(())
//! ```

#[cfg(feature = "sqlite")]
mod evicted;
mod limits;
mod memory;
mod session_info;
#[cfg(feature = "sqlite")]
mod sessions;
#[cfg(feature = "sqlite")]
mod sqlite;
mod undo;

#[cfg(any(feature = "sqlite", test))]
pub(crate) use hashline_anchor::tag::file_tag;
pub use hashline_anchor::tag::Tagged;
use hashline_core::Pieces;
pub(crate) use limits::{now_ms, Limits};

pub use memory::MemoryStore;
/// The `rusqlite` this crate links, for crates that keep tables beside the store (through
/// [`SqliteStore::connection`]) without pinning a second copy.
#[cfg(feature = "sqlite")]
pub use rusqlite;
pub use session_info::{PruneRule, Pruned, SessionInfo};
#[cfg(feature = "sqlite")]
pub use sessions::AUTO_PRUNE_EVERY_MS;
#[cfg(feature = "sqlite")]
pub use sqlite::{SqliteStore, DB_FILE as SQLITE_DB_FILE, SCHEMA_VERSION as SQLITE_SCHEMA_VERSION};
pub use undo::{UndoEntry, MAX_UNDO};

/// Paths a store keeps at most (the seed's limit).
pub const MAX_PATHS: usize = 30;
/// Versions a store keeps per path at most (the seed's limit).
pub const MAX_VERSIONS: usize = 4;
/// Evicted versions a store remembers the tags of (per session, newest first), so that a
/// refusal can say a tag was read but has been evicted ([`SnapshotStore::evicted`]).
pub const MAX_EVICTED: usize = 256;

/// One recorded version of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The canonical path it was recorded under.
    pub path: String,
    /// The text: BOM-free, line endings as `\n`.
    pub text: String,
    /// The hashline tag of `text` (4 upper-hex digits).
    pub tag: String,
    /// When it was (last) recorded, in milliseconds since the Unix epoch.
    pub time_ms: u64,
}

/// Failures of a persistent store (the in-memory store never fails).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The database could not be opened, read or written.
    #[error("session state at {path}: {message}")]
    Backend {
        /// The state location.
        path: String,
        /// What went wrong.
        message: String,
    },
}

impl StoreError {
    /// The stable code of this failure: the state is I/O outside the patch.
    pub fn code(&self) -> hashline_core::ErrorCode {
        match self {
            StoreError::Backend { .. } => hashline_core::ErrorCode::Io,
        }
    }
}

/// The per-session snapshot store (seed `000` §a).
///
/// Contract (pinned by `../shared/conformance/hashline/store-scenarios.json`):
/// * `record(path, text)` computes the tag of `text`; if that path already has a version with
///   that tag and that text, it is refreshed and becomes the head (read fusion); otherwise a new
///   version is pushed as head and the path keeps at most [`MAX_VERSIONS`] versions. (The seed
///   fuses on the tag alone; two texts whose 16-bit tags collide are kept apart here, so an
///   engine can tell that a tag names more than one text — [`SnapshotStore::tag_collides`].)
///   At most [`MAX_PATHS`] paths are kept, least recently used dropped first
///   (`head`, `by_tag` and `record` all refresh recency).
/// * The tags of evicted versions are remembered (bounded, [`MAX_EVICTED`]):
///   [`SnapshotStore::evicted`].
/// * `head(path)`: the newest version. `by_tag(path, tag)`: the newest version of that path
///   with that tag. `versions(path)`: all, newest first.
pub trait SnapshotStore: Send + Sync {
    /// Record `text` as the newest version of `path`; returns its tag.
    fn record(&self, path: &str, text: &str) -> Result<String, StoreError>;
    /// [`SnapshotStore::record`] of a text whose tag is known already: the store takes the
    /// tag from `tagged` instead of hashing the text again. The default records its text.
    fn record_tagged(&self, path: &str, tagged: &Tagged<'_>) -> Result<String, StoreError> {
        self.record(path, tagged.text())
    }
    /// `text` is about to be [recorded](SnapshotStore::record): a store may do the costly,
    /// invisible part of that now (on another thread, while the file is being written), such
    /// as compressing it into its blob. Nothing is recorded, and what was prepared but never
    /// recorded must be harmless (a failed write [discards](SnapshotStore::discard) it; a
    /// killed process leaves it to a later sweep). The default does nothing.
    fn prepare(&self, text: &str) {
        let _ = text;
    }
    /// `text` was [prepared](SnapshotStore::prepare) but will not be recorded after all (the
    /// write failed): what was prepared for it goes now unless something else uses it. The
    /// default does nothing.
    fn discard(&self, text: &str) {
        let _ = text;
    }
    /// [`SnapshotStore::record`] of the text `text` is made of (an edited file's new text,
    /// held as the parts it was spliced from): the same tag, rows and read fusion as
    /// recording the joined text. `tag`, when given, must be that text's tag
    /// ([`hashline_anchor::tag::file_tag_pieces`]): it is not hashed again. A store may record
    /// it without joining it; the default joins it (unless it is one part) and records that.
    fn record_pieces(
        &self,
        path: &str,
        text: &Pieces<'_>,
        tag: Option<&str>,
    ) -> Result<String, StoreError> {
        let text = text.to_text();
        match tag {
            Some(tag) => {
                let known = std::sync::OnceLock::from(tag.to_owned());
                self.record_tagged(path, &Tagged::cached(&text, &known))
            }
            None => self.record(path, &text),
        }
    }
    /// [`SnapshotStore::prepare`] of the text `text` is made of, which is about to be
    /// [recorded](SnapshotStore::record_pieces). The default prepares a text of one part and
    /// does nothing for others (it would have to join them).
    fn prepare_pieces(&self, text: &Pieces<'_>) {
        if let Some(whole) = text.as_whole() {
            self.prepare(whole);
        }
    }
    /// [`SnapshotStore::discard`] of the text `text` is made of, [prepared](
    /// SnapshotStore::prepare_pieces) but not recorded after all. The default discards a text
    /// of one part and does nothing for others (as [`SnapshotStore::prepare_pieces`]).
    fn discard_pieces(&self, text: &Pieces<'_>) {
        if let Some(whole) = text.as_whole() {
            self.discard(whole);
        }
    }
    /// The newest version of `path`.
    fn head(&self, path: &str) -> Result<Option<Snapshot>, StoreError>;
    /// Whether the newest version of `path` is `text` (`None`: the path has none), refreshing
    /// its recency as [`SnapshotStore::head`] does. A store that can tell without loading the
    /// version (a digest) should: the caller holds `text` already. The default loads the head.
    fn head_holds(&self, path: &str, text: &str) -> Result<Option<bool>, StoreError> {
        Ok(self.head(path)?.map(|head| head.text == text))
    }
    /// The version of `path` whose tag is `tag`.
    fn by_tag(&self, path: &str, tag: &str) -> Result<Option<Snapshot>, StoreError>;
    /// Every version of `path`, newest first.
    fn versions(&self, path: &str) -> Result<Vec<Snapshot>, StoreError>;
    /// [`SnapshotStore::versions`], with `None` in the place of each version whose text is
    /// `text` (which the caller holds: a store that can tell by a digest loads none of them).
    fn versions_except(&self, path: &str, text: &str) -> Result<Vec<Option<Snapshot>>, StoreError> {
        Ok(self
            .versions(path)?
            .into_iter()
            .map(|v| (v.text != text).then_some(v))
            .collect())
    }
    /// Whether `path` has a recorded version tagged `tag` whose text is not `text`: two texts of
    /// the session share the 16-bit tag, so the tag alone does not say which one a request was
    /// written against.
    fn tag_collides(&self, path: &str, tag: &str, text: &str) -> Result<bool, StoreError> {
        Ok(self
            .versions(path)?
            .iter()
            .any(|v| v.tag == tag && v.text != text))
    }
    /// Push `entry` as the newest undo entry of `path`; the oldest beyond [`MAX_UNDO`] is
    /// dropped.
    fn push_undo(&self, path: &str, entry: &UndoEntry) -> Result<(), StoreError>;
    /// Remove and return the newest undo entry of `path`.
    fn pop_undo(&self, path: &str) -> Result<Option<UndoEntry>, StoreError>;
    /// Whether `path` had a version tagged `tag` that was evicted by the store's bounds (more
    /// than [`MAX_VERSIONS`] versions of the path, or more than [`MAX_PATHS`] paths): it was
    /// read in this session but can no longer be looked up. Only the tags are kept, of the
    /// last [`MAX_EVICTED`] evictions; a store that keeps none answers `false`.
    fn evicted(&self, _path: &str, _tag: &str) -> Result<bool, StoreError> {
        Ok(false)
    }
    /// Forget `path`.
    fn invalidate(&self, path: &str) -> Result<(), StoreError>;
    /// Forget everything.
    fn clear(&self) -> Result<(), StoreError>;
}
