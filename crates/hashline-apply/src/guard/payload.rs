//! Rows that are not file content: read anchors pasted from a read, unified-diff headers and
//! `-`/`+`/context rows, a `+` diff marker on every row, a literal `\n` joining two lines, and a
//! `\r` carried inside a row.

use std::cell::OnceCell;
use std::collections::HashSet;

use hashline_core::{Edit, EditKind, ErrorCode};

use super::lexical::{indent, is_blank, is_markdown, without_strings, Family};
use super::{refuse, Refusal, Subject};

/// How many lines around an edit count as "what the model was looking at" for diff rows.
const WINDOW: usize = 3;

const RESEND: &str = "Send the content lines only, exactly as they should appear in the file \
(no anchors, no diff markers, one row per line); if these rows are the content meant, resend with \
--as-sent (CLI) or \"allowSyntaxErrors\": true (JSON).";

/// Refuse `edit` if one of its rows is not content.
pub(super) fn check(s: &Subject<'_>, edit: &Edit) -> Result<(), Refusal> {
    let family = Family::of(s.path);
    let mut what = findings(s, edit, family);
    // In prose, rows inside a code fence are code of any language (a diff, a shell line):
    // judged again without them.
    if what.is_some() && family == Family::Prose {
        let fenced = Edit {
            rows: outside_fences(s, edit),
            ..edit.clone()
        };
        what = findings(s, &fenced, family);
    }
    match what {
        Some(what) => Err(refuse(
            s,
            ErrorCode::PayloadContaminated,
            edit,
            what,
            RESEND,
        )),
        None => Ok(()),
    }
}

/// The rows of `edit` that stand outside Markdown code fences, counting the fences of the file
/// above the edit and of the rows themselves (a row inside is kept blank: numbers stay).
pub(super) fn outside_fences(s: &Subject<'_>, edit: &Edit) -> Vec<String> {
    let (before, _) = s.neighbours(edit);
    let mut inside = s.fences_through(before) % 2 == 1;
    edit.rows
        .iter()
        .map(|r| {
            // A fence joined to the next line by a literal `\n` stays to be judged.
            if super::is_fence(r) && r.contains("\\n") {
                inside = !inside;
                r.clone()
            } else if super::is_fence(r) {
                inside = !inside;
                String::new()
            } else if inside && closes_after_newline(r) {
                // The fence's closing line joined on by a literal `\n`: judged, and closed.
                inside = false;
                r.clone()
            } else if inside {
                String::new()
            } else {
                r.clone()
            }
        })
        .collect()
}

/// A row that holds a literal `\n` followed by a code fence (`$ cargo install x\n~~~`).
fn closes_after_newline(row: &str) -> bool {
    row.match_indices("\\n")
        .any(|(at, _)| super::is_fence(&row[at + 2..]))
}

/// The first thing of `edit`'s rows that is not content, if any.
fn findings(s: &Subject<'_>, edit: &Edit, family: Family) -> Option<String> {
    carriage_return(edit)
        .or_else(|| lineid_anchor(edit))
        .or_else(|| numbered_rows(s, edit))
        .or_else(|| diff_header(edit))
        .or_else(|| diff_rows(s, edit, family))
        .or_else(|| plus_markers(s, edit, family))
        .or_else(|| literal_newline(s, edit, family))
}

fn row_no(i: usize) -> usize {
    i + 1
}

fn carriage_return(edit: &Edit) -> Option<String> {
    let i = edit.rows.iter().position(|r| r.contains('\r'))?;
    Some(format!(
        "row {} carries a carriage return (`\\r`); line endings are the file's and are kept by the \
         engine, so a `\\r` in a row would be written into the line",
        row_no(i)
    ))
}

/// `12#AB|` at the start of a row (lineid-json's read anchor).
fn has_lineid_anchor(row: &str) -> bool {
    let t = row.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let b = t.as_bytes();
    digits > 0
        && b.len() >= digits + 4
        && b[digits] == b'#'
        && b[digits + 1].is_ascii_uppercase()
        && b[digits + 2].is_ascii_uppercase()
        && b[digits + 3] == b'|'
}

fn lineid_anchor(edit: &Edit) -> Option<String> {
    let i = edit.rows.iter().position(|r| has_lineid_anchor(r))?;
    Some(format!(
        "row {} starts with a read anchor (`N#ID|`) copied from the read",
        row_no(i)
    ))
}

/// `(N, rest)` for a row `N:rest` (the hashline read format) or `   N\trest` (a `cat -n` row,
/// the text-editor tool's `view`).
fn numbered(row: &str) -> Option<(usize, &str)> {
    // `cat -n` right-aligns the number in six columns and puts a tab after it.
    let padded = row.trim_start_matches(' ');
    let digits = padded.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && digits <= 9 {
        if let Some(rest) = padded[digits..].strip_prefix('\t') {
            return Some((padded[..digits].parse().ok()?, rest));
        }
    }
    // The mismatch report marks changed lines `*N:`; numbered diffs show `N|`.
    let row = row.strip_prefix(['*', '>']).unwrap_or(row);
    let digits = row.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let rest = row[digits..].strip_prefix([':', '|'])?;
    Some((row[..digits].parse().ok()?, rest))
}

/// Every row `N:TEXT` with consecutive numbers, or one row `N:TEXT` whose TEXT is line N or
/// whose N is the line it lands on (or its anchor).
fn numbered_rows(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let nums: Vec<(usize, &str)> = edit
        .rows
        .iter()
        .map(|r| numbered(r))
        .collect::<Option<_>>()?;
    let consecutive = nums.len() >= 2 && nums.windows(2).all(|w| w[1].0 == w[0].0 + 1);
    let echo = nums.len() == 1 && nums[0].0 <= s.line_count() && s.line(nums[0].0) == nums[0].1;
    // One row numbered with the line it lands on (or the anchor's): copied from a read.
    let (before, after) = s.neighbours(edit);
    let lands = match edit.kind {
        EditKind::Replace { start, .. } => start,
        _ => after,
    };
    let placed = nums.len() == 1 && [lands, before].contains(&nums[0].0) && nums[0].0 > 0;
    let tab = edit.rows.first().is_some_and(|r| {
        let t = r.trim_start_matches(' ');
        t.trim_start_matches(|c: char| c.is_ascii_digit())
            .starts_with('\t')
    });
    (consecutive || echo || placed).then(|| {
        if tab {
            format!(
                "every row starts with a line number and a tab (`{}\\t`), copied from the view \
                 output",
                nums[0].0
            )
        } else {
            format!(
                "every row starts with a line number and a colon (`{}:`), copied from the read \
                 output",
                nums[0].0
            )
        }
    })
}

/// `@@ -a,b +c,d @@`, or `--- a/…` followed by `+++ b/…`.
fn diff_header(edit: &Edit) -> Option<String> {
    for (i, row) in edit.rows.iter().enumerate() {
        let t = row.trim_start();
        if t.starts_with("@@ ") && t[3..].contains("@@") && t[3..].trim_start().starts_with('-') {
            return Some(format!(
                "row {} is a unified-diff hunk header (`@@ … @@`)",
                row_no(i)
            ));
        }
        if t.starts_with("--- ")
            && edit
                .rows
                .get(i + 1)
                .is_some_and(|n| n.trim_start().starts_with("+++ "))
        {
            return Some(format!(
                "rows {} and {} are a unified-diff file header",
                row_no(i),
                i + 2
            ));
        }
    }
    None
}

/// The original lines the model was looking at: the replaced lines and a few around the edit.
fn window<'s>(s: &'s Subject<'_>, edit: &Edit) -> impl Iterator<Item = &'s str> + 's {
    let (before, after) = s.neighbours(edit);
    let lo = before.saturating_sub(WINDOW - 1).max(1);
    let hi = (after + WINDOW - 1).min(s.line_count());
    (lo..=hi).map(move |n| s.line(n))
}

/// A row that is a diff marker (`-`, `+` or a context space) followed by an original line of
/// the edit's window, where the row itself is not that line: the payload is a diff.
fn diff_rows(s: &Subject<'_>, edit: &Edit, family: Family) -> Option<String> {
    // The window's lines as sets, built once (a long range against a long payload stays linear).
    let sets = OnceCell::new();
    let sets = || {
        sets.get_or_init(|| {
            let exact: HashSet<&str> = window(s, edit).collect();
            let trimmed: HashSet<&str> = exact.iter().map(|l| l.trim_end()).collect();
            (exact, trimmed)
        })
    };
    for (i, row) in edit.rows.iter().enumerate() {
        let Some(marker) = row.chars().next().filter(|c| matches!(c, '-' | '+' | ' ')) else {
            continue;
        };
        let rest = &row[1..];
        if rest.trim().len() < 3 || (marker == ' ' && family == Family::Prose) {
            continue;
        }
        let (exact, trimmed) = sets();
        if trimmed.contains(rest.trim_end()) && !exact.contains(row.as_str()) {
            let kind = match marker {
                '-' => "a removed-line diff row (`-` + an original line)",
                '+' => "an added-line diff row (`+` + an original line)",
                _ => "a diff context row (a space + an original line)",
            };
            return Some(format!("row {} is {kind}", row_no(i)));
        }
    }
    marked_replacement(s, edit)
}

/// A row that is a `+`/`-` marker glued to the indentation of the line it replaces and the same
/// first word (`+  replicas: 5` for `  replicas: 3`): a diff row of a changed line.
fn marked_replacement(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    let first_word = |l: &'_ str| l.split_whitespace().next().unwrap_or("").to_string();
    // `(indentation, first word)` of every replaced line, built once.
    let shapes = OnceCell::new();
    let shapes = || {
        shapes.get_or_init(|| {
            (start..=end)
                .map(|n| s.line(n))
                .filter(|l| !l.trim().is_empty())
                .map(|l| (indent(l).to_string(), first_word(l)))
                .collect::<HashSet<(String, String)>>()
        })
    };
    for (i, row) in edit.rows.iter().enumerate() {
        let t = row.trim_start();
        let Some(rest) = t.strip_prefix(['+', '-']) else {
            continue;
        };
        let ind = indent(rest);
        if ind.is_empty() || rest.trim().is_empty() {
            continue;
        }
        if shapes().contains(&(ind.to_string(), first_word(rest))) {
            return Some(format!(
                "row {} is a diff row (`{}` glued to the indentation of the line it replaces)",
                row_no(i),
                &t[..1]
            ));
        }
    }
    None
}

/// A `+` diff marker on every non-blank row, where no line around the edit starts with `+`
/// (Markdown `+ ` bullets are content).
fn plus_markers(s: &Subject<'_>, edit: &Edit, family: Family) -> Option<String> {
    // In prose a `+` glued to a bullet (`++ `, `+- `, `+* `) is a diff marker on every row.
    let marked_bullet = |r: &String| ["++ ", "+- ", "+* "].iter().any(|m| r.starts_with(m));
    if family == Family::Prose
        && edit.rows.iter().filter(|r| !is_blank(r)).all(marked_bullet)
        && edit.rows.iter().any(|r| !is_blank(r))
    {
        return Some("every row is a bullet behind a `+` diff marker".to_string());
    }
    // A diff marks every row of a block; one `+row` is judged by what follows the `+`.
    let rows: Vec<&String> = edit.rows.iter().filter(|r| !is_blank(r)).collect();
    let marked = |r: &&String| r.starts_with('+') && !r.starts_with("++");
    if rows.is_empty() || !rows.iter().all(marked) {
        return None;
    }
    if rows.len() < 2 && !one_marked_row(s, edit, rows[0], family) {
        return None;
    }
    if family == Family::Prose && edit.rows.iter().all(|r| is_blank(r) || r.starts_with("+ ")) {
        return None;
    }
    if window(s, edit).any(|l| l.trim_start().starts_with('+')) {
        return None;
    }
    Some("every row starts with a `+` diff marker".to_string())
}

/// Whether the one row `row` (starting with `+`) is a diff row in code: the `+` stands before
/// the indentation of a line around the edit (`+    "x",`), or before a word or quote at the
/// start of a line (`+regex = "1"`), which no language starts a line with on purpose. In
/// Markdown a `+` glued to a word or to markup (`+Help …`, `+[link]`, `+**Note**`) is a
/// marker too (a bullet needs a space after its `+`); `+1 for this`, plain text and diffs are
/// content.
fn one_marked_row(s: &Subject<'_>, edit: &Edit, row: &str, family: Family) -> bool {
    let diff = [".diff", ".patch"].iter().any(|e| s.path.ends_with(e));
    if diff {
        return false;
    }
    let rest = &row[1..];
    if family == Family::Prose {
        // Only Markdown gives `+` a meaning (a bullet, with its space); plain text may start a
        // line with one.
        return is_markdown(s.path)
            && rest.starts_with(|c: char| c.is_alphabetic() || "[*_`!<#>".contains(c));
    }
    let ind = indent(rest);
    if ind.is_empty() {
        return rest.starts_with(|c: char| c.is_alphabetic() || matches!(c, '_' | '"' | '\''));
    }
    window(s, edit).any(|l| !is_blank(l) && indent(l) == ind)
}

/// A literal `\n` outside string literals (comments included) that joins two lines: what
/// follows it starts like a line of code at the row's own indentation, or at the indentation of
/// a line around the edit. Lines it replaces that have one already make it deliberate.
fn literal_newline(s: &Subject<'_>, edit: &Edit, family: Family) -> Option<String> {
    // The indentations found around the edit, built once when a `\n` shows up.
    let indents = OnceCell::new();
    let indents = || indents.get_or_init(|| window(s, edit).map(indent).collect::<HashSet<&str>>());
    // Inside a string or comment (a docstring, a wrapped help text) a `\n` followed by the
    // indentation of the lines around, four columns or more, and more text is the next line
    // joined on: a string meant to hold a newline goes on at its own margin.
    // A row that starts inside a multi-line string or comment (a docstring's body) goes on,
    // after a `\n`, at a hanging indent deeper than its own too (`:param x: a\n        b`).
    let indented_in_text = |line: &str, body_of_text: bool| {
        family != Family::Prose
            && line.match_indices("\\n").any(|(at, _)| {
                let tail = &line[at + 2..];
                let w = indent(tail);
                let next = tail[w.len()..].chars().next();
                let hanging = body_of_text && w.len() > indent(line).len();
                w.len() >= 4
                    && next.is_some_and(|c| !c.is_whitespace() && c != '\\')
                    && (w == indent(line) || hanging || indents().contains(w))
                    && !line[..at].ends_with('\\')
            })
    };
    let markdown = family == Family::Prose && is_markdown(s.path);
    let joins = |line: &str, body_of_text: bool| {
        if !line.contains("\\n") {
            return false;
        }
        // A fence's info string never holds a `\n`: the fence's first line joined on.
        if family == Family::Prose && super::is_fence(line) {
            return true;
        }
        let bare = without_strings(line, family);
        bare.match_indices("\\n").any(|(at, _)| {
            let tail = bare.get(at + 2..).unwrap_or("");
            let t = tail.trim_start();
            let bullet = family == Family::Prose
                && ["- ", "* ", "+ ", "# "].iter().any(|b| t.starts_with(b));
            // The row's own leading token (`///`, `//`, `#`, `<td>`) again after the `\n`: a
            // second line of the same kind (a doc comment, JSX) joined on.
            let own = line.split_whitespace().next().unwrap_or("");
            let lead: String = own.chars().take(2).collect();
            let again = (own.starts_with(['/', '#']) && t.starts_with(lead.as_str()))
                || ((own.starts_with('<') || family == Family::CLike) && t.starts_with('<'))
                // A block comment's closing line (`text.\n\t*/`).
                || (matches!(family, Family::CLike | Family::Rust) && t.starts_with("*/"));
            let starts_code = bullet
                || again
                || t.starts_with(|c: char| {
                    c.is_alphanumeric() || matches!(c, '_' | '$' | '}' | '@')
                });
            let tail_indent = indent(tail);
            // In Markdown (outside code spans) a `\n` before white space, markup (a quote,
            // a fence, a setext underline, a list) or a capital starts the next line.
            let prose_line = markdown
                && tail.starts_with(|c: char| {
                    c.is_whitespace() || c.is_uppercase() || "-*+>#|=`[!".contains(c)
                });
            prose_line
                || (starts_code && (tail_indent == indent(line) || indents().contains(tail_indent)))
        }) || indented_in_text(line, body_of_text)
    };
    if !edit.rows.iter().any(|r| r.contains("\\n")) {
        return None;
    }
    let (_, after) = s.neighbours(edit);
    let first = Subject::replaced(edit).map_or(after, |(start, _)| start);
    let mut lexer = s.lexer_before(first);
    let i = edit
        .rows
        .iter()
        .position(|r| joins(r, lexer.feed(r).text))?;
    if let Some((start, end)) = Subject::replaced(edit) {
        let mut lexer = s.lexer_before(start);
        if (start..=end).any(|n| joins(s.line(n), lexer.feed(s.line(n)).text)) {
            return None;
        }
    }
    Some(format!(
        "row {} joins two lines with a literal `\\n` outside any string; send them as two rows",
        row_no(i)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lineid_anchor_shape() {
        assert!(has_lineid_anchor("12#AB|x"));
        assert!(!has_lineid_anchor("12#Ab|x"));
        assert!(!has_lineid_anchor("#AB|"));
    }

    #[test]
    fn numbered_row_shape() {
        assert_eq!(numbered("233:  x"), Some((233, "  x")));
        assert_eq!(numbered("233"), None);
        assert_eq!(numbered("a:1"), None);
    }
}
