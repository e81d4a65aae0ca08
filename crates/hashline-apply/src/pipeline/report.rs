//! The per-file facts every command reports ([`FileReport`]), built the same way for every
//! dialect.

use hashline_anchor::tag::file_tag;

use crate::anchors::{regions, AnchorForm};
use crate::diff::unified_and_first;
use crate::{FileOp, FileReport};

/// The report of a read of `path` (as the request named it) whose LF text is `text`.
pub(crate) fn read_report(path: &str, text: &str) -> FileReport {
    FileReport {
        path: path.to_owned(),
        new_path: None,
        op: FileOp::Read,
        tag: Some(file_tag(text)),
        diff: String::new(),
        first_changed_line: None,
        written: false,
        anchors: Vec::new(),
    }
}

/// Where a change report's first changed line comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FirstLine {
    /// The report's own diff ([`crate::diff::first_changed_line`], without diffing again).
    Diff,
    /// As the dialect counts it.
    Given(Option<usize>),
}

/// The report of a change of `path` from `old` to `new` (LF texts): the unified diff and the
/// new text's tag; `first` says where the first changed line comes from. A written change
/// that leaves the file reports the fresh anchors of its changed regions in `form` (`None`: the
/// dialect shows none, as lineid-json's seed reply).
pub(crate) fn change_report(
    path: &str,
    op: FileOp,
    (old, new): (&str, &str),
    (first, form): (FirstLine, Option<AnchorForm>),
    written: bool,
) -> FileReport {
    let (diff, from_diff) = unified_and_first(old, new, path);
    let first = match first {
        FirstLine::Diff => from_diff,
        FirstLine::Given(line) => line,
    };
    let anchors = match form {
        Some(form) if written && op != FileOp::Delete => regions(old, new, form),
        _ => Vec::new(),
    };
    FileReport {
        path: path.to_owned(),
        new_path: None,
        op,
        tag: Some(file_tag(new)),
        diff,
        first_changed_line: first,
        written,
        anchors,
    }
}

/// The report of a request that left `path` (whose LF text is `text`) as it was.
pub(crate) fn noop_report(path: &str, text: &str) -> FileReport {
    FileReport {
        op: FileOp::Noop,
        ..read_report(path, text)
    }
}
