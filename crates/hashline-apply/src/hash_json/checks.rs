//! Checks on the payload that refuse or warn (§5 phase B, the peer's boundary warnings, and
//! DEVIATIONS §4a's repeated-adjacent-line notice).

use std::collections::HashSet;

use hashline_core::ErrorCode;
use hashline_syntax::hash_json::js::{hash_like_prefix, js_trim};
use hashline_syntax::hash_json::json::quote;
use hashline_syntax::hash_json::EditItem;

use super::refusal::Refusal;
use super::resolve::{Place, Version};

/// The peer's non-blocking boundary warnings of a resolved replace (after, then before).
pub(crate) fn boundary_warnings(
    item: &EditItem,
    place: Place,
    v: &Version<'_>,
    label: &str,
) -> Vec<String> {
    let Place::Replace(s, e) = place else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let meaningful = |t: &str| t.chars().any(char::is_alphanumeric);
    if let (Some(last), Some(next)) = (item.lines.last(), v.lines.get(e)) {
        let t = js_trim(last);
        if meaningful(t) && t == js_trim(next) {
            out.push(format!(
                "Potential boundary duplication after {label}: the replacement ends with a line that matches the next surviving line after trim."
            ));
        }
    }
    if let (Some(first), Some(prev)) = (
        item.lines.first(),
        s.checked_sub(2).and_then(|i| v.lines.get(i)),
    ) {
        let t = js_trim(first);
        if meaningful(t) && t == js_trim(prev) {
            out.push(format!(
                "Potential boundary duplication before {label}: the replacement starts with a line that matches the preceding surviving line after trim."
            ));
        }
    }
    out
}

/// The warning for a literal `\uDDDD` escape in an item's payload, if any.
pub(crate) fn unicode_escape_warning(item: &EditItem) -> Option<String> {
    item.lines.iter().any(|l| has_literal_unicode_escape(l)).then(|| {
        "Detected literal \\uDDDD in edit content; no autocorrection applied. Verify whether this should be a real Unicode escape or plain text.".to_owned()
    })
}

/// `\\u[0-9a-fA-F]{4}` with the `u` matched case-insensitively.
fn has_literal_unicode_escape(line: &str) -> bool {
    let b = line.as_bytes();
    b.windows(6)
        .any(|w| w[0] == b'\\' && (w[1] | 0x20) == b'u' && w[2..].iter().all(u8::is_ascii_hexdigit))
}

/// Phase B: payload lines that start like a pasted `HASH:`. A refusal, or for a `.py` path a
/// warning (returned).
pub(crate) fn bare_prefix(
    items: &[EditItem],
    v: &Version<'_>,
    path: &str,
) -> Result<Option<String>, Refusal> {
    let suspects: Vec<(&str, &str)> = items
        .iter()
        .flat_map(|i| i.lines.iter())
        .filter_map(|l| hash_like_prefix(l).map(|p| (p, l.as_str())))
        .collect();
    let Some(&(prefix, line)) = suspects.first() else {
        return Ok(None);
    };
    let known: HashSet<&str, foldhash::fast::RandomState> =
        v.hashes.iter().map(|h| h.as_str()).collect();
    let matching = suspects.iter().filter(|(p, _)| known.contains(p)).count();
    let n = suspects.len();
    let example = quote(&format!("{prefix}:{line}"));
    if path.ends_with(".py") {
        let hint = if matching == 0 {
            "None match file line hashes — likely Python syntax.".to_owned()
        } else {
            format!("{matching} prefix(es) match file line hashes.")
        };
        return Ok(Some(format!(
            "[W_BARE_HASH_PREFIX] {n} edit line(s) start with a hash-like prefix (e.g. {example}). {hint}"
        )));
    }
    let hint = if matching == 0 {
        "None match file line hashes.".to_owned()
    } else {
        format!("{matching} match file line hashes — likely a copied hash.")
    };
    Err(Refusal::new(
        ErrorCode::BareHashPrefix,
        format!(
            "[E_BARE_HASH_PREFIX] {n} edit line(s) start with a hash-like prefix (e.g. {example}). {hint} \
             Use literal file content in \"lines\" — never paste HASH:content from read output."
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unicode_escape_detection() {
        assert!(has_literal_unicode_escape("x = \"\\uDDDD\""));
        assert!(has_literal_unicode_escape("\\U00e9"));
        assert!(!has_literal_unicode_escape("\\u00g9"));
        assert!(!has_literal_unicode_escape("\\u12"));
    }
}
