//! The big-file window: on a text over [`WINDOW_ABOVE`] bytes, the old text is parsed only in
//! a range of whole top-level items around the edit, and that parse is trusted only when it
//! looks `cut_cleanly`.

use std::ops::Range;

use tree_sitter::{Node, Tree};

use super::span::Span;
use super::WINDOW_ABOVE;

/// Lines of context a `window` keeps at least on each side of the edit.
const CONTEXT_LINES: usize = 200;

/// How many more lines a `window` looks through for a top-level boundary.
const SEARCH_LINES: usize = 2000;

/// Whether a window's parse shows no sign of a wrong cut: it has no syntax error, or its errors
/// lie strictly inside it, between a first and a last top-level node that parsed cleanly (a cut
/// inside a string or comment shows up as an error at the window's start or end: the text after
/// the cut is read in the wrong state, or a string opened there runs to the end).
pub(super) fn cut_cleanly(tree: &Tree) -> bool {
    let root = tree.root_node();
    if !root.has_error() {
        return true;
    }
    if root.is_error() {
        return false;
    }
    let mut cursor = root.walk();
    let items: Vec<Node<'_>> = root
        .children(&mut cursor)
        .filter(|c| !c.is_extra())
        .collect();
    match (items.first(), items.last()) {
        (Some(first), Some(last)) if items.len() >= 3 => !first.has_error() && !last.has_error(),
        _ => false,
    }
}

/// The bytes of `before` to parse for an edit of `span`, when `before` is longer than
/// [`WINDOW_ABOVE`]: at least [`CONTEXT_LINES`] lines on each side of the edit, widened to
/// top-level boundaries (a line that starts at column 0 with a letter, digit, `_`, `@`, `#` or
/// `/` right after a blank line or a line starting with `}`: where a top-level item starts in
/// most languages and code styles). Searches at most [`SEARCH_LINES`] further lines each way;
/// `None` when the window would be the whole text.
pub(super) fn window(before: &str, span: &Span) -> Option<Range<usize>> {
    if before.len() <= WINDOW_ABOVE {
        return None;
    }
    let b = before.as_bytes();
    let line_start = |at: usize| {
        b[..at]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1)
    };
    let next_line = |at: usize| {
        b[at..]
            .iter()
            .position(|&c| c == b'\n')
            .map(|i| at + i + 1)
            .filter(|&n| n < b.len())
    };
    let prev_line = |start: usize| (start > 0).then(|| line_start(start - 1));
    let blank = |start: usize| {
        b[start..]
            .iter()
            .take_while(|&&c| c != b'\n')
            .all(|c| c.is_ascii_whitespace())
    };
    // A line that closes a top-level item: `}` at column 0 (`}`, `};`, `})` …).
    let closes_item = |start: usize| b.get(start) == Some(&b'}');
    let starts_item = |start: usize| {
        let first = b.get(start).copied().unwrap_or(b' ');
        (first.is_ascii_alphanumeric() || b"_@#/".contains(&first))
            && prev_line(start).is_some_and(|p| blank(p) || closes_item(p))
    };
    // Backwards: CONTEXT_LINES lines, then to the first line that starts an item.
    let mut lo = line_start(span.start.min(b.len()));
    let mut found = false;
    for n in 0..CONTEXT_LINES + SEARCH_LINES {
        if n >= CONTEXT_LINES && starts_item(lo) {
            found = true;
            break;
        }
        match prev_line(lo) {
            Some(p) => lo = p,
            None => {
                lo = 0;
                break;
            }
        }
    }
    // No item starts within reach: a cut here could be anywhere (inside a string, a block),
    // so the window starts at the top.
    if !found {
        lo = 0;
    }
    // Forwards: the same, ending just before the item that starts there.
    let mut hi = line_start(span.old_end.min(b.len()));
    let mut found = false;
    for n in 0..CONTEXT_LINES + SEARCH_LINES {
        match next_line(hi) {
            Some(next) => hi = next,
            None => break,
        }
        if n >= CONTEXT_LINES && starts_item(hi) {
            found = true;
            break;
        }
    }
    let hi = if found { hi } else { b.len() };
    (lo > 0 || hi < b.len()).then_some(lo..hi)
}
