//! Lenient `LINE#ID` reference parsing (seed `004`, semantics §5).
//!
//! Before the strict check `^\d+#[ZPMQVRWSNKTXJBYH]{2}$` the reference is trimmed, one leading
//! marker (`>>>`, `+`, `-`) and the whitespace after it are removed, whitespace around the first
//! `#` is collapsed, everything from the first `|` is dropped, and it is trimmed again. If the
//! strict form still fails, the first `\d+#XX` anywhere in the string is taken.

use hashline_core::ErrorCode;

const ALPH: &str = "ZPMQVRWSNKTXJBYH";

fn is_id_letter(c: char) -> bool {
    ALPH.contains(c)
}

use hashline_core::js::is_js_space as is_ws;

/// A parsed reference: 1-based line number (saturated; `0` parses and fails the bounds check
/// later) and the two-letter ID.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LineRef {
    /// The line number as written.
    pub line: usize,
    /// The two ID letters.
    pub id: String,
}

/// A reference that is not `LINE#ID`. Messages are the peer's, `{ref}` being the raw string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefError {
    /// `LINE#XX`: a valid ID after a non-number.
    #[error("Invalid line reference: \"{raw}\". \"{prefix}\" is not a line number. Use the actual line number from the read output.")]
    NotALineNumber {
        /// The reference as sent.
        raw: String,
        /// The text before `#`.
        prefix: String,
    },
    /// Anything else.
    #[error("Invalid line reference format: \"{raw}\". Expected format: \"{{line_number}}#{{hash_id}}\"")]
    Format {
        /// The reference as sent.
        raw: String,
    },
}

impl RefError {
    /// The stable code: [`ErrorCode::BadRef`].
    pub fn code(&self) -> ErrorCode {
        ErrorCode::BadRef
    }

    /// The reference as sent.
    pub fn raw(&self) -> &str {
        match self {
            RefError::NotALineNumber { raw, .. } | RefError::Format { raw } => raw,
        }
    }
}

fn normalize(raw: &str) -> String {
    let mut s = raw.trim_matches(is_ws);
    for marker in [">>>", "+", "-"] {
        if let Some(rest) = s.strip_prefix(marker) {
            s = rest.trim_start_matches(is_ws);
            break;
        }
    }
    let mut out = match s.split_once('#') {
        Some((before, after)) => {
            format!(
                "{}#{}",
                before.trim_end_matches(is_ws),
                after.trim_start_matches(is_ws)
            )
        }
        None => s.to_string(),
    };
    if let Some(bar) = out.find('|') {
        out.truncate(bar);
    }
    out.trim_matches(is_ws).to_string()
}

fn parse_number(digits: &str) -> usize {
    digits.parse::<usize>().unwrap_or(usize::MAX)
}

/// `\d+#XX` at the start of `s` (the ID exactly two letters when `whole`).
fn match_at(s: &str, whole: bool) -> Option<LineRef> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let rest = s[digits..].strip_prefix('#')?;
    let id: String = rest.chars().take(2).collect();
    if id.chars().count() != 2 || !id.chars().all(is_id_letter) {
        return None;
    }
    if whole && rest.len() != 2 {
        return None;
    }
    Some(LineRef {
        line: parse_number(&s[..digits]),
        id,
    })
}

/// Parse a reference leniently (see the module doc).
pub fn parse_ref(raw: &str) -> Result<LineRef, RefError> {
    let norm = normalize(raw);
    if let Some(r) = match_at(&norm, true) {
        return Ok(r);
    }
    // First `\d+#XX` anywhere: the earliest digit run that is followed by `#XX`.
    for (i, c) in norm.char_indices() {
        let starts_run = c.is_ascii_digit() && !norm[..i].ends_with(|p: char| p.is_ascii_digit());
        if starts_run {
            if let Some(r) = match_at(&norm[i..], false) {
                return Ok(r);
            }
        }
    }
    if let Some((prefix, after)) = norm.split_once('#') {
        let is_number = !prefix.is_empty() && prefix.bytes().all(|b| b.is_ascii_digit());
        if !is_number && after.chars().count() == 2 && after.chars().all(is_id_letter) {
            return Err(RefError::NotALineNumber {
                raw: raw.to_string(),
                prefix: prefix.to_string(),
            });
        }
    }
    Err(RefError::Format {
        raw: raw.to_string(),
    })
}

/// The two ID letters a raw reference ends in (`…#XX`), for the "Did you mean" hint.
pub fn trailing_id(raw: &str) -> Option<&str> {
    let (_, after) = raw.trim_end_matches(is_ws).rsplit_once('#')?;
    (after.chars().count() == 2 && after.chars().all(is_id_letter)).then_some(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(raw: &str) -> (usize, String) {
        let r = parse_ref(raw).unwrap_or_else(|e| panic!("{raw}: {e}"));
        (r.line, r.id)
    }

    #[test]
    fn lenient_forms() {
        assert_eq!(ok("2#XH"), (2, "XH".into()));
        assert_eq!(ok(" 1 # NJ "), (1, "NJ".into()));
        assert_eq!(ok(">>> 2#XV|const value = 1"), (2, "XV".into()));
        assert_eq!(ok("-2#XH"), (2, "XH".into()));
        assert_eq!(ok("LINE2#XH"), (2, "XH".into()));
        assert_eq!(ok("2#XHQ"), (2, "XH".into()));
        assert_eq!(ok("0#ZZ"), (0, "ZZ".into()));
        assert_eq!(ok("99999999999999999999999#ZZ").0, usize::MAX);
    }

    #[test]
    fn errors_carry_peer_messages() {
        assert_eq!(
            parse_ref("42").map_err(|e| e.to_string()),
            Err("Invalid line reference format: \"42\". Expected format: \"{line_number}#{hash_id}\"".into())
        );
        assert_eq!(
            parse_ref("LINE#RM").map_err(|e| e.to_string()),
            Err("Invalid line reference: \"LINE#RM\". \"LINE\" is not a line number. Use the actual line number from the read output.".into())
        );
        assert!(matches!(parse_ref("1#zm"), Err(RefError::Format { .. })));
        assert!(parse_ref("").is_err());
        assert!(parse_ref("#").is_err());
    }

    #[test]
    fn trailing_ids() {
        assert_eq!(trailing_id("LINE#RM"), Some("RM"));
        assert_eq!(trailing_id("1#zm"), None);
        assert_eq!(trailing_id("42"), None);
    }
}
