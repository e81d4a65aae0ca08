//! Payload rows that restate the lines next to the edit: the model copied a boundary line (or
//! several) into the payload, so the file would hold them twice (DEVIATIONS 4a, for every
//! dialect): one line repeated exactly, several lines, and one line that differs only in
//! trailing white space (models never reproduce it), and a blank row beside a blank line where
//! the file would then hold more blank lines in a row than anywhere before (a range one line
//! short kept its blank). Applied as sent, always announced.

use hashline_core::Edit;
use hashline_syntax::hash_json::json::quote;

use super::blank::{most_in_a_row, RUNS_FOR_RULE};
use super::lexical::is_blank;
use super::Subject;

/// Lines equal up to trailing white space.
fn same(a: &str, b: &str) -> bool {
    a.trim_end() == b.trim_end()
}

/// Whether a run of lines is worth calling an echo: something beyond blanks and lone closers.
fn substantial<'a>(mut lines: impl Iterator<Item = &'a str>) -> bool {
    lines.any(|l| l.trim().len() >= 3)
}

/// The longest echo looked for: bounds the work to a constant per edit.
const MAX_ECHO: usize = 32;

/// How many leading rows restate, in order, the lines that end at `last` (1-based).
fn leading(s: &Subject<'_>, rows: &[String], last: usize) -> usize {
    (1..=rows.len().min(last).min(MAX_ECHO))
        .rev()
        .find(|&k| (0..k).all(|i| same(&rows[i], s.line(last + 1 - k + i))))
        .unwrap_or(0)
}

/// How many trailing rows restate, in order, the lines that start at `first` (1-based).
fn trailing(s: &Subject<'_>, rows: &[String], first: usize) -> usize {
    let n = rows.len();
    let room = s.line_count().saturating_sub(first - 1);
    (1..=n.min(room).min(MAX_ECHO))
        .rev()
        .find(|&k| (0..k).all(|i| same(&rows[n - k + i], s.line(first + i))))
        .unwrap_or(0)
}

/// Warn about a multi-line echo and a one-line echo (exact, or but for trailing space).
pub(super) fn check(s: &Subject<'_>, edit: &Edit, warnings: &mut Vec<String>) {
    let (before, after) = s.neighbours(edit);
    let rows = &edit.rows;
    // Rows that restate the range's own first (last) lines in place are no echo, even where
    // those lines equal their neighbours (`'',` after `'',`).
    let own = |k: usize, at_start: bool| {
        Subject::replaced(edit).is_some_and(|(start, end)| {
            k <= end - start + 1
                && (0..k).all(|i| {
                    let (row, line) = if at_start {
                        (&rows[i], start + i)
                    } else {
                        (&rows[rows.len() - k + i], end + 1 - k + i)
                    };
                    same(row, s.line(line))
                })
        })
    };
    let head = if before >= 1 {
        leading(s, rows, before)
    } else {
        0
    };
    let head = if own(head, true) { 0 } else { head };
    let tail = if after <= s.line_count() {
        trailing(s, rows, after)
    } else {
        0
    };
    let tail = if own(tail, false) { 0 } else { tail };
    let n = rows.len();
    let mut found = Vec::new();
    if head >= 2 && head < n && substantial(rows[..head].iter().map(String::as_str)) {
        found.push(format!(
            "rows 1-{head} of {}: each repeats line {}-{before} just before it",
            (s.label)(edit),
            before + 1 - head
        ));
    }
    if tail >= 2 && tail < n && substantial(rows[n - tail..].iter().map(String::as_str)) {
        found.push(format!(
            "rows {}-{n} of {}: each repeats line {after}-{} just after it",
            n - tail + 1,
            (s.label)(edit),
            after + tail - 1
        ));
    }
    if !found.is_empty() {
        // The seeds keep such rows literal (hashline 029, 097): announced, never dropped.
        for f in found {
            warnings.push(format!(
                "[W_REPEATED_LINE] {f}; if that was not meant, remove the duplicates"
            ));
        }
        return;
    }
    let mut one = |row: usize, line: usize, side: &str| {
        let (r, l) = (&rows[row - 1], s.line(line));
        let label = (s.label)(edit);
        if is_blank(r) {
            if let Some((run, most)) = longer_blank_run(s, rows, line, side == "after") {
                warnings.push(format!(
                    "[W_REPEATED_LINE] row {row} of {label} repeats line {line} (a blank line) \
                     just {side} it: {run} blank lines in a row, where the file has at most \
                     {most}; if that was not meant, remove the duplicate"
                ));
            }
            return;
        }
        if r == l {
            warnings.push(format!(
                "[W_REPEATED_LINE] row {row} of {label} repeats line {line} ({}) just {side} it; if \
                 that was not meant, remove the duplicate",
                quote(l)
            ));
        } else if same(r, l) {
            warnings.push(format!(
                "[W_REPEATED_LINE] row {row} of {label} repeats line {line} ({}) but for trailing \
                 white space; if that was not meant, remove the duplicate",
                quote(l.trim_end())
            ));
        }
    };
    if head == 1 {
        one(1, before, "before");
    }
    // A single row that repeats both of its neighbours is named once.
    if tail == 1 && !(n == 1 && head == 1) {
        one(n, after, "after");
    }
    if let Some((row, run, most)) = doubled_blank(s, edit) {
        warnings.push(format!(
            "[W_REPEATED_LINE] rows {row}-{} of {} are {run} blank lines in a row, where the \
             file has at most {most} between such lines; if that was not meant, remove the \
             extra blank line",
            row + run - 1,
            (s.label)(edit)
        ));
    }
    if let Some(i) = doubled_row(s, edit) {
        warnings.push(format!(
            "[W_REPEATED_LINE] rows {} and {} of {} are the same line ({}), which the file never \
             has twice in a row; if that was not meant, remove the duplicate",
            i + 1,
            i + 2,
            (s.label)(edit),
            quote(rows[i].trim_end())
        ));
    }
}

/// The first of two neighbouring rows at either end of a replace that are both the range's own
/// line at that end (something beyond a closer): the payload restates that line as context
/// and then echoes it (a text-editor `new_str` that repeats its first context line), where the
/// text read never has that line twice in a row. Rows doubled elsewhere are left alone: real
/// code and test data repeat lines on purpose.
fn doubled_row(s: &Subject<'_>, edit: &Edit) -> Option<usize> {
    let (start, end) = Subject::replaced(edit)?;
    let rows = &edit.rows;
    let n = rows.len();
    let doubled = |i: usize, line: usize| {
        rows[i] == rows[i + 1]
            && rows[i] == s.line(line)
            && substantial(std::iter::once(rows[i].as_str()))
    };
    let i = if n >= 2 && doubled(0, start) {
        0
    } else if n >= 2 && doubled(n - 2, end) {
        n - 2
    } else {
        return None;
    };
    let row = rows[i].as_str();
    let twice = (1..s.line_count()).any(|k| s.line(k) == row && s.line(k + 1) == row);
    (!twice).then_some(i)
}

/// A blank row at one end of the rows next to blank line `line` (below the rows when `below`):
/// `(run, most)` when the blank lines would then stand `run` in a row, more than the `most` the
/// file ever has in a row (a range one line short keeps its blank line beside the payload's).
/// Rows that are all blank add blank lines on purpose; an empty file has no blank line.
fn longer_blank_run(
    s: &Subject<'_>,
    rows: &[String],
    line: usize,
    below: bool,
) -> Option<(usize, usize)> {
    // An empty file's one line is no blank line of its text (a create writes into it).
    if s.before.is_empty() || rows.iter().all(|r| is_blank(r)) || !is_blank(s.line(line)) {
        return None;
    }
    let in_rows = if below {
        rows.iter().rev().take_while(|r| is_blank(r)).count()
    } else {
        rows.iter().take_while(|r| is_blank(r)).count()
    };
    let beside = if below {
        (line..=s.line_count())
            .take_while(|&n| is_blank(s.line(n)))
            .count()
    } else {
        (1..=line)
            .rev()
            .take_while(|&n| is_blank(s.line(n)))
            .count()
    };
    let run = in_rows + beside;
    // The lines the run would stand between: past the kept blank lines, and the payload's
    // first written line on the other side.
    let beyond = if below {
        line + beside
    } else {
        line.saturating_sub(beside)
    };
    let beyond = (1..=s.line_count())
        .contains(&beyond)
        .then(|| s.line(beyond));
    let written = if below {
        rows.iter().rev().find(|r| !is_blank(r))
    } else {
        rows.iter().find(|r| !is_blank(r))
    };
    let (most, _) = most_in_a_row(s, beyond, written.map(String::as_str));
    (run > most).then_some((run, most))
}

/// A run of two or more blank rows between two written rows: `(first row, run, most)` (row
/// 1-based) where the file would then hold more blank lines in a row, between such lines,
/// than it ever does (a blank line restated twice: a text editor's `new_str` that repeats a
/// blank line of its context). Runs at the payload's ends meet the file's own blank lines and
/// are judged with them (the one-line echo above, the blank-run check of ranges).
fn doubled_blank(s: &Subject<'_>, edit: &Edit) -> Option<(usize, usize, usize)> {
    let rows = &edit.rows;
    let mut i = 0;
    while i < rows.len() {
        if !is_blank(&rows[i]) {
            i += 1;
            continue;
        }
        let first = i;
        while i < rows.len() && is_blank(&rows[i]) {
            i += 1;
        }
        let run = i - first;
        if first == 0 || i == rows.len() || run < 2 {
            continue;
        }
        let (most, runs) = most_in_a_row(s, Some(&rows[first - 1]), Some(&rows[i]));
        if run > most && runs >= RUNS_FOR_RULE {
            return Some((first + 1, run, most));
        }
    }
    None
}
