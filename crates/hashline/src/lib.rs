//! hashline: read files with anchors, apply small anchored patches exactly or refuse them.
//!
//! This facade composes the engine crates into one API, the `hashline` command line (feature
//! `cli`, on by default) and its MCP server (feature `mcp`, on by default). An agent holds a
//! [`Session`] for a whole session: [`Session::read`] shows a file with anchors and records what
//! it showed, [`Session::edit`] applies a patch against those anchors (in any of five patch
//! formats, or `auto`, which tells them apart)
//! or refuses it, [`Session::write`] creates or replaces a file, [`Session::ast_edit`] previews
//! a structural rewrite that [`Session::resolve`] applies. Each returns an [`Answer`]:
//! `Ok(`[`Reply`]`)` with the model-facing text (exactly what the seed tool of that dialect
//! would return), the coded [`Warning`]s, the files with their fresh anchors and the undo id,
//! or `Err(`[`Refusal`]`)` with a stable [`ErrorCode`] and a text that says what to do next.
//! A refused call leaves every file byte-identical.
//!
//! A session runs over a directory ([`Session::open`]) or any [`Disk`]
//! ([`Session::with_disk`]): [`MemoryDisk`] holds a virtual tree in memory, and an embedder may
//! implement [`Disk`] for its own file system. `Session` is `Send + Sync`.
//!
//! ```
//! use std::sync::Arc;
//! use hashline::{Dialect, EditOptions, ErrorCode, MemoryDisk, ReadOptions, Session, StateConfig};
//!
//! let tree = Arc::new(MemoryDisk::with_files([("src/a.rs", "fn a() {}\nfn b() {}\n")]));
//! let session = Session::with_disk(tree.clone(), &StateConfig::Memory)?;
//!
//! // The read: `¶src/a.rs#TAG`, then `N:TEXT` rows.
//! let read = session.read("src/a.rs", &ReadOptions::new())?;
//! let header = read.text().lines().next().unwrap();
//! assert!(header.starts_with("¶src/a.rs#"));
//!
//! // An edit against those anchors lands; the reply carries the new tag and the undo id.
//! let patch = format!("{header}\nreplace 2..2:\n+fn b() -> u8 {{ 1 }}\n");
//! let edit = session.edit(&patch, Dialect::Auto, &EditOptions::new())?;
//! assert_eq!(edit.warnings().count(), 0);
//! assert_eq!(tree.get("src/a.rs").unwrap(), b"fn a() {}\nfn b() -> u8 { 1 }\n");
//!
//! // The file changes under the session; an edit of the changed line with the old anchors
//! // is refused, and nothing is written.
//! tree.insert("src/a.rs", "fn z() {}\n");
//! let stale = session.edit(&patch, Dialect::Auto, &EditOptions::new()).unwrap_err();
//! assert_eq!(stale.code(), ErrorCode::StaleAnchor);
//! assert_eq!(tree.get("src/a.rs").unwrap(), b"fn z() {}\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Structural rewrites go through a queue (over a directory or any [`Disk`]):
//! [`Session::ast_edit`] previews and queues, [`Session::resolve`] applies (after checking that no previewed file changed),
//! discards or lists (see `examples/embed.rs`). [`Engine`] is the same API returning bare
//! [`Outcome`]s; [`Response`] is the form the command line and the MCP server present. The CLI and the MCP server ([`mcp`], `hashline mcp`) are thin layers over
//! [`Session`].
//!
//! Layers below this crate: `hashline-core` (IR, text model, codes), `hashline-anchor`
//! (tags, hashes, IDs), `hashline-syntax` (parsers), `hashline-fs` (the [`Disk`] seam,
//! confinement, the all-or-nothing writer, recovery, undo log), `hashline-state` (snapshot
//! store), `hashline-apply` (the dialects, the executor, the guard, re-exporting
//! `hashline-fs` as `fs`), `hashline-ast` (tree-sitter), `hashline-queue`.

mod ast_edit;
mod database;
mod diagnostic;
mod dialect;
mod engine;
mod fresh;
pub mod grammar;
#[cfg(feature = "mcp")]
pub mod mcp;
mod options;
mod read_range;
mod reply;
mod session;
mod state;
mod undo;
mod write_rule;

pub use ast_edit::{
    AstEditOptions, AstEditOutcome, MatchReport, PendingReport, PreviewId, PreviewReport,
    ResolveAction, ResolveOutcome, ResolveReport, Rule,
};
pub use diagnostic::{parse_diagnostic, PatchDiagnostic};
pub use dialect::{Anchors, Dialect};
pub use engine::{Engine, EngineConfig, Error, StateConfig};
pub use hashline_apply::fs::{FsError, LockGuard, Target};
pub use hashline_apply::{Change, Disk, Entry, FileOp, FileReport, MemoryDisk, Outcome};
pub use hashline_core::ErrorCode;
pub use hashline_state::PruneRule;
pub use options::{EditOptions, ReadOptions};
pub use reply::{Answer, Refusal, Reply, Warning};
pub use session::{Response, Session, JSON_SCHEMA_VERSION};
pub use state::{
    auto_prune_rule, env_problems, parse_age, parse_bytes, DatabaseReport, SessionReport,
    StateAction, StateOutcome, DEFAULT_MAX_AGE, DEFAULT_MAX_BYTES,
};
