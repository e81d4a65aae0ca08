//! JSON values printed as Python prints the same value (the oracle's messages embed `{value}`).

use serde_json::Value;

/// `value` as Python's `str()` of the decoded value prints it: strings bare at the top level and
/// quoted inside lists, `None`, `True`/`False`, lists as `[a, b]`.
pub fn py_repr(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => inner(other),
    }
}

/// `value` as Python's `repr()` prints it (strings quoted).
pub fn py_literal(value: &Value) -> String {
    inner(value)
}

fn inner(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => quoted(s),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(inner).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", quoted(k), inner(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
    }
}

/// Python's `repr` of a string: single quotes unless it holds one and no double quote.
fn quoted(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}
