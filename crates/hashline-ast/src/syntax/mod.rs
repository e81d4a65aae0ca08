//! [`TreeSitterSyntax`]: the [`SyntaxCheck`] behind the edit guard's `E_SYNTAX_INTRODUCED`.
//!
//! Algorithm, for a file whose grammar is compiled in (see [`crate::lang`]):
//! 1. the changed span is what lies between the common prefix and the common suffix of the two
//!    texts' bytes (kept on character boundaries); the *region* is that span widened to whole
//!    lines, in each text (`span`);
//! 2. parse `before` (a text over [`WINDOW_ABOVE`] bytes: only a `window` of whole top-level
//!    items around the span, through tree-sitter's included ranges, so positions stay those of
//!    the file, and only when the lexical scan (`lexed`) finds both its cuts at top level in both
//!    texts; when that window's parse shows signs of a wrong cut (`cut_cleanly`), the whole
//!    text is parsed instead); if an `ERROR` or `MISSING` node (`errors`; for Python also a
//!    layout error, see `python`) overlaps the old region, the edit touched code that was already
//!    broken: report nothing;
//! 3. edit the old tree with one [`InputEdit`](tree_sitter::InputEdit) for the span and reparse `after` from it
//!    (tree-sitter reuses every untouched subtree: the second parse costs a fraction of the
//!    first; `check`);
//! 4. an error of the new tree is *old* when it starts within the lines of an error of `before`
//!    (moved by the edit's line delta when it lay below the span); report the first new error
//!    that overlaps the new region, else the first new error anywhere (a removed closer often
//!    shows up far below the edit, at the end of the enclosing block, window or file).
//!
//! Told where the edits are ([`SyntaxCheck::introduced_at`]), a check of the stretches of
//! changed lines on a text over [`WINDOW_ABOVE`] bytes first parses the new
//! text only in a window of whole top-level items around each stretch (`hunks`); when none of
//! them holds an error, no edit added one and the check ends there. A window starts and ends
//! only at lines that a scan of both texts (`lexed`) finds outside every string, comment and
//! bracket (else a window read on its own, or the unchanged text after it, reads otherwise
//! than in the file); languages the scan does not know take no windows. Otherwise, or when the
//! stretches do not check out against the texts, steps 1–4 run. A 1,000-hunk patch of a
//! 100,000-line TypeScript file: 0.5 s of parsing down to a few milliseconds.
//!
//! Cost: a one-line edit of a 10,000-line TypeScript file adds about 2 ms to an edit call
//! (window parse plus incremental reparse); a whole-text parse of it takes about 20 ms.
//!
//! Never panics. Gives up quietly (reports nothing) on texts over [`MAX_BYTES`], when the parses
//! of one check take longer than [`PARSE_BUDGET`], for files the guard should not judge by their
//! extension ([`UNCHECKED_EXTENSIONS`]), and for grammars that are not compiled in. A file that
//! the grammar already fails to parse around the edit is not judged there (step 2).
//!
//! Files: this one holds the public face; `check` the parses and steps 2–4, `span` the changed
//! span and byte-range helpers, `window` the big-file window, `hunks` the many-hunk windows, `lexed` the scan for their top-level lines, `incremental` a structural rewrite's reparse from the search's tree, `errors` the error nodes found in a
//! tree, `python` Python's layout rules, `message` the wording and [`excerpt`].

#[cfg(test)]
mod attack_props;
#[cfg(test)]
mod attack_tests;
mod check;
mod errors;
#[cfg(test)]
mod halves_tests;
mod hunks;
#[cfg(test)]
mod hunks_tests;
mod incremental;
mod layout;
mod lexed;
mod message;
mod python;
mod span;
#[cfg(test)]
mod tests;
mod window;

use std::path::Path;
use std::time::{Duration, Instant};

use ast_grep_language::SupportLang;
use hashline_core::{Inspection, LineChange, SyntaxCheck, SyntaxIssue};

use crate::lang;
use check::{Check, GaveUp};

pub use incremental::clean_after_edits;
pub use message::excerpt;

/// Texts longer than this (either side, in bytes) are not checked: 4 MiB, about 100,000 lines of
/// code, where one parse already takes a few hundred milliseconds.
pub const MAX_BYTES: usize = 4 << 20;

/// Both parses of one check together may take this long; past it the check reports nothing.
pub const PARSE_BUDGET: Duration = Duration::from_secs(2);

/// Texts up to this many bytes are parsed whole; a longer one only in a `window` around the
/// edit (a whole parse of 64 KiB of TypeScript takes about 6 ms).
pub const WINDOW_ABOVE: usize = 64 << 10;

/// Extensions whose catalog grammar is a near miss for what such files often hold (`.h` may be
/// C++, `.scss` is not CSS): a syntax error there says little, so the guard falls back to its
/// grammar-free checks.
pub const UNCHECKED_EXTENSIONS: &[&str] = &["h", "scss"];

/// Checks edits with the tree-sitter grammars compiled into this build.
#[derive(Debug, Clone, Copy, Default)]
pub struct TreeSitterSyntax;

impl TreeSitterSyntax {
    /// A checker over every compiled-in grammar.
    pub fn new() -> Self {
        Self
    }
}

impl SyntaxCheck for TreeSitterSyntax {
    fn covers(&self, path: &Path) -> bool {
        checked_lang(path).is_some()
    }

    fn max_bytes(&self) -> usize {
        MAX_BYTES
    }

    fn introduced(&self, path: &Path, before: &str, after: &str) -> Option<SyntaxIssue> {
        introduced_in(checked_lang(path)?, before, after)
    }

    fn introduced_at(
        &self,
        path: &Path,
        before: &str,
        after: &str,
        changes: &[LineChange],
    ) -> Option<SyntaxIssue> {
        introduced_at_in(checked_lang(path)?, before, after, changes)
    }

    fn introduced_at_unless(
        &self,
        path: &Path,
        texts: (&str, &str),
        changes: &[LineChange],
        cancel: &std::sync::Arc<std::sync::atomic::AtomicBool>,
    ) -> Option<SyntaxIssue> {
        introduced_at_unless_in(checked_lang(path)?, texts, changes, Some(cancel))
    }

    fn inspect_at_unless(
        &self,
        path: &Path,
        texts: (&str, &str),
        changes: &[LineChange],
        cancel: &std::sync::Arc<std::sync::atomic::AtomicBool>,
    ) -> Inspection {
        match checked_lang(path) {
            Some(lang) => inspect_in(lang, texts, changes, Some(cancel), true),
            None => Inspection::default(),
        }
    }
}

/// The compiled-in language the guard checks a file as.
fn checked_lang(path: &Path) -> Option<SupportLang> {
    let unchecked = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| UNCHECKED_EXTENSIONS.contains(&e));
    if unchecked {
        return None;
    }
    lang::for_path(path).map(|s| s.lang)
}

/// The first syntax error that turning `before` into `after` adds, parsing both as `lang` (which
/// must be compiled in: see [`lang::LangSpec::enabled`]). Texts are LF-normalized, BOM-free.
pub fn introduced_in(lang: SupportLang, before: &str, after: &str) -> Option<SyntaxIssue> {
    introduced_at_in(lang, before, after, &[])
}

/// [`introduced_in`] told which stretches of lines the edits changed: on a text over
/// [`WINDOW_ABOVE`] bytes, the new text is first parsed only in a window of whole
/// top-level items around each (`hunks`); when none of them holds an error, no edit added one.
/// Else, or when the stretches do not check out, the whole check runs.
pub fn introduced_at_in(
    lang: SupportLang,
    before: &str,
    after: &str,
    changes: &[LineChange],
) -> Option<SyntaxIssue> {
    introduced_at_unless_in(lang, (before, after), changes, None)
}

/// [`introduced_at_in`], giving up (`None`) as soon as `cancel` is set.
pub fn introduced_at_unless_in(
    lang: SupportLang,
    texts: (&str, &str),
    changes: &[LineChange],
    cancel: Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> Option<SyntaxIssue> {
    inspect_in(lang, texts, changes, cancel, false).issue
}

/// [`introduced_at_unless_in`] with, when `layout` is asked for and the edits add no syntax
/// error, the rows of `changes` written in a layout the rest of the file never uses (`layout`
/// module), judged on the same parse of the new text (whole, or its windows).
pub fn inspect_in(
    lang: SupportLang,
    (before, after): (&str, &str),
    changes: &[LineChange],
    cancel: Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>,
    layout: bool,
) -> Inspection {
    let enabled = lang::spec_of(lang).is_some_and(|s| s.enabled);
    let Some(mut check) = enabled
        .then(|| Check::new(lang, Instant::now() + PARSE_BUDGET))
        .flatten()
    else {
        return Inspection::default();
    };
    check.cancel = cancel.cloned();
    check.keep_clean = layout && !changes.is_empty();
    let sized = after.len() > WINDOW_ABOVE && before.len() <= MAX_BYTES && after.len() <= MAX_BYTES;
    check.stretches = (!changes.is_empty()).then(|| changes.to_vec());
    let mut issue = None;
    let mut settled = false;
    if !changes.is_empty() && sized {
        if let Some(windows) = hunks::windows(lang, before, after, changes) {
            match check.clean_in(after, &windows) {
                Ok(true) => settled = true,
                Ok(false) | Err(GaveUp::Window) => check.clean.clear(),
                Err(_) => return Inspection::default(),
            }
        }
    }
    if !settled {
        issue = check
            .run(before, after)
            .ok()
            .flatten()
            .map(|e| e.issue(after));
    }
    let mut notes = Vec::new();
    if issue.is_none() && !check.clean.is_empty() {
        let written: Vec<std::ops::Range<usize>> = changes
            .iter()
            .filter(|c| !c.new.is_empty())
            .map(|c| c.new.clone())
            .collect();
        for tree in &check.clean {
            notes.extend(layout::notes(tree, after, &written));
        }
        notes.sort_by_key(|n| n.line);
        notes.dedup_by_key(|n| n.line);
    }
    Inspection {
        issue,
        layout: notes,
    }
}
