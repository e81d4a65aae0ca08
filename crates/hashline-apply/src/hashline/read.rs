//! `read --anchors tag` (seed `000` §g): `¶<path>#<TAG>` and `N:TEXT` rows; the whole LF text is
//! recorded in the session store so a later edit's tag is recognized.

use hashline_anchor::tag::{check_read_range, file_tag, render_read};
use hashline_core::{ErrorCode, TextFile};
use hashline_state::SnapshotStore;

use crate::fs::Workspace;
use crate::{FileOp, FileReport, Outcome};

use super::messages;

/// Read `path` with hashline anchors. `offset` is the 1-based first line (default 1), `limit`
/// the number of lines (default all). The whole text is recorded in `store` (also for a range
/// read). Unlike the seed, which shows files over 4 MiB without a header (so they cannot be
/// edited by line number), every file gets its tag: large generated files are edited too.
pub fn read(
    ws: &Workspace,
    store: &dyn SnapshotStore,
    path: &str,
    offset: Option<usize>,
    limit: Option<usize>,
) -> Outcome {
    let target = match ws.resolve(path) {
        Ok(t) => t,
        Err(e) => return Outcome::refused(e.code(), e.to_string()),
    };
    // A hard-linked file is rewritten in place: wait for a running edit rather than show half.
    let _guard = match ws.lock_for_read(&target) {
        Ok(guard) => guard,
        Err(e) => return Outcome::refused(e.code(), e.to_string()),
    };
    let bytes = match ws.read(&target) {
        Ok(Some(b)) => b,
        Ok(None) => {
            return Outcome::refused(ErrorCode::FileNotFound, messages::file_not_found(path))
        }
        Err(e) => return Outcome::refused(e.code(), e.to_string()),
    };
    // Only the text is needed from here on: drop the bytes (a 100 MB file is 100 MB less peak).
    let (_, text) = TextFile::decode(bytes).into_parts();
    let text = text.as_str();
    if let Err(e) = check_read_range(text, offset) {
        return Outcome::refused(e.code(), e.to_string());
    }
    if let Err(e) = store.record(&target.key, text) {
        return Outcome::refused(ErrorCode::Io, e.to_string());
    }
    let shown = render_read(path, text, offset, limit);
    let tag = Some(file_tag(text));
    Outcome {
        ok: true,
        code: None,
        text: shown,
        warnings: Vec::new(),
        files: vec![FileReport {
            path: path.to_string(),
            new_path: None,
            op: FileOp::Read,
            tag,
            diff: String::new(),
            first_changed_line: None,
            written: false,
        }],
    }
}
