//! Checks on the payload that refuse or warn (§5 phase B, the peer's boundary warnings, and
//! DEVIATIONS §4a's repeated-adjacent-line notice).

use std::collections::HashSet;

use hashline_core::{Edit, EditKind, ErrorCode};
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

/// DEVIATIONS §4a: a first or last payload row that repeats the non-blank line next to where it
/// lands. `lines` are the entries the edits apply to; `label` names an edit by its origin.
pub(crate) fn repeated_lines(
    lines: &[&str],
    edits: &[Edit],
    label: &dyn Fn(usize) -> String,
) -> Vec<String> {
    let mut out = Vec::new();
    for edit in edits {
        let (Some(first), Some(last)) = (edit.rows.first(), edit.rows.last()) else {
            continue;
        };
        let last_visible = if lines.last().is_some_and(|l| l.is_empty()) {
            lines.len() - 1
        } else {
            lines.len()
        };
        // (row number, row, neighbour line) pairs to compare.
        let (before, after) = match edit.kind {
            EditKind::Replace { start, end } => (start.checked_sub(1), Some(end + 1)),
            EditKind::InsertAfter(l) => (Some(l), Some(l + 1)),
            EditKind::InsertBefore(l) => (l.checked_sub(1), Some(l)),
            EditKind::Head => (None, Some(1)),
            EditKind::Tail => (Some(last_visible), None),
        };
        let mut notes: Vec<(usize, &str, usize)> = Vec::new();
        if let Some(b) = before.filter(|&b| b >= 1) {
            notes.push((1, first, b));
        }
        if let Some(a) = after {
            notes.push((edit.rows.len(), last, a));
        }
        for (row, text, line) in notes {
            let Some(neighbour) = line.checked_sub(1).and_then(|i| lines.get(i)) else {
                continue;
            };
            if !text.trim().is_empty() && text == *neighbour {
                out.push(format!(
                    "[W_REPEATED_LINE] row {row} of {} repeats line {line} ({}); if that was not meant, remove the duplicate",
                    label(edit.origin),
                    quote(neighbour)
                ));
            }
        }
    }
    out
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

    #[test]
    fn repeats_line_names_both() {
        let lines = ["a", "});", "c", ""];
        let edits = [Edit::replace(3, 3, vec!["});".into(), "x".into()], 0)];
        let w = repeated_lines(&lines, &edits, &|_| "replace AAAA-AAAA".into());
        assert_eq!(w, ["[W_REPEATED_LINE] row 1 of replace AAAA-AAAA repeats line 2 (\"});\"); if that was not meant, remove the duplicate"]);
        let blank = [Edit {
            kind: EditKind::InsertAfter(1),
            rows: vec!["".into()],
            origin: 0,
        }];
        assert!(repeated_lines(&["", "b"], &blank, &|_| String::new()).is_empty());
    }
}
