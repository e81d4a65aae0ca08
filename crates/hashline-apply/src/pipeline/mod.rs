//! The executor every dialect shares: a request's files from name to disk.
//!
//! A dialect is a front end ([`front::FrontEnd`]): it parses its request, plans each file
//! (anchors checked, stale ones carried over through [`crate::merge`], edits lowered to core
//! [`Edit`]s in the disk's line numbers) and renders its seed's texts. Everything else is here,
//! once:
//!
//! * [`execute`]: resolve and lock every target, read, plan, splice, guard, encode, commit,
//!   record: [`execute::execute`].
//! * [`front`]: what a front end supplies and what it gets back.
//! * [`disk`]: the file system seam (the tool's `Workspace`, or in-memory files).
//! * [`stage`]: splice, the edit guard (the one place a [`crate::guard`] subject is built) and
//!   the encoding with the re-read rule.
//! * [`commit`]: every staged file of a call written in one [`crate::fs::Transaction`] (all or
//!   nothing), then recorded in the session store.
//! * [`files`]: a `read` command's open and decode; the read-only check.
//! * [`report`]: the [`crate::FileReport`] of a read or a change.
//! * [`recorded`]: stale safety for text-matching dialects: plan on the version the session
//!   recorded, carry onto the live text or refuse.
//!
//! [`Edit`]: hashline_core::Edit

pub(crate) mod commit;
pub(crate) use hashline_fs::disk;
pub(crate) mod execute;
pub(crate) mod files;
pub(crate) mod front;
pub(crate) mod links;
pub(crate) mod new_text;
pub(crate) mod recorded;
pub(crate) mod report;
pub(crate) mod stage;
