//! The file system seam: where a request's paths land and how changes reach the disk.
//!
//! * [`Workspace`]: the canonical root every path is confined to; [`Workspace::resolve`] turns a
//!   request path into a [`Target`] (symlink chains followed component by component, refusing
//!   any step that leaves the root), [`Workspace::read`] reads it, [`Workspace::lock`] takes
//!   inter-process locks ([`LockGuard`]).
//! * [`Transaction`]: several file changes (write, delete, rename) that land all or nothing,
//!   each atomically (temp file + rename), keeping permissions and hard links.
//! * [`FsError`]: every failure, each with a stable [`hashline_core::ErrorCode`].
//!
//! Typical use: resolve → lock → read → compute → [`Transaction::commit`] while still holding the
//! lock.

mod attrs;
mod error;
mod lock;
mod resolve;
mod stage;
mod transaction;
mod workspace;

pub use error::FsError;
pub use lock::LockGuard;
pub use transaction::Transaction;
pub use workspace::{Target, Workspace};
