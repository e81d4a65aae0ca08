//! The preview/resolve queue of structural rewrites, persisted in the session state.
//!
//! An ast_edit call only previews ([`hashline_ast::preview()`]); the preview is queued here with
//! its request and, per file, a [`Fingerprint`] of the previewed bytes and the exact edits
//! (byte ranges and new text). Later, in another process if need be:
//!
//! * [`PreviewQueue::apply`] checks the fingerprint of **every** file of the preview first and
//!   refuses a stale preview ([`QueueError::Stale`], `E_STALE_PREVIEW`) before writing anything;
//!   otherwise it writes all files through one [`hashline_fs::Disk::write`] (all or
//!   nothing; one [`hashline_fs::Transaction`] on a workspace) and removes the
//!   preview. `only` applies just the chosen matches.
//! * [`PreviewQueue::discard`] drops a preview; [`PreviewQueue::list`] shows the pending ones.
//!
//! The queue lives in the session store's SQLite database (table `queue_preview`, via
//! `hashline_state::SqliteStore::connection`; feature `sqlite`, on by default) or, for
//! in-process use, in memory (no SQLite needed).
//!
//! ```
//! use hashline_fs::Workspace;
//! use hashline_ast::{preview, RewriteRequest, Rule};
//! use hashline_queue::PreviewQueue;
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.ts"), "foo(1);\nfoo(2);\n").unwrap();
//! let ws = Workspace::new(dir.path()).unwrap();
//! let request = RewriteRequest::new(ws.root(), vec![Rule::new("foo($A)", "bar($A)")], vec![".".into()]);
//! let plan = preview(&request).unwrap();
//!
//! let queue = PreviewQueue::in_memory("default")?;
//! let id = queue.push(&request, &plan)?; // nothing written yet
//! assert_eq!(std::fs::read_to_string(dir.path().join("a.ts")).unwrap(), "foo(1);\nfoo(2);\n");
//! let applied = queue.apply(&ws, Some(id), None)?; // fingerprints checked, then one transaction
//! assert_eq!(applied.replacements(), 2);
//! assert_eq!(std::fs::read_to_string(dir.path().join("a.ts")).unwrap(), "bar(1);\nbar(2);\n");
//! assert!(queue.list()?.is_empty());
//! # Ok::<(), hashline_queue::QueueError>(())
//! ```

mod apply;
mod error;
mod memory;
mod model;
mod queue;
#[cfg(feature = "sqlite")]
mod sql;

pub use apply::{Applied, AppliedFile};
pub use error::QueueError;
pub use model::{label, replacements_in_files, Fingerprint, PreviewId, QueuedFile, QueuedPreview};
pub use queue::PreviewQueue;

#[cfg(test)]
mod tests;
