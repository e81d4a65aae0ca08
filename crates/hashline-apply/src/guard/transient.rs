//! A syntax error of one step of a multi-call change (the text-editor tool sends one hunk per
//! call).
//!
//! A change that rewrites a block's header (`test('x', async t => {` becoming
//! `const f = async t => {`, `try:` becoming `with …:`) also rewrites its closer, further down;
//! a text-editor model sends that as a second call, so between the two calls the new header
//! meets the old closer and the text does not parse. That error is the structure's, not the
//! payload's: the call swapped one open block for another and touched no closer. It is let
//! through when
//! - the call is one replace whose removed lines and rows both leave a block open (a bracket,
//!   or in Python a line ending in `:`) and neither closes a block opened before it (a payload
//!   that drops or adds a closer is a mistake, whatever the error looks like), and
//! - the error reaches below the rows (where the new header meets the old body and closer); an
//!   error that lies within the rows is the payload's own.
//!
//! Later calls of the same change edit a text that does not parse yet. A call whose rows keep
//! the block structure of the lines they replace (the same blocks left open, no closer) adds
//! no structural error: an error away from its rows, in a text that already failed to parse
//! before the call, is let through too.

use std::path::Path;

use hashline_core::{EditKind, SyntaxIssue};

use super::lexical::{code_part, Family};
use super::Subject;

const PAIRS: [(char, char); 3] = [('{', '}'), ('[', ']'), ('(', ')')];

/// Whether `issue`, found after `s`'s one edit, is the passing state of a block header rewritten
/// ahead of its closer, or an earlier step's (see the module docs); `broken_before` tells
/// whether the text before the call already failed to parse (asked last: it parses).
pub(super) fn is_transient(
    s: &Subject<'_>,
    issue: &SyntaxIssue,
    broken_before: impl FnOnce() -> bool,
) -> bool {
    let [edit] = s.edits else {
        return false;
    };
    let EditKind::Replace { start, end } = edit.kind else {
        return false;
    };
    let family = Family::of(s.path);
    if family == Family::Prose || family == Family::Data {
        return false;
    }
    let python = Path::new(s.path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "py" | "pyi"));
    let old = blocks((start..=end).map(|n| s.line(n)), family, python);
    let new = blocks(edit.rows.iter().map(String::as_str), family, python);
    if old.closed_outer != 0 || new.closed_outer != 0 {
        return false;
    }
    let last_row = start + edit.rows.len().saturating_sub(1);
    // One header for another: as many lines that open a block on each side, or every header
    // removed rewritten by a row that names what it named (a header dropped without a trace,
    // two replaced by one, lost a block whatever the brackets say).
    let rows_code: Vec<String> = edit.rows.iter().map(|r| code_part(r, family)).collect();
    let rewritten = |header: &String| {
        let mut named = words(header).filter(|w| !KEYWORDS.contains(w)).peekable();
        if named.peek().is_none() {
            // `return [`, `else {`: nothing named; a row opening the same bracket rewrites it.
            let last = header.trim_end().chars().last();
            return rows_code
                .iter()
                .any(|r| r.trim_end().chars().last() == last);
        }
        named.any(|w| rows_code.iter().any(|r| words(r).any(|x| x == w)))
    };
    let swapped = !old.open.is_empty()
        && !new.open.is_empty()
        && (old.headers.len() == new.headers.len() || old.headers.iter().all(rewritten));
    if swapped && issue.end_line > last_row {
        return true;
    }
    let away = issue.line > last_row || issue.end_line < start;
    old.open == new.open && away && broken_before()
}

/// Keywords that name nothing a rewrite would keep.
const KEYWORDS: [&str; 8] = [
    "return", "else", "async", "await", "yield", "const", "static", "while",
];

/// The identifiers of four characters or more of `code`.
fn words(code: &str) -> impl Iterator<Item = &str> {
    code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.chars().count() >= 4 && !w.starts_with(|c: char| c.is_ascii_digit()))
}

/// The blocks some lines leave open and how many blocks opened before them they close.
struct Blocks {
    /// Unmatched openers, in order (`:` for a Python block header).
    open: Vec<char>,
    /// Closers that match no opener of the lines.
    closed_outer: usize,
    /// The lines whose blocks are still open at the end (each a header of its own), as
    /// code, outermost first.
    headers: Vec<String>,
}

fn blocks<'l>(lines: impl Iterator<Item = &'l str>, family: Family, python: bool) -> Blocks {
    let mut out = Blocks {
        open: Vec::new(),
        closed_outer: 0,
        headers: Vec::new(),
    };
    // For each open bracket, the line that opened it.
    let mut owner: Vec<usize> = Vec::new();
    let mut codes: Vec<String> = Vec::new();
    for line in lines {
        let code = code_part(line, family);
        for c in code.chars() {
            if PAIRS.iter().any(|&(o, _)| o == c) {
                out.open.push(c);
                owner.push(codes.len());
            } else if let Some(&(o, _)) = PAIRS.iter().find(|&&(_, cl)| cl == c) {
                match out.open.iter().rposition(|&x| x == o) {
                    Some(at) if at + 1 == out.open.len() => {
                        out.open.pop();
                        owner.pop();
                    }
                    _ => out.closed_outer += 1,
                }
            }
        }
        if python && code.trim_end().ends_with(':') {
            out.open.push(':');
            owner.push(codes.len());
        }
        codes.push(code);
    }
    owner.dedup();
    out.headers = owner.into_iter().map(|i| codes[i].clone()).collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashline_core::{Edit, Pieces};

    /// Whether an issue ending on `end_line` after replacing lines `start..=end` of `before`
    /// by `rows` is transient, for a file at `path`.
    fn judged(
        path: &str,
        before: &str,
        (start, end): (usize, usize),
        rows: &[&str],
        end_line: usize,
    ) -> bool {
        judged_at(path, before, (start, end), rows, (start, end_line), false)
    }

    /// [`judged`] with the issue's first line and whether the text before was broken.
    fn judged_at(
        path: &str,
        before: &str,
        (start, end): (usize, usize),
        rows: &[&str],
        (line, end_line): (usize, usize),
        broken: bool,
    ) -> bool {
        let lines: Vec<&str> = before.split('\n').collect();
        let edits = vec![Edit {
            kind: EditKind::Replace { start, end },
            rows: rows.iter().map(|r| r.to_string()).collect(),
            origin: 0,
        }];
        let after = Pieces::whole(before);
        let anchor = |n: usize| format!("{n}:");
        let s = Subject::new(
            path,
            &lines,
            &edits,
            (before, &after),
            &anchor,
            &super::super::op_label,
        );
        let issue = SyntaxIssue {
            line,
            column: 1,
            what: "unexpected \")\"".into(),
            end_line,
        };
        is_transient(&s, &issue, || broken)
    }

    const JS: &str = "test('a', async t => {\n\tt.is(1, 1);\n});\n";

    #[test]
    fn a_rewritten_header_ahead_of_its_closer_is_transient() {
        let rows = ["const testA = async (t, m) => {"];
        assert!(judged("a.js", JS, (1, 1), &rows, 3));
        let py = "f = open(n)\ntry:\n    x = f.read()\nfinally:\n    f.close()\n";
        assert!(judged("a.py", py, (1, 2), &["with open(n) as f:"], 5));
    }

    #[test]
    fn a_payload_that_drops_or_adds_a_closer_is_not() {
        // The rows lose the `});` the removed lines had.
        assert!(!judged("a.js", JS, (2, 3), &["\tt.is(1, 2);"], 4));
        // The rows close a block opened above them.
        assert!(!judged("a.js", JS, (2, 2), &["\tt.is(1, 2);", "});"], 4));
        // The removed lines open nothing: the rows leave a new block open.
        let rows = ["\tif (x) {", "\t\tt.is(1, 2);"];
        assert!(!judged("a.js", JS, (2, 2), &rows, 4));
    }

    #[test]
    fn an_earlier_steps_error_away_from_a_neutral_call_is_let_through() {
        let go = "a := (&App{\n\tName: \"x\",\n}\na.Run()\n";
        let rows = ["\tName:   \"x\","];
        assert!(judged_at("a.go", go, (2, 2), &rows, (4, 4), true));
        // In a text that parsed before the call, the error is the call's.
        assert!(!judged_at("a.go", go, (2, 2), &rows, (4, 4), false));
        // An error on the rows themselves is the payload's.
        assert!(!judged_at("a.go", go, (2, 2), &rows, (2, 4), true));
        // Rows that open a block the lines did not are not neutral.
        assert!(!judged_at(
            "a.go",
            go,
            (2, 2),
            &["\tName: f(\"x\","],
            (4, 4),
            true
        ));
    }

    #[test]
    fn two_headers_replaced_by_one_lose_a_block() {
        // A range one line long swallowed the inner header: its body and closer stay.
        let go = "a := &App{\n\tFlags: []Flag{\n\t\t{Name: \"i\"},\n\t},\n}\n";
        assert!(!judged("a.go", go, (1, 2), &["cmd := &Command{"], 5));
        // Header for header, as many on each side: the closer follows in a later call.
        assert!(judged("a.go", go, (1, 1), &["cmd := &Command{"], 5));
    }

    #[test]
    fn an_error_within_the_rows_is_the_payloads() {
        let rows = ["const testA = async (t, m => {"];
        assert!(!judged("a.js", JS, (1, 1), &rows, 1));
    }
}
