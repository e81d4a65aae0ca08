//! The JavaScript notions of whitespace the dialect's checks are defined in.
//!
//! `String.prototype.trim` and the regex class `\s` use the same set: TAB, VT, FF, SP, NBSP,
//! U+FEFF, the Zs spaces, LF, CR, U+2028 and U+2029. Rust's `char::is_whitespace` differs in two
//! code points (it includes U+0085 and excludes U+FEFF), so it must not be used here.

pub use hashline_core::js::{is_js_space, js_trim, js_trim_start};

/// Whether `c` belongs to the hash alphabet `A-Za-z0-9-_`.
pub fn is_hash_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// If `line` matches `^\s*([A-Za-z0-9_-]{4}):`, the four-character prefix.
pub fn hash_like_prefix(line: &str) -> Option<&str> {
    let rest = js_trim_start(line);
    let prefix = rest.get(..4)?;
    (prefix.chars().all(is_hash_char) && rest[4..].starts_with(':')).then_some(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trim_set_is_javascripts() {
        assert_eq!(js_trim("\u{FEFF} x \u{3000}"), "x");
        assert_eq!(js_trim("\u{0085}x"), "\u{0085}x");
    }

    #[test]
    fn hash_like_prefixes() {
        assert_eq!(hash_like_prefix("  init: true"), Some("init"));
        assert_eq!(hash_like_prefix("\u{3000}P-cP:x"), Some("P-cP"));
        assert_eq!(hash_like_prefix("abc: x"), None);
        assert_eq!(hash_like_prefix("abcde: x"), None);
        assert_eq!(hash_like_prefix("éabc:"), None);
        assert_eq!(hash_like_prefix("ab"), None);
    }
}
