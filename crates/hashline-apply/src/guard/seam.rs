//! Two lines joined at a seam the file's own formatting never has: what is left where a line
//! break was taken out and one space put in. Formatters (black, prettier, gofmt, rustfmt) and
//! people alike keep a file's spacing consistent, so a new row that spaces one way the rest of
//! the file never does is two lines merged, not a style:
//!
//! * a bracket opened and followed by a space, or a space before a closer (`[ 'a',`,
//!   `x, ]`, `), )`), where no code line of the file spaces its brackets so;
//! * a line comment holding its own leader again (`/// one. /// two`, `# a # b`);
//! * in Python, an inline comment one space after the code where the file's inline comments
//!   stand two spaces off (PEP 8), or a block header with its body on the same line
//!   (`with x: y = 1`) where the file never writes one so;
//! * two items on a row of a one-item-per-row list (`"a", "b",` between `"c",` and `"d",`);
//! * a line continuation `\` followed by more text on the same row, where the lines around
//!   end with `\`;
//! * a statement followed by a `}` that closes a block opened on an earlier row (`return }`),
//!   where no code line of the file does so (gofmt, rustfmt and prettier give it a row);
//! * in Markdown, a closing code fence after text on the same row, a list item holding its
//!   bullet again (`* Fixed a. * Added b`) where no item of the file does, or two link
//!   reference definitions on one row.
//!
//! Each is a warning (`W_MERGED_LINES`): the row may be meant.

use hashline_core::{Edit, EditKind};

use super::layout::Lexer;
use super::lexical::{code_part, indent, is_blank, is_python, Family};
use super::seam_markdown::{bullet, bullet_again, markdown_seam};
use super::seam_more::{attr_inline, comment_ends_in_code, is_attr, is_line_comment, star_again};
use super::Subject;

/// Lines above and below the edits read for the file's spacing.
const STYLE_REACH: usize = 10_000;
/// Code lines with brackets a file needs before its bracket spacing counts as a style.
const MIN_BRACKET_LINES: usize = 8;
/// Block headers a Python file needs before their layout counts as a style.
const MIN_BLOCK_HEADERS: usize = 4;
/// Inline comments a Python file needs before their spacing counts as a style.
const MIN_INLINE_COMMENTS: usize = 3;

/// How the file read spaces what a merge leaves behind (counted over code lines).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Style {
    /// Code lines with a bracket.
    bracket_lines: usize,
    /// Code lines with `( x`, `[ x` (a bracket opened, a space, more code).
    spaced_open: usize,
    /// Code lines with `x )`, `x ]`.
    spaced_close: usize,
    /// Line comments that hold their leader again after a space.
    leader_again: usize,
    /// Python inline comments one space after the code.
    inline_one: usize,
    /// Python inline comments two or more spaces after the code.
    inline_two: usize,
    /// Python block headers with their body on the same line.
    one_line_blocks: usize,
    /// Python block headers (a line of code ending in `:`).
    block_headers: usize,
    /// Code lines with a `{` left open and more code after it, or `} }`.
    brace_seams: usize,
    /// Code lines with a method call after a space (`x .y(`).
    spaced_calls: usize,
    /// Markdown fences whose info string is text, not a language.
    wordy_fences: usize,
    /// Code lines with a statement and then a `}` closing a block opened above.
    closer_seams: usize,
    /// Markdown list items holding their bullet again after text.
    pub(super) bullets_again: usize,
    /// Markdown list items (`* `, `- `, `+ `).
    pub(super) list_items: usize,
    /// Rust attribute lines, and those with more code after the attribute.
    attrs: usize,
    attrs_inline: usize,
    /// Line comments alone on their row, and those ending in a swallowed statement.
    line_comments: usize,
    comments_ending_in_code: usize,
    /// Block comment rows (` * text`), and those holding another row's `*`.
    star_rows: usize,
    stars_again: usize,
}

impl Style {
    /// The spacing of the lines of `s` around its edits.
    pub(crate) fn of(s: &Subject<'_>) -> Style {
        let family = Family::of(s.path);
        let python = is_python(s.path);
        let first = s.edits.iter().map(|e| s.neighbours(e).0).min().unwrap_or(1);
        let last = s.edits.iter().map(|e| s.neighbours(e).1).max().unwrap_or(1);
        let lo = first.saturating_sub(STYLE_REACH).max(1);
        let hi = (last + STYLE_REACH).min(s.line_count());
        let mut lexer = Lexer::new(s.path);
        let mut style = Style::default();
        for n in lo..=hi {
            let line = s.line(n);
            if family == Family::Prose {
                style.wordy_fences += usize::from(wordy_fence(line).is_some());
                style.list_items += usize::from(bullet(line).is_some());
                style.bullets_again += usize::from(bullet_again(line).is_some());
                continue;
            }
            let start = lexer.feed(line);
            if start.text {
                if line.trim_start().starts_with('*') {
                    style.star_rows += 1;
                    style.stars_again += usize::from(star_again(line).is_some());
                }
                continue;
            }
            if is_line_comment(line, family) {
                style.line_comments += 1;
                style.comments_ending_in_code +=
                    usize::from(comment_ends_in_code(line, family).is_some());
            }
            let code = code_part(line, family);
            if family == Family::Rust && is_attr(&code) {
                style.attrs += 1;
                style.attrs_inline += usize::from(attr_inline(&code).is_some());
            }
            if code.contains(['(', '[', ')', ']']) {
                style.bracket_lines += 1;
            }
            style.spaced_open += usize::from(spaced_open(&code).is_some());
            style.spaced_close += usize::from(spaced_close(&code).is_some());
            style.leader_again += usize::from(leader_again(line, family).is_some());
            style.brace_seams += usize::from(brace_seam(&code).is_some());
            style.spaced_calls += usize::from(spaced_call(&code).is_some());
            style.closer_seams += usize::from(closer_after_code(&code).is_some());
            if python {
                match inline_gap(line, &code) {
                    Some(1) => style.inline_one += 1,
                    Some(_) => style.inline_two += 1,
                    None => {}
                }
                style.one_line_blocks += usize::from(one_line_block(&code).is_some());
                style.block_headers += usize::from(code.trim_end().ends_with(':'));
            }
        }
        style
    }
}

/// `( x` or `[ x` in a line's code (its indentation aside): the seam's text.
fn spaced_open(code: &str) -> Option<String> {
    let b = code.trim_start().as_bytes();
    (0..b.len().saturating_sub(2)).find_map(|i| {
        let seam = matches!(b[i], b'(' | b'[')
            && b[i + 1] == b' '
            && !matches!(b[i + 2], b' ' | b')' | b']' | b'\\');
        seam.then(|| seam_text(b, i, 3))
    })
}

/// `x )` or `x ]` in a line's code (a closer leading the line aside).
fn spaced_close(code: &str) -> Option<String> {
    let b = code.trim().as_bytes();
    (1..b.len().saturating_sub(1)).find_map(|i| {
        let seam = b[i] == b' ' && matches!(b[i + 1], b')' | b']') && !matches!(b[i - 1], b' ');
        seam.then(|| seam_text(b, i - 1, 3))
    })
}

/// A few bytes of `b` from `at`, for the message.
fn seam_text(b: &[u8], at: usize, len: usize) -> String {
    let lo = at.saturating_sub(6);
    let hi = (at + len + 6).min(b.len());
    String::from_utf8_lossy(&b[lo..hi]).trim().to_string()
}

/// The leader of a line comment standing alone on `line` (`///`, `//!`, `//`, `#`, `#:`),
/// if any: the comment marker and the punctuation glued to it, followed by a space.
fn comment_leader(line: &str, family: Family) -> Option<&str> {
    let t = line.trim_start();
    let marker = match family {
        Family::CLike | Family::Rust => "//",
        Family::Hash => "#",
        _ => return None,
    };
    let rest = t.strip_prefix(marker)?;
    let glued = rest.len() - rest.trim_start_matches(['/', '!', ':', '#']).len();
    let leader = &t[..marker.len() + glued];
    t[leader.len()..].starts_with(' ').then_some(leader)
}

/// A line comment holding its own leader again after a space (`/// a. /// b`).
fn leader_again(line: &str, family: Family) -> Option<String> {
    let leader = comment_leader(line, family)?;
    let body = line.trim_start()[leader.len()..].trim_end();
    let again = format!(" {leader}");
    let at = body.find(&again)?;
    let after = &body[at + again.len()..];
    // `# a # b`, `/// a. ///`: the leader again ends the row or a space follows it.
    (after.is_empty() || after.starts_with(' ')).then(|| format!("…{}", &body[at..]))
}

/// Spaces between a Python line's code and its inline comment.
fn inline_gap(line: &str, code: &str) -> Option<usize> {
    let kept = code.trim_end();
    if kept.trim().is_empty() {
        return None;
    }
    // `code_part` writes one char for each char of the line (a string's chars as `_`).
    let at = line.char_indices().nth(kept.chars().count())?.0;
    let rest = &line[at..];
    let gap = rest.len() - rest.trim_start().len();
    rest.trim_start().starts_with('#').then_some(gap)
}

/// A Python block header with its body on the same line (`with x: y = 1`): the text after
/// the header's `:`.
fn one_line_block(code: &str) -> Option<String> {
    const HEADS: [&str; 12] = [
        "if ", "elif ", "else:", "for ", "while ", "with ", "def ", "class ", "try:", "except",
        "finally:", "async ",
    ];
    let t = code.trim();
    if !HEADS.iter().any(|h| t.starts_with(h)) {
        return None;
    }
    let mut depth = 0i32;
    for (i, c) in t.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ':' if depth == 0 => {
                // `lambda x: …` in a header is not its end.
                if t[..i].split_whitespace().any(|w| w == "lambda") {
                    return None;
                }
                let body = t[i + 1..].trim();
                return (!body.is_empty() && !body.starts_with('=')).then(|| body.to_string());
            }
            _ => {}
        }
    }
    None
}

/// A `{` the row leaves open with more code after it on the row (`=> { x.push(y);`,
/// `fn f() { match x {`), or a closer after `} ` (`} }`): formatted brace code ends a row at
/// an open `{` and gives each closing brace its own row.
fn brace_seam(code: &str) -> Option<String> {
    let t = code.trim();
    let b = t.as_bytes();
    if t.starts_with('}') {
        let closers = t.trim_start_matches(['}', ')', ']', ';', ',']);
        if let Some(rest) = closers.strip_prefix(' ') {
            if rest.starts_with('}') {
                return Some(seam_text(b, 0, 3));
            }
        }
    }
    // The `{`s still open at the end of the row, each with what follows it.
    let mut open: Vec<usize> = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'{' => open.push(i),
            b'}' => {
                open.pop();
            }
            _ => {}
        }
    }
    open.into_iter().find_map(|i| {
        let after = &t[i + 1..];
        let code_follows = after
            .strip_prefix(' ')
            .is_some_and(|a| a.starts_with(|c: char| c.is_alphanumeric() || c == '_'));
        code_follows.then(|| seam_text(b, i, 3))
    })
}

/// A method call after a space in the middle of a row (`arg("x") .long("x")`): a chain's
/// next line joined on.
fn spaced_call(code: &str) -> Option<String> {
    let t = code.trim();
    let b = t.as_bytes();
    (1..b.len().saturating_sub(2)).find_map(|i| {
        let seam = b[i] == b' '
            && b[i + 1] == b'.'
            && (b[i + 2].is_ascii_alphabetic() || b[i + 2] == b'_')
            && (b[i - 1].is_ascii_alphanumeric() || matches!(b[i - 1], b')' | b']' | b'_'));
        seam.then(|| seam_text(b, i, 4))
    })
}

/// A `}` after code that closes a brace the row did not open (`\treturn }`,
/// `return errors.New(x) },`): a block's last statement and its closer joined.
fn closer_after_code(code: &str) -> Option<String> {
    let t = code.trim();
    if t.starts_with(['}', ')', ']']) {
        return None;
    }
    let b = t.as_bytes();
    let mut depth = 0usize;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'{' => depth += 1,
            b'}' if depth > 0 => depth -= 1,
            b'}' => {
                let before = t[..i].trim_end();
                let code_before = before.len() < i
                    && before.ends_with(|c: char| c.is_alphanumeric() || "_)]\"';".contains(c));
                return code_before.then(|| seam_text(b, i.saturating_sub(2), 3));
            }
            _ => {}
        }
    }
    None
}

/// A Markdown fence line whose info string is not a language (or a `{directive}`) but text:
/// the fence's next line joined on (```` ``` $ cargo install ripgrep ````).
fn wordy_fence(line: &str) -> Option<String> {
    let t = line.trim_start();
    let info = t.strip_prefix("```")?.trim_start_matches('`').trim();
    let first = info.chars().next()?;
    let language = first.is_alphanumeric() || "{.=-+_".contains(first);
    // A shell prompt after the language (```` ```bash > fd -p ````) is the first line.
    let prompt = info
        .split_whitespace()
        .nth(1)
        .is_some_and(|w| w.starts_with(['>', '$', '%']));
    ((!language || prompt) && info.split_whitespace().count() >= 2)
        .then(|| t.chars().take(24).collect())
}

/// A row's code split at its commas outside brackets: `Some(items)` when it is a list row
/// (ends with a `,`, brackets balanced within it).
fn list_items(code: &str) -> Option<usize> {
    let t = code.trim();
    if !t.ends_with(',') || t.starts_with(['}', ')', ']']) {
        return None;
    }
    let mut depth = 0i32;
    let mut items = 1;
    for (i, c) in t.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 && i + 1 < t.len() => items += 1,
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    (depth == 0).then_some(items)
}

/// Warn when a row of `edit` joins two lines at a seam the file never has (module doc).
pub(super) fn check(s: &Subject<'_>, edit: &Edit, warnings: &mut Vec<String>) {
    if edit.rows.is_empty() || warnings.iter().any(|w| w.starts_with("[W_MERGED_LINES]")) {
        return;
    }
    let family = Family::of(s.path);
    let (before, after) = s.neighbours(edit);
    let first = match edit.kind {
        EditKind::Replace { start, .. } => start,
        _ => after,
    };
    let mut lexer = s.lexer_before(first);
    let style = || s.seam_style();
    let replaced: Vec<&str> = Subject::replaced(edit)
        .map(|(a, b)| (a..=b).map(|n| s.line(n)).collect())
        .unwrap_or_default();
    let row_at = |i: isize| -> Option<&str> {
        if i < 0 {
            Some(s.line(before))
        } else if i as usize >= edit.rows.len() {
            Some(s.line(after))
        } else {
            edit.rows.get(i as usize).map(String::as_str)
        }
    };
    for (i, row) in edit.rows.iter().enumerate() {
        let start = lexer.feed(row);
        if is_blank(row) || replaced.contains(&row.as_str()) {
            continue;
        }
        let found = if family == Family::Prose {
            closing_fence(row)
                .or_else(|| {
                    let fence = wordy_fence(row)?;
                    (style().wordy_fences == 0)
                        .then(|| format!("the code fence `{fence}` carries a line of text"))
                })
                .or_else(|| markdown_seam(s, row, &style))
        } else if start.text {
            star_seam(row, &style).or_else(|| continued(s, edit, row))
        } else {
            code_seam(s, edit, family, row, &style).or_else(|| {
                let (above, below) = (row_at(i as isize - 1), row_at(i as isize + 1));
                two_items(family, row, above, below)
            })
        };
        if let Some(why) = found {
            warnings.push(format!(
                "[W_MERGED_LINES] row {} of {} looks like two lines joined: {why}; if that was \
                 not meant, send them as separate rows",
                i + 1,
                (s.label)(edit)
            ));
            return;
        }
    }
}

/// A seam of a code row the file's style never has (brackets, comments, Python headers).
fn code_seam(
    s: &Subject<'_>,
    edit: &Edit,
    family: Family,
    row: &str,
    style: &dyn Fn() -> Style,
) -> Option<String> {
    let code = code_part(row, family);
    let spaced = spaced_open(&code)
        .map(|seam| (seam, true))
        .or_else(|| spaced_close(&code).map(|seam| (seam, false)));
    if let Some((seam, open)) = spaced {
        let st = style();
        let seen = if open {
            st.spaced_open
        } else {
            st.spaced_close
        };
        if st.bracket_lines >= MIN_BRACKET_LINES && seen == 0 {
            return Some(format!(
                "`{seam}` spaces a bracket as no code line of the file does"
            ));
        }
    }
    if let Some(seam) = leader_again(row, family) {
        if style().leader_again == 0 {
            return Some(format!("the comment holds its leader again (`{seam}`)"));
        }
    }
    if is_python(s.path) {
        if inline_gap(row, &code) == Some(1) {
            let st = style();
            if st.inline_one == 0 && st.inline_two >= MIN_INLINE_COMMENTS {
                return Some(
                    "its inline comment stands one space after the code, where every inline \
                     comment of the file stands two off"
                        .to_string(),
                );
            }
        }
        if let Some(body) = one_line_block(&code) {
            let st = style();
            if st.one_line_blocks == 0 && st.block_headers >= MIN_BLOCK_HEADERS {
                return Some(format!(
                    "a block header carries its body `{body}` on the same line, which the file \
                     never does"
                ));
            }
        }
    }
    if let Some(seam) = swallowed(family, row, &code, style) {
        return Some(seam);
    }
    if matches!(family, Family::Rust | Family::CLike) && !s.path.ends_with(".json") {
        if let Some(seam) = spaced_call(&code) {
            if style().spaced_calls == 0 && style().bracket_lines >= MIN_BRACKET_LINES {
                return Some(format!(
                    "`{seam}` calls a method after a space, which no line of the file does"
                ));
            }
        }
        if let Some(seam) = closer_after_code(&code) {
            if style().closer_seams == 0 && style().bracket_lines >= MIN_BRACKET_LINES {
                return Some(format!(
                    "`{seam}` closes a block after a statement on the same row, which no line \
                     of the file does"
                ));
            }
        }
        if let Some(seam) = brace_seam(&code) {
            if style().brace_seams == 0 {
                return Some(format!(
                    "`{seam}` leaves a brace with code after it on the row, which no line of \
                     the file does"
                ));
            }
        }
    }
    continued(s, edit, row)
}

/// Thresholds of the seams of `seam_more`: attribute lines, line comments and block comment
/// rows a file needs before their layout counts as a style.
const MIN_ATTRS: usize = 3;
const MIN_LINE_COMMENTS: usize = 5;
const MIN_STAR_ROWS: usize = 5;

/// A Rust attribute with its item on the row, or a line comment ending in a statement,
/// where the file never has either.
fn swallowed(family: Family, row: &str, code: &str, style: &dyn Fn() -> Style) -> Option<String> {
    if family == Family::Rust {
        if let Some(seam) = attr_inline(code) {
            let st = style();
            if st.attrs >= MIN_ATTRS && st.attrs_inline == 0 {
                return Some(format!(
                    "`{seam}` puts an item on its attribute's row, which the file never does"
                ));
            }
        }
    }
    let seam = comment_ends_in_code(row, family)?;
    let st = style();
    (st.line_comments >= MIN_LINE_COMMENTS && st.comments_ending_in_code == 0).then(|| {
        format!(
            "the comment `{seam}` ends in a statement, which no comment of the file does (the \
             line of code below it joined to it?)"
        )
    })
}

/// A block comment row holding the next row's `*` after a sentence, where the file's
/// comment rows never do.
fn star_seam(row: &str, style: &dyn Fn() -> Style) -> Option<String> {
    let seam = star_again(row)?;
    let st = style();
    (st.star_rows >= MIN_STAR_ROWS && st.stars_again == 0)
        .then(|| format!("the comment row holds another row's `*` (`{seam}`)"))
}

/// A `\` line continuation with more text after it on the same row, where the lines around
/// end with `\`.
fn continued(s: &Subject<'_>, edit: &Edit, row: &str) -> Option<String> {
    if !matches!(Family::of(s.path), Family::Rust | Family::CLike) && !is_python(s.path) {
        return None;
    }
    let at = row.find("\\ ")?;
    let tail = row[at + 2..].trim_start();
    if !tail.starts_with(|c: char| c.is_alphabetic()) || row[..at].trim().is_empty() {
        return None;
    }
    let (before, after) = s.neighbours(edit);
    let lines_continue =
        (before.max(1)..=after.min(s.line_count())).any(|n| s.line(n).trim_end().ends_with('\\'));
    lines_continue.then(|| "a `\\` line continuation is followed by more text".to_string())
}

/// Two items on a row of a list whose rows around hold one item each.
fn two_items(
    family: Family,
    row: &str,
    above: Option<&str>,
    below: Option<&str>,
) -> Option<String> {
    if family == Family::Prose {
        return None;
    }
    if list_items(&code_part(row, family))? < 2 {
        return None;
    }
    let single = |line: Option<&str>| {
        line.is_some_and(|l| {
            indent(l) == indent(row) && list_items(&code_part(l, family)) == Some(1)
        })
    };
    let opens = |line: Option<&str>| {
        line.is_some_and(|l| code_part(l, family).trim_end().ends_with(['(', '[', '{']))
    };
    let closes = |line: Option<&str>| {
        line.is_some_and(|l| {
            code_part(l, family)
                .trim_start()
                .starts_with([')', ']', '}'])
        })
    };
    let fits =
        (single(above) && (single(below) || closes(below))) || (opens(above) && single(below));
    fits.then(|| "it holds two items of a list whose rows around hold one each".to_string())
}

/// A Markdown row of text ending in a code fence, or in a heading's underline
/// (`2.23.0 (2020-02-19) -------`).
fn closing_fence(row: &str) -> Option<String> {
    let t = row.trim();
    let fence = t.ends_with("```") && t.matches("```").count() == 1 && t.len() > 3;
    if fence && t[..t.len() - 3].ends_with(' ') {
        return Some("a code fence closes after text on the same row".to_string());
    }
    for mark in ['-', '='] {
        let text = t.trim_end_matches(mark);
        let run = t.len() - text.len();
        if run >= 3 && text.ends_with(' ') && text.trim().chars().any(char::is_alphanumeric) {
            return Some("a heading's underline follows its text on the same row".to_string());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bracket_seams() {
        assert!(spaced_open("    assert x == [ 'a',").is_some());
        assert!(spaced_open("f(a, [b])").is_none());
        assert!(spaced_close("    'x', ]").is_some());
        assert!(spaced_close("    ), )").is_some());
        assert!(spaced_close("    )").is_none());
    }

    #[test]
    fn comment_leaders() {
        assert!(leader_again("    /// enabled. ///", Family::Rust).is_some());
        assert!(leader_again("    // see https://x.y/z", Family::Rust).is_none());
        assert!(leader_again("# issue #12", Family::Hash).is_none());
        assert!(leader_again("    #: on 3.x. #: see x", Family::Hash).is_some());
    }

    #[test]
    fn python_headers() {
        assert_eq!(
            one_line_block("with pytest.deprecated_call(): cli = x"),
            Some("cli = x".to_string())
        );
        assert!(one_line_block("def f(x: int) -> str:").is_none());
        assert!(one_line_block("if f(lambda: 1):").is_none());
        assert!(one_line_block("else:").is_none());
    }

    #[test]
    fn brace_rows() {
        assert!(brace_seam("Ok(p) => { p.push(x);").is_some());
        assert!(brace_seam("fn f() { match x {").is_some());
        assert!(brace_seam("} }").is_some());
        assert!(brace_seam("let p = Point { x, y };").is_none());
        assert!(brace_seam("} else {").is_none());
        assert!(brace_seam("items.map(|x| {").is_none());
    }

    #[test]
    fn method_chains() {
        assert!(spaced_call("arg(\"a\") .long(\"a\")").is_some());
        assert!(spaced_call("x.long(\"a\")").is_none());
        assert!(spaced_call("for i in 0 .. n").is_none());
    }

    #[test]
    fn fences() {
        assert!(wordy_fence("``` $ yaourt -S ripgrep").is_some());
        assert!(wordy_fence("```rust").is_none());
        assert!(wordy_fence("```{versionadded} 4.0").is_none());
        assert!(wordy_fence("```bash > fd -p x").is_some());
        assert!(wordy_fence("```python title=\"a.py\"").is_none());
        assert!(closing_fence("2.23.0 (2020-02-19) -------------------").is_some());
        assert!(closing_fence("-------------------").is_none());
        assert!(closing_fence("run it ```").is_some());
    }

    #[test]
    fn inline_comments_beside_wide_chars() {
        let line = "text = \"Здравствуй, мир!\"  # привет";
        let code = code_part(line, Family::Hash);
        assert_eq!(inline_gap(line, &code), Some(2));
        let line = "text = \"Здравствуй, мир!\"";
        assert_eq!(inline_gap(line, &code_part(line, Family::Hash)), None);
    }

    #[test]
    fn closers_after_code() {
        assert!(closer_after_code("\treturn }").is_some());
        assert!(closer_after_code("\t\t\treturn errors.New(____) },").is_some());
        assert!(closer_after_code("\tif x { return }").is_none());
        assert!(closer_after_code("\t})").is_none());
        assert!(closer_after_code("\tx := T{a: 1}").is_none());
    }

    #[test]
    fn list_rows() {
        assert_eq!(list_items("    \"a\", \"b\","), Some(2));
        assert_eq!(list_items("    f(a, b),"), Some(1));
        assert_eq!(list_items("    x = 1"), None);
    }
}
