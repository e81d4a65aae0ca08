//! The six tools as `tools/list` shows them: flat input schemas (one object, every property
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
        // Destructive, honestly: "apply" overwrites files. Its default "list" writes nothing,
        // and the description says so; a tool's annotations cover all its actions.
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
        tool(
            "undo",
            "Undo a call that wrote, or list them",
            describe::UNDO.to_string(),
            undo_schema(),
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
        .with_raw_output_schema(Arc::new(super::output::output_schema(name)))
        .with_title(title)
        .with_annotations(annotations)
}

/// Every dialect the server takes, for the `dialect` properties.
fn dialects() -> Vec<&'static str> {
    Dialect::all().map(Dialect::as_str).collect()
}

/// How `auto` tells the dialects apart, from the registry: each dialect's one line.
fn detection() -> String {
    let each: Vec<String> = hashline_apply::registry::DIALECTS
        .iter()
        .map(|d| format!("{}: {}", d.name(), d.describe()))
        .collect();
    format!(
        "The patch's dialect. Default auto: told from the patch itself. {}",
        each.join(" ")
    )
}

fn dialect_property(what: &str) -> Value {
    json!({
        "type": "string",
        "enum": dialects(),
        "description": format!("{what} Leave it out (or auto) to use the server's dialect."),
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
            "patch": {"type": "string", "description": "The whole patch as text, in any dialect `dialect` lists (a JSON dialect's request as JSON text). Give this or `request`."},
            "request": {"type": "object", "description": "A JSON dialect's request as an object, instead of `patch`: no escaping into a string."},
            "dialect": {
                "type": "string",
                "enum": dialects(),
                "default": "auto",
                "description": detection(),
            },
            "dryRun": {"type": "boolean", "description": "Check everything and show the diff; write nothing."},
            "allowSyntaxErrors": {"type": "boolean", "description": "Let an edit land that a guard would refuse (a syntax error it adds, an indentation or range-boundary check): a deliberate intermediate state. The same field as in the JSON dialects' requests."},
        },
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
            "maxFiles": {"type": "integer", "minimum": 1, "description": "At most this many files get replacements (files past it are left out of the preview, and the result says `Limit reached`). Default: no limit; the whole tree is previewed, and the reply stays bounded."},
            "allowSyntaxErrors": {"type": "boolean", "description": "Queue rewrites that add a syntax error."},
            "hidden": {"type": "boolean", "description": "Directory walks also visit hidden files and directories (skipped by default, as ripgrep does)."},
            "noIgnore": {"type": "boolean", "description": "Directory walks also visit files that .gitignore, .ignore or git excludes name (skipped by default)."},
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
            "offset": {"type": "integer", "minimum": 0, "description": "list with an `id`: show that preview's matches from this one on (0-based; a reply names the next offset)."},
        },
        "additionalProperties": false,
    })
}

fn undo_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": ["list", "undo"], "description": "list (the default without `id`) shows this root's recent calls that wrote, newest first; undo puts back the files of call `id` (default: this session's last call)."},
            "id": {"type": "integer", "minimum": 1, "description": "The call to undo: the `undo` id an edit, write or resolve result carries, or one the list shows. Given alone, it undoes that call."},
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
                "undo" => serde_json::from_value::<UndoArgs>(full).is_ok(),
                other => panic!("unexpected tool {other}"),
            };
            assert!(ok, "{}: every schema property is an argument", tool.name);
            assert!(tool.annotations.is_some(), "{}", tool.name);
            assert!(tool.output_schema.is_some(), "{}", tool.name);
            assert!(
                tool.description.is_some_and(|d| d.len() > 80),
                "{}",
                tool.name
            );
        }
    }
}
