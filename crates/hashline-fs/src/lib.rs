//! The file system seam of hashline: where a request's paths land and how changes reach the
//! disk. It sits below the engine (`hashline-apply`) and the preview queue; no other library
//! crate opens files for writing.
//!
//! * [`Disk`]: the file system every command runs on: the [`Workspace`], a [`MemoryDisk`]
//!   (in-memory files), or the caller's own; [`Change`] is one change of a [`Disk::write`].
//! * [`Workspace`]: the canonical root every path is confined to; [`Workspace::resolve`] turns a
//!   request path into a [`Target`] (symlink chains followed component by component, refusing
//!   any step that leaves the root), [`Workspace::read`] reads it, [`Workspace::lock`] takes
//!   inter-process locks ([`LockGuard`]).
//! * [`Transaction`]: several file changes (write, delete, rename) that land all or nothing,
//!   each atomically (temp file + rename), keeping permissions and hard links. The new bytes
//!   of a change are a [`Content`]: one buffer, or the parts of a text written part by part.
//! * The journal (`journal.rs`, `recover.rs`): every commit is journaled first, so a killed
//!   commit is finished or undone by the next call ([`Workspace::recover`]).
//! * Symlinks (`links.rs`): a deletion of a symlink removes the link itself
//!   ([`Workspace::link`], [`Workspace::remove_links`]).
//! * The undo log (`undo_log.rs`, `undo.rs`): the old bytes of the files each committed call
//!   changed, bounded, for [`Workspace::undo`].
//! * Directory handles (`beneath.rs`): every read and write goes through directories opened
//!   from the root without following symlinks; special files are refused unopened; reads are
//!   bounded ([`max_file_bytes`]).
//! * [`FsError`]: every failure, each with a stable [`hashline_core::ErrorCode`].
//!
//! Typical use: resolve → lock → read → compute → [`Transaction::commit`] while still holding the
//! lock.

mod attrs;
mod beneath;
mod content;
pub mod disk;
mod env;
mod error;
mod journal;
mod links;
mod lock;
mod recover;
mod resolve;
mod seal;
mod stage;
mod transaction;
mod trust;
mod undo;
mod undo_log;
mod workspace;

pub use beneath::{max_file_bytes, DEFAULT_MAX_FILE_BYTES, MAX_FILE_BYTES_ENV};
pub use content::Content;
pub use disk::{normalize_path, Change, Disk, Entry, MemoryDisk, Written, UNDO_NOT_RECORDED};
pub use env::env_problems;
pub use error::FsError;
pub use lock::{
    lock_timeout, LockGuard, DEFAULT_LOCK_TIMEOUT, LOCK_SLOTS, LOCK_TIMEOUT_ENV, MAX_LOCK_TIMEOUT,
};
pub use recover::Recovery;
pub use transaction::Transaction;
pub use undo::{UndoEntry, Undone, UndoneFile};
pub use undo_log::{
    undo_max_bytes, undo_max_calls, DEFAULT_UNDO_MAX_BYTES, DEFAULT_UNDO_MAX_CALLS,
    UNDO_MAX_BYTES_ENV, UNDO_MAX_CALLS_ENV,
};
pub use workspace::{Target, Workspace};
