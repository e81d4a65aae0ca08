//! Markdown structure a range one line off breaks, where a line decides how the rest of the
//! document reads:
//!
//! * a code fence (```` ``` ````, `~~~`) or an HTML comment's `<!--` / `-->` swallowed or left
//!   over: the text read pairs them all, the text after the request leaves one unpaired, and
//!   the rest of the document flips between code and prose or is hidden
//!   (`W_UNBALANCED_FENCE`);
//! * a heading rewritten in the `#` form with its old form's text left above it or its `===`
//!   underline left below it (`W_HEADING_LEFTOVER`).

use hashline_core::Edit;

use super::lexical::is_markdown;
use super::{is_fence, Subject};

/// Warn about the request's edits of a Markdown file (see the module doc).
pub(super) fn check(s: &Subject<'_>, warnings: &mut Vec<String>) {
    // A dialect of one hunk per call passes a multi-hunk change through texts in between,
    // where a block's opener may come before its closer.
    if !is_markdown(s.path) {
        return;
    }
    for edit in s.edits {
        underline_split(s, edit, warnings);
    }
    if s.one_hunk_per_call {
        return;
    }
    unbalanced(s, warnings);
    unpaired_tag(s, warnings);
    for edit in s.edits {
        heading_leftover(s, edit, warnings);
    }
}

/// Fence lines, and `<!--` less `-->` outside code (a Mermaid `A --> B` is no comment), in
/// some lines, the first of them inside a fenced block when `inside`.
fn tally<'l>(lines: impl Iterator<Item = &'l str>, mut inside: bool) -> (usize, isize) {
    let mut fences = 0;
    let mut comments = 0;
    for line in lines {
        if is_fence(line) {
            fences += 1;
            inside = !inside;
        } else if !inside {
            comments += count(line, "<!--") - count(line, "-->");
        }
    }
    (fences, comments)
}

fn count(line: &str, what: &str) -> isize {
    isize::try_from(line.matches(what).count()).unwrap_or(isize::MAX)
}

/// The request leaves a fence or an HTML comment unpaired that the text read paired.
fn unbalanced(s: &Subject<'_>, warnings: &mut Vec<String>) {
    let (fences, comments) = tally((1..=s.line_count()).map(|n| s.line(n)), false);
    // A text that leaves either unpaired already is judged on the other alone.
    let (fences_paired, comments_paired) = (fences % 2 == 0, comments == 0);
    if !fences_paired && !comments_paired {
        return;
    }
    // Each edit's change to both tallies: what its rows add less what its range removes.
    let deltas: Vec<(isize, isize)> = s
        .edits
        .iter()
        .map(|e| {
            let (top, _) = s.neighbours(e);
            let inside = s.fences_through(top) % 2 == 1;
            let (rf, rc) = tally(e.rows.iter().map(String::as_str), inside);
            let range = |(a, b): (usize, usize)| tally((a..=b).map(|n| s.line(n)), inside);
            let (gf, gc) = Subject::replaced(e).map_or((0, 0), range);
            let as_signed = |n: usize| isize::try_from(n).unwrap_or(isize::MAX);
            (as_signed(rf) - as_signed(gf), rc - gc)
        })
        .collect();
    let fence_sum: isize = deltas.iter().map(|d| d.0).sum();
    let comment_sum: isize = deltas.iter().map(|d| d.1).sum();
    let fence_off = fences_paired && fence_sum % 2 != 0;
    let comment_off = comments_paired && comment_sum != 0;
    if !fence_off && !comment_off {
        return;
    }
    let culprit = s
        .edits
        .iter()
        .zip(&deltas)
        .find(|(_, d)| (fence_off && d.0 % 2 != 0) || (comment_off && d.1 != 0));
    let Some((edit, _)) = culprit else {
        return;
    };
    let what = if fence_off {
        "a code fence (```) without its pair: the rest of the document flips between code \
         and prose"
    } else {
        "an HTML comment's `<!--` or `-->` without its pair: the rest of the document is \
         hidden or shows the comment"
    };
    warnings.push(format!(
        "[W_UNBALANCED_FENCE] {}: the edit leaves {what}; if the range was not meant to take or \
         keep that line, move its edge",
        (s.label)(edit)
    ));
}

/// The request leaves an HTML block element (`<p>`, `<div>`, …) unpaired that the text read
/// paired.
fn unpaired_tag(s: &Subject<'_>, warnings: &mut Vec<String>) {
    if warnings
        .iter()
        .any(|w| w.starts_with("[W_UNBALANCED_FENCE]"))
    {
        return;
    }
    let Some((k, tag)) = super::markdown_tags::unpaired(s) else {
        return;
    };
    let Some(edit) = s.edits.get(k) else {
        return;
    };
    let tag = super::markdown_tags::name(tag);
    warnings.push(format!(
        "[W_UNBALANCED_FENCE] {}: the edit leaves an HTML `<{tag}>` without its `</{tag}>` (or \
         the reverse): what follows renders inside it or not at all; if the range was not \
         meant to take or keep that line, move its edge",
        (s.label)(edit)
    ));
}

/// The text of an ATX heading row (`## Title` → `Title`).
fn atx_text(row: &str) -> Option<&str> {
    let t = row.trim_start_matches('#');
    let level = row.len() - t.len();
    ((1..=6).contains(&level) && t.starts_with(' ')).then(|| t.trim())
}

/// A heading rewritten as `# Title` beside the old `Title` / `=====` pair's leftover.
fn heading_leftover(s: &Subject<'_>, edit: &Edit, warnings: &mut Vec<String>) {
    let Some((start, end)) = Subject::replaced(edit) else {
        return;
    };
    let first = edit.rows.iter().find(|r| !r.trim().is_empty());
    let last = edit.rows.iter().rev().find(|r| !r.trim().is_empty());
    let above = (start > 1 && s.survives(start - 1)).then(|| s.line(start - 1));
    let below = (end < s.line_count() && s.survives(end + 1)).then(|| s.line(end + 1));
    let underline = |l: &str| l.trim().len() >= 3 && l.trim().chars().all(|c| c == '=');
    let text_above = match (first.and_then(|r| atx_text(r)), above) {
        (Some(title), Some(line)) => !title.is_empty() && line.trim() == title,
        _ => false,
    };
    let underline_below = matches!(
        (last.and_then(|r| atx_text(r)), below),
        (Some(_), Some(line)) if underline(line)
    );
    let n = if text_above {
        start - 1
    } else if underline_below {
        end + 1
    } else {
        return;
    };
    warnings.push(format!(
        "[W_HEADING_LEFTOVER] {}: a row is a `#` heading, and line {n} (`{}`) beside it is \
         left of the heading's old form; if the range was meant to cover that line, widen it",
        (s.label)(edit),
        s.line(n).trim()
    ));
}

/// Whether `line` is a setext heading's underline (`===` or `---`, three or more).
fn is_underline(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 3 && (t.chars().all(|c| c == '=') || t.chars().all(|c| c == '-'))
}

/// Whether the last of `edit`'s rows reads as a new title for the underline below: text
/// that is not markup, after a blank row (or the blank line above the range).
fn new_title(s: &Subject<'_>, edit: &Edit, start: usize) -> bool {
    let Some((last, above)) = edit.rows.split_last() else {
        return false;
    };
    let blank_above = match above.last() {
        Some(r) => r.trim().is_empty(),
        None => start == 1 || s.line(start - 1).trim().is_empty(),
    };
    blank_above && !is_markup(last)
}

/// Whether a line is Markdown markup of its own rather than a paragraph's text.
fn is_markup(line: &str) -> bool {
    let line = line.trim();
    line.is_empty()
        || line.starts_with(['#', '>', '|', '<', '-', '*', '+', '`', '~', '['])
        || line
            .split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        || is_underline(line)
}

/// Whether original line `n` reads as a setext heading's title: text, not markup of its own,
/// after a blank line (or first), with an underline right below.
fn is_title(s: &Subject<'_>, n: usize) -> bool {
    !is_markup(s.line(n))
        && (n == 1 || s.line(n - 1).trim().is_empty())
        && n < s.line_count()
        && is_underline(s.line(n + 1))
}

/// A range that takes a setext heading's title and keeps its underline (or takes the
/// underline and keeps the title), with no row to stand in for what it took: the underline
/// turns into a rule or underlines another line, or the title reads as a paragraph.
fn underline_split(s: &Subject<'_>, edit: &Edit, warnings: &mut Vec<String>) {
    let Some((start, end)) = Subject::replaced(edit) else {
        return;
    };
    let first = edit.rows.iter().find(|r| !r.trim().is_empty());
    let title_taken = is_title(s, end) && s.survives(end + 1) && !new_title(s, edit, start);
    let underline_taken = start > 1
        && is_underline(s.line(start))
        && is_title(s, start - 1)
        && s.survives(start - 1)
        && !first.is_some_and(|r| is_underline(r));
    let n = if title_taken {
        end
    } else if underline_taken {
        start
    } else {
        return;
    };
    warnings.push(format!(
        "[W_HEADING_LEFTOVER] {}: the range takes line {n} (`{}`) of a heading and keeps the \
         other line of it; if the range was not meant to take that line, move its edge",
        (s.label)(edit),
        s.line(n).trim()
    ));
}
