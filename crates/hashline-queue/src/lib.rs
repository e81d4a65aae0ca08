//! The preview/resolve queue of structural rewrites, persisted in the session state.
//!
//! An ast_edit call only previews ([`hashline_ast::preview()`]); the preview is queued here with
//! its request and, per file, a [`Fingerprint`] of the previewed bytes and the exact edits
//! (byte ranges and new text). Later, in another process if need be:
//!
//! * [`PreviewQueue::apply`] checks the fingerprint of **every** file of the preview first and
//!   refuses a stale preview ([`QueueError::Stale`], `E_STALE_PREVIEW`) before writing anything;
//!   otherwise it writes all files through one [`hashline_apply::fs::Transaction`] (all or
//!   nothing) and removes the preview. `only` applies just the chosen matches.
//! * [`PreviewQueue::discard`] drops a preview; [`PreviewQueue::list`] shows the pending ones.
//!
//! The queue lives in the session store's SQLite database (table `queue_preview`, via
//! [`hashline_state::SqliteStore::connection`]) or, for in-process use, in memory.
//!
//! ```
//! use hashline_queue::PreviewQueue;
//!
//! let queue = PreviewQueue::in_memory("default")?;
//! assert!(queue.list()?.is_empty());
//! assert!(queue.discard(None)?.is_none()); // nothing to discard
//! # Ok::<(), hashline_queue::QueueError>(())
//! ```

mod apply;
mod error;
mod model;
mod queue;

pub use apply::{Applied, AppliedFile};
pub use error::QueueError;
pub use model::{label, replacements_in_files, Fingerprint, PreviewId, QueuedFile, QueuedPreview};
pub use queue::PreviewQueue;

#[cfg(test)]
mod tests;
