//! A header replaced without its body, in a language where indentation is the structure
//! (Python, YAML): a range one line long that swallows `else:` (or `except …:`, or a YAML
//! `key:`) and keeps the indented lines under it. The kept body parses as part of the block
//! above it, so no parser objects: the `else` branch runs with the `if` branch, the YAML keys
//! move to another parent.
//!
//! A `def` or `class` header removed with its body kept is left alone (real commits merge two
//! functions into one that way: the second's body joins the first), unless that body opens
//! with a docstring: a docstring only ever opens a body, so the body lost its header.

use hashline_core::Edit;

use super::lexical::{code_part, indent, is_blank, Family};
use super::Subject;

/// Blank lines looked past, below the range, for the first line of the kept body.
const BLANKS_BELOW: usize = 16;

/// Whether indentation alone says where a block ends in the file at `path`.
fn indentation_structured(path: &str) -> bool {
    [".py", ".pyi", ".yml", ".yaml"]
        .iter()
        .any(|e| path.ends_with(e))
}

/// The clauses of a Python statement: their body never means to join the branch above.
const CLAUSES: [&str; 5] = ["else", "elif ", "except", "finally", "case "];

/// Whether `line` opens an indented block this check judges: a YAML key, or a Python clause
/// (code ending in `:`, comments and strings aside).
fn is_header(line: &str, yaml: bool) -> bool {
    let code = code_part(line, Family::Hash);
    let code = code.trim();
    let t = code.trim_start_matches("- ");
    // A YAML sequence item (`- name: x`) holds the lines indented under its text.
    (code.ends_with(':') && (yaml || CLAUSES.iter().any(|c| t.starts_with(c))))
        || (yaml && code.starts_with("- "))
}

/// Whether `line` opens a Python function or class (its header ends with `:`).
fn is_definition(line: &str) -> bool {
    let t = line.trim();
    let t = t.strip_prefix("async ").unwrap_or(t);
    (t.starts_with("def ") || t.starts_with("class ")) && t.ends_with(':')
}

/// Whether `rows` end with a Python function or class header, on one row or wrapped over
/// several (`def f() -> Iterable[` … `]:`): the last row ends the header with `:`, and either
/// is the definition itself or closes a bracket of a definition row at its indentation whose
/// other rows are indented further.
fn ends_definition(rows: &[String]) -> bool {
    let Some((last, above)) = rows.split_last() else {
        return false;
    };
    if is_definition(last) {
        return true;
    }
    let code = code_part(last, Family::Hash);
    let closes = code.trim_start().starts_with([')', ']']);
    if !closes || !code.trim_end().ends_with(':') {
        return false;
    }
    let depth = indent(last).len();
    for row in above.iter().rev() {
        if is_blank(row) || indent(row).len() > depth {
            continue;
        }
        let t = row.trim();
        let t = t.strip_prefix("async ").unwrap_or(t);
        return indent(row).len() == depth && (t.starts_with("def ") || t.starts_with("class "));
    }
    false
}

/// Whether `line` opens a docstring (a string statement: `"""`, `'''`, maybe prefixed `r`).
fn is_docstring(line: &str) -> bool {
    let t = line.trim_start();
    let t = t.strip_prefix(['r', 'R']).unwrap_or(t);
    t.starts_with("\"\"\"") || t.starts_with("'''")
}

/// Whether line `n` starts in code, outside strings and brackets (its indentation means
/// structure, not the layout of a wrapped expression or a string's text).
fn starts_in_code(s: &Subject<'_>, n: usize) -> bool {
    let start = s.lexer_before(n).feed(s.line(n));
    !start.text && start.depth == 0 && !start.joined
}

/// What is wrong when `edit` replaces the header of a block whose body it keeps, and the
/// payload gives that body no header of its own.
pub(super) fn orphaned_body(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    if !indentation_structured(s.path) {
        return None;
    }
    let (start, end) = Subject::replaced(edit)?;
    // The first line with text below the range: the start of the kept body, if any.
    let last = s.line_count().min(end + BLANKS_BELOW);
    let body = (end + 1..=last).find(|&n| !is_blank(s.line(n)))?;
    if !s.survives(body) || !starts_in_code(s, body) {
        return None;
    }
    let depth = indent(s.line(body)).len();
    // Its header in the text read: the nearest line above with less indentation. Only the
    // lines between the range and the body are blank, so when that header is one the range
    // replaces it is found in the range (a bounded search, not one back to the top).
    let header = (start..=end)
        .rev()
        .find(|&n| !is_blank(s.line(n)) && indent(s.line(n)).len() < depth)?;
    let yaml = !super::lexical::is_python(s.path);
    let header_line = s.line(header);
    let docstring = !yaml && is_definition(header_line) && is_docstring(s.line(body));
    if !(docstring || is_header(header_line, yaml)) || !starts_in_code(s, header) {
        return None;
    }
    // A docstring can only open a body: the payload must end with its header (comments may
    // follow it, no statement).
    if docstring {
        let header_row = edit
            .rows
            .iter()
            .rposition(|r| !is_blank(r) && indent(r).len() < depth);
        let ends_with_header = header_row.is_some_and(|i| {
            ends_definition(&edit.rows[..=i])
                && edit.rows[i + 1..]
                    .iter()
                    .all(|r| is_blank(r) || r.trim_start().starts_with('#'))
        });
        return match ends_with_header {
            true => None,
            false => Some(format!(
                "the range replaces `{}` (line {header}) but keeps its body, which opens with a \
                 docstring (line {body}): that body would lose its header",
                header_line.trim()
            )),
        };
    }
    // The payload may give the body a new header: a row less indented than the body. Any such
    // row decides (one that opens no block leaves the body misindented: the parser says so).
    let adopted = edit
        .rows
        .iter()
        .rev()
        .find(|r| !is_blank(r) && indent(r).len() < depth);
    if adopted.is_some() {
        return None;
    }
    Some(format!(
        "the range replaces `{}` (line {header}) but keeps the body under it (from line {body}): \
         that body would join the block above",
        s.line(header).trim()
    ))
}
