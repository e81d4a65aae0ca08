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
    for (i, c) in line.char_indices() {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
