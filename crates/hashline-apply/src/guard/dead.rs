//! Code an edit leaves unreachable: a line that, after the edit, follows a `return`, `raise`,
//! `break`… at its own indentation. The range was one line off: it ended before a line it
//! meant to replace (the payload ends in the terminal statement and the old ending survives),
//! or it started on the header of the block its rows belong to, so they now follow the end of
//! the block above.

use hashline_core::{Edit, ErrorCode};

use super::boundary::RESEND;
use super::lexical::{indent, is_blank, Family};
use super::{refuse, Refusal, Subject};

/// Statements after which nothing at the same indentation runs.
const TERMINAL: [&str; 6] = ["return", "raise", "throw", "break", "continue", "panic!("];

/// Lines that may follow a terminal statement at its indentation without being dead: a new
/// branch, handler, case or definition, a closer, a comment or a decorator.
const RESUMES: [&str; 24] = [
    "else", "elif", "except", "finally", "catch", "case", "default", "def ", "class ", "fn ",
    "func ", "function", "pub ", "async ", "export ", "@", "#", "//", "/*", "}", ")", "]", "end",
    "impl ",
];

/// Refuse or warn when `edit` leaves code unreachable (see the module doc).
pub(super) fn check(
    s: &Subject<'_>,
    edit: &Edit,
    warnings: &mut Vec<String>,
) -> Result<(), Refusal> {
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

/// Whether trimmed `t` is a statement after which nothing at its indentation runs (and not the
/// start of a longer expression: `return {`, `return (`).
fn terminal(t: &str) -> bool {
    TERMINAL.iter().any(|k| {
        t.strip_prefix(k).is_some_and(|rest| {
            k.ends_with('(') || rest.is_empty() || rest.starts_with([' ', ';', '('])
        })
    }) && !t.ends_with(['{', ':', '(', ',', '[', '\\'])
}

/// `(message, refuse)` when `edit` leaves a line unreachable: the payload's last row is a
/// terminal statement and the line after the edit, at the same indentation, could never run
/// (refused when that line is itself terminal: the range was one line short); or the
/// replace's first row (a deletion: the line after it) follows a terminal line kept above it
/// at the same indentation (warned).
fn dead_code(s: &Subject<'_>, edit: &Edit) -> Option<(String, bool)> {
    // An inserted early return may be a deliberate stub; a replace that ends in one while the
    // old ending survives is the range-one-line-short mistake.
    let (start, end) = Subject::replaced(edit)?;
    if matches!(Family::of(s.path), Family::Prose | Family::Data) {
        return None;
    }
    let (_, after) = s.neighbours(edit);
    let next_kept = || {
        (after..=s.line_count().min(after + BLANKS))
            .find(|&n| !is_blank(s.line(n)))
            .filter(|&n| s.survives(n))
    };
    // A range that already ended in that terminal statement left the line after it as
    // unreachable as it finds it: the edit did not make it so.
    let was_terminal = (start..=end)
        .rev()
        .map(|n| s.line(n))
        .find(|l| !is_blank(l))
        .is_some_and(|l| {
            terminal(l.trim_start()) && next_kept().is_some_and(|n| indent(s.line(n)) == indent(l))
        });
    if let Some(last) = edit.rows.iter().rev().find(|r| !is_blank(r)) {
        if let Some(found) =
            after_terminal(last, next_kept().map(|n| (n, s.line(n)))).filter(|_| !was_terminal)
        {
            return Some(found);
        }
    }
    // The line kept above the edit, if it is terminal: what the edit puts after it.
    let above = (start.saturating_sub(BLANKS).max(1)..start)
        .rev()
        .find(|&n| !is_blank(s.line(n)))
        .filter(|&n| s.survives(n))?;
    let upper = s.line(above);
    // A whole statement in code: not a line of a string, nor inside or ending in brackets.
    let at = s.lexer_before(above).feed(upper);
    let whole = !at.text && !at.joined && !at.ends_in_text && at.depth == 0 && at.depth_end == 0;
    if !terminal(upper.trim_start()) || !whole {
        return None;
    }
    let (n, first) = match edit.rows.iter().find(|r| !is_blank(r)) {
        Some(row) => (None, row.as_str()),
        None => {
            let n = next_kept()?;
            (Some(n), s.line(n))
        }
    };
    if indent(first) != indent(upper) || resumes(first.trim_start()) {
        return None;
    }
    let what = match n {
        Some(n) => format!("line {n} (`{}`)", first.trim()),
        None => format!("the payload's first row (`{}`)", first.trim()),
    };
    let msg = format!(
        "{what} would follow line {above} (`{}`) at the same indentation and could never run: \
         the range may start on the header of the block it belongs to",
        upper.trim()
    );
    Some((msg, false))
}

/// Blank lines looked past for the line before or after an edit.
const BLANKS: usize = 16;

/// Whether trimmed `t` may follow a terminal statement at its indentation.
fn resumes(t: &str) -> bool {
    RESUMES.iter().any(|k| t.starts_with(k))
}

/// `(message, refuse)` when the payload's last row `last` is terminal and `next` (the line
/// after the edit, numbered) at its indentation could never run.
fn after_terminal(last: &str, next: Option<(usize, &str)>) -> Option<(String, bool)> {
    let body = last.trim_start();
    if !terminal(body) {
        return None;
    }
    let (next_n, next) = next?;
    if indent(next) != indent(last) {
        return None;
    }
    let t = next.trim_start();
    if resumes(t) {
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
