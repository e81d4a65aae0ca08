//! Applying edits to files: every dialect's engine, stale-anchor recovery, diffs, and the
//! all-or-nothing writer.
//!
//! * [`anchors`]: the fresh anchors of an edit's changed regions (`files[].anchors`).
//! * [`fs`]: the `hashline-fs` crate, re-exported: the [`fs::Workspace`] (root confinement,
//!   symlink resolution, per-file locks), the [`fs::Transaction`] that writes several files all
//!   or nothing, and [`Disk`], the file system every command runs on (the workspace, a
//!   [`MemoryDisk`], or the caller's own).
//! * [`dialect`]: the [`Dialect`] trait every edit dialect implements, and [`DialectId`],
//!   the handle a caller names one by; [`registry`]: the one list of dialects, from which the
//!   CLI, the MCP tools and `auto` detection read theirs. Each dialect is a module of this
//!   crate, with its parser in `hashline-syntax`.
//! * [`guard`]: the edit guard every dialect's edits pass before anything is written.
//! * [`diff`]: line diffs (imara-diff), numbered/compact previews, unified diffs, and the
//!   diff-based line provenance that keeps untouched lines' bytes.
//! * [`hashline`]: the hashline patch language engine (seed `000`): apply, boundary repair,
//!   recovery, mismatch report, result text, and `read --anchors tag`.
//! * [`hash_json`]: the hash-anchored JSON dialect (seed `001`): `read --anchors hash`, `edit`.
//! * [`lineid_json`]: the `LINE#ID` dialect (seed `004`): `read --anchors lineid`, `edit`.
//! * [`merge`]: the stale-anchor merge every dialect shares (DEVIATIONS §1): edits on a
//!   recorded version carried onto the disk version, or a typed refusal.
//! * `pipeline` (internal): the executor every dialect shares once its front end resolved a
//!   request: splice, guard, encode, one `Transaction`, the session store.
//!
//! Every engine returns an [`Outcome`]: the model-facing text plus structured facts.
//!
//! A read, an edit with its anchors, and an edit with a tag that is not the file's, over
//! in-memory files:
//!
//! ```
//! use hashline_apply::{hashline as hl, MemoryDisk};
//! use hashline_core::ErrorCode;
//! use hashline_state::MemoryStore;
//!
//! let disk = MemoryDisk::with_files([("a.txt", "one\ntwo\n")]);
//! let store = MemoryStore::new();
//! let read = hl::read(&disk, &store, "a.txt", None, None);
//! let header = read.text.lines().next().unwrap(); // ¶a.txt#TAG
//!
//! let opts = hl::EditOptions::default();
//! let done = hl::edit(&disk, &store, &format!("{header}\nreplace 2..2:\n+TWO\n"), &opts);
//! assert!(done.ok, "{}", done.text);
//! assert_eq!(disk.get("a.txt").unwrap(), b"one\nTWO\n");
//!
//! let forged = hl::edit(&disk, &store, "¶a.txt#0000\nreplace 1..1:\n+ONE\n", &opts);
//! assert_eq!(forged.code, Some(ErrorCode::StaleAnchor));
//! assert_eq!(disk.get("a.txt").unwrap(), b"one\nTWO\n");
//! ```

pub mod anchors;
pub mod apply_patch;
pub mod dialect;
pub mod diff;
pub mod guard;
pub mod hash_json;
pub mod hashline;
pub mod lineid_json;
pub mod merge;
mod outcome;
mod pipeline;
pub mod registry;
pub mod str_replace;

pub use dialect::{Anchors, Dialect, DialectId, RunOptions};
pub use fs::Content;
pub use hashline_core::Refusal;
pub use hashline_fs as fs;
pub use hashline_fs::{normalize_path, Change, Disk, Entry, MemoryDisk};
pub use outcome::{not_recorded, warnings_block, FileOp, FileReport, Outcome};
