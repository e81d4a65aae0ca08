//! The `LINE#ID` JSON edit dialect (seed `004`, oh-my-opencode's hashline `edit` tool):
//! `read --anchors lineid` ([`read`]) and `edit --dialect lineid-json` ([`edit`]).
//!
//! Behaviour: `../shared/docs/dialects/lineid-json.md`, except where
//! `../shared/conformance/DEVIATIONS.md` decides otherwise (every deviation is named where it is
//! implemented). Modules:
//! * `plan`: references, de-duplication, order, validation, lowering to core edits;
//!   `overlap`: edits that touch the same lines.
//! * `payload`, `autocorrect`: the autocorrections (each one reported as a warning).
//! * `report`: the `>>>` mismatch report. `rebase`: anchors from an older recorded read.
//! * `error`: [`EngineError`], the refusals with their exact text and code.
//!
//! Rename onto an existing file: refused with `E_FILE_EXISTS` unless the request carries
//! `"overwrite": true` (the seed's schema has no such field; the peer silently replaces the
//! destination, which loses a file the model never read). A rename of a file that does not
//! exist is refused too (the peer writes the new path, then fails to remove the missing one).

mod autocorrect;
mod dialect;
mod error;
mod execute;
mod overlap;
mod payload;
mod plan;
mod rebase;
mod report;

pub use dialect::DIALECT;
pub use error::EngineError;
pub use execute::{edit, read};

/// Options of [`edit`].
#[derive(Debug, Clone, Copy, Default)]
pub struct EditOptions<'a> {
    /// Compute and report everything, write nothing (the session store is not touched either).
    pub dry_run: bool,
    /// The edit guard's options.
    pub guard: crate::guard::GuardOptions<'a>,
    /// The reply carries the fresh anchors of the changed region (`files[].anchors`: `--json`,
    /// MCP, `edit --show-anchors`), so the new text is a version the session has seen and is
    /// recorded: the next edit may use those anchors. Without it (the seed's reply, which shows
    /// no anchors) the result is not recorded and the next edit's anchors come from the last
    /// read.
    pub fresh_anchors: bool,
}
