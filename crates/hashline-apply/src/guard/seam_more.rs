//! More seams of two merged lines (`seam`): a Rust attribute with the item it marks on the
//! same row (`#[inline] fn f`), a line comment ending in the statement it swallowed
//! (`// Expose x. a.x = x;`), and a block comment row holding the next row's `*` after a
//! sentence (` * One. * Two`). Each is judged against the file, which never has it.

use super::lexical::Family;

/// The words an item starts with (an attribute on a statement may share its row: rustfmt
/// keeps `#[cfg(unix)] f()?;` so).
const ITEMS: [&str; 14] = [
    "fn",
    "pub",
    "struct",
    "enum",
    "impl",
    "mod",
    "use",
    "const",
    "static",
    "trait",
    "type",
    "extern",
    "unsafe",
    "macro_rules",
];

/// A Rust outer attribute followed by an item on its row: the attribute and that item.
pub(super) fn attr_inline(code: &str) -> Option<String> {
    let t = code.trim_start();
    if !t.starts_with("#[") {
        return None;
    }
    // The attribute ends at the `]` that closes its `[`.
    let mut depth = 0usize;
    for (i, c) in t.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 && c == ']' {
                    let rest = t[i + 1..].trim();
                    let item = rest.split([' ', '!', '<', '(']).next().unwrap_or("");
                    return ITEMS
                        .contains(&item)
                        .then(|| format!("{} {rest}", &t[..=i]));
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether `code` is a Rust outer attribute line.
pub(super) fn is_attr(code: &str) -> bool {
    code.trim_start().starts_with("#[")
}

/// Words that start a statement: a comment opening with one is commented-out code.
const KEYWORDS: [&str; 20] = [
    "let", "const", "var", "return", "if", "for", "while", "fn", "func", "use", "import", "export",
    "self", "this", "await", "go", "defer", "match", "mut", "pub",
];

/// A line comment (alone on its row) that opens with words and ends the way a statement
/// does (`;`, or `{` after code): the comment and the code it swallowed. `None` for a
/// comment that is code throughout (commented-out code keeps its own shape).
pub(super) fn comment_ends_in_code(line: &str, family: Family) -> Option<String> {
    if !matches!(family, Family::CLike | Family::Rust) {
        return None;
    }
    let t = line.trim_start();
    let body = t.strip_prefix("//")?.trim_start_matches(['/', '!']).trim();
    let ends = body.ends_with(';') || body.ends_with(" {");
    if !ends {
        return None;
    }
    // Words first: the comment starts as prose (a word of letters that is no keyword),
    // then code follows.
    let first = body.split_whitespace().next().unwrap_or("");
    let prose =
        first.len() > 1 && first.chars().all(char::is_alphabetic) && !KEYWORDS.contains(&first);
    let code_tail = body.contains(" = ") || body.contains('(') || body.ends_with(" {");
    (prose && code_tail).then(|| body.to_string())
}

/// Whether a line is a line comment alone on its row (C-like or Rust).
pub(super) fn is_line_comment(line: &str, family: Family) -> bool {
    matches!(family, Family::CLike | Family::Rust) && line.trim_start().starts_with("//")
}

/// A block comment row (` * text`) holding another row's `*` after a sentence end
/// (` * One. * Two`): the text from that `*` on.
pub(super) fn star_again(row: &str) -> Option<String> {
    let t = row.trim_start();
    let body = t.strip_prefix('*')?;
    if body.starts_with('/') {
        return None;
    }
    let b = body.as_bytes();
    (1..b.len().saturating_sub(2)).find_map(|i| {
        let after_sentence = matches!(b[i - 1], b'.' | b':' | b';' | b'!' | b'?');
        (after_sentence && b[i] == b' ' && b[i + 1] == b'*' && b[i + 2] == b' ')
            .then(|| format!("…{}", &body[i..]))
    })
}
