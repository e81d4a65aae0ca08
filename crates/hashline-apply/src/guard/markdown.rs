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
use super::markdown_tags::{self, TAG_COUNT};
use super::{is_fence, Subject};

/// Warn about the request's edits of a Markdown file (see the module doc).
pub(super) fn check(s: &Subject<'_>, warnings: &mut Vec<String>) {
    if !is_markdown(s.path) {
        return;
    }
    for edit in s.edits {
        underline_split(s, edit, warnings);
    }
    // A dialect of one hunk per call passes a multi-hunk change through texts in between,
    // where a block's opener may come before its closer.
    if s.one_hunk_per_call {
        return;
    }
    unbalanced(s, warnings);
    for edit in s.edits {
        heading_leftover(s, edit, warnings);
    }
}

/// What pairs in a Markdown text: fence lines, and outside code `<!--` less `-->` (a Mermaid
/// `A --> B` is no comment) and each HTML block tag opened less closed.
#[derive(Debug, Clone, Copy)]
struct Tally {
    fences: isize,
    comments: isize,
    tags: [isize; TAG_COUNT],
}

impl Tally {
    /// The tally of some lines, the first of them inside a fenced block when `inside`.
    fn of<'l>(lines: impl Iterator<Item = &'l str>, mut inside: bool) -> Tally {
        let mut t = Tally {
            fences: 0,
            comments: 0,
            tags: [0; TAG_COUNT],
        };
        for line in lines {
            if is_fence(line) {
                t.fences += 1;
                inside = !inside;
            } else if !inside {
                t.comments += count(line, "<!--") - count(line, "-->");
                let tags = markdown_tags::count(line);
                for (sum, n) in t.tags.iter_mut().zip(tags) {
                    *sum += n;
                }
            }
        }
        t
    }

    /// What `rows` add less what `range` removes.
    fn less(self, range: Tally) -> Tally {
        Tally {
            fences: self.fences - range.fences,
            comments: self.comments - range.comments,
            tags: std::array::from_fn(|i| self.tags[i] - range.tags[i]),
        }
    }
}

fn count(line: &str, what: &str) -> isize {
    isize::try_from(line.matches(what).count()).unwrap_or(isize::MAX)
}

/// The request leaves a fence, an HTML comment or an HTML block element (`<p>`, `<div>`, …)
/// unpaired that the text read paired.
fn unbalanced(s: &Subject<'_>, warnings: &mut Vec<String>) {
    let file = Tally::of((1..=s.line_count()).map(|n| s.line(n)), false);
    // Each edit's change to the tally: what its rows add less what its range removes.
    let deltas: Vec<Tally> = s
        .edits
        .iter()
        .map(|e| {
            let (top, _) = s.neighbours(e);
            let inside = s.fences_through(top) % 2 == 1;
            let rows = Tally::of(e.rows.iter().map(String::as_str), inside);
            let range = |(a, b): (usize, usize)| Tally::of((a..=b).map(|n| s.line(n)), inside);
            let none = Tally::of(std::iter::empty(), false);
            rows.less(Subject::replaced(e).map_or(none, range))
        })
        .collect();
    let culprit = fence_or_comment(&file, &deltas).or_else(|| tag(&file, &deltas));
    let Some((k, what)) = culprit else {
        return;
    };
    let Some(edit) = s.edits.get(k) else {
        return;
    };
    warnings.push(format!(
        "[W_UNBALANCED_FENCE] {}: the edit leaves {what}; if the range was not meant to take or \
         keep that line, move its edge",
        (s.label)(edit)
    ));
}

/// The first edit that unpairs a fence or an HTML comment the file paired, and what it
/// leaves. A text that leaves either unpaired already is judged on the other alone.
fn fence_or_comment(file: &Tally, deltas: &[Tally]) -> Option<(usize, String)> {
    let (fences_paired, comments_paired) = (file.fences % 2 == 0, file.comments == 0);
    let fence_sum: isize = deltas.iter().map(|d| d.fences).sum();
    let comment_sum: isize = deltas.iter().map(|d| d.comments).sum();
    let fence_off = fences_paired && fence_sum % 2 != 0;
    let comment_off = comments_paired && comment_sum != 0;
    let k = deltas
        .iter()
        .position(|d| (fence_off && d.fences % 2 != 0) || (comment_off && d.comments != 0))?;
    let what = if fence_off {
        "a code fence (```) without its pair: the rest of the document flips between code \
         and prose"
    } else {
        "an HTML comment's `<!--` or `-->` without its pair: the rest of the document is \
         hidden or shows the comment"
    };
    Some((k, what.to_string()))
}

/// The first edit that unpairs an HTML block element the file paired, and what it leaves.
fn tag(file: &Tally, deltas: &[Tally]) -> Option<(usize, String)> {
    let tag = (0..TAG_COUNT)
        .find(|&i| file.tags[i] == 0 && deltas.iter().map(|d| d.tags[i]).sum::<isize>() != 0)?;
    let k = deltas.iter().position(|d| d.tags[tag] != 0)?;
    let name = markdown_tags::name(tag);
    Some((
        k,
        format!(
            "an HTML `<{name}>` without its `</{name}>` (or the reverse): what follows renders \
             inside it or not at all"
        ),
    ))
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
    let underline = |l: &str| is_underline(l) && l.trim().starts_with('=');
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
