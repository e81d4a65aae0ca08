//! Item validation and parsing (§4.3): item by item, each fully checked before the next.

use hashline_core::ErrorCode;

use super::envelope::{legacy_message, LEGACY_KEYS};
use super::js::{is_hash_char, is_js_space, js_trim};
use super::json::{get, quote, Json};
use super::{Anchor, EditItem, ItemOp, RequestError};

const ITEM_KEYS: [&str; 5] = ["op", "pos", "start", "end", "lines"];

/// Validate and parse every item, in order; the first failure wins.
pub fn parse_items(items: &[Json]) -> Result<Vec<EditItem>, RequestError> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| parse_item(i, item))
        .collect()
}

fn parse_item(i: usize, item: &Json) -> Result<EditItem, RequestError> {
    let Some(entries) = item.as_object() else {
        return Err(RequestError::shape(format!("Edit {i} must be an object.")));
    };
    // DEVIATIONS §12: the retired oldText/newText shape inside an item is named as such.
    if let Some(key) = LEGACY_KEYS.iter().find(|k| get(entries, k).is_some()) {
        return Err(RequestError::new(
            ErrorCode::LegacyShape,
            legacy_message(&format!("Edit {i} field "), key),
        ));
    }
    let unknown: Vec<&str> = entries
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| !ITEM_KEYS.contains(k))
        .collect();
    if !unknown.is_empty() {
        return Err(RequestError::shape(format!(
            "Edit {i} contains unknown or unsupported fields: {}.",
            unknown.join(", ")
        )));
    }
    let op = match get(entries, "op") {
        Some(Json::String(op)) => op.as_str(),
        _ => {
            return Err(RequestError::shape(format!(
                "Edit {i} requires an \"op\" string."
            )))
        }
    };
    if !matches!(op, "replace" | "append" | "prepend") {
        return Err(RequestError::op(format!(
            "Edit {i} uses unknown op {}. Expected \"replace\", \"append\", or \"prepend\".",
            quote(op)
        )));
    }
    let mut anchors: [Option<&str>; 3] = [None; 3];
    for (slot, field) in anchors.iter_mut().zip(["pos", "start", "end"]) {
        match get(entries, field) {
            None => {}
            Some(Json::String(s)) => *slot = Some(s),
            Some(_) => {
                return Err(RequestError::shape(format!(
                    "Edit {i} field \"{field}\" must be a string when provided."
                )))
            }
        }
    }
    let [pos, start, end] = anchors;
    let lines: Vec<String> = match get(entries, "lines") {
        None => {
            return Err(RequestError::shape(format!(
                "Edit {i} requires a \"lines\" field."
            )))
        }
        Some(Json::Array(values)) => {
            let strings: Option<Vec<String>> = values
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect();
            strings.ok_or_else(|| {
                RequestError::shape(format!("Edit {i} field \"lines\" must be a string array."))
            })?
        }
        Some(_) => {
            return Err(RequestError::shape(format!(
                "Edit {i} field \"lines\" must be a string array."
            )))
        }
    };
    if op == "replace" {
        if pos.is_some() {
            return Err(RequestError::op(format!(
                "Edit {i} op \"replace\" uses \"pos\" — use \"start\" instead."
            )));
        }
        let Some(start) = start else {
            return Err(RequestError::op(format!(
                "Edit {i} with op \"replace\" requires a \"start\" anchor string."
            )));
        };
        let Some(end) = end else {
            return Err(RequestError::op(format!(
                "Edit {i} with op \"replace\" requires an \"end\" anchor string."
            )));
        };
        check_lines(&lines)?;
        let start = parse_anchor(start)?;
        let end = parse_anchor(end)?;
        let lines = if lines.len() == 1 && lines[0].is_empty() {
            Vec::new()
        } else {
            lines
        };
        return Ok(EditItem {
            index: i,
            op: ItemOp::Replace { start, end },
            lines,
        });
    }
    if end.is_some() {
        return Err(RequestError::op(format!(
            "Edit {i} op \"{op}\" does not support \"end\". Use \"pos\" or omit."
        )));
    }
    // The peer tests `pos` for truthiness: an empty string means "omitted" (case 091).
    let pos = match pos {
        Some(p) if !p.is_empty() => Some(parse_anchor(p)?),
        _ => None,
    };
    check_lines(&lines)?;
    let op = if op == "append" {
        ItemOp::Append { pos }
    } else {
        ItemOp::Prepend { pos }
    };
    Ok(EditItem {
        index: i,
        op,
        lines,
    })
}

/// E_INVALID_PATCH: a payload line that is a diff row of a hashline (`+HASH:`) or a diff deletion
/// row (`-12    old`). Empty lines are skipped.
fn check_lines(lines: &[String]) -> Result<(), RequestError> {
    match lines.iter().find(|l| !l.is_empty() && (is_added_hashline(l) || is_deletion_row(l))) {
        Some(line) => Err(RequestError::new(
            ErrorCode::InvalidPatch,
            format!(
                "[E_INVALID_PATCH] \"lines\" must contain literal file content, not HASH: or diff prefixes. \
                 Offending line: {}",
                quote(line)
            ),
        )),
        None => Ok(()),
    }
}

/// `^\+\s*[A-Za-z0-9_-]{4}:`
fn is_added_hashline(line: &str) -> bool {
    let Some(rest) = line.strip_prefix('+') else {
        return false;
    };
    let rest = rest.trim_start_matches(is_js_space);
    let mut chars = rest.chars();
    chars.by_ref().take(4).filter(|&c| is_hash_char(c)).count() == 4 && chars.next() == Some(':')
}

/// `^-\s*\d+\s{4}`
fn is_deletion_row(line: &str) -> bool {
    let Some(rest) = line.strip_prefix('-') else {
        return false;
    };
    let rest = rest.trim_start_matches(is_js_space);
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    digits > 0
        && rest[digits..]
            .chars()
            .take(4)
            .filter(|&c| is_js_space(c))
            .count()
            == 4
}

/// Parse one anchor (§4.3 "Anchor parsing"): trimmed, then exactly four alphabet characters.
pub fn parse_anchor(raw: &str) -> Result<Anchor, RequestError> {
    let trimmed = js_trim(raw);
    let bad =
        |message: String| RequestError::new(ErrorCode::BadRef, format!("[E_BAD_REF] {message}"));
    if trimmed.is_empty() {
        return Err(bad(
            "Invalid anchor. Expected a bare 4-character hash (e.g. \"aB3x\").".to_owned(),
        ));
    }
    if trimmed.chars().count() == 4 && trimmed.chars().all(is_hash_char) {
        return Ok(Anchor(trimmed.to_owned()));
    }
    if is_legacy_line_ref(trimmed) {
        return Err(bad(
            "Invalid anchor. Use the hash alone (e.g. \"aB3x\") — no line numbers or trailing content.".to_owned(),
        ));
    }
    Err(bad(format!(
        "Invalid anchor {}. Expected a bare 4-character hash.",
        quote(trimmed)
    )))
}

/// `^\d+\s*#`: the old `LINE#HASH` form.
fn is_legacy_line_ref(s: &str) -> bool {
    let rest = s.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.len() < s.len() && rest.trim_start_matches(is_js_space).starts_with('#')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(json: &str) -> Result<Vec<EditItem>, RequestError> {
        match Json::parse(json).expect("valid json") {
            Json::Array(a) => parse_items(&a),
            _ => panic!("test input must be an array"),
        }
    }

    fn err(json: &str) -> String {
        items(json).expect_err("should be refused").message
    }

    #[test]
    fn item_messages_in_order() {
        assert_eq!(err(r#"[{"op":"replace_text","lines":["x"]}]"#), "[E_BAD_OP] Edit 0 uses unknown op \"replace_text\". Expected \"replace\", \"append\", or \"prepend\".");
        assert_eq!(
            err(r#"[{"op":"replace_text","oldText":"a","newText":"b"}]"#),
            "[E_LEGACY_SHAPE] Edit 0 field \"oldText\" is not supported. Use {op:\"replace\", start:\"<HASH>\", end:\"<HASH>\", lines:[...]}."
        );
        assert_eq!(
            err(r#"[{"op":"append","lines":["y"]},{"op":"append","lines":["y"],"extra":1}]"#),
            "[E_BAD_SHAPE] Edit 1 contains unknown or unsupported fields: extra."
        );
        assert_eq!(
            err(r#"[{"pos":"aaaa","lines":[]}]"#),
            "[E_BAD_SHAPE] Edit 0 requires an \"op\" string."
        );
        assert_eq!(
            err(r#"[{"op":"append","pos":3,"lines":["x"]}]"#),
            "[E_BAD_SHAPE] Edit 0 field \"pos\" must be a string when provided."
        );
        assert_eq!(
            err(r#"[{"op":"replace","start":"aaaa","end":"aaaa"}]"#),
            "[E_BAD_SHAPE] Edit 0 requires a \"lines\" field."
        );
        assert_eq!(
            err(r#"[{"op":"replace","start":"aaaa","end":"aaaa","lines":["a",5]}]"#),
            "[E_BAD_SHAPE] Edit 0 field \"lines\" must be a string array."
        );
        assert_eq!(
            err(r#"[{"op":"replace","pos":"aaaa","end":"aaaa","lines":[]}]"#),
            "[E_BAD_OP] Edit 0 op \"replace\" uses \"pos\" — use \"start\" instead."
        );
        assert_eq!(
            err(r#"[{"op":"replace","end":"aaaa","lines":[]}]"#),
            "[E_BAD_OP] Edit 0 with op \"replace\" requires a \"start\" anchor string."
        );
        assert_eq!(
            err(r#"[{"op":"replace","start":"aaaa","lines":[]}]"#),
            "[E_BAD_OP] Edit 0 with op \"replace\" requires an \"end\" anchor string."
        );
        assert_eq!(
            err(r#"[{"op":"prepend","end":"aaaa","lines":["x"]}]"#),
            "[E_BAD_OP] Edit 0 op \"prepend\" does not support \"end\". Use \"pos\" or omit."
        );
    }

    #[test]
    fn invalid_patch_rows() {
        assert_eq!(
            err(r#"[{"op":"replace","start":"aaaa","end":"aaaa","lines":["ok","-1    foo"]}]"#),
            "[E_INVALID_PATCH] \"lines\" must contain literal file content, not HASH: or diff prefixes. Offending line: \"-1    foo\""
        );
        assert!(err(r#"[{"op":"append","lines":["+ aB3x:new"]}]"#).starts_with("[E_INVALID_PATCH]"));
        assert!(items(r#"[{"op":"append","lines":["+added","-1 x"," aB3x:ctx"]}]"#).is_ok());
        // lines are checked before anchors for replace, after pos for append.
        assert!(
            err(r#"[{"op":"replace","start":"","end":"aaaa","lines":["+aB3x:x"]}]"#)
                .starts_with("[E_INVALID_PATCH]")
        );
        assert!(
            err(r#"[{"op":"append","pos":"bad","lines":["+aB3x:x"]}]"#).starts_with("[E_BAD_REF]")
        );
    }

    #[test]
    fn anchors() {
        assert_eq!(parse_anchor(" 0WIr\n").expect("valid").as_str(), "0WIr");
        assert_eq!(parse_anchor("-N6X").expect("valid").as_str(), "-N6X");
        assert_eq!(
            parse_anchor("").expect_err("bad").message,
            "[E_BAD_REF] Invalid anchor. Expected a bare 4-character hash (e.g. \"aB3x\")."
        );
        assert_eq!(parse_anchor("1#0CFv").expect_err("bad").message, "[E_BAD_REF] Invalid anchor. Use the hash alone (e.g. \"aB3x\") — no line numbers or trailing content.");
        assert_eq!(
            parse_anchor("12 #x").expect_err("bad").code,
            ErrorCode::BadRef
        );
        assert_eq!(
            parse_anchor("0CFv:aaa").expect_err("bad").message,
            "[E_BAD_REF] Invalid anchor \"0CFv:aaa\". Expected a bare 4-character hash."
        );
    }

    #[test]
    fn payload_normalization() {
        let parsed = items(r#"[{"op":"replace","start":"aaaa","end":"aaaa","lines":[""]},{"op":"append","pos":"","lines":[""]}]"#)
            .expect("valid");
        assert!(parsed[0].lines.is_empty());
        assert_eq!(parsed[1].op, ItemOp::Append { pos: None });
        assert_eq!(parsed[1].lines, [""]);
    }

    proptest::proptest! {
        #[test]
        fn never_panics(text in "\\PC{0,40}") {
            let _ = super::super::parse_envelope(&text);
            let _ = parse_anchor(&text);
            let _ = check_lines(std::slice::from_ref(&text));
        }
    }
}
