//! Two lines merged into one row: a row that holds, after a `;` statement separator, another
//! statement (the text of a line the edit replaces, or a new one), where the edit has fewer
//! rows than lines and none of the lines it replaces joins statements so. It may be deliberate,
//! so it is a warning.

use std::collections::HashSet;

use hashline_core::Edit;

use super::lexical::{code_part, is_blank, is_one_wrapped_unit, Family};
use super::Subject;

/// How many lines a merge may have saved, and how far from its place a row looks for the lines
/// it merged.
const MERGE_REACH: usize = 8;

/// The statements after each `;` of `row` (outside strings and comments), trimmed.
fn joined_statements<'r>(row: &'r str, family: Family) -> impl Iterator<Item = &'r str> + 'r {
    // `code_part` keeps one byte per char only for ASCII: cut on the row where they agree.
    // Only `;` outside parentheses: `for (i = 0; i < n; i++)` is one statement.
    let code = code_part(row, family);
    let ascii = row.is_ascii();
    let mut depth = 0i32;
    let mut cuts = Vec::new();
    for (at, c) in code.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ';' if depth == 0 => cuts.push(at),
            _ => {}
        }
    }
    cuts.into_iter()
        .filter(move |_| ascii)
        .map(move |at| row.get(at + 1..).unwrap_or("").trim())
        .filter(|t| t.starts_with(|c: char| c.is_alphabetic() || c == '_'))
}

/// The start of a line that tells it apart: its first word when that has 5 characters or more,
/// else its first 8 characters.
fn head(line: &str) -> String {
    let word = line.split_whitespace().next().unwrap_or("");
    if word.chars().count() >= 5 {
        word.to_string()
    } else {
        line.chars().take(8).collect()
    }
}

/// Whether `line` begins at byte `at` of `body` as a line of its own would: at a word
/// boundary (not inside `http.request` or `compressed_body`), and, when its start is a word
/// followed by an operator (`request = …`, `name: …`), with that operator too: a rewrite that
/// reuses a line's first word (`await http.request(…)`) does not paste the line.
fn begins_at(body: &str, at: usize, line: &str) -> bool {
    let before = body[..at].chars().next_back();
    if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
        return false;
    }
    let h = head(line);
    let rest = line.get(h.len()..).unwrap_or("");
    let spaced = rest.trim_start();
    let key_len = match spaced.chars().next() {
        Some(op @ ('=' | ':' | '(')) => h.len() + (rest.len() - spaced.len()) + op.len_utf8(),
        _ => h.len(),
    };
    body[at..].starts_with(line.get(..key_len).unwrap_or(line))
}

/// A replaced line whose start stands inside `row` after the start of another replaced line
/// that begins the row: two lines of the range (JSX cells, JSON properties, bullets) joined.
/// A row that begins otherwise rewrites the text (a reflowed paragraph may reuse a word).
fn starts_inside<'a>(row: &str, replaced: &[&'a str]) -> Option<&'a str> {
    let body = row.trim();
    let begun = |line: &str| {
        let h = head(line);
        !h.is_empty() && body.starts_with(h.as_str())
    };
    // An attribute joined onto the item it marks (`#[cfg(unix)] f();`) is a deliberate form.
    if body.starts_with("#[") {
        return None;
    }
    replaced.iter().copied().find(|line| {
        let head = head(line);
        // Only text before it makes a join: markup alone (`# `, `> `, `- `) re-marks the line
        // itself (a setext heading turned `# Title`).
        head.chars().count() >= 5
            && !body.starts_with(head.as_str())
            && body.match_indices(head.as_str()).any(|(at, _)| {
                body[..at].chars().any(char::is_alphanumeric) && begins_at(body, at, line)
            })
            && replaced.iter().any(|other| other != line && begun(other))
    })
}

/// A control header (`if x := f(); x > 0 {`, `for (…; …; …) {`): its `;` belong to the header
/// (Go's init statement), and it restates the lines it was made of on purpose.
fn is_header(row: &str) -> bool {
    let t = row.trim().trim_start_matches(['}', ' ']);
    let t = t.strip_prefix("else ").unwrap_or(t);
    ["if ", "for ", "switch ", "while "]
        .iter()
        .any(|k| t.starts_with(k))
        && t.ends_with('{')
}

/// Whether a line of `lines` (not the last) opens more brackets than it closes, outside strings
/// and comments: the next line continues it (a call or expression wrapped over lines).
fn bracket_continued(lines: &[&str], family: Family) -> bool {
    lines.iter().take(lines.len().saturating_sub(1)).any(|l| {
        code_part(l, family)
            .chars()
            .map(|c| match c {
                '(' | '[' | '{' => 1,
                ')' | ']' | '}' => -1,
                _ => 0,
            })
            .sum::<i32>()
            > 0
    })
}

/// Warn when a row of `edit` joins two statements the range had on lines of their own.
pub(super) fn check(s: &Subject<'_>, edit: &Edit, warnings: &mut Vec<String>) {
    let Some((start, end)) = Subject::replaced(edit) else {
        return;
    };
    if end <= start {
        return;
    }
    let family = Family::of(s.path);
    if family == Family::Data && !s.path.ends_with(".json") {
        return;
    }
    let replaced: Vec<&str> = (start..=end)
        .map(|n| s.line(n).trim())
        .filter(|l| !l.is_empty())
        .collect();
    // A range that already joins statements on a line is written in that style.
    if replaced
        .iter()
        .any(|l| joined_statements(l, family).next().is_some())
    {
        return;
    }
    let set: HashSet<&str> = replaced.iter().copied().collect();
    let lines: Vec<&str> = (start..=end).map(|n| s.line(n)).collect();
    // JSON entries end in `,` as a matter of course: there a `,` does not make one wrapped unit.
    let wrapped = family != Family::Data
        && (is_one_wrapped_unit(&lines) || bracket_continued(&lines, family));
    // A few lines fewer is a merge; many fewer is a rewrite. Row `i` can hold only the lines near
    // its own place, so each row is compared with a few lines: linear in the range.
    let fewer =
        edit.rows.len() < lines.len() && lines.len() - edit.rows.len() <= MERGE_REACH && !wrapped;
    // Rows inside a multi-line string (a shell script in a Go raw string) are text.
    let mut lexer = s.lexer_before(start);
    for (i, row) in edit.rows.iter().enumerate() {
        let in_text = lexer.feed(row).text;
        if is_blank(row) || set.contains(row.trim()) || is_header(row) || in_text {
            continue;
        }
        let near = &replaced[i.saturating_sub(MERGE_REACH).min(replaced.len())
            ..(i + 2 * MERGE_REACH + 1).min(replaced.len())];
        if let Some(line) = fewer.then(|| starts_inside(row, near)).flatten() {
            warnings.push(format!(
                "[W_MERGED_LINES] row {} of {} also holds the start of `{line}`, a line of its own \
                 in the range; if that was not meant, send them as separate rows",
                i + 1,
                (s.label)(edit)
            ));
            return;
        }
        let code = !matches!(family, Family::Prose | Family::Data);
        if let Some(tail) = code
            .then(|| joined_statements(row, family).next())
            .flatten()
        {
            let what = if set.contains(tail) {
                "a line of its own in the range"
            } else {
                "a statement"
            };
            warnings.push(format!(
                "[W_MERGED_LINES] row {} of {} joins `{tail}`, {what}, onto the statement before \
                 it, while the range had one statement per line; if that was not meant, send them \
                 as separate rows",
                i + 1,
                (s.label)(edit)
            ));
            return;
        }
    }
}
