//! A range one line off: it swallows a separating blank line the payload does not restate,
//! leaves behind a line the payload already replaces (a duplicate key, code after the payload's
//! closing `return`), or repeats the line next to it.

use hashline_core::{Edit, ErrorCode};

use super::edges::{prose_leftover, renumbered, unpaired_end};
use super::leftover::duplicate_key;
use super::lexical::is_blank;
use super::orphan::orphaned_body;
use super::{is_fence, refuse, Refusal, Subject};

pub(super) const RESEND: &str =
    "Fix the range with the fresh anchors shown and send the edit again; to \
remove such a line on purpose, delete it in an edit of its own, or resend with --as-sent (CLI) or \
\"allowSyntaxErrors\": true (JSON) to apply the edit as it is.";

/// Refuse (or warn about) `edit` if its range looks one line off.
pub(super) fn check(
    s: &Subject<'_>,
    edit: &Edit,
    warnings: &mut Vec<String>,
) -> Result<(), Refusal> {
    if let Some(what) = swallowed_fence(s, edit)
        .or_else(|| swallowed_attachment(s, edit))
        .or_else(|| duplicate_key(s, edit))
    {
        return Err(refuse(s, ErrorCode::RangeBoundary, edit, what, RESEND));
    }
    if let Some(what) = renumbered(s, edit).or_else(|| orphaned_body(s, edit)) {
        return Err(refuse(s, ErrorCode::RangeBoundary, edit, what, RESEND));
    }
    if let Some(what) = unpaired_end(s, edit)
        .or_else(|| prose_leftover(s, edit))
        .or_else(|| super::sentence::cut_sentence(s, edit))
    {
        warnings.push(format!(
            "[W_RANGE_EDGE] {}: {what}; if it was not meant to go, leave it out of the range",
            (s.label)(edit)
        ));
    }
    super::blank::warn(s, edit, warnings);
    super::dead::check(s, edit, warnings)
}

/// Whether `edit`'s rows are its range's lines, in order, but for lines `dropped` says may go:
/// the edit deletes those lines and changes nothing else.
pub(super) fn only_removes(s: &Subject<'_>, edit: &Edit, dropped: impl Fn(usize) -> bool) -> bool {
    let Some((start, end)) = Subject::replaced(edit) else {
        return false;
    };
    let mut rows = edit.rows.iter().peekable();
    let mut removed = false;
    for n in start..=end {
        if rows.peek().is_some_and(|r| r.as_str() == s.line(n)) {
            rows.next();
        } else if dropped(n) {
            removed = true;
        } else {
            return false;
        }
    }
    removed && rows.next().is_none()
}

/// A line that belongs to the item below it: a decorator, an attribute, a doc comment.
fn is_attachment(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('@') || t.starts_with("#[") || t.starts_with("///") || t.starts_with("/**")
}

/// A range that starts on a decorator or attribute, or ends on one (or on a doc comment) glued
/// to the line after it, which no row restates: the item would lose it.
fn swallowed_attachment(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    if edit.rows.is_empty() {
        return None;
    }
    // A row that restates it keeps it, and so does an attachment at the same end of the rows
    // (the model rewrote it).
    // A row that says the same words behind another marker (`///` made `//`) rewrote it.
    let words = |l: &str| {
        l.trim()
            .trim_start_matches(['/', '*', '!', '#', '@'])
            .trim()
            .to_string()
    };
    let restated = |line: &str| {
        edit.rows
            .iter()
            .any(|r| r.trim() == line.trim() || (!words(r).is_empty() && words(r) == words(line)))
    };
    let first_row = edit.rows.iter().find(|r| !is_blank(r));
    let last_row = edit.rows.iter().rev().find(|r| !is_blank(r));
    if end == start {
        return None;
    }
    let first = s.line(start);
    let starts = is_attachment(first)
        && !first.trim_start().starts_with("///")
        && !restated(first)
        && !first_row.is_some_and(|r| is_attachment(r));
    let last = s.line(end);
    let glued = end < s.line_count() && !is_blank(s.line(end + 1));
    let ends = is_attachment(last)
        && glued
        && !restated(last)
        && !last_row.is_some_and(|r| is_attachment(r));
    let n = if starts {
        start
    } else if ends {
        end
    } else {
        return None;
    };
    // Rows that restate every other line delete it on purpose (blank lines may go with it).
    if only_removes(s, edit, |k| k == n || is_blank(s.line(k))) {
        return None;
    }
    Some(format!(
        "line {n} (`{}`) belongs to the item {}, and no row restates it: the item would lose it",
        s.line(n).trim(),
        if n == start {
            "it decorates"
        } else {
            "below the range"
        }
    ))
}

/// A line that delimits a region: a Markdown code fence, a YAML document separator.
fn is_delimiter(line: &str) -> bool {
    super::is_fence(line) || matches!(line.trim(), "---" | "...")
}

/// A range of several lines that starts or ends on a fence or document separator that no row
/// restates: the rest of the file would change region (text becomes code, two documents one).
fn swallowed_fence(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    if end <= start || edit.rows.is_empty() {
        return None;
    }
    let restated = |line: &str| edit.rows.iter().any(|r| r.trim() == line.trim());
    // A delimiter at the same end of the rows rewrites it (a fence with another info string).
    let first_row = edit.rows.iter().find(|r| !is_blank(r));
    let last_row = edit.rows.iter().rev().find(|r| !is_blank(r));
    let rewritten = |n: usize| {
        let row = if n == start { first_row } else { last_row };
        row.is_some_and(|r| is_delimiter(r) && is_fence(r) == is_fence(s.line(n)))
    };
    [end, start]
        .into_iter()
        .find(|&n| is_delimiter(s.line(n)) && !restated(s.line(n)) && !rewritten(n))
        .map(|n| {
            format!(
                "the range {} on line {n} (`{}`), which no row restates: the edit would remove \
                 that delimiter",
                if n == end { "ends" } else { "starts" },
                s.line(n).trim()
            )
        })
}
