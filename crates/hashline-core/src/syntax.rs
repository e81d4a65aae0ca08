//! The seam between the edit guard and a parser: did an edit add a syntax error?
//!
//! `hashline-apply` runs every edit through its guard; for files in a language with a compiled-in
//! grammar the guard asks a [`SyntaxCheck`] (implemented with tree-sitter in `hashline-ast`)
//! whether the new text has a syntax error in a region where the old text had none. Keeping the
//! trait here lets the lower crates use it without depending on a parser.

use std::ops::Range;
use std::path::Path;

/// A syntax error that an edit introduced, located in the new text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxIssue {
    /// 1-based line of the new text (LF lines, no BOM) where the parser found the error.
    pub line: usize,
    /// 1-based column (in characters) on that line.
    pub column: usize,
    /// What the parser saw, in a few words (`missing "}"`, `unexpected "@@"`, …).
    pub what: String,
    /// 1-based line of the new text where the erroneous stretch ends (the outermost `ERROR`
    /// node's last line; `line` for a zero-width `MISSING` node).
    pub end_line: usize,
}

/// A layout the edits wrote that the rest of the file never uses: two constructs the file
/// always puts on rows of their own share one (two lines joined by mistake, most often).
/// Found by the parse, reported by the guard as a warning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutNote {
    /// 1-based line of the new text (LF lines, no BOM) that holds the joined constructs.
    pub line: usize,
    /// What is unusual and what the rest of the file does instead, in a sentence.
    pub what: String,
}

/// What one check of an edit found: the syntax error it added, else any layout notes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inspection {
    /// The first syntax error the edits added.
    pub issue: Option<SyntaxIssue>,
    /// Rows the edits wrote in a layout the rest of the file never uses (empty when `issue`
    /// is set).
    pub layout: Vec<LayoutNote>,
}

/// Tells whether an edit added a syntax error.
///
/// Texts are LF-normalized and BOM-free. Implementations must never panic on any input, and
/// should not pay two full parses on a big file (reparse incrementally from the old tree).
pub trait SyntaxCheck: Send + Sync {
    /// Whether a grammar for the file at `path` is compiled in (the guard then trusts the parser
    /// and skips its grammar-free structure checks).
    fn covers(&self, path: &Path) -> bool;

    /// The longest text (either side, in bytes) this checker parses; it reports nothing for a
    /// longer one, so the caller need not build (or join) such a text for it. The default has
    /// no limit.
    fn max_bytes(&self) -> usize {
        usize::MAX
    }

    /// The first syntax error of `after` that lies in a region where `before` had none; `None`
    /// when there is none, or when no grammar covers `path`.
    fn introduced(&self, path: &Path, before: &str, after: &str) -> Option<SyntaxIssue>;

    /// [`SyntaxCheck::introduced`] told where the edits are: `changes` are the stretches of
    /// lines the edits changed, sorted and disjoint. A checker may then parse only around them
    /// (a patch of many hunks spread over a big file), and must check the claim (the lines
    /// between the changes are the same in both texts) before relying on it. The default
    /// ignores `changes`.
    fn introduced_at(
        &self,
        path: &Path,
        before: &str,
        after: &str,
        changes: &[LineChange],
    ) -> Option<SyntaxIssue> {
        let _ = changes;
        self.introduced(path, before, after)
    }

    /// [`SyntaxCheck::introduced_at`] that may give up (answering `None`) once `cancel` is
    /// set: the caller no longer needs the answer (another check already refused the edit) and
    /// should not wait for a parse of a big file. The default ignores `cancel`.
    fn introduced_at_unless(
        &self,
        path: &Path,
        (before, after): (&str, &str),
        changes: &[LineChange],
        cancel: &std::sync::Arc<std::sync::atomic::AtomicBool>,
    ) -> Option<SyntaxIssue> {
        let _ = cancel;
        self.introduced_at(path, before, after, changes)
    }

    /// [`SyntaxCheck::introduced_at_unless`] with, when the edits add no syntax error, the
    /// rows they wrote in a layout the rest of the file never uses ([`LayoutNote`]), from the
    /// same parse. The default finds no layout notes.
    fn inspect_at_unless(
        &self,
        path: &Path,
        texts: (&str, &str),
        changes: &[LineChange],
        cancel: &std::sync::Arc<std::sync::atomic::AtomicBool>,
    ) -> Inspection {
        Inspection {
            issue: self.introduced_at_unless(path, texts, changes, cancel),
            layout: Vec::new(),
        }
    }
}

/// A stretch of lines an edit changed: lines `old` of the text before (0-based, end
/// exclusive, pieces split at `\n` with the final piece counted) became lines `new` of the
/// text after. An insertion has an empty `old`, a deletion an empty `new`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineChange {
    /// The lines replaced, in the text before.
    pub old: Range<usize>,
    /// The lines written in their place, in the text after.
    pub new: Range<usize>,
}

impl LineChange {
    /// The stretches `edits` change in a text of `line_count` real lines (0-based, sorted,
    /// disjoint; edits that touch or overlap are one stretch), derived from the edits alone: a
    /// consumer checks that the lines between them are unchanged before relying on them.
    pub fn of_edits(edits: &[crate::Edit], line_count: usize) -> Vec<LineChange> {
        use crate::EditKind;
        let mut spots: Vec<(Range<usize>, isize)> = edits
            .iter()
            .map(|e| {
                let (start, end) = match e.kind {
                    EditKind::Replace { start, end } => (start.saturating_sub(1), end),
                    EditKind::InsertBefore(l) => (l.saturating_sub(1), l.saturating_sub(1)),
                    EditKind::InsertAfter(l) => (l, l),
                    EditKind::Head => (0, 0),
                    EditKind::Tail => (line_count, line_count),
                };
                let end = end.max(start);
                (start..end, e.rows.len() as isize - (end - start) as isize)
            })
            .collect();
        spots.sort_unstable_by_key(|(old, _)| (old.start, old.end));
        LineChange::stretches(spots, true)
    }

    /// The stretches of a file's edits, each edit given as `(old lines, lines added minus
    /// removed)`, sorted by start: an edit starting inside the open stretch (or, with
    /// `touching`, right where it ends) joins it; each stretch's new lines follow from what
    /// the stretches before it added. Overlapping edits are the caller's to avoid.
    pub fn stretches(
        edits: impl IntoIterator<Item = (Range<usize>, isize)>,
        touching: bool,
    ) -> Vec<LineChange> {
        let mut out = Vec::new();
        let mut delta = 0isize;
        let mut close = |(old, grown): (Range<usize>, isize), delta: &mut isize| {
            let start = old.start.saturating_add_signed(*delta);
            let end = old.end.saturating_add_signed(*delta + grown).max(start);
            out.push(LineChange {
                old,
                new: start..end,
            });
            *delta += grown;
        };
        let mut open: Option<(Range<usize>, isize)> = None;
        for (old, grown) in edits {
            open = match open {
                Some((o, g)) if old.start < o.end || (touching && old.start == o.end) => {
                    Some((o.start..o.end.max(old.end), g + grown))
                }
                Some(done) => {
                    close(done, &mut delta);
                    Some((old, grown))
                }
                None => Some((old, grown)),
            };
        }
        if let Some(done) = open {
            close(done, &mut delta);
        }
        out
    }
}
