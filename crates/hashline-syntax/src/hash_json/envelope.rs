//! Normalization (§4.1) and envelope validation (§4.2), in the peer's order: the first failure wins.

use hashline_core::ErrorCode;

use super::json::{get, Json};
use super::{Envelope, RequestError, ReturnMode, ReturnRange};

/// The keys whose presence marks the retired `oldText`/`newText` dialect, in the order checked.
pub(crate) const LEGACY_KEYS: [&str; 4] = ["oldText", "newText", "old_text", "new_text"];

/// The E_LEGACY_SHAPE message for `key`. The peer writes `"<HASH"` for the second placeholder;
/// DEVIATIONS §12 spells it correctly.
pub(crate) fn legacy_message(prefix: &str, key: &str) -> String {
    format!(
        "[E_LEGACY_SHAPE] {prefix}\"{key}\" is not supported. \
         Use {{op:\"replace\", start:\"<HASH>\", end:\"<HASH>\", lines:[...]}}."
    )
}

const ENVELOPE_KEYS: [&str; 5] = [
    "path",
    "returnMode",
    "returnRanges",
    "edits",
    "allowSyntaxErrors",
];

/// Parse the request text and validate its envelope; also refuses a request with no edits.
///
/// Does not look at the items beyond the array itself (see [`super::parse_items`]).
pub fn parse_envelope(request: &str) -> Result<Envelope, RequestError> {
    let json = Json::parse(request).map_err(|e| {
        RequestError::shape(format!(
            "Edit request must be an object. The request is not valid JSON: {e}."
        ))
    })?;
    let Json::Object(mut entries) = json else {
        return Err(RequestError::shape("Edit request must be an object."));
    };
    normalize(&mut entries);

    if let Some(key) = LEGACY_KEYS.iter().find(|k| get(&entries, k).is_some()) {
        return Err(RequestError::new(
            ErrorCode::LegacyShape,
            legacy_message("", key),
        ));
    }
    let unknown: Vec<&str> = entries
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| !ENVELOPE_KEYS.contains(k))
        .collect();
    if !unknown.is_empty() {
        return Err(RequestError::shape(format!(
            "Edit request contains unknown or unsupported fields: {}.",
            unknown.join(", ")
        )));
    }
    let path = match get(&entries, "path") {
        Some(Json::String(p)) if !p.is_empty() => p.clone(),
        _ => {
            return Err(RequestError::shape(
                "Edit request requires a non-empty \"path\" string.",
            ))
        }
    };
    let edits = match get(&entries, "edits") {
        None => Vec::new(),
        Some(Json::Array(items)) => items.clone(),
        Some(_) => {
            return Err(RequestError::shape(
                "Edit request requires an \"edits\" array when provided.",
            ))
        }
    };
    let return_mode = match get(&entries, "returnMode") {
        None => None,
        Some(Json::String(m)) if m == "changed" => Some(ReturnMode::Changed),
        Some(Json::String(m)) if m == "full" => Some(ReturnMode::Full),
        Some(Json::String(m)) if m == "ranges" => Some(ReturnMode::Ranges),
        Some(_) => {
            return Err(RequestError::shape(
                "Edit request field \"returnMode\" must be \"changed\", \"full\", or \"ranges\" when provided.",
            ))
        }
    };
    let return_ranges = match get(&entries, "returnRanges") {
        None => None,
        Some(value) => Some(parse_ranges(value)?),
    };
    let mode = return_mode.unwrap_or_default();
    if mode == ReturnMode::Ranges && return_ranges.as_ref().is_none_or(Vec::is_empty) {
        return Err(RequestError::shape(
            "Edit request with returnMode \"ranges\" requires a non-empty \"returnRanges\" array.",
        ));
    }
    if mode != ReturnMode::Ranges && return_ranges.is_some() {
        return Err(RequestError::shape(
            "Edit request field \"returnRanges\" is only supported when returnMode is \"ranges\".",
        ));
    }
    let allow_syntax_errors = match get(&entries, "allowSyntaxErrors") {
        None | Some(Json::Null) => false,
        Some(Json::Bool(b)) => *b,
        Some(_) => {
            return Err(RequestError::shape(
                "Edit request field \"allowSyntaxErrors\" must be true or false when provided.",
            ))
        }
    };
    if edits.is_empty() {
        return Err(RequestError::new(ErrorCode::BadShape, "No edits provided."));
    }
    Ok(Envelope {
        path,
        edits,
        return_mode: mode,
        return_ranges: return_ranges.unwrap_or_default(),
        allow_syntax_errors,
    })
}

/// §4.1: `file_path` stands in for a non-string `path`; `edits` given as a JSON-array string is
/// parsed. Nothing else is rewritten.
fn normalize(entries: &mut Vec<(String, Json)>) {
    let path_is_string = matches!(get(entries, "path"), Some(Json::String(_)));
    if !path_is_string {
        if let Some(at) = entries
            .iter()
            .position(|(k, v)| k == "file_path" && matches!(v, Json::String(_)))
        {
            let (_, value) = entries.remove(at);
            match entries.iter_mut().find(|(k, _)| k == "path") {
                Some(slot) => slot.1 = value,
                None => entries.push(("path".to_owned(), value)),
            }
        }
    }
    if let Some(slot) = entries.iter_mut().find(|(k, _)| k == "edits") {
        if let Json::String(text) = &slot.1 {
            if let Ok(parsed @ Json::Array(_)) = Json::parse(text) {
                slot.1 = parsed;
            }
        }
    }
}

fn parse_ranges(value: &Json) -> Result<Vec<ReturnRange>, RequestError> {
    let items = match value {
        Json::Array(items) if !items.is_empty() => items,
        _ => {
            return Err(RequestError::shape(
                "Edit request field \"returnRanges\" must be a non-empty array when provided.",
            ))
        }
    };
    let mut ranges = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let Some(entries) = item.as_object() else {
            return Err(RequestError::shape(format!(
                "returnRanges[{i}] must be an object."
            )));
        };
        let Some(start) = get(entries, "start").and_then(Json::as_positive_integer) else {
            return Err(RequestError::shape(format!(
                "returnRanges[{i}].start must be a positive integer."
            )));
        };
        let end = match get(entries, "end") {
            None => None,
            Some(v) => match v.as_positive_integer() {
                Some(e) => Some(e),
                None => {
                    return Err(RequestError::shape(format!(
                        "returnRanges[{i}].end must be a positive integer when provided."
                    )))
                }
            },
        };
        if end.is_some_and(|e| e < start) {
            return Err(RequestError::shape(format!(
                "returnRanges[{i}].end must be >= start."
            )));
        }
        ranges.push(ReturnRange { start, end });
    }
    Ok(ranges)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(request: &str) -> String {
        parse_envelope(request)
            .expect_err("should be refused")
            .message
    }

    #[test]
    fn order_and_messages() {
        assert_eq!(err("[1]"), "[E_BAD_SHAPE] Edit request must be an object.");
        assert!(err("{").starts_with("[E_BAD_SHAPE] Edit request must be an object."));
        assert_eq!(
            err(r#"{"path":"a","oldText":"x","newText":"y","zzz":1}"#),
            "[E_LEGACY_SHAPE] \"oldText\" is not supported. Use {op:\"replace\", start:\"<HASH>\", end:\"<HASH>\", lines:[...]}."
        );
        assert_eq!(
            err(r#"{"path":"a","zzz":1,"yyy":2}"#),
            "[E_BAD_SHAPE] Edit request contains unknown or unsupported fields: zzz, yyy."
        );
        assert_eq!(
            err(r#"{"path":""}"#),
            "[E_BAD_SHAPE] Edit request requires a non-empty \"path\" string."
        );
        assert_eq!(
            err(r#"{"path":"a","edits":5}"#),
            "[E_BAD_SHAPE] Edit request requires an \"edits\" array when provided."
        );
        assert_eq!(err(r#"{"path":"a"}"#), "No edits provided.");
        assert_eq!(err(r#"{"path":"a","edits":[]}"#), "No edits provided.");
        assert_eq!(
            err(r#"{"path":"a","returnMode":"ranges","edits":[1]}"#),
            "[E_BAD_SHAPE] Edit request with returnMode \"ranges\" requires a non-empty \"returnRanges\" array."
        );
        assert_eq!(
            err(r#"{"path":"a","returnRanges":[{"start":1}],"edits":[1]}"#),
            "[E_BAD_SHAPE] Edit request field \"returnRanges\" is only supported when returnMode is \"ranges\"."
        );
        assert_eq!(
            err(
                r#"{"path":"a","returnMode":"ranges","returnRanges":[{"start":2,"end":1}],"edits":[1]}"#
            ),
            "[E_BAD_SHAPE] returnRanges[0].end must be >= start."
        );
        assert_eq!(
            err(r#"{"path":"a","returnMode":"ranges","returnRanges":[{"start":1.5}],"edits":[1]}"#),
            "[E_BAD_SHAPE] returnRanges[0].start must be a positive integer."
        );
        assert_eq!(
            err(r#"{"path":"a","returnMode":"ranges","returnRanges":[3],"edits":[1]}"#),
            "[E_BAD_SHAPE] returnRanges[0] must be an object."
        );
    }

    #[test]
    fn normalization() {
        let env = parse_envelope(r#"{"file_path":"a.txt","edits":"[{\"op\":\"append\"}]"}"#)
            .expect("valid");
        assert_eq!(env.path, "a.txt");
        assert_eq!(env.edits.len(), 1);
        // Both present: file_path stays and fails as unknown.
        assert_eq!(
            err(r#"{"path":"a","file_path":"b","edits":[1]}"#),
            "[E_BAD_SHAPE] Edit request contains unknown or unsupported fields: file_path."
        );
        // A string that is not a JSON array stays a string.
        assert_eq!(
            err(r#"{"path":"a","edits":"{}"}"#),
            "[E_BAD_SHAPE] Edit request requires an \"edits\" array when provided."
        );
    }

    #[test]
    fn allow_syntax_errors_is_a_boolean() {
        let env = parse_envelope(r#"{"path":"a","edits":[1]}"#).expect("valid");
        assert!(!env.allow_syntax_errors);
        let env =
            parse_envelope(r#"{"path":"a","edits":[1],"allowSyntaxErrors":true}"#).expect("valid");
        assert!(env.allow_syntax_errors);
        assert_eq!(
            err(r#"{"path":"a","edits":[1],"allowSyntaxErrors":"yes"}"#),
            "[E_BAD_SHAPE] Edit request field \"allowSyntaxErrors\" must be true or false when provided."
        );
    }
}
