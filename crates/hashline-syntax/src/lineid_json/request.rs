//! The request of the LINE#ID dialect and the peer's edit normalisation (semantics §4, §8).
//!
//! Checks run in the executor's order: `delete`+`rename`, `delete` with edits, missing or empty
//! `edits`, then each edit (`Edit {i}` is 0-based). Shape errors the peer never reports (invalid
//! JSON, a missing `filePath`, wrongly typed fields) get messages of our own, code `E_BAD_SHAPE`.

use hashline_core::ErrorCode;
use serde_json::{Map, Value};

/// What an edit does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EditOp {
    /// Replace `pos` (or `pos..end`).
    Replace,
    /// Insert after the anchor, or at end of file without one.
    Append,
    /// Insert before the anchor, or at start of file without one.
    Prepend,
}

impl EditOp {
    /// The op as the request spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            EditOp::Replace => "replace",
            EditOp::Append => "append",
            EditOp::Prepend => "prepend",
        }
    }
}

/// One normalised edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditSpec {
    /// Position in the request (0-based).
    pub index: usize,
    /// The op.
    pub op: EditOp,
    /// The anchor as sent, trimmed (`pos`, else `end`); `None` for an unanchored insert.
    pub pos: Option<String>,
    /// For a replace given `end`: the range end as sent, trimmed. Always `None` for inserts.
    pub end: Option<String>,
    /// The payload lines, split and without terminators (prefixes not yet stripped).
    pub lines: Vec<String>,
}

/// The whole tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The file, exactly as sent (echoed in messages).
    pub file_path: String,
    /// The normalised edits, in request order.
    pub edits: Vec<EditSpec>,
    /// Delete the file (`edits` must be empty).
    pub delete: bool,
    /// Move the result to this path.
    pub rename: Option<String>,
    /// `"overwrite": true` lets `rename` replace an existing file.
    pub overwrite: bool,
    /// `"allowSyntaxErrors": true` lets the edit land even if it adds a syntax error.
    pub allow_syntax_errors: bool,
}

/// Why a request is refused before any file is looked at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// Not JSON, or not of the dialect's shape.
    #[error("{0}")]
    Shape(String),
    /// `delete` together with `rename`.
    #[error("delete and rename cannot be used together")]
    DeleteAndRename,
    /// `delete` with a non-empty `edits`.
    #[error("delete mode requires edits to be an empty array")]
    DeleteWithEdits,
    /// No edits.
    #[error("edits parameter must be a non-empty array")]
    NoEdits,
    /// An op other than replace/append/prepend.
    #[error(
        "Edit {index}: unsupported op \"{op}\". Legacy format was removed; use op/pos/end/lines."
    )]
    UnsupportedOp {
        /// 0-based edit index.
        index: usize,
        /// The op as JavaScript would print it (`undefined` when missing).
        op: String,
    },
    /// `lines` absent.
    #[error("Edit {index}: lines is required for {op}")]
    LinesRequired {
        /// 0-based edit index.
        index: usize,
        /// The op.
        op: &'static str,
    },
    /// A replace with neither `pos` nor `end`.
    #[error("Edit {index}: replace requires at least one anchor line reference (pos or end)")]
    ReplaceNeedsAnchor {
        /// 0-based edit index.
        index: usize,
    },
}

impl RequestError {
    /// The stable code of the refusal.
    pub fn code(&self) -> ErrorCode {
        match self {
            RequestError::UnsupportedOp { .. } => ErrorCode::BadOp,
            RequestError::ReplaceNeedsAnchor { .. } => ErrorCode::BadRef,
            _ => ErrorCode::BadShape,
        }
    }
}

fn js_display(v: Option<&Value>) -> String {
    match v {
        None => "undefined".into(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) => "null".into(),
        Some(other) => other.to_string(),
    }
}

/// Split a string payload into lines on `\r\n`, `\n` or a lone `\r` (the file line model's
/// breaks, so no row carries a terminator into the file: DEVIATIONS §2); one trailing break ends
/// the last line rather than adding an empty one (DEVIATIONS §5).
pub fn split_payload(text: &str) -> Vec<String> {
    let body = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .or_else(|| text.strip_suffix('\r'))
        .unwrap_or(text);
    body.split("\r\n")
        .flat_map(|l| l.split(['\n', '\r']))
        .map(str::to_string)
        .collect()
}

fn string_field(
    obj: &Map<String, Value>,
    key: &str,
    index: usize,
) -> Result<Option<String>, RequestError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => {
            let t = s.trim();
            Ok((!t.is_empty()).then(|| t.to_string()))
        }
        Some(_) => Err(RequestError::Shape(format!(
            "Edit {index}: {key} must be a string like \"12#VK\""
        ))),
    }
}

fn normalize_edit(index: usize, value: &Value) -> Result<EditSpec, RequestError> {
    let empty = Map::new();
    let obj = value.as_object().unwrap_or(&empty);
    let op = match obj.get("op").and_then(Value::as_str) {
        Some("replace") => EditOp::Replace,
        Some("append") => EditOp::Append,
        Some("prepend") => EditOp::Prepend,
        _ => {
            return Err(RequestError::UnsupportedOp {
                index,
                op: js_display(obj.get("op")),
            })
        }
    };
    let lines = match obj.get("lines") {
        None => {
            return Err(RequestError::LinesRequired {
                index,
                op: op.as_str(),
            })
        }
        Some(Value::Null) => Vec::new(),
        Some(Value::String(s)) => split_payload(s),
        Some(Value::Array(items)) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                let Some(s) = item.as_str() else {
                    return Err(RequestError::Shape(format!(
                        "Edit {index}: lines must be an array of strings, a string, or null"
                    )));
                };
                // An element holding newlines is several lines (never a raw `\n` inside a row).
                if s.contains(['\n', '\r']) {
                    out.extend(split_payload(s));
                } else {
                    out.push(s.to_string());
                }
            }
            out
        }
        Some(_) => {
            return Err(RequestError::Shape(format!(
                "Edit {index}: lines must be an array of strings, a string, or null"
            )))
        }
    };
    let pos = string_field(obj, "pos", index)?;
    let end = string_field(obj, "end", index)?;
    match op {
        EditOp::Replace => {
            let Some(anchor) = pos.or_else(|| end.clone()) else {
                return Err(RequestError::ReplaceNeedsAnchor { index });
            };
            Ok(EditSpec {
                index,
                op,
                pos: Some(anchor),
                end,
                lines,
            })
        }
        EditOp::Append | EditOp::Prepend => Ok(EditSpec {
            index,
            op,
            pos: pos.or(end),
            end: None,
            lines,
        }),
    }
}

/// Parse and normalise a request (see the module doc for the order of checks).
pub fn parse_request(json: &str) -> Result<Request, RequestError> {
    let value: Value = serde_json::from_str(json)
        .map_err(|e| RequestError::Shape(format!("request is not valid JSON: {e}")))?;
    let Some(obj) = value.as_object() else {
        return Err(RequestError::Shape(
            "request must be a JSON object with filePath and edits".into(),
        ));
    };
    let file_path = match obj.get("filePath") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        _ => {
            return Err(RequestError::Shape(
                "filePath must be a non-empty string".into(),
            ))
        }
    };
    let delete = match obj.get("delete") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(RequestError::Shape("delete must be true or false".into())),
    };
    let rename = match obj.get("rename") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => (!s.is_empty()).then(|| s.clone()),
        Some(_) => return Err(RequestError::Shape("rename must be a string path".into())),
    };
    let overwrite = matches!(obj.get("overwrite"), Some(Value::Bool(true)));
    let allow_syntax_errors = match obj.get("allowSyntaxErrors") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(RequestError::Shape(
                "allowSyntaxErrors must be true or false".into(),
            ))
        }
    };
    if delete && rename.is_some() {
        return Err(RequestError::DeleteAndRename);
    }
    let raw_edits = obj.get("edits");
    if delete {
        if raw_edits
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
        {
            return Err(RequestError::DeleteWithEdits);
        }
        if raw_edits.is_some_and(|v| !v.is_array() && !v.is_null()) {
            return Err(RequestError::DeleteWithEdits);
        }
        return Ok(Request {
            file_path,
            edits: Vec::new(),
            delete,
            rename,
            overwrite,
            allow_syntax_errors,
        });
    }
    let items = match raw_edits {
        Some(Value::Array(items)) if !items.is_empty() => items,
        _ => return Err(RequestError::NoEdits),
    };
    let edits = items
        .iter()
        .enumerate()
        .map(|(i, v)| normalize_edit(i, v))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Request {
        file_path,
        edits,
        delete,
        rename,
        overwrite,
        allow_syntax_errors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(json: &str) -> String {
        match parse_request(json) {
            Ok(r) => panic!("accepted: {r:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn executor_order_of_checks() {
        assert_eq!(
            err(r#"{"filePath":"f","delete":true,"rename":"g","edits":[{}]}"#),
            "delete and rename cannot be used together"
        );
        assert_eq!(
            err(r#"{"filePath":"f","delete":true,"edits":[{}]}"#),
            "delete mode requires edits to be an empty array"
        );
        assert_eq!(
            err(r#"{"filePath":"f","edits":[]}"#),
            "edits parameter must be a non-empty array"
        );
        assert_eq!(
            err(r#"{"filePath":"f"}"#),
            "edits parameter must be a non-empty array"
        );
        assert_eq!(
            err(r#"{"filePath":"f","edits":[{"type":"set_line"}]}"#),
            "Edit 0: unsupported op \"undefined\". Legacy format was removed; use op/pos/end/lines."
        );
        assert_eq!(
            err(r#"{"filePath":"f","edits":[{"op":"replace","pos":"1#RW"}]}"#),
            "Edit 0: lines is required for replace"
        );
        assert_eq!(
            err(r#"{"filePath":"f","edits":[{"op":"replace","pos":"  ","lines":[]}]}"#),
            "Edit 0: replace requires at least one anchor line reference (pos or end)"
        );
        assert!(err("not json").starts_with("request is not valid JSON"));
        assert_eq!(
            err("[]"),
            "request must be a JSON object with filePath and edits"
        );
    }

    #[test]
    fn normalisation() {
        let r = parse_request(
            r#"{"filePath":"f","edits":[
                {"op":"replace","end":" 3#AB ","lines":null},
                {"op":"prepend","pos":"2#XH","end":"4#KZ","lines":"x\r\ny\n"},
                {"op":"append","pos":"   ","lines":["a\nb"]}]}"#,
        )
        .expect("valid");
        assert_eq!(r.edits[0].pos.as_deref(), Some("3#AB"));
        assert_eq!(r.edits[0].end.as_deref(), Some("3#AB"));
        assert!(r.edits[0].lines.is_empty());
        assert_eq!(r.edits[1].pos.as_deref(), Some("2#XH"));
        assert_eq!(r.edits[1].end, None);
        assert_eq!(r.edits[1].lines, ["x", "y"]);
        assert_eq!(r.edits[2].pos, None);
        assert_eq!(r.edits[2].lines, ["a", "b"]);
    }

    #[test]
    fn allow_syntax_errors_is_a_boolean() {
        let edits = r#""edits":[{"op":"append","lines":["x"]}]"#;
        let r = parse_request(&format!(r#"{{"filePath":"f",{edits}}}"#)).expect("valid");
        assert!(!r.allow_syntax_errors);
        let r = parse_request(&format!(
            r#"{{"filePath":"f","allowSyntaxErrors":true,{edits}}}"#
        ))
        .expect("valid");
        assert!(r.allow_syntax_errors);
        assert_eq!(
            err(&format!(
                r#"{{"filePath":"f","allowSyntaxErrors":1,{edits}}}"#
            )),
            "allowSyntaxErrors must be true or false"
        );
    }

    #[test]
    fn split_payload_rules() {
        assert_eq!(split_payload("B\n"), ["B"]);
        assert_eq!(split_payload(""), [""]);
        assert_eq!(split_payload("a\n\n"), ["a", ""]);
        assert_eq!(split_payload("a\\nb"), ["a\\nb"]);
        assert_eq!(split_payload("x\r\ny\rz\r"), ["x", "y", "z"]);
    }

    proptest::proptest! {
        #[test]
        fn never_panics(json in "\\PC{0,60}", raw in "[ >+#|0-9A-Za-z-]{0,12}") {
            let _ = parse_request(&json);
            let _ = super::super::anchor::parse_ref(&raw);
            let _ = split_payload(&json);
        }

        #[test]
        fn split_keeps_every_character_but_line_breaks(text in "[ab\r\n]{0,20}") {
            let joined: String = split_payload(&text).concat();
            let expected: String = text.chars().filter(|&c| c != '\n' && c != '\r').collect();
            proptest::prop_assert_eq!(joined, expected);
        }
    }
}
