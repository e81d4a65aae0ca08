//! Each tool's `outputSchema` (issue 26 item 2), made from `docs/json-schema.json`, the schema
//! the CLI's `--json` objects are tested against: the command's `$defs` entry and the entries
//! it refers to, with `text` taken out of the envelope (a tool result carries the text as its
//! content block, not in `structuredContent`) and the MCP-only fields added (`leftOut` of a
//! bounded result, `page` of a `resolve` page). A call whose arguments do not fit answers with
//! the bare envelope, which every output schema allows too.

use std::collections::BTreeSet;

use rmcp::model::JsonObject;
use serde_json::{json, Value};

/// The documented shape of every `--json` object: the crate's copy of `docs/json-schema.json`
/// (inside the crate, so a packaged crate builds; `tests/it/json_schema.rs` keeps the two equal).
const SCHEMA: &str = include_str!("../../schema/json-schema.json");

/// The `$defs` entry that names the structured content of tool `tool`.
fn def_of(tool: &str) -> &str {
    match tool {
        "ast_edit" => "ast-edit",
        other => other,
    }
}

/// Every `#/$defs/NAME` that `value` refers to.
fn refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v.as_str()) {
                    ("$ref", Some(r)) => {
                        if let Some(name) = r.strip_prefix("#/$defs/") {
                            out.push(name.to_string());
                        }
                    }
                    _ => refs(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

/// `defs` adapted to MCP's structured content: no `text`, plus `leftOut` and `page`.
fn for_mcp(defs: &mut Value) {
    let envelope = &mut defs["envelope"];
    if let Some(required) = envelope["required"].as_array_mut() {
        required.retain(|r| r != "text");
    }
    if let Some(properties) = envelope["properties"].as_object_mut() {
        properties.remove("text");
        properties.insert(
            "leftOut".into(),
            json!({
                "description": "What a bounded result left out: files (and for ast_edit \
                                matches) not in `files` / `preview.matches`, the `offset` of \
                                the `resolve` list call that shows the next matches, and \
                                warnings past the first 20 (8 KiB) in `warnings`.",
                "type": "object",
                "additionalProperties": false,
                "required": ["files"],
                "properties": {
                    "files": {"type": "integer", "minimum": 0},
                    "matches": {"type": "integer", "minimum": 0},
                    "nextOffset": {"type": "integer", "minimum": 0},
                    "warnings": {"type": "integer", "minimum": 1},
                },
            }),
        );
    }
    if let Some(properties) = defs["resolve"]["properties"].as_object_mut() {
        properties.insert(
            "page".into(),
            json!({
                "description": "A `resolve` list page of one preview's matches.",
                "type": "object",
                "additionalProperties": false,
                "required": ["offset", "nextOffset", "total"],
                "properties": {
                    "offset": {"type": "integer", "minimum": 0},
                    "nextOffset": {"type": ["integer", "null"], "minimum": 0},
                    "total": {"type": "integer", "minimum": 0},
                },
            }),
        );
    }
}

/// The `outputSchema` of tool `tool`: an object schema (as MCP requires) with the `$defs` it
/// needs.
pub(crate) fn output_schema(tool: &str) -> JsonObject {
    let full: Value = serde_json::from_str(SCHEMA).unwrap_or(Value::Null);
    let mut all = full["$defs"].clone();
    for_mcp(&mut all);
    let def = def_of(tool);
    let mut wanted = vec![def.to_string(), "usage".to_string()];
    let mut kept = BTreeSet::new();
    while let Some(name) = wanted.pop() {
        if kept.insert(name.clone()) {
            refs(&all[name.as_str()], &mut wanted);
        }
    }
    let defs: serde_json::Map<String, Value> = kept
        .into_iter()
        .filter_map(|name| all.get(&name).cloned().map(|v| (name, v)))
        .collect();
    let schema = json!({
        "$schema": full["$schema"],
        "type": "object",
        "description": format!(
            "The `--json` object of `hashline {def}` without `text` (docs/JSON.md); arguments \
             that do not fit the input schema answer with the bare envelope (E_BAD_SHAPE)."
        ),
        "anyOf": [{"$ref": format!("#/$defs/{def}")}, {"$ref": "#/$defs/usage"}],
        "$defs": defs,
    });
    match schema {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_an_object_schema_with_its_defs() {
        let full: Value = serde_json::from_str(SCHEMA).expect("docs/json-schema.json parses");
        assert!(full["$defs"]["envelope"]["properties"]["text"].is_object());
        for tool in ["read", "edit", "write", "ast_edit", "resolve", "undo"] {
            let schema = Value::Object(output_schema(tool));
            assert_eq!(schema["type"], "object", "{tool}");
            let mut needed = Vec::new();
            refs(&schema, &mut needed);
            for name in needed {
                assert!(schema["$defs"].get(&name).is_some(), "{tool}: {name}");
            }
            assert!(schema["$defs"]["envelope"]["properties"]
                .get("text")
                .is_none());
            let required = &schema["$defs"]["envelope"]["required"];
            assert!(!required.to_string().contains("\"text\""), "{tool}");
        }
    }

    #[test]
    fn the_schemas_refuse_text_and_unknown_fields() {
        let schema = Value::Object(output_schema("read"));
        let validator = jsonschema::validator_for(&schema).expect("compiles");
        let ok =
            json!({"schema_version": 1, "ok": true, "code": null, "warnings": [], "files": []});
        assert!(validator.is_valid(&ok));
        for (key, value) in [("text", json!("x")), ("other", json!(1))] {
            let mut bad = ok.clone();
            bad[key] = value;
            assert!(!validator.is_valid(&bad), "{key}");
        }
        let schema = Value::Object(output_schema("ast_edit"));
        let validator = jsonschema::validator_for(&schema).expect("compiles");
        let refused = json!({"schema_version": 1, "ok": false, "code": "E_BAD_SHAPE",
            "warnings": [], "files": []});
        assert!(validator.is_valid(&refused));
        let mut cut = refused.clone();
        cut["leftOut"] = json!({"files": 2, "matches": 3, "nextOffset": 4});
        assert!(validator.is_valid(&cut));
    }
}
