//! A header replaced without its body, in a language where indentation is the structure
//! (Python, YAML): a range one line long that swallows `else:` (or `except …:`, or a YAML
//! `key:`) and keeps the indented lines under it. The kept body parses as part of the block
//! above it, so no parser objects: the `else` branch runs with the `if` branch, the YAML keys
//! move to another parent.
//!
//! A `def` or `class` header removed with its body kept is left alone: real commits merge two
//! functions into one that way (the second's body joins the first), which cannot be told from a
//! range one line long.

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
    code.ends_with(':') && (yaml || CLAUSES.iter().any(|c| t.starts_with(c)))
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
    let yaml = !s.path.ends_with(".py") && !s.path.ends_with(".pyi");
    if !is_header(s.line(header), yaml) || !starts_in_code(s, header) {
        return None;
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
