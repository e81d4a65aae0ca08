//! The executor every dialect shares: what happens to a request once its front end resolved it.
//!
//! A dialect is a front end: it parses its request, checks its anchors (carrying stale ones
//! over through [`crate::merge`]), lowers them to core [`Edit`]s in the disk's line numbers and
//! renders its seed's texts. The stages after that are here, once:
//!
//! * [`stage`]: splice the edits into the decoded file, run the edit guard (the one place a
//!   [`crate::guard`] subject is built: the front end passes its [`Front`], how its seed renders
//!   an anchor and names an edit), and encode the result with the re-read rule.
//!
//! * [`files`]: file-level steps: lock and read the targets; the read-only check; a `read`
//!   command's open and decode.
//! * [`commit`]: every staged file of a call written in one [`crate::fs::Transaction`] (all or
//!   nothing), then recorded in the session store.
//! * [`report`]: the [`crate::FileReport`] of a read or a change.
//!
//! [`Edit`]: hashline_core::Edit

pub(crate) mod commit;
pub(crate) mod files;
pub(crate) mod report;
pub(crate) mod stage;

pub(crate) use stage::Front;
