//! `write` over an existing file: only one the session has read (docs/ERRORS.md `E_NOT_READ`).
//!
//! The seeds' `write` (seed 001's host, whose auto-read is the contract for files that were
//! read) says nothing of a file the model never saw; replacing one blindly is how an agent
//! destroys work it did not know was there. So an existing file is replaced only when the
//! session recorded a version of it (a `read`, `edit` or `write` of it), or with `--overwrite`;
//! a new file is always created.

use hashline_core::ErrorCode;
use hashline_state::SnapshotStore;

/// `Err` (the refusal) when the session never recorded a version of `key`. A store that cannot
/// be read does not block the write (the state is a cache: the seed writes without it).
pub(crate) fn check_read(
    store: &dyn SnapshotStore,
    key: &str,
    path: &str,
) -> Result<(), (ErrorCode, String)> {
    match store.head(key) {
        Ok(None) => Err((
            ErrorCode::NotRead,
            format!(
                "Refusing to replace {path}: it exists and this session has not read it, so its content would be lost unseen. Read it first (then write again) or edit it instead; `write --overwrite` (CLI; `overwrite: true` over MCP) replaces it unread. Nothing was written."
            ),
        )),
        Ok(Some(_)) | Err(_) => Ok(()),
    }
}
