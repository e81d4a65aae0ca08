//! JavaScript's notion of white space, which the seed tools (written in TypeScript) trim and
//! match with: `String.prototype.trim*` and the regex class `\s`.
//!
//! The set is ECMA-262's WhiteSpace and LineTerminator: TAB, LF, VT, FF, CR, SP, NBSP, U+1680,
//! U+2000..=U+200A, U+2028, U+2029, U+202F, U+205F, U+3000 and U+FEFF. Rust's
//! [`char::is_whitespace`] differs in two code points (it includes U+0085 and excludes U+FEFF),
//! so every dialect that reproduces a seed's trimming uses these instead.

/// Whether `c` is white space for JavaScript's `trim` and `\s`.
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'..='\u{000D}'
            | '\u{0020}'
            | '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
            | '\u{FEFF}'
    )
}

/// `s.trim()` as JavaScript does it.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// `s.trimStart()` as JavaScript does it.
pub fn js_trim_start(s: &str) -> &str {
    s.trim_start_matches(is_js_space)
}

/// `s.trimEnd()` as JavaScript does it.
pub fn js_trim_end(s: &str) -> &str {
    s.trim_end_matches(is_js_space)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feff_counts_and_nel_does_not() {
        assert!(is_js_space('\u{FEFF}'));
        assert!(!is_js_space('\u{0085}'));
        assert_eq!(js_trim("\u{A0} x \u{3000}"), "x");
        assert_eq!(js_trim_end("x\u{FEFF}\t"), "x");
        assert_eq!(js_trim_start("\u{2028}x "), "x ");
    }
}
