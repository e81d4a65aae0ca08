//! A range one line off: it swallows a separating blank line the payload does not restate,
//! leaves behind a line the payload already replaces (a duplicate key, code after the payload's
//! closing `return`), or repeats the line next to it.

use hashline_core::{Edit, ErrorCode};

use super::edges::{prose_leftover, renumbered, unpaired_end};
use super::leftover::duplicate_key;
use super::lexical::{indent, is_blank, Family};
use super::orphan::orphaned_body;
use super::{is_fence, refuse, GuardRefusal, Subject};

pub(super) const RESEND: &str =
    "Fix the range with the fresh anchors shown and send the edit again; to \
remove such a line on purpose, delete it in an edit of its own, or resend with --as-sent (CLI) or \
\"allowSyntaxErrors\": true (JSON) to apply the edit as it is.";

/// Statements after which nothing at the same indentation runs.
const TERMINAL: [&str; 6] = ["return", "raise", "throw", "break", "continue", "panic!("];

/// Lines that may follow a terminal statement at its indentation without being dead: a new
/// branch, handler, case or definition, a closer, a comment or a decorator.
const RESUMES: [&str; 24] = [
    "else", "elif", "except", "finally", "catch", "case", "default", "def ", "class ", "fn ",
    "func ", "function", "pub ", "async ", "export ", "@", "#", "//", "/*", "}", ")", "]", "end",
    "impl ",
];

/// Refuse (or warn about) `edit` if its range looks one line off.
pub(super) fn check(
    s: &Subject<'_>,
    edit: &Edit,
    warnings: &mut Vec<String>,
) -> Result<(), GuardRefusal> {
    if let Some(what) = swallowed_fence(s, edit)
        .or_else(|| swallowed_attachment(s, edit))
        .or_else(|| duplicate_key(s, edit))
    {
        return Err(refuse(s, ErrorCode::RangeBoundary, edit, what, RESEND));
    }
    if let Some(what) = renumbered(s, edit).or_else(|| orphaned_body(s, edit)) {
        return Err(refuse(s, ErrorCode::RangeBoundary, edit, what, RESEND));
    }
    if let Some(what) = unpaired_end(s, edit).or_else(|| prose_leftover(s, edit)) {
        warnings.push(format!(
            "[W_RANGE_EDGE] {}: {what}; if it was not meant to go, leave it out of the range",
            (s.label)(edit)
        ));
    }
    if let Some(what) = swallowed_blank(s, edit) {
        warnings.push(format!(
            "[W_SWALLOWED_BLANK] {}: {what}; if that was not meant, restate the blank line",
            (s.label)(edit)
        ));
    }
    match dead_code(s, edit) {
        Some((what, true)) => Err(refuse(s, ErrorCode::RangeBoundary, edit, what, RESEND)),
        Some((what, false)) => {
            warnings.push(format!(
                "[W_DEAD_CODE] {}: {what}; if the range was meant to cover it, delete it",
                (s.label)(edit)
            ));
            Ok(())
        }
        None => Ok(()),
    }
}

/// A range of two or more lines that starts or ends on a blank line the payload does not
/// restate at that end, where that blank separates two items (see [`separates`]).
fn swallowed_blank(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    if end <= start || (start..=end).all(|n| is_blank(s.line(n))) {
        return None;
    }
    let first = edit.rows.first()?;
    let last = edit.rows.last()?;
    // As many blank rows as blank lines: the blank lines were restated, maybe moved. Rows that
    // restate every other line of the range: the edit removes blank lines and nothing else.
    let blanks = (start..=end).filter(|&n| is_blank(s.line(n))).count();
    if edit.rows.iter().filter(|r| is_blank(r)).count() >= blanks
        || only_removes(s, edit, |n| is_blank(s.line(n)))
    {
        return None;
    }
    // A last row that restates the line after the range is a different mistake (or intent):
    // the repeated-line notice covers it.
    if is_blank(s.line(end)) && !is_blank(last) && last.trim() != s.line(end + 1).trim() {
        let below = (end + 1..=s.line_count()).find(|&n| !is_blank(s.line(n)));
        let lines_from = |n: usize| (n..=s.line_count()).map(|k| s.line(k));
        if below.is_some_and(|n| s.survives(n) && separates(s, last, lines_from(n))) {
            return Some(format!(
                "the range ends on blank line {end}, which the payload does not restate: the \
                 edit would remove that separator"
            ));
        }
    }
    if is_blank(s.line(start)) && !is_blank(first) && first.trim() != s.line(start - 1).trim() {
        let above = (1..start).rev().find(|&n| !is_blank(s.line(n)));
        let rows = edit.rows.iter().map(String::as_str);
        if above.is_some_and(|n| s.survives(n) && separates(s, s.line(n), rows)) {
            return Some(format!(
                "the range starts on blank line {start}, which the payload does not restate: \
                 the edit would remove that separator"
            ));
        }
    }
    None
}

/// Whether `edit`'s rows are its range's lines, in order, but for lines `dropped` says may go:
/// the edit deletes those lines and changes nothing else.
fn only_removes(s: &Subject<'_>, edit: &Edit, dropped: impl Fn(usize) -> bool) -> bool {
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

/// Lines that declare an item (a function, a type), with the keywords that may precede them.
const ITEMS: [&str; 14] = [
    "def ",
    "class ",
    "fn ",
    "func ",
    "function",
    "type ",
    "struct ",
    "enum ",
    "impl",
    "trait ",
    "interface ",
    "mod ",
    "@",
    "#[",
];

/// Whether a blank line between `upper` and the lines from `lower` on (the lines that would
/// meet without it) separates two items. In prose every blank does: it ends a paragraph. In
/// code it does not when it only pads a block (after an opener, before a closer), nor between
/// two statements of one body (same indentation, the upper line not closing a block, the lower
/// one, past its comments, not declaring an item): a paragraph break an edit may drop.
fn separates<'a>(s: &Subject<'_>, upper: &str, mut lower: impl Iterator<Item = &'a str>) -> bool {
    let Some(first) = lower.next() else {
        return false;
    };
    let (up, low) = (upper.trim(), first.trim());
    if Family::of(s.path) == Family::Prose {
        return true;
    }
    if up.ends_with(['{', '(', '[', ':']) || low.starts_with(['}', ')', ']']) || low == "end" {
        return false;
    }
    if Family::of(s.path) == Family::Data || indent(upper) != indent(first) {
        return true;
    }
    let closes = up == "end" || up.chars().all(|c| matches!(c, '}' | ')' | ']' | ';' | ','));
    let comment = |t: &str| t.starts_with("//") || t.starts_with("/*") || t.starts_with("# ");
    let item = std::iter::once(first)
        .chain(lower)
        .map(str::trim)
        .find(|t| !comment(t))
        .unwrap_or(low);
    let mut t = item;
    for m in ["export ", "pub ", "pub(crate) ", "async ", "default "] {
        t = t.strip_prefix(m).unwrap_or(t);
    }
    // A closer ends an item only at the top level; inside a body the statement after a closed
    // `if`/`for` block is another statement of that body, unless it declares a member (a
    // method opens its body without a keyword in JS/TS/Java classes).
    let top_level = indent(upper).is_empty();
    (closes && (top_level || opens_member(t))) || ITEMS.iter().any(|k| t.starts_with(k))
}

/// A line that opens a member's body without a keyword (`render() {`, `get x(): T {`): it
/// ends with `{`, has a parameter list, and is no control statement, assignment or method call
/// (`t.Run("x", func(t *T) {`).
fn opens_member(t: &str) -> bool {
    const CONTROL: [&str; 15] = [
        "if", "for", "while", "switch", "try", "do", "else", "catch", "return", "match", "loop",
        "select", "defer", "go", "with",
    ];
    let word: String = t
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let callee = t.split('(').next().unwrap_or("");
    t.ends_with('{')
        && t.contains('(')
        && !callee.contains('.')
        && !t.contains('=')
        && !t.contains("=>")
        && !word.is_empty()
        && !CONTROL.contains(&word.as_str())
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
    let restated = |line: &str| edit.rows.iter().any(|r| r.trim() == line.trim());
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

/// The payload's last row is a terminal statement and the line right after the edit, at the
/// same indentation, could never run. `(message, refuse)`: refuse when that line is itself a
/// terminal statement (the range was one line short), else warn.
fn dead_code(s: &Subject<'_>, edit: &Edit) -> Option<(String, bool)> {
    // An inserted early return may be a deliberate stub; a replace that ends in one while the
    // old ending survives is the range-one-line-short mistake.
    Subject::replaced(edit)?;
    if matches!(Family::of(s.path), Family::Prose | Family::Data) {
        return None;
    }
    let last = edit.rows.iter().rev().find(|r| !is_blank(r))?;
    let body = last.trim_start();
    let terminal = |t: &str| {
        TERMINAL.iter().any(|k| {
            t.strip_prefix(k).is_some_and(|rest| {
                k.ends_with('(') || rest.is_empty() || rest.starts_with([' ', ';', '('])
            })
        })
    };
    if !terminal(body) || body.ends_with(['{', ':', '(', ',', '[']) {
        return None;
    }
    let (_, after) = s.neighbours(edit);
    let next_n = (after..=s.line_count()).find(|&n| !is_blank(s.line(n)))?;
    let next = s.line(next_n);
    if indent(next) != indent(last) {
        return None;
    }
    let t = next.trim_start();
    if RESUMES.iter().any(|k| t.starts_with(k)) {
        return None;
    }
    let msg = format!(
        "the payload ends with `{}`, so line {next_n} (`{}`) right after it, at the same \
         indentation, could never run",
        body.trim_end(),
        t.trim_end()
    );
    Some((msg, terminal(t)))
}

#[cfg(test)]
mod member_tests {
    use super::opens_member;

    #[test]
    fn members_open_without_a_keyword_statements_do_not() {
        for m in ["render() {", "get x(): number {", "async load(id) {"] {
            assert!(opens_member(m), "{m}");
        }
        for t in [
            "if (x) {",
            "fName, err := get(a) {",
            "t.Run(\"x\", func(t *testing.T) {",
            "defer func() {",
            "items.forEach((x) => {",
            "return {",
        ] {
            assert!(!opens_member(t), "{t}");
        }
    }
}
