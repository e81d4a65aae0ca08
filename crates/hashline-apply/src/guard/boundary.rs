//! A range one line off: it swallows a separating blank line the payload does not restate,
//! leaves behind a line the payload already replaces (a duplicate key, code after the payload's
//! closing `return`), or repeats the line next to it.

use hashline_core::{Edit, ErrorCode};

use super::lexical::{indent, is_blank, Family};
use super::{refuse, GuardRefusal, Subject};

const RESEND: &str = "Fix the range with the fresh anchors shown and send the edit again; to \
remove such a line on purpose, delete it in an edit of its own.";

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
    if let Some(what) = duplicate_key(s, edit) {
        return Err(refuse(s, ErrorCode::RangeBoundary, edit, what, RESEND));
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
/// restate at that end.
fn swallowed_blank(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    if end <= start || (start..=end).all(|n| is_blank(s.line(n))) {
        return None;
    }
    let first = edit.rows.first()?;
    let last = edit.rows.last()?;
    // A last row that restates the line after the range is a different mistake (or intent):
    // the repeated-line notice covers it.
    if is_blank(s.line(end)) && !is_blank(last) && last.trim() != s.line(end + 1).trim() {
        return Some(format!(
            "the range ends on blank line {end}, which the payload does not restate: the edit \
             would remove that separator"
        ));
    }
    if is_blank(s.line(start)) && !is_blank(first) && first.trim() != s.line(start - 1).trim() {
        return Some(format!(
            "the range starts on blank line {start}, which the payload does not restate: the edit \
             would remove that separator"
        ));
    }
    None
}

/// The key of a `key: value` / `"key": value` / `key = value` line, with its indentation.
fn key_of(line: &str) -> Option<(&str, &str)> {
    let t = line.trim_start();
    let t = t.strip_prefix("- ").unwrap_or(t);
    let end = t.find([':', '='])?;
    let key = t[..end].trim_end();
    let bare = key.trim_matches('"');
    let simple = !bare.is_empty()
        && bare
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    let after = &t[end..];
    // `key:` must be followed by space or the end (not `::`, not a URL); `=` not by `=`.
    let sep_ok = match after.as_bytes() {
        [b':'] | [b':', b' ', ..] => true,
        [b'=', b' ', ..] => !key.ends_with(['!', '<', '>', '=']),
        _ => false,
    };
    (simple && sep_ok).then_some((indent(line), key))
}

/// A data file (YAML, JSON, TOML …) whose line right after (or before) a replaced range has the
/// same key, at the same indentation, as a payload row: the range left the old entry behind.
fn duplicate_key(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    let path = s.path.to_ascii_lowercase();
    let data = [
        ".yaml",
        ".yml",
        ".json",
        ".toml",
        ".ini",
        ".cfg",
        ".env",
        ".properties",
    ]
    .iter()
    .any(|ext| path.ends_with(ext));
    if !data {
        return None;
    }
    let replaced: Vec<Option<(&str, &str)>> = (start..=end).map(|n| key_of(s.line(n))).collect();
    for n in [end + 1, start.wrapping_sub(1)] {
        if n == 0 || n > s.line_count() {
            continue;
        }
        let Some(left) = key_of(s.line(n)) else {
            continue;
        };
        // The entry is restated only when the range covered one of that key, too.
        if replaced.contains(&Some(left)) {
            continue;
        }
        if edit.rows.iter().any(|r| key_of(r) == Some(left)) {
            return Some(format!(
                "line {n} (`{}`) stays beside the payload, which sets the same key `{}` at the same \
                 indentation: the range is one line short",
                s.line(n).trim(),
                left.1
            ));
        }
    }
    None
}

/// The payload's last row is a terminal statement and the line right after the edit, at the
/// same indentation, could never run. `(message, refuse)`: refuse when that line is itself a
/// terminal statement (the range was one line short), else warn.
fn dead_code(s: &Subject<'_>, edit: &Edit) -> Option<(String, bool)> {
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
mod tests {
    use super::*;

    #[test]
    fn keys() {
        assert_eq!(key_of("  replicas: 3"), Some(("  ", "replicas")));
        assert_eq!(key_of("  \"name\": \"x\","), Some(("  ", "\"name\"")));
        assert_eq!(key_of("url: http://x"), Some(("", "url")));
        assert_eq!(key_of("a::b"), None);
        assert_eq!(key_of("x == y"), None);
    }
}
