//! Line IDs of the LINE#ID dialect (seed `004`): two letters of `ZPMQVRWSNKTXJBYH` per line.
//!
//! * [`line_id`]: the ID of one canonical line (xxHash32 of the trimmed line; seed 0 when the line
//!   has a Unicode letter or number, else the line number), [`legacy_line_id`]: the pre-2026-03
//!   ID (all whitespace removed), accepted on validation only.
//! * [`canonical_lines`], [`line_ids`], [`render_read`]: the dialect's line model and its
//!   `N#ID|content` read rows.
//! * [`enhance_read_output`]: the peer's read hook, which rewrites a host `read` tool's
//!   `N: content` / `N| content` rows into `N#ID|content` rows.
//!
//! Whitespace is JavaScript's (`String.prototype.trimEnd`): U+FEFF is whitespace, U+0085 is not.

use unicode_general_category::get_general_category;

/// The 16 letters of an ID, index 0 = `Z` … 15 = `H`.
pub const ALPHABET: &str = "ZPMQVRWSNKTXJBYH";

const ALPH: &[u8; 16] = b"ZPMQVRWSNKTXJBYH";

/// Whether `c` is whitespace in JavaScript's sense (`\s`, `trim`; see [`hashline_core::js`]).
pub use hashline_core::js::is_js_space as is_js_whitespace;

/// Whether `c` is one of the 16 ID letters.
pub fn is_id_letter(c: char) -> bool {
    c.is_ascii() && ALPH.contains(&(c as u8))
}

fn has_letter_or_number(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(
            get_general_category(c).abbreviation().as_bytes().first(),
            Some(b'L' | b'N')
        )
    })
}

fn id_of(normalized: &str, line_number: usize) -> String {
    let seed = if has_letter_or_number(normalized) {
        0
    } else {
        // The peer passes the line number as a 32-bit seed; larger numbers wrap the same way.
        (line_number & 0xFFFF_FFFF) as u32
    };
    let low = xxhash_rust::xxh32::xxh32(normalized.as_bytes(), seed) & 0xFF;
    let hi = ALPH[(low >> 4) as usize] as char;
    let lo = ALPH[(low & 15) as usize] as char;
    [hi, lo].iter().collect()
}

/// The ID of a canonical line (1-based `line_number`, content without terminator): `\r` removed,
/// trailing JS whitespace trimmed, xxHash32 with seed 0 if a letter/number remains, else the line
/// number; the low byte's two nibbles index [`ALPHABET`].
pub fn line_id(line_number: usize, content: &str) -> String {
    let no_cr: String = content.chars().filter(|&c| c != '\r').collect();
    let normalized = no_cr.trim_end_matches(is_js_whitespace);
    id_of(normalized, line_number)
}

/// The legacy ID (IDs issued before 2026-03-12): like [`line_id`] but with every whitespace
/// character removed. Accepted during validation, never displayed.
pub fn legacy_line_id(line_number: usize, content: &str) -> String {
    let stripped: String = content
        .chars()
        .filter(|&c| c != '\r' && !is_js_whitespace(c))
        .collect();
    id_of(&stripped, line_number)
}

/// Whether `id` is the current or the legacy ID of line `line_number` with `content`.
pub fn id_matches(line_number: usize, content: &str, id: &str) -> bool {
    line_id(line_number, content) == id || legacy_line_id(line_number, content) == id
}

/// The dialect's lines of an LF-normalized, BOM-free text: split on `\n`, final empty piece
/// kept, and an empty text has no lines at all.
pub fn canonical_lines(text: &str) -> Vec<&str> {
    if text.is_empty() {
        Vec::new()
    } else {
        text.split('\n').collect()
    }
}

/// The ID of every line of an LF-normalized, BOM-free text (see [`canonical_lines`]).
pub fn line_ids(text: &str) -> Vec<String> {
    canonical_lines(text)
        .iter()
        .enumerate()
        .map(|(i, l)| line_id(i + 1, l))
        .collect()
}

/// One read row: `{n}#{ID}|{content}`.
pub fn render_row(line_number: usize, content: &str) -> String {
    format!("{line_number}#{}|{content}", line_id(line_number, content))
}

/// `read --anchors lineid`: one `N#ID|content` row per line of the LF-normalized text, each
/// followed by `\n`. `offset` is the 1-based first line shown (default 1), `limit` the most rows
/// shown (default all); either way one page shows at most the [read budget](crate::page). When
/// lines of the file remain after the shown ones ([`more_lines`](crate::tag::more_lines)),
/// `\n[<k> more lines in file. Use :<n> to continue]\n` follows (the CLI's `read PATH:<n>` continues there). An empty text, or an offset past the
/// end, renders nothing.
pub fn render_read(text: &str, offset: Option<usize>, limit: Option<usize>) -> String {
    let lines = canonical_lines(text);
    let first = offset.unwrap_or(1).max(1);
    let mut out = String::with_capacity(text.len().min(crate::page::MAX_BYTES * 2) + 64);
    let mut budget = crate::page::Budget::new();
    let mut last = first - 1;
    for (i, line) in lines
        .iter()
        .enumerate()
        .skip(first - 1)
        .take(limit.unwrap_or(usize::MAX))
    {
        let row = render_row(i + 1, line);
        if !budget.admit(row.len() + 1) {
            break;
        }
        out.push_str(&row);
        out.push('\n');
        last = i + 1;
    }
    let more = crate::tag::more_lines(text, lines.len(), last);
    if last >= first && more > 0 {
        out.push_str(&format!(
            "\n[{more} more lines in file. Use :{} to continue]\n",
            last + 1
        ));
    }
    out
}

const TRUNCATED_SUFFIX: &str = "... (line truncated to 2000 chars)";

/// A host read row `  N: content` / `N| content` (at most one separator space eaten) as
/// `(N, content)`.
fn parse_host_row(line: &str) -> Option<(usize, &str)> {
    let rest = line.trim_start_matches(is_js_whitespace);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let number: usize = rest[..digits].parse().ok()?;
    let after = &rest[digits..];
    let content = after
        .strip_prefix(':')
        .or_else(|| after.strip_prefix('|'))?;
    Some((number, content.strip_prefix(' ').unwrap_or(content)))
}

fn enhance_rows(body: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut converting = true;
    for line in body.split('\n') {
        if converting {
            if let Some((n, content)) = parse_host_row(line) {
                if line.ends_with(TRUNCATED_SUFFIX) {
                    out.push(line.to_string());
                } else {
                    out.push(render_row(n, content));
                }
                continue;
            }
            converting = false;
        }
        out.push(line.to_string());
    }
    out.join("\n")
}

/// The peer's read hook: rewrite a host `read` tool's output so that its numbered rows become
/// `N#ID|content`. Only the `<content>…</content>` (or `<file>…</file>`) block is rewritten (the
/// whole text when there is none), only up to the first row that is not numbered; rows ending in
/// `... (line truncated to 2000 chars)` keep their form and get no anchor.
pub fn enhance_read_output(output: &str) -> String {
    let open = ["<content>", "<file>"]
        .iter()
        .filter_map(|tag| output.find(tag).map(|at| (at, *tag)))
        .min_by_key(|(at, _)| *at);
    let Some((at, tag)) = open else {
        return enhance_rows(output);
    };
    let body_start = at + tag.len();
    let close = if tag == "<content>" {
        "</content>"
    } else {
        "</file>"
    };
    let body_end = output[body_start..]
        .find(close)
        .map_or(output.len(), |i| body_start + i);
    let body = &output[body_start..body_end];
    let body = body.strip_prefix('\n').unwrap_or(body);
    let mut out = String::with_capacity(output.len() + 64);
    out.push_str(&output[..body_start]);
    out.push('\n');
    out.push_str(&enhance_rows(body));
    out.push_str(&output[body_end..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_depends_on_letters_and_numbers() {
        assert_eq!(line_id(1, "item"), line_id(7, "item"));
        assert_ne!(line_id(1, "}"), line_id(2, "}"));
        assert_eq!(line_id(1, ""), "KM");
        assert_eq!(line_id(3, ""), "HW");
    }

    #[test]
    fn trailing_js_whitespace_is_ignored_but_indentation_counts() {
        assert_eq!(line_id(1, "alpha\u{A0}"), line_id(1, "alpha"));
        assert_eq!(line_id(1, "alpha\u{FEFF}"), line_id(1, "alpha"));
        assert_eq!(line_id(1, "x\r"), line_id(1, "x"));
        assert_ne!(line_id(1, "  x"), line_id(1, "x"));
        assert_eq!(legacy_line_id(1, "  x y"), line_id(1, "xy"));
    }

    #[test]
    fn render_read_rows_and_window() {
        assert_eq!(render_read("", None, None), "");
        assert_eq!(render_read("\n", None, None), "1#KM|\n2#KM|\n");
        assert_eq!(
            render_read("a\nb\nc", Some(2), Some(1)),
            format!(
                "2#{}|b\n\n[1 more lines in file. Use :3 to continue]\n",
                line_id(2, "b")
            )
        );
        let big = "x\n".repeat(3000);
        let page = render_read(&big, None, None);
        assert_eq!(page.lines().filter(|l| l.contains('|')).count(), 2000);
        assert!(page.ends_with(&format!(
            "\n2000#{}|x\n\n[1000 more lines in file. Use :2001 to continue]\n",
            line_id(2000, "x")
        )));
        assert_eq!(render_read("a", Some(9), None), "");
    }

    #[test]
    fn host_rows_parse() {
        assert_eq!(parse_host_row("00001| x"), Some((1, "x")));
        assert_eq!(parse_host_row("2:"), Some((2, "")));
        assert_eq!(parse_host_row("3:   y"), Some((3, "  y")));
        assert_eq!(parse_host_row("(End of file)"), None);
        assert_eq!(parse_host_row("99999999999999999999999999: x"), None);
    }
}
