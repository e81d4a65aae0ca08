//! File names in model-facing text: the one rule every command shares.
//!
//! A path is copied into text the model reads (a `¶PATH#TAG` header, `Updated PATH`, a refusal,
//! an `ast-edit` preview). A name holding a line break could start a row of its own there and
//! forge anchors or results, and terminal escapes or bidirectional overrides could hide what a
//! name is. So a name holding an *unsafe* character — a Unicode control character (C0 such as
//! newline, CR, tab, ESC; DEL; C1), a line or paragraph separator (U+2028, U+2029) or a
//! bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069) — is refused by
//! `read`, `edit` and `write` before anything is opened ([`check`], `E_UNSAFE_PATH`), and skipped
//! by `ast-edit`'s directory walk. Wherever such a name still has to be named (the refusal
//! itself, the list of skipped files), it is shown escaped ([`display`]): `a\nb.txt`.
//!
//! Two names can also print alike: `café` composed (NFC) and decomposed (`cafe` + U+0301), or
//! with a zero-width space, joiner, U+FEFF or a bidi mark in it. Such a name is legal and
//! editable, but wherever it is printed it is escaped ([`looks_alike`], [`escaped`]): in a
//! `¶PATH#TAG` header as `"cafe\u{301}.txt"`, which the hashline parser decodes
//! ([`unescape`]), so the printed name still edits that file and no other.

/// Whether `c` may not appear verbatim in model-facing text.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `path` as a `¶PATH#TAG` header names it, so that the hashline parser reads back exactly
/// `path`: bare, unless it starts or ends with white space (which the parser would trim), holds
/// white space and a quote (neither bare form reads it), or is wrapped in one pair of quotes
/// (which the parser would drop); then in `"…"`, or `'…'` when it holds `"`. A name holding
/// both quotes stays bare (no header names it exactly). A name that would look like another
/// ([`looks_alike`]: an invisible character, or not in Unicode NFC) is shown escaped
/// ([`escaped`]) in `"…"`, which the parser decodes ([`unescape`]).
pub fn header_path(path: &str) -> std::borrow::Cow<'_, str> {
    use crate::js::is_js_space;
    if looks_alike(path) {
        return std::borrow::Cow::Owned(format!("\"{}\"", escaped(path)));
    }
    let quotes = ['"', '\''];
    let edge_space = path.starts_with(is_js_space) || path.ends_with(is_js_space);
    let spaced_quote = path.contains(is_js_space) && path.contains(quotes);
    let wrapped = quotes
        .iter()
        .any(|&q| path.len() >= 2 && path.starts_with(q) && path.ends_with(q));
    if !(edge_space || spaced_quote || wrapped) {
        return std::borrow::Cow::Borrowed(path);
    }
    match quotes.iter().find(|&&q| !path.contains(q)) {
        Some(q) => std::borrow::Cow::Owned(format!("{q}{path}{q}")),
        None => std::borrow::Cow::Borrowed(path),
    }
}

/// Whether `c` is invisible, or passes for another character, in a name: a Unicode
/// default-ignorable code point (zero-width space, joiners, U+FEFF, soft hyphen, LRM/RLM and
/// the other format controls, variation selectors, Hangul fillers, tags; the list of
/// `DerivedCoreProperties.txt`) or white space other than the ASCII space.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{AD}' | '\u{34F}' | '\u{61C}' | '\u{115F}'..='\u{1160}' | '\u{17B4}'..='\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}' | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}')
        || (c != ' ' && c.is_whitespace())
}

/// Whether `path` could be printed like another name: it holds an invisible character
/// ([`is_invisible`]) or is not in Unicode NFC (`cafe` + U+0301 prints as `café`). Such a name,
/// and one holding the text `\u{` (which would read as an escape), is printed [`escaped`].
pub fn looks_alike(path: &str) -> bool {
    path.chars().any(is_invisible)
        || path.contains("\\u{")
        || (unicode_normalization::is_nfc_quick(path.chars())
            != unicode_normalization::IsNormalized::Yes
            && !unicode_normalization::is_nfc(path))
}

/// `path` with every character that would hide what it is written `\u{hex}`: the invisible
/// ones, in a name not in NFC every character NFC could change (combining marks, decomposed
/// Hangul, singletons such as U+212B), `"` (`\u{22}`, so the escaped name fits in `"…"`), and
/// `\` as `\\`. [`unescape`] reads it back.
pub fn escaped(path: &str) -> String {
    escape(path, true)
}

/// [`escaped`], with the unsafe characters of [`is_unsafe`] escaped as Rust does (`\n`), and
/// `"` escaped only when `quoted`.
fn escape(path: &str, quoted: bool) -> String {
    use unicode_normalization::{char::canonical_combining_class, is_nfc_quick, IsNormalized};
    let nfc = unicode_normalization::is_nfc(path);
    let mut out = String::with_capacity(path.len() + 16);
    for c in path.chars() {
        let unstable = !nfc
            && (canonical_combining_class(c) != 0
                || is_nfc_quick(std::iter::once(c)) != IsNormalized::Yes);
        if c == '\\' || is_unsafe(c) {
            out.extend(c.escape_default());
        } else if (quoted && c == '"') || is_invisible(c) || unstable {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// The name an [`escaped`] text stands for: `\\` → `\`, `\u{hex}` → that character; `None`
/// when an escape is malformed (then the text is no escaped name).
pub fn unescape(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\\') {
        out.push_str(rest.get(..at)?);
        let after = rest.get(at + 1..)?;
        if let Some(tail) = after.strip_prefix('\\') {
            out.push('\\');
            rest = tail;
        } else {
            let body = after.strip_prefix("u{")?;
            let close = body.find('}')?;
            let hex = body.get(..close)?;
            if hex.is_empty() || hex.len() > 6 {
                return None;
            }
            out.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
            rest = body.get(close + 1..)?;
        }
    }
    out.push_str(rest);
    Some(out)
}

/// `path` as it may be shown: unchanged when it holds no unsafe character and does not
/// [`looks_alike`] another name, else with each unsafe character (and each backslash, so the
/// escape is unambiguous) escaped as Rust does (`\n`, `\t`, `\u{1b}`) and each character that
/// would hide what the name is written `\u{hex}` (see [`escaped`]).
pub fn display(path: &str) -> std::borrow::Cow<'_, str> {
    if !path.chars().any(is_unsafe) && !looks_alike(path) {
        return std::borrow::Cow::Borrowed(path);
    }
    std::borrow::Cow::Owned(escape(path, false))
}

/// The refusal of a path that holds an unsafe character (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "File name holds a control character: {shown}. Hashline does not read or edit files whose names hold control characters (newline, tab, escape, …): such a name could forge rows of its output. Rename the file first."
)]
pub struct UnsafeName {
    /// The path, escaped.
    pub shown: String,
}

impl UnsafeName {
    /// The stable code of this refusal.
    pub fn code(&self) -> crate::ErrorCode {
        crate::ErrorCode::UnsafePath
    }
}

/// `Ok` when `path` holds no unsafe character.
pub fn check(path: &str) -> Result<(), UnsafeName> {
    if path.chars().any(is_unsafe) {
        Err(UnsafeName {
            shown: display(path).into_owned(),
        })
    } else {
        Ok(())
    }
}

/// The lexical canonical form of `path` (in-memory trees key their files by it): `.` and empty components dropped, `..`
/// applied lexically (`a.ts`, `./a.ts` and `x/../a.ts` are one file). `None` when `..` climbs
/// above the root.
pub fn normalize_path(path: &str) -> Option<String> {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for c in path.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    Some(if absolute {
        format!("/{joined}")
    } else {
        joined
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_paths_are_quoted_only_where_the_parser_would_change_them() {
        assert_eq!(header_path("src/a.rs"), "src/a.rs");
        assert_eq!(header_path("my file.txt"), "my file.txt");
        assert_eq!(header_path(" notes.txt"), "\" notes.txt\"");
        assert_eq!(header_path("notes.txt "), "\"notes.txt \"");
        assert_eq!(header_path("a \"b\".txt"), "'a \"b\".txt'");
        assert_eq!(header_path("\"x\""), "'\"x\"'");
        assert_eq!(header_path("it's.txt"), "it's.txt");
    }

    #[test]
    fn names_that_look_alike_are_escaped_and_read_back() {
        for (p, shown) in [
            ("cafe\u{301}.txt", "\"cafe\\u{301}.txt\""),
            ("a\u{200b}b.txt", "\"a\\u{200b}b.txt\""),
            ("\u{feff}x.txt", "\"\\u{feff}x.txt\""),
            ("rtl\u{200f}.txt", "\"rtl\\u{200f}.txt\""),
            ("no\u{a0}break.txt", "\"no\\u{a0}break.txt\""),
            ("\u{212b}.txt", "\"\\u{212b}.txt\""),
            (
                "lit\\u{41} \"q\".txt",
                "\"lit\\\\u{41} \\u{22}q\\u{22}.txt\"",
            ),
        ] {
            assert!(looks_alike(p), "{p:?}");
            assert_eq!(header_path(p), shown, "{p:?}");
            let inner = shown.trim_matches('"');
            assert_eq!(unescape(inner).as_deref(), Some(p), "{p:?}");
        }
        // NFC names, combining marks that compose with nothing, and backslashes alone are not.
        for p in ["café.txt", "x\u{301}.txt", "naïve.rs", "C:\\x", "가.txt"] {
            assert!(!looks_alike(p), "{p:?}");
        }
        assert_eq!(header_path("\u{1100}\u{1161}.txt"), "\"ᄀ\\u{1161}.txt\"");
        assert_eq!(display("cafe\u{301}.txt"), "cafe\\u{301}.txt");
        assert_eq!(unescape("bad\\x"), None);
        assert_eq!(unescape("bad\\u{110000}"), None);
    }

    #[test]
    fn safe_names_pass_unchanged() {
        for p in ["a.txt", "my file.txt", "dir/naïve #1.rs", "C:\\x"] {
            assert!(check(p).is_ok(), "{p}");
        }
        assert_eq!(display("my file.txt"), "my file.txt");
    }

    #[test]
    fn unsafe_names_are_refused_and_escaped() {
        for (p, shown) in [
            ("a\nb.txt", "a\\nb.txt"),
            ("a\rb", "a\\rb"),
            ("tab\there", "tab\\there"),
            ("esc\u{1b}[31m", "esc\\u{1b}[31m"),
            ("x\u{202E}txt.exe", "x\\u{202e}txt.exe"),
            ("ls\u{2028}x", "ls\\u{2028}x"),
            ("back\\slash\n", "back\\\\slash\\n"),
        ] {
            let err = check(p).expect_err(p);
            assert_eq!(err.shown, shown);
            assert!(!err.to_string().contains('\n'), "{err}");
            assert_eq!(err.code(), crate::ErrorCode::UnsafePath);
        }
    }
}
