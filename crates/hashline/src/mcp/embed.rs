//! The server's tools for a framework that hosts them itself (function calling in an agent's
//! own loop, a language binding): the same names, descriptions and input schemas as
//! `tools/list`, and the same call, run on the caller's thread with the same result.

use rmcp::model::JsonObject;

use super::{call, tools};
use crate::{Dialect, Session};

/// One tool as a function-calling API declares it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ToolSpec {
    /// The tool's name (`read`, `edit`, `write`, `ast_edit`, `resolve`, `undo`).
    pub name: String,
    /// A short human title.
    pub title: String,
    /// The model-facing description, exactly as `tools/list` shows it.
    pub description: String,
    /// The JSON schema of the arguments (a flat object).
    pub input_schema: serde_json::Value,
}

/// What one tool call answered: what the model sees and what a program reads.
#[derive(Debug, Clone)]
pub struct ToolReply {
    /// The model-facing text (the tool result's one content block; next steps named as tool
    /// calls).
    pub text: String,
    /// Whether the call was refused (`isError`): nothing was written.
    pub is_error: bool,
    /// The structured content: the `--json` object without `text`.
    pub structured: serde_json::Value,
}

/// The six tools for a server (or a binding) whose default dialect is `dialect`, as
/// `tools/list` shows them.
pub fn tool_specs(dialect: Dialect) -> Vec<ToolSpec> {
    tools::tools(dialect)
        .into_iter()
        .map(|tool| ToolSpec {
            name: tool.name.to_string(),
            title: tool.title.clone().unwrap_or_default(),
            description: tool.description.as_deref().unwrap_or_default().to_string(),
            input_schema: serde_json::Value::Object((*tool.input_schema).clone()),
        })
        .collect()
}

/// Run tool `name` with `arguments` on `session`, on this thread, as the server's
/// `tools/call` does (`dialect` is the default, as the server's `--dialect`). Arguments that
/// do not fit the tool's schema, or an unknown tool, answer an `E_BAD_SHAPE` refusal.
pub fn call_tool(
    session: &Session,
    dialect: Dialect,
    name: &str,
    arguments: Option<JsonObject>,
) -> ToolReply {
    let response = call::run_with_progress(session, dialect, name, arguments, &|_, _| {}, None);
    let result = call::tool_result(response);
    let text = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n");
    ToolReply {
        text,
        is_error: result.is_error.unwrap_or(false),
        structured: result.structured_content.unwrap_or(serde_json::Value::Null),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EngineConfig;

    #[test]
    fn the_specs_are_the_servers_tools_and_a_call_answers_as_the_server() {
        let specs = tool_specs(Dialect::Hashline);
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["read", "edit", "write", "ast_edit", "resolve", "undo"]
        );
        let listed = tools::tools(Dialect::Hashline);
        assert_eq!(
            specs[1].description,
            listed[1].description.as_deref().unwrap_or_default()
        );
        assert_eq!(specs[0].input_schema["required"][0], "path");

        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.txt"), "x\n").expect("write");
        let session = Session::open(EngineConfig::in_memory(dir.path())).expect("open");
        let args = |v: serde_json::Value| v.as_object().cloned();
        let read = call_tool(
            &session,
            Dialect::Hashline,
            "read",
            args(serde_json::json!({"path": "a.txt"})),
        );
        assert!(!read.is_error, "{}", read.text);
        assert!(read.text.starts_with("¶a.txt#"), "{}", read.text);
        assert_eq!(read.structured["ok"], true);
        let bad = call_tool(&session, Dialect::Hashline, "read", None);
        assert!(bad.is_error);
        assert_eq!(bad.structured["code"], "E_BAD_SHAPE");
    }
}
