//! Small lexical helpers of the guard: a file's family from its path, indentation, and the
//! code part of a line (string literals and trailing comments blanked).

use std::path::Path;

/// What the guard needs to know of a file's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    /// C-like code: `//` comments, `"`, `'` and `` ` `` strings (JS/TS, C, Java, Go, …).
    CLike,
    /// Rust: `//` comments, `"` strings, `'` only as a char literal.
    Rust,
    /// `#` comments, `"` and `'` strings (Python, shell, Ruby, YAML, TOML).
    Hash,
    /// Prose (Markdown, text): no comments; `` ` `` spans are literal.
    Prose,
    /// Data without comments (JSON).
    Data,
}

impl Family {
    /// The family of the file at `path`, from its extension.
    pub(crate) fn of(path: &str) -> Family {
        let ext = Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        match ext.as_str() {
            "rs" => Family::Rust,
            "py" | "pyi" | "sh" | "bash" | "zsh" | "rb" | "yaml" | "yml" | "toml" | "ini"
            | "cfg" | "conf" | "r" | "pl" | "mk" | "dockerfile" => Family::Hash,
            "md" | "markdown" | "txt" | "rst" | "adoc" | "" => Family::Prose,
            "json" | "jsonc" | "json5" => Family::Data,
            _ => Family::CLike,
        }
    }

    fn line_comment(self, rest: &str) -> bool {
        match self {
            Family::CLike | Family::Rust => rest.starts_with("//"),
            Family::Hash => rest.starts_with('#'),
            Family::Prose | Family::Data => false,
        }
    }

    fn opens_string(self, c: char, rest: &str) -> bool {
        match (self, c) {
            (Family::Prose, '`') => true,
            (Family::Prose, _) => false,
            (_, '"') => true,
            (Family::CLike, '\'' | '`') | (Family::Hash, '\'') => true,
            // A Rust char literal: `'x'`, `'\n'`; a lifetime (`'a`) is not a string.
            (Family::Rust, '\'') => {
                let mut it = rest.chars().skip(1);
                matches!(
                    (it.next(), it.next()),
                    (Some('\\'), _) | (Some(_), Some('\''))
                )
            }
            _ => false,
        }
    }
}

/// Whether the file at `path` is Markdown (the one prose format where a leading `+` is a
/// bullet and a line break inside a paragraph carries markup).
pub(crate) fn is_markdown(path: &str) -> bool {
    [".md", ".markdown", ".mdx"]
        .iter()
        .any(|e| path.ends_with(e))
}

/// Whether the file at `path` is Python (where indentation is the block structure).
pub(crate) fn is_python(path: &str) -> bool {
    path.ends_with(".py") || path.ends_with(".pyi")
}

/// The leading white space of `line`.
pub(crate) fn indent(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// The indentation width of `line`, a tab counting `tab` columns.
pub(crate) fn width(line: &str, tab: usize) -> usize {
    indent(line)
        .chars()
        .map(|c| if c == '\t' { tab } else { 1 })
        .sum()
}

/// Whether `line` holds only white space.
pub(crate) fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// `line` with the contents of string literals replaced by `_` and a trailing line comment
/// removed, so brackets, `;` and `\n` outside strings can be counted. Quotes stay.
pub(crate) fn code_part(line: &str, family: Family) -> String {
    blank_strings(line, family, true)
}

/// `line` with the contents of string literals replaced by `_`; comments kept.
pub(crate) fn without_strings(line: &str, family: Family) -> String {
    blank_strings(line, family, false)
}

fn blank_strings(line: &str, family: Family, cut_comment: bool) -> String {
    let mut out = String::with_capacity(line.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    // A Rust raw string (`r"…"`, `r#"…"#`): no escapes, ends at `"` and as many `#`.
    let mut raw_end: Option<String> = None;
    let mut skip = 0usize;
    for (i, c) in line.char_indices() {
        if skip > 0 {
            skip -= 1;
            out.push(c);
            continue;
        }
        if let Some(end) = &raw_end {
            if line[i..].starts_with(end.as_str()) {
                skip = end.chars().count() - 1;
                raw_end = None;
                out.push(c);
            } else {
                out.push('_');
            }
            continue;
        }
        if quote.is_none() && family == Family::Rust && c == 'r' {
            let rest = &line[i + 1..];
            let hashes = rest.chars().take_while(|&h| h == '#').count();
            let boundary = line[..i]
                .chars()
                .last()
                .is_none_or(|p| !(p.is_alphanumeric() || p == '_'));
            if boundary && rest[hashes..].starts_with('"') {
                raw_end = Some(format!("\"{}", "#".repeat(hashes)));
                skip = hashes + 1;
                out.push(c);
                continue;
            }
        }
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                    out.push('_');
                } else if c == '\\' && family != Family::Prose {
                    escaped = true;
                    out.push('_');
                } else if c == q {
                    quote = None;
                    out.push(c);
                } else {
                    out.push('_');
                }
            }
            None => {
                let rest = &line[i..];
                if cut_comment && family.line_comment(rest) {
                    break;
                }
                if family.opens_string(c, rest) {
                    quote = Some(c);
                }
                out.push(c);
            }
        }
    }
    out
}

/// How a line may start when it continues the line before it (one statement or item wrapped
/// over two lines): a cuddled `else`/`catch`/`finally`, a method chain, a closer, an operator.
const CONTINUES: [&str; 13] = [
    "else", "catch", "finally", ".", "?.", "&&", "||", "?", ":", ")", "]", "}", "=>",
];

/// How a line may end when the next line continues it.
const OPEN_ENDS: [&str; 17] = [
    "(", "[", "{", ",", "&&", "||", "=", "=>", "->", "\\", ":", "+", "-", "*", "/", "|", "%",
];

/// Keywords that, alone on a line, start a statement the next line goes on with (`while` above
/// its wrapped condition, Rust's `where` above its bounds).
const LEAD_WORDS: [&str; 6] = ["if", "while", "for", "match", "where", "elif"];

/// A Markdown list item's marker (`- `, `* `, `+ `, `1. `).
fn is_list_item(t: &str) -> bool {
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    ["- ", "* ", "+ "].iter().any(|m| t.starts_with(m))
        || (digits > 0 && t[digits..].starts_with(". "))
}

/// Whether the `original` lines are one statement or list item wrapped over several lines:
/// joining them is a deliberate reflow (a cuddled `} else if`, a joined call chain, a
/// re-wrapped bullet), never two lines merged by mistake (DEVIATIONS §7).
pub(crate) fn is_one_wrapped_unit(original: &[&str]) -> bool {
    original.windows(2).any(|pair| {
        let (a, b) = (pair[0].trim(), pair[1].trim());
        // A line of closers joined with the next one is a cuddle (`} else if`, `}, {`).
        let closers = !a.is_empty() && a.chars().all(|c| matches!(c, '}' | ')' | ']' | ';' | ','));
        closers
            || CONTINUES.iter().any(|k| b.starts_with(k))
            || OPEN_ENDS.iter().any(|k| a.ends_with(k))
            || LEAD_WORDS.contains(&a)
            || (is_list_item(a) && !is_list_item(b) && !indent(pair[1]).is_empty())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_raw_strings_are_blanked() {
        assert_eq!(
            code_part(r##"let s = r#"{"k": "a\nb"}"#; x"##, Family::Rust),
            r##"let s = r#"_____________"#; x"##
        );
    }

    #[test]
    fn strings_and_comments_are_blanked() {
        assert_eq!(
            code_part(r#"a("x\n"); // c"#, Family::CLike),
            r#"a("___"); "#
        );
        assert_eq!(
            code_part("fn f<'a>(x: &'a str) -> char { '}' }", Family::Rust),
            "fn f<'a>(x: &'a str) -> char { '_' }"
        );
        assert_eq!(code_part("x = 1  # {", Family::Hash), "x = 1  ");
        assert_eq!(
            code_part("use `a\\n` here", Family::Prose),
            "use `___` here"
        );
    }

    #[test]
    fn family_from_extension() {
        assert_eq!(Family::of("a/b.ts"), Family::CLike);
        assert_eq!(Family::of("x.YAML"), Family::Hash);
        assert_eq!(Family::of("README.md"), Family::Prose);
    }

    #[test]
    fn wrapped_units_include_operator_ends_and_lead_keywords() {
        assert!(is_one_wrapped_unit(&[
            "        while",
            "            !self.slice[self.core.pos()..].is_empty()"
        ]));
        assert!(is_one_wrapped_unit(&["let total = a +", "    b;"]));
        // Two complete statements, or two JSX cells, are not one unit.
        assert!(!is_one_wrapped_unit(&["a();", "b();"]));
        assert!(!is_one_wrapped_unit(&["<td>a</td>", "<td>b</td>"]));
    }
}
