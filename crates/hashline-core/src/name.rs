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

/// Whether `c` may not appear verbatim in model-facing text.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `path` as a `¶PATH#TAG` header names it, so that the hashline parser reads back exactly
/// `path`: bare, unless it starts or ends with white space (which the parser would trim), holds
/// white space and a quote (neither bare form reads it), or is wrapped in one pair of quotes
/// (which the parser would drop); then in `"…"`, or `'…'` when it holds `"`. A name holding
/// both quotes stays bare (no header names it exactly).
pub fn header_path(path: &str) -> std::borrow::Cow<'_, str> {
    use crate::js::is_js_space;
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

/// `path` as it may be shown: unchanged when it holds no unsafe character, else with each
/// unsafe character (and each backslash, so the escape is unambiguous) escaped as Rust does
/// (`\n`, `\t`, `\u{1b}`).
pub fn display(path: &str) -> std::borrow::Cow<'_, str> {
    if !path.chars().any(is_unsafe) {
        return std::borrow::Cow::Borrowed(path);
    }
    let mut out = String::with_capacity(path.len() + 8);
    for c in path.chars() {
        if is_unsafe(c) || c == '\\' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
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
