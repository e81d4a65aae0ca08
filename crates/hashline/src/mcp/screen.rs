//! Every line the client sends, checked before the SDK sees it: a message the SDK would drop
//! in silence (not JSON, a lone surrogate escape, nesting past the parser's limit, over the
//! size limit) or answer with a misleading error (a `tools/call` without a `name`, or whose
//! `arguments` is not an object) gets a JSON-RPC error — or, for a bad `tools/call`, the
//! `E_BAD_SHAPE` tool result that docs/ERRORS.md promises — and one line for the log.

use std::cell::RefCell;
use std::fmt;

use rmcp::model::ClientJsonRpcMessage;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{json, Value};

use super::call;

/// The most bytes one message (one line) may have: rmcp's own stdio limit, 16 MiB.
pub(crate) const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// How deep a message may nest: `serde_json`'s recursion limit.
pub(crate) const MAX_DEPTH: usize = 128;

/// What to do with one line.
#[derive(Debug)]
pub(crate) enum Screened {
    /// A message for the SDK.
    Message(Box<ClientJsonRpcMessage>),
    /// A malformed message: `reply` (absent for a notification, which has no answer) goes to
    /// the client, `log` to standard error.
    Answer {
        /// The JSON-RPC answer.
        reply: Option<Value>,
        /// One line for standard error.
        log: String,
    },
    /// Nothing to do (a blank line, or a notification nobody handles).
    Skip,
}

/// JSON-RPC's "Parse error".
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's "Invalid Request".
const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's "Invalid params".
const INVALID_PARAMS: i64 = -32602;

/// The requests the SDK knows: one of these that it does not decode had bad `params`.
const STANDARD_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "completion/complete",
    "logging/setLevel",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "tools/list",
];

/// Check one line (its `\n` removed).
pub(crate) fn screen(line: &[u8]) -> Screened {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Screened::Skip;
    }
    if let Err(e) = std::str::from_utf8(line) {
        return malformed(
            line,
            PARSE_ERROR,
            format!(
                "Parse error: the message is not UTF-8 (byte {}); send JSON text in UTF-8",
                e.valid_up_to()
            ),
        );
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(e) if lone_surrogate(line) => {
            return malformed(
                line,
                INVALID_REQUEST,
                format!(
                    "Invalid Request: the message has a \\uD800-\\uDFFF escape without its pair \
                     (a lone surrogate, near line {}, column {}); JSON strings must be Unicode: \
                     send the character itself or both halves of its surrogate pair",
                    e.line(),
                    e.column()
                ),
            )
        }
        Err(e) => return malformed(line, parse_code(&e), parse_message(&e)),
    };
    let Value::Object(object) = value else {
        return answer(
            Some(Value::Null),
            INVALID_REQUEST,
            format!(
                "Invalid Request: a message is one JSON object, not {} (batches are not part of MCP)",
                kind(&value)
            ),
        );
    };
    let id = object.get("id").cloned().filter(is_id);
    let method = object
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_owned);
    if method.as_deref() == Some("tools/call") {
        if let Some(id) = &id {
            if let Err(reason) = check_tool_call(object.get("params")) {
                return bad_tool_call(id.clone(), reason);
            }
        }
    }
    match serde_json::from_value::<ClientJsonRpcMessage>(Value::Object(object)) {
        Ok(message) => {
            let custom = matches!(
                &message,
                ClientJsonRpcMessage::Request(r)
                    if matches!(r.request, rmcp::model::ClientRequest::CustomRequest(_))
            );
            match (custom, method.as_deref(), id) {
                (true, Some(m), Some(id)) if STANDARD_METHODS.contains(&m) => answer(
                    Some(id),
                    INVALID_PARAMS,
                    format!("Invalid params: the `params` of `{m}` do not fit its MCP schema"),
                ),
                _ => Screened::Message(Box::new(message)),
            }
        }
        Err(e) => match id {
            Some(id) => match method.as_deref() {
                Some(m) if STANDARD_METHODS.contains(&m) => answer(
                    Some(id),
                    INVALID_PARAMS,
                    format!(
                        "Invalid params: the `params` of `{m}` do not fit its MCP schema ({e})"
                    ),
                ),
                _ => answer(Some(id), INVALID_REQUEST, format!("Invalid Request: {e}")),
            },
            // A notification is never answered; one the SDK cannot read is only logged.
            None => Screened::Answer {
                reply: None,
                log: format!("ignored a notification that is not an MCP message: {e}"),
            },
        },
    }
}

/// The answer to a line over [`MAX_MESSAGE_BYTES`]; `prefix` is its start (the id is taken
/// from it when it comes first).
pub(crate) fn oversized(prefix: &[u8], length: usize) -> Screened {
    let id = recover(prefix);
    answer_with(
        id,
        INVALID_REQUEST,
        format!(
            "Invalid Request: the message is {length} bytes long, over the limit of \
             {MAX_MESSAGE_BYTES} bytes (16 MiB) per message; it was not read. Send less in one \
             call (split a patch into several edits, or write a large file in parts)"
        ),
    )
}

/// `params` of a `tools/call`: an object with a string `name` and, if any, object `arguments`.
fn check_tool_call(params: Option<&Value>) -> Result<(), String> {
    let Some(Value::Object(params)) = params else {
        return Err(match params {
            None => "the request has no `params`: send {\"name\": TOOL, \"arguments\": {…}}".into(),
            Some(other) => format!("`params` is {}, not an object", kind(other)),
        });
    };
    match params.get("name") {
        Some(Value::String(_)) => {}
        None => return Err("`name` is missing: name the tool to call".into()),
        Some(other) => return Err(format!("`name` is {}, not a string", kind(other))),
    }
    match params.get("arguments") {
        None | Some(Value::Null | Value::Object(_)) => Ok(()),
        Some(other) => Err(format!(
            "`arguments` is {}, not an object: send the arguments as one JSON object of named \
             fields, as the tool's input schema shows",
            kind(other)
        )),
    }
}

/// The `E_BAD_SHAPE` tool result for a `tools/call` whose params do not fit.
fn bad_tool_call(id: Value, reason: String) -> Screened {
    let result = call::tool_result(call::bad_arguments(format!(
        "The tools/call request does not fit MCP's shape: {reason}. Fix it and call again. \
         Nothing was done."
    )));
    let log = format!("answered a malformed tools/call with E_BAD_SHAPE: {reason}");
    match serde_json::to_value(&result) {
        Ok(result) => Screened::Answer {
            reply: Some(json!({"jsonrpc": "2.0", "id": id, "result": result})),
            log,
        },
        Err(e) => answer(
            Some(id),
            INVALID_PARAMS,
            format!("Invalid params: {reason} ({e})"),
        ),
    }
}

/// The answer to a line that is not a JSON value: its id when one can be found before the
/// problem, else null.
fn malformed(line: &[u8], code: i64, message: String) -> Screened {
    let id = recover(line);
    answer_with(id, code, message)
}

fn answer_with(recovered: Option<Value>, code: i64, message: String) -> Screened {
    answer(Some(recovered.unwrap_or(Value::Null)), code, message)
}

fn answer(id: Option<Value>, code: i64, message: String) -> Screened {
    let log = format!("answered a malformed message with {code}: {message}");
    Screened::Answer {
        reply: id.map(
            |id| json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}),
        ),
        log,
    }
}

/// -32600 for JSON text the parser will not take (too deep), -32700 for text that is not
/// JSON.
fn parse_code(e: &serde_json::Error) -> i64 {
    if e.to_string().contains("recursion limit") {
        INVALID_REQUEST
    } else {
        PARSE_ERROR
    }
}

/// Whether `bytes` have a `\uD800`-`\uDFFF` escape that is not half of a surrogate pair.
fn lone_surrogate(bytes: &[u8]) -> bool {
    let hex = |at: usize| -> Option<u32> {
        let digits = bytes.get(at..at + 4)?;
        u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        if bytes.get(i + 1) != Some(&b'u') {
            i += 2;
            continue;
        }
        match hex(i + 2) {
            Some(0xD800..=0xDBFF) => {
                let paired = bytes.get(i + 6..i + 8) == Some(b"\\u".as_slice())
                    && matches!(hex(i + 8), Some(0xDC00..=0xDFFF));
                if !paired {
                    return true;
                }
                i += 12;
            }
            Some(0xDC00..=0xDFFF) => return true,
            _ => i += 6,
        }
    }
    false
}

fn parse_message(e: &serde_json::Error) -> String {
    let (line, column) = (e.line(), e.column());
    let text = e.to_string();
    if text.contains("recursion limit") {
        format!(
            "Invalid Request: the message nests deeper than {MAX_DEPTH} levels, the JSON \
             parser's limit (line {line}, column {column}); send flatter JSON"
        )
    } else {
        format!("Parse error: the message is not JSON ({text}); send one JSON-RPC object per line")
    }
}

fn is_id(v: &Value) -> bool {
    v.is_string() || v.is_i64() || v.is_u64()
}

fn kind(v: &Value) -> &'static str {
    call::kind(v)
}

/// The top-level `id` of a broken message, when it was read before the problem: scan `bytes`
/// as far as they are a JSON object, noting a top-level `id` (other values are
/// skipped without the depth or surrogate checks, so only a problem before the id hides it).
fn recover(bytes: &[u8]) -> Option<Value> {
    let found = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let _ = Envelope(&found).deserialize(&mut de);
    found.into_inner()
}

/// A [`DeserializeSeed`] that records the top-level `id` as soon as it is read.
struct Envelope<'a>(&'a RefCell<Option<Value>>);

impl<'de> DeserializeSeed<'de> for Envelope<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Envelope<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "id" {
                let id: Value = map.next_value()?;
                if is_id(&id) {
                    *self.0.borrow_mut() = Some(id);
                }
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(line: &str) -> (Value, String) {
        match screen(line.as_bytes()) {
            Screened::Answer {
                reply: Some(reply),
                log,
            } => (reply, log),
            other => panic!("{line}: not answered: {other:?}"),
        }
    }

    #[test]
    fn every_malformed_line_is_answered_with_its_id_when_it_can_be_found() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}{}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        let cases = [
            ("not json", Value::Null, PARSE_ERROR, "not JSON"),
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read","arguments":{"path":"\ud800"}}}"#,
                json!(3),
                INVALID_REQUEST,
                "lone surrogate",
            ),
            (deep.as_str(), json!(7), INVALID_REQUEST, "deeper than 128"),
            (
                r#"{"id":4,"method":"x","params":{"a":"\udc00\ud800x"}}"#,
                json!(4),
                INVALID_REQUEST,
                "lone surrogate",
            ),
            ("[1, 2]", Value::Null, INVALID_REQUEST, "not an array"),
            (
                r#"{"jsonrpc":"2.0","id":"a","method":"tools/list","params":5}"#,
                json!("a"),
                INVALID_PARAMS,
                "tools/list",
            ),
        ];
        for (line, id, code, needle) in cases {
            let (reply, log) = reply(line);
            assert_eq!(reply["id"], id, "{line}");
            assert_eq!(reply["error"]["code"], code, "{line}");
            let message = reply["error"]["message"].as_str().unwrap_or("");
            assert!(message.contains(needle), "{line}: {message}");
            assert!(log.contains(message) && !log.contains('\n'), "{log}");
        }
    }

    #[test]
    fn lone_surrogates_are_told_from_pairs_and_escaped_backslashes() {
        assert!(lone_surrogate(br#""\ud800""#));
        assert!(lone_surrogate(br#""\uDC00""#));
        assert!(lone_surrogate(br#""\ud800\u0041""#));
        assert!(!lone_surrogate(br#""\ud83d\ude00""#));
        assert!(!lone_surrogate(br#""\\ud800""#));
        assert!(!lone_surrogate(br#""\u00e9""#));
    }

    #[test]
    fn a_bad_tools_call_is_an_e_bad_shape_result() {
        for (params, needle) in [
            (
                r#"{"name":"read","arguments":"x"}"#,
                "`arguments` is a string",
            ),
            (
                r#"{"name":"read","arguments":[1]}"#,
                "`arguments` is an array",
            ),
            (r#"{"arguments":{}}"#, "`name` is missing"),
            (r#"{"name":3}"#, "`name` is a number"),
            (r#"5"#, "`params` is a number"),
        ] {
            let line =
                format!(r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{params}}}"#);
            let (reply, _) = reply(&line);
            assert_eq!(reply["id"], 9);
            assert_eq!(reply["result"]["isError"], true, "{reply}");
            assert_eq!(reply["result"]["structuredContent"]["code"], "E_BAD_SHAPE");
            let text = reply["result"]["content"][0]["text"].as_str().unwrap_or("");
            assert!(text.contains(needle), "{text}");
        }
    }

    #[test]
    fn good_messages_pass_and_blank_lines_are_skipped() {
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"path":"a"}}}"#;
        assert!(matches!(screen(call.as_bytes()), Screened::Message(_)));
        let note = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        assert!(matches!(screen(note.as_bytes()), Screened::Message(_)));
        assert!(matches!(screen(b" \r"), Screened::Skip));
    }

    #[test]
    fn an_oversized_message_names_the_limit_and_keeps_an_early_id() {
        let Screened::Answer {
            reply: Some(reply), ..
        } = oversized(
            br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"na"#,
            1 << 25,
        )
        else {
            panic!("not answered");
        };
        assert_eq!(reply["id"], 5);
        let message = reply["error"]["message"].as_str().unwrap_or("");
        assert!(message.contains("16777216 bytes (16 MiB)"), "{message}");
    }
}
