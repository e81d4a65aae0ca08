//! `read --anchors tag` (seed `000` §g): `¶<path>#<TAG>` and `N:TEXT` rows; the whole LF text is
//! recorded in the session store so a later edit's tag is recognized.

use hashline_anchor::tag::{line_count, render_read_counted, ReadRangeError};
use hashline_core::ErrorCode;
use hashline_state::SnapshotStore;

use crate::pipeline::files::{open_for_read, read_text, Decoding};
use crate::pipeline::report::{read_report, record_read};
use crate::Disk;
use crate::Outcome;

use super::messages;

/// Read `path` with hashline anchors. `offset` is the 1-based first line (default 1), `limit`
/// the number of lines (default all). The whole text is recorded in `store` (also for a range
/// read). Unlike the seed, which shows files over 4 MiB without a header (so they cannot be
/// edited by line number), every file gets its tag: large generated files are edited too.
pub fn read(
    ws: &dyn Disk,
    store: &dyn SnapshotStore,
    path: &str,
    offset: Option<usize>,
    limit: Option<usize>,
) -> Outcome {
    let opened = match open_for_read(ws, path) {
        Ok(opened) => opened,
        Err(e) => return Outcome::refused(e.code(), e.to_string()),
    };
    let target = &opened.target;
    let text = match read_text(
        ws,
        &opened,
        hashline_core::kind::Nul::Binary,
        Decoding::Utf8,
    ) {
        Ok(Some(text)) => text,
        Ok(None) => {
            return Outcome::refused(ErrorCode::FileNotFound, messages::file_not_found(path))
        }
        Err(e) => return Outcome::refused(e.code(), e.to_string()),
    };
    let text = text.as_str();
    // One count of the lines serves the range check and the rendering.
    let total = line_count(text);
    let start = offset.unwrap_or(1).max(1);
    if start > total {
        let e = ReadRangeError::BeyondEnd {
            offset: start,
            total,
        };
        return Outcome::refused(e.code(), e.to_string());
    }
    // A store failure does not hide the file: the read warns, as an edit does. The store
    // returns the tag it computed, so a large file is hashed once.
    let (tag, warnings) = record_read(store, &target.key, text);
    let shown = render_read_counted(path, text, &tag, total, offset, limit)
        + &crate::warnings_block(&warnings);
    let report = read_report(path, tag);
    Outcome {
        undo: None,
        ok: true,
        code: None,
        text: shown,
        warnings,
        files: vec![report],
    }
}
