//! The five tools as `tools/list` shows them: flat input schemas (one object, every property
//! explicitly typed, no union at the top level), descriptions and annotations.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{json, Value};

use super::describe;
use crate::Dialect;

/// Every tool, described for a server whose default dialect is `dialect`.
pub(crate) fn tools(dialect: Dialect) -> Vec<Tool> {
    vec![
        tool(
            "read",
            "Read a file with anchors",
            describe::read(dialect),
            read_schema(),
            ToolAnnotations::new()
                .read_only(true)
                .destructive(false)
                .idempotent(true),
        ),
        tool(
            "edit",
            "Apply an anchored patch",
            describe::edit(dialect),
            edit_schema(),
            ToolAnnotations::new()
                .read_only(false)
                .destructive(true)
                .idempotent(false),
        ),
        tool(
            "write",
            "Create or replace a whole file",
            describe::write(dialect),
            write_schema(),
            ToolAnnotations::new()
                .read_only(false)
                .destructive(true)
                .idempotent(true),
        ),
        tool(
            "ast_edit",
            "Preview structural rewrites",
            describe::AST_EDIT.to_string(),
            ast_edit_schema(),
            ToolAnnotations::new()
                .read_only(false)
                .destructive(false)
                .idempotent(false),
        ),
        tool(
            "resolve",
            "Apply or discard a queued ast_edit preview",
            describe::RESOLVE.to_string(),
            resolve_schema(),
            ToolAnnotations::new()
                .read_only(false)
                .destructive(true)
                .idempotent(false),
        ),
    ]
}

fn tool(
    name: &'static str,
    title: &str,
    description: String,
    schema: Value,
    annotations: ToolAnnotations,
) -> Tool {
    let schema: JsonObject = match schema {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    };
    let mut annotations = annotations.open_world(false);
    annotations.title = Some(title.to_string());
    Tool::new(name, description, Arc::new(schema))
        .with_title(title)
        .with_annotations(annotations)
}

fn dialect_property(what: &str) -> Value {
    json!({
        "type": "string",
        "enum": ["hashline", "hash-json", "lineid-json"],
        "description": format!("{what} Leave it out to use the server's dialect."),
    })
}

fn read_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "The file, relative to the project root."},
            "offset": {"type": "integer", "minimum": 1, "description": "First line to show (1-based)."},
            "limit": {"type": "integer", "minimum": 1, "description": "How many lines to show."},
            "dialect": dialect_property("The anchors to show: those of the dialect you will edit in."),
        },
        "required": ["path"],
        "additionalProperties": false,
    })
}

fn edit_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "patch": {"type": "string", "description": "The whole patch: hashline patch text, or the JSON request of a JSON dialect as one string (an object is taken as its JSON text)."},
            "dialect": dialect_property("The patch's dialect."),
            "dry_run": {"type": "boolean", "description": "Check everything and show the diff; write nothing."},
            "allow_syntax_errors": {"type": "boolean", "description": "Let an edit that adds a syntax error land (a deliberate intermediate state)."},
        },
        "required": ["patch"],
        "additionalProperties": false,
    })
}

fn write_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "The file, relative to the project root; missing directories are created."},
            "content": {"type": "string", "description": "The whole new content, written byte for byte."},
            "dialect": dialect_property("The anchors of the read shown after the write."),
            "overwrite": {"type": "boolean", "description": "Replace an existing file this session never read (its content is lost unseen). Default false: such a write is refused with E_NOT_READ; read the file first instead."},
        },
        "required": ["path", "content"],
        "additionalProperties": false,
    })
}

fn ast_edit_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "ops": {
                "type": "array",
                "minItems": 1,
                "description": "Rewrite rules, applied together.",
                "items": {
                    "type": "object",
                    "properties": {
                        "pat": {"type": "string", "description": "An ast-grep pattern: code with $NAME (one node), $$$ARGS (several) or $_ metavariables."},
                        "out": {"type": "string", "description": "The rewrite; may use the pattern's captures. Empty deletes the match."},
                    },
                    "required": ["pat", "out"],
                    "additionalProperties": false,
                },
            },
            "paths": {
                "type": "array",
                "minItems": 1,
                "items": {"type": "string"},
                "description": "Files, directories or globs (src/**/*.ts), relative to the project root.",
            },
            "lang": {"type": "string", "description": "Parse every file as this language (ts, tsx, js, rust, py, ...); default: by extension."},
            "max_files": {"type": "integer", "minimum": 1, "description": "At most this many files get replacements."},
            "allow_syntax_errors": {"type": "boolean", "description": "Queue rewrites that add a syntax error."},
            "hidden": {"type": "boolean", "description": "Directory walks also visit hidden files and directories (skipped by default, as ripgrep does)."},
            "no_ignore": {"type": "boolean", "description": "Directory walks also visit files that .gitignore, .ignore or git excludes name (skipped by default)."},
        },
        "required": ["ops", "paths"],
        "additionalProperties": false,
    })
}

fn resolve_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": ["apply", "discard", "list"], "description": "apply writes a queued preview, discard drops it, list shows the pending ones (default)."},
            "id": {"type": "integer", "minimum": 1, "description": "The preview id ast_edit printed; default: the newest."},
            "only": {"type": "array", "items": {"type": "string"}, "description": "apply: only these matches (FILE:MATCH ids from the preview)."},
        },
        "additionalProperties": false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value of a property's declared type, for checking that the schemas and the argument
    /// structs agree.
    fn sample(schema: &Value) -> Value {
        match schema["type"].as_str() {
            Some("string") => match schema["enum"].as_array() {
                Some(values) => values[0].clone(),
                None => json!("x"),
            },
            Some("integer") => json!(1),
            Some("boolean") => json!(true),
            Some("array") => json!([sample(&schema["items"])]),
            Some("object") => {
                let props = schema["properties"]
                    .as_object()
                    .cloned()
                    .unwrap_or_default();
                Value::Object(props.iter().map(|(k, v)| (k.clone(), sample(v))).collect())
            }
            other => panic!("untyped property {other:?}: {schema}"),
        }
    }

    #[test]
    fn schemas_are_flat_typed_objects_that_the_arguments_accept() {
        use super::super::call::*;
        for tool in tools(Dialect::Hashline) {
            let schema = Value::Object((*tool.input_schema).clone());
            assert_eq!(schema["type"], "object", "{}", tool.name);
            for key in ["anyOf", "oneOf", "allOf", "$ref"] {
                assert!(schema.get(key).is_none(), "{}: {key}", tool.name);
            }
            let full = sample(&schema);
            let ok = match &*tool.name {
                "read" => serde_json::from_value::<ReadArgs>(full).is_ok(),
                "edit" => serde_json::from_value::<EditArgs>(full).is_ok(),
                "write" => serde_json::from_value::<WriteArgs>(full).is_ok(),
                "ast_edit" => serde_json::from_value::<AstEditArgs>(full).is_ok(),
                "resolve" => serde_json::from_value::<ResolveArgs>(full).is_ok(),
                other => panic!("unexpected tool {other}"),
            };
            assert!(ok, "{}: every schema property is an argument", tool.name);
            assert!(tool.annotations.is_some(), "{}", tool.name);
            assert!(
                tool.description.is_some_and(|d| d.len() > 80),
                "{}",
                tool.name
            );
        }
    }
}
