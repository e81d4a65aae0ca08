//! JavaScript string semantics the seed's messages depend on.
//!
//! The seed is TypeScript: it trims with `String.prototype.trim*` (Unicode white space plus
//! U+FEFF), measures and cuts strings in UTF-16 code units, and quotes text in messages with
//! `JSON.stringify`. Reproducing its messages byte-for-byte needs the same three rules.

pub(crate) use hashline_core::js::{is_js_space, js_trim, js_trim_end, js_trim_start};

/// The seed tokenizer's white space: ASCII space and `\t`..=`\r`.
pub(crate) fn is_ascii_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r')
}

/// The tokenizer's trim of trailing ASCII white space.
pub(crate) fn ascii_trim_end(s: &str) -> &str {
    s.trim_end_matches(is_ascii_space)
}

/// `JSON.stringify(s)`: `"`, `\` and control characters escaped, everything else raw.
pub(crate) fn json_quote(s: &str) -> String {
    let units: Vec<u16> = s.encode_utf16().collect();
    json_quote_units(&units)
}

/// `JSON.stringify(s.slice(0, max))`: the first `max` UTF-16 code units, quoted. A surrogate
/// pair cut in half leaves a lone surrogate, which `JSON.stringify` writes as `\udXXX`.
pub(crate) fn json_quote_prefix(s: &str, max: usize) -> String {
    let units: Vec<u16> = s.encode_utf16().take(max).collect();
    json_quote_units(&units)
}

/// `JSON.stringify(s.length > max ? s.slice(0, max) + "…" : s)`: the seed's `<P>` preview.
pub(crate) fn json_quote_preview(s: &str, max: usize) -> String {
    let mut units: Vec<u16> = s.encode_utf16().collect();
    if units.len() > max {
        units.truncate(max);
        units.push(0x2026);
    }
    json_quote_units(&units)
}

fn json_quote_units(units: &[u16]) -> String {
    let mut out = String::with_capacity(units.len() + 2);
    out.push('"');
    for decoded in char::decode_utf16(units.iter().copied()) {
        match decoded {
            Ok('"') => out.push_str("\\\""),
            Ok('\\') => out.push_str("\\\\"),
            Ok('\u{08}') => out.push_str("\\b"),
            Ok('\u{0C}') => out.push_str("\\f"),
            Ok('\n') => out.push_str("\\n"),
            Ok('\r') => out.push_str("\\r"),
            Ok('\t') => out.push_str("\\t"),
            Ok(c) if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            Ok(c) => out.push(c),
            Err(lone) => out.push_str(&format!("\\u{:04x}", lone.unpaired_surrogate())),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_like_json_stringify() {
        assert_eq!(json_quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(json_quote("\n\t\r\u{8}\u{c}"), r#""\n\t\r\b\f""#);
        assert_eq!(json_quote("\u{1}\u{1f}\u{7f}"), "\"\\u0001\\u001f\u{7f}\"");
        assert_eq!(json_quote("¶é…😀\u{2028}"), "\"¶é…😀\u{2028}\"");
    }

    #[test]
    fn cuts_in_utf16_units() {
        assert_eq!(json_quote_prefix("ab😀c", 3), "\"ab\\ud83d\"");
        assert_eq!(json_quote_prefix("ab😀c", 4), "\"ab😀\"");
        assert_eq!(json_quote_prefix("abc", 120), "\"abc\"");
        assert_eq!(json_quote_preview("abcdef", 3), "\"abc…\"");
        assert_eq!(json_quote_preview("abc", 3), "\"abc\"");
        assert_eq!(json_quote_preview("😀😀", 3), "\"😀\\ud83d…\"");
    }

    #[test]
    fn trims_like_javascript() {
        assert_eq!(js_trim("\u{feff}\u{a0} x \u{3000}"), "x");
        assert_eq!(js_trim("\u{85}x"), "\u{85}x");
        assert_eq!(js_trim_start("  x  "), "x  ");
        assert_eq!(js_trim_end("  x \t"), "  x");
        assert_eq!(ascii_trim_end("x\u{a0} \r"), "x\u{a0}");
    }
}
