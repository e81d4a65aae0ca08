//! The per-file facts every command reports ([`FileReport`]), built the same way for every
//! dialect.

use hashline_anchor::tag::file_tag;
use hashline_core::{LineChange, Pieces};

use crate::anchors::{regions_of, AnchorForm};
use crate::diff::LineDiff;
use crate::{FileOp, FileReport};

/// The report of a read of `path` (as the request named it) whose LF text's tag is `tag`.
pub(crate) fn read_report(path: &str, tag: String) -> FileReport {
    FileReport {
        path: path.to_owned(),
        new_path: None,
        op: FileOp::Read,
        tag: Some(tag),
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

/// The report of a change of `path` from `old` to `new` (LF texts; `changes`: the stretches
/// the edits changed, when known, [`LineDiff::of_changed`]): the unified diff and the new
/// text's tag; `first` says where the first changed line comes from. A written change that
/// leaves the file reports the fresh anchors of its changed regions in `form` (`None`: the
/// dialect shows none, as lineid-json's seed reply).
pub(crate) fn change_report(
    path: &str,
    op: FileOp,
    (old, new, changes): (&str, &NewTagged<'_>, Option<&[LineChange]>),
    (first, form): (FirstLine, Option<AnchorForm>),
    written: bool,
) -> FileReport {
    let diff = LineDiff::of_pieces(&Pieces::whole(old), &new.text, changes);
    let mut shown = Shown::of(&diff, path, new.tag);
    if let FirstLine::Given(line) = first {
        shown.first = line;
    }
    change_report_shown(path, op, (old, &new.text), shown, (form, written))
}

/// A new text (held in pieces) and its tag.
pub(crate) struct NewTagged<'a> {
    /// The text.
    pub text: Pieces<'a>,
    /// Its whole-file tag.
    pub tag: &'a str,
}

/// What a change report shows of a file's two texts, worked out once (on another thread
/// while the files are committed: [`crate::pipeline::execute::execute_beside`]).
#[derive(Debug, Clone)]
pub(crate) struct Shown {
    /// The unified diff.
    pub unified: String,
    /// The first changed line of the new text (1-based).
    pub first: Option<usize>,
    /// The new text's tag.
    pub tag: String,
}

impl Shown {
    /// What `diff` (of `path`, whose new text's tag is `tag`) shows.
    pub fn of(diff: &LineDiff<'_>, path: &str, tag: &str) -> Shown {
        Shown {
            unified: diff.unified(path),
            first: diff.first_changed_line(),
            tag: tag.to_owned(),
        }
    }
}

/// [`change_report`] of what was already worked out (`shown`); `written` as there, anchors in
/// `form` when written.
pub(crate) fn change_report_shown(
    path: &str,
    op: FileOp,
    (old, new): (&str, &Pieces<'_>),
    shown: Shown,
    (form, written): (Option<AnchorForm>, bool),
) -> FileReport {
    let anchors = match form {
        Some(form) if written && op != FileOp::Delete => regions_of(old, new, form),
        _ => Vec::new(),
    };
    FileReport {
        path: path.to_owned(),
        new_path: None,
        op,
        tag: Some(shown.tag),
        diff: shown.unified,
        first_changed_line: shown.first,
        written,
        anchors,
    }
}

/// The report of a request that left `path` (whose LF text is `text`) as it was.
pub(crate) fn noop_report(path: &str, text: &str) -> FileReport {
    FileReport {
        op: FileOp::Noop,
        ..read_report(path, file_tag(text))
    }
}

/// Record the LF `text` read at `key` in `store`: its tag (the store's, hashed once), and the
/// warning of a store failure, which does not hide the file (the tag is then hashed here).
pub(crate) fn record_read(
    store: &dyn hashline_state::SnapshotStore,
    key: &str,
    text: &str,
) -> (String, Vec<String>) {
    match store.record(key, text) {
        Ok(tag) => (tag, Vec::new()),
        Err(e) => (
            file_tag(text),
            vec![crate::not_recorded("The file was read", &e)],
        ),
    }
}
