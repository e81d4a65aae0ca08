//! One `tools/call`: the arguments checked against the tool's shape, the [`Session`] command
//! run, the [`Response`] returned as a tool result.

use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::{bound, reply, texts};
use crate::{
    AstEditOptions, Dialect, EditOptions, ErrorCode, Outcome, PreviewId, ReadOptions,
    ResolveAction, Response, Rule, Session,
};

/// `read` arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReadArgs {
    pub path: String,
    #[serde(default)]
    pub offset: Option<serde_json::Number>,
    #[serde(default)]
    pub limit: Option<serde_json::Number>,
    #[serde(default)]
    pub dialect: Option<String>,
}

/// `edit` arguments. `patch` is a string; a JSON dialect's request sent as an object instead
/// is taken as its serialization.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct EditArgs {
    #[serde(default)]
    pub patch: Option<serde_json::Value>,
    #[serde(default)]
    pub request: Option<JsonObject>,
    #[serde(default)]
    pub dialect: Option<String>,
    #[serde(default)]
    pub dry_run: bool,
    #[serde(default)]
    pub allow_syntax_errors: bool,
}

/// `write` arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WriteArgs {
    pub path: String,
    pub content: String,
    #[serde(default)]
    pub dialect: Option<String>,
    #[serde(default)]
    pub overwrite: bool,
}

/// One rewrite rule of `ast_edit`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OpArg {
    pub pat: String,
    pub out: String,
}

/// `ast_edit` arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct AstEditArgs {
    pub ops: Vec<OpArg>,
    pub paths: Vec<String>,
    #[serde(default)]
    pub lang: Option<String>,
    #[serde(default)]
    pub max_files: Option<usize>,
    #[serde(default)]
    pub allow_syntax_errors: bool,
    #[serde(default)]
    pub hidden: bool,
    #[serde(default)]
    pub no_ignore: bool,
}

/// `resolve` arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResolveArgs {
    #[serde(default)]
    pub action: Option<String>,
    #[serde(default)]
    pub id: Option<serde_json::Number>,
    #[serde(default)]
    pub only: Option<Vec<String>>,
    #[serde(default)]
    pub offset: Option<usize>,
}

/// `undo` arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct UndoArgs {
    #[serde(default)]
    pub action: Option<String>,
    #[serde(default)]
    pub id: Option<serde_json::Number>,
}

/// Run tool `name` with `arguments` on `session`; `dialect` is the server's default.
/// Never panics on any arguments: a call that does not fit is an `E_BAD_SHAPE` result.
#[cfg(test)]
pub(crate) fn run(
    session: &Session,
    dialect: Dialect,
    name: &str,
    arguments: Option<JsonObject>,
) -> Response {
    run_with_progress(session, dialect, name, arguments, &|_, _| {}, None)
}

/// [`run`], calling `progress(done, total)` while `ast_edit` parses files; an `ast_edit` stops
/// (`E_CANCELLED`, nothing queued) once `cancel` turns true.
pub(crate) fn run_with_progress(
    session: &Session,
    dialect: Dialect,
    name: &str,
    arguments: Option<JsonObject>,
    progress: &(dyn Fn(usize, usize) + Sync),
    cancel: Option<Arc<AtomicBool>>,
) -> Response {
    let args = arguments.unwrap_or_default();
    match name {
        "read" => with_args(name, args, |a: ReadArgs| {
            let anchors = pick(dialect, a.dialect.as_deref())?.read_anchors();
            let options = ReadOptions::new().anchors(anchors).typed(
                a.offset.map(|n| n.to_string()),
                a.limit.map(|n| n.to_string()),
            );
            Ok(session.read(&a.path, &options).into())
        }),
        "edit" => with_args(name, args, |a: EditArgs| {
            // Without `dialect`, the patch's own form tells (a V4A patch, a JSON request …).
            let dialect = a
                .dialect
                .as_deref()
                .map(str::parse)
                .transpose()?
                .unwrap_or(Dialect::Auto);
            let patch = match (a.patch, a.request) {
                (Some(serde_json::Value::String(text)), None) => text,
                (Some(object @ serde_json::Value::Object(_)), None) => object.to_string(),
                (None, Some(request)) => serde_json::Value::Object(request).to_string(),
                (Some(other), None) => {
                    return Err(format!(
                        "`patch` is {}, not a string: send the patch text as one string (or a \
                         JSON dialect's request as the object `request`)",
                        kind(&other)
                    ))
                }
                (None, None) => {
                    return Err(
                        "give `patch` (the patch text) or `request` (a JSON dialect's \
                                request object)"
                            .into(),
                    )
                }
                (Some(_), Some(_)) => return Err("give `patch` or `request`, not both".into()),
            };
            let options = EditOptions {
                dry_run: a.dry_run,
                allow_syntax_errors: a.allow_syntax_errors,
                // The text shows the fresh anchors in every dialect (bounded), not only the
                // structured result: a client may forward the text alone.
                show_anchors: true,
                ..EditOptions::default()
            };
            let (patch, fence) = match unfence(&patch) {
                Some(inner) => (inner.to_string(), true),
                None => (patch, false),
            };
            let mut response: Response = session.edit(&patch, dialect, &options).into();
            if fence {
                add_warning(&mut response, FENCE_STRIPPED.to_string());
            }
            Ok(nothing_written(response))
        }),
        "write" => with_args(name, args, |a: WriteArgs| {
            let anchors = pick(dialect, a.dialect.as_deref())?.read_anchors();
            Ok(nothing_written(
                session
                    .write_with(&a.path, a.content.as_bytes(), anchors, a.overwrite)
                    .into(),
            ))
        }),
        "ast_edit" => with_args(name, args, |a: AstEditArgs| {
            if a.ops.is_empty() {
                return Err(
                    "`ops` is empty: give at least one {\"pat\": …, \"out\": …} rule".into(),
                );
            }
            let rules = a.ops.iter().map(|op| Rule::new(&op.pat, &op.out)).collect();
            let options = AstEditOptions {
                lang: a.lang,
                // No cap unless asked: the reply is bounded and pages the rest, so the whole
                // tree is previewed and applied (the CLI keeps the seed's 1,000).
                max_files: a.max_files.unwrap_or(usize::MAX),
                allow_syntax_errors: a.allow_syntax_errors,
                hidden: a.hidden,
                no_ignore: a.no_ignore,
                cancel,
            };
            Ok(session
                .ast_edit_with_progress(rules, a.paths, &options, progress)
                .into())
        }),
        "resolve" => with_args(name, args, |a: ResolveArgs| {
            let id = match &a.id {
                Some(n) => Some(n.to_string().parse::<PreviewId>()?),
                None => None,
            };
            let action = a.action.as_deref().unwrap_or("list");
            match (action, id, a.offset) {
                ("list", Some(id), offset) => {
                    return Ok(bound::show(session, id, offset.unwrap_or(0)))
                }
                ("list", None, Some(_)) => {
                    return Err(
                        "`offset` pages through one preview's matches: give its `id` too".into(),
                    )
                }
                (_, _, Some(_)) if action != "list" => {
                    return Err(format!(
                        "`offset` is for \"list\" with an `id`, not for \"{action}\""
                    ))
                }
                _ => {}
            }
            let action = match action {
                "apply" => {
                    let only = a.only;
                    return Ok(nothing_written(
                        session.resolve(ResolveAction::Apply { id, only }).into(),
                    ));
                }
                "discard" => ResolveAction::Discard { id },
                "list" => ResolveAction::List,
                other => {
                    return Err(format!(
                        "unknown action `{other}`: use \"apply\", \"discard\" or \"list\""
                    ))
                }
            };
            Ok(session.resolve(action).into())
        }),
        "undo" => with_args(name, args, |a: UndoArgs| {
            let id = match &a.id {
                Some(n) => Some(n.as_u64().filter(|&n| n > 0).ok_or_else(|| {
                    format!(
                        "`id` {n} is not a call id: use one that {{\"action\": \"list\"}} shows"
                    )
                })?),
                None => None,
            };
            match (a.action.as_deref(), id) {
                (Some("undo"), id) | (None, id @ Some(_)) => {
                    Ok(nothing_written(session.undo(id).into()))
                }
                (Some("list") | None, None) => Ok(session.undo_list().into()),
                (Some("list"), Some(_)) => {
                    Err("\"list\" takes no `id`: leave it out, or use \"action\": \"undo\"".into())
                }
                (Some(other), _) => Err(format!(
                    "unknown action `{other}`: use \"undo\" or \"list\""
                )),
            }
        }),
        other => bad_arguments(format!(
            "There is no tool `{other}`: use read, edit, write, ast_edit, resolve or undo. \
             Nothing was done."
        )),
    }
}

/// The warning of a patch sent inside a Markdown code fence.
const FENCE_STRIPPED: &str = "[W_FENCE_STRIPPED] the patch was wrapped in a ``` code fence; the \
fence lines were removed and the patch inside them used. Send the patch without the fence.";

/// The patch inside a Markdown code fence (a first line of three backticks and an optional
/// info string, a last line of three backticks), if `patch` is so wrapped.
fn unfence(patch: &str) -> Option<&str> {
    let trimmed = patch.trim();
    let first_end = trimmed.find('\n')?;
    let opener = trimmed[..first_end].trim_end();
    let info = opener.strip_prefix("```")?;
    if info.contains('`') || info.contains(' ') {
        return None;
    }
    let body = &trimmed[first_end + 1..];
    let last_start = body.rfind('\n').map_or(0, |i| i + 1);
    if body[last_start..].trim_end() != "```" {
        return None;
    }
    Some(&body[..last_start])
}

/// `warning` added to `response`: to its warnings and to the warnings block of its text.
fn add_warning(response: &mut Response, warning: String) {
    let outcome = &mut response.outcome;
    if outcome.warnings.is_empty() || !outcome.text.contains("\nWarnings:\n") {
        outcome.text.push_str("\n\nWarnings:\n");
    } else {
        outcome.text.push('\n');
    }
    outcome.text.push_str(&warning);
    outcome.warnings.push(warning);
}

/// A refusal of a call that writes says that nothing was written (every such call is all or
/// nothing); an `E_IO` failure does not know, and says so itself.
fn nothing_written(mut response: Response) -> Response {
    let outcome = &mut response.outcome;
    let says = [
        "Nothing was written",
        "nothing was written",
        "Nothing was done",
    ]
    .iter()
    .any(|s| outcome.text.contains(s));
    if !outcome.ok && outcome.code != Some(ErrorCode::Io) && !says {
        if !outcome.text.ends_with('\n') {
            outcome.text.push('\n');
        }
        outcome.text.push_str("Nothing was written.");
    }
    response
}

/// Decode `args` as `T` and run `f`; a decoding failure, or an `Err` from `f`, becomes an
/// `E_BAD_SHAPE` response naming the tool.
fn with_args<T: DeserializeOwned>(
    tool: &str,
    args: JsonObject,
    f: impl FnOnce(T) -> Result<Response, String>,
) -> Response {
    let result = serde_json::from_value::<T>(serde_json::Value::Object(args))
        .map_err(|e| e.to_string())
        .and_then(f);
    result.unwrap_or_else(|reason| {
        bad_arguments(format!(
            "The `{tool}` arguments do not fit its input schema: {reason}. \
             Fix that argument (see the tool's input schema) and call it again. Nothing was done."
        ))
    })
}

/// An `E_BAD_SHAPE` refusal with `text`.
pub(crate) fn bad_arguments(text: String) -> Response {
    Response::from_outcome(Outcome::refused(ErrorCode::BadShape, text))
}

/// What kind of JSON value `v` is, for a message.
pub(crate) fn kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// The dialect whose anchors a `read` or `write` shows: the call's own `dialect`, else (and
/// for `auto`) the server's.
fn pick(server: Dialect, call: Option<&str>) -> Result<Dialect, String> {
    match call.map(str::parse::<Dialect>).transpose()? {
        Some(d) if d != Dialect::Auto => Ok(d),
        _ => Ok(server),
    }
}

/// A [`Response`] as a tool result: the model-facing text (its CLI steps named as tool calls,
/// [`texts::for_mcp`]), the `--json` object without its `text` as structured content (the
/// data; the text is the result's one content block, and a client that forwards both would
/// show the model the same words twice), `isError` on a refusal.
pub(crate) fn tool_result(response: Response) -> CallToolResult {
    let mut report = response.report();
    let outcome = &response.outcome;
    let mut text = texts::for_mcp(&reply::with_warnings(&outcome.text, &outcome.warnings));
    if report.get("preview").is_some_and(|p| p.is_object()) {
        (text, report) = bound::ast_edit(text, report);
    } else {
        (text, report) = bound::other(text, report);
    }
    if let Some(object) = report.as_object_mut() {
        object.remove("text");
        if object.contains_key("warnings") {
            let (kept, left) = reply::bounded(&response.outcome.warnings);
            let warnings = kept.iter();
            let warnings = warnings.map(|w| serde_json::Value::String(texts::for_mcp(w)));
            object.insert("warnings".into(), warnings.collect());
            if left > 0 {
                let cut = object
                    .entry("leftOut")
                    .or_insert_with(|| serde_json::json!({"files": 0}));
                cut["warnings"] = left.into();
            }
        }
    }
    let mut result = if response.outcome.ok {
        CallToolResult::success(vec![ContentBlock::text(text)])
    } else {
        CallToolResult::error(vec![ContentBlock::text(text)])
    };
    result.structured_content = Some(report);
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EngineConfig;

    fn session() -> (tempfile::TempDir, Session) {
        let dir = tempfile::tempdir().expect("tempdir");
        let session = Session::open(EngineConfig::in_memory(dir.path())).expect("open");
        (dir, session)
    }

    fn args(value: serde_json::Value) -> Option<JsonObject> {
        match value {
            serde_json::Value::Object(map) => Some(map),
            _ => None,
        }
    }

    #[test]
    fn bad_arguments_are_refusals_that_name_the_problem() {
        let (_dir, session) = session();
        let cases = [
            ("read", serde_json::json!({}), "missing field `path`"),
            ("read", serde_json::json!({"path": 3}), "invalid type"),
            (
                "read",
                serde_json::json!({"path": "a", "x": 1}),
                "unknown field `x`",
            ),
            (
                "read",
                serde_json::json!({"path": "a", "dialect": "yaml"}),
                "unknown dialect",
            ),
            (
                "edit",
                serde_json::json!({"patch": "x", "dialect": "yaml"}),
                "unknown dialect `yaml`",
            ),
            ("edit", serde_json::json!({}), "give `patch`"),
            (
                "edit",
                serde_json::json!({"patch": "x", "request": {}}),
                "not both",
            ),
            (
                "edit",
                serde_json::json!({"patch": 1}),
                "`patch` is a number",
            ),
            (
                "ast_edit",
                serde_json::json!({"ops": [], "paths": ["."]}),
                "`ops` is empty",
            ),
            (
                "resolve",
                serde_json::json!({"action": "redo"}),
                "unknown action",
            ),
            (
                "resolve",
                serde_json::json!({"action": "apply", "id": -1}),
                "-1",
            ),
            ("frobnicate", serde_json::json!({}), "There is no tool"),
            (
                "undo",
                serde_json::json!({"action": "redo"}),
                "unknown action",
            ),
            ("undo", serde_json::json!({"id": 0}), "not a call id"),
            (
                "resolve",
                serde_json::json!({"action": "list", "offset": 3}),
                "give its `id` too",
            ),
            (
                "resolve",
                serde_json::json!({"action": "apply", "id": 1, "offset": 3}),
                "not for \"apply\"",
            ),
            (
                "undo",
                serde_json::json!({"action": "list", "id": 2}),
                "takes no `id`",
            ),
        ];
        for (tool, value, needle) in cases {
            let response = run(&session, Dialect::Hashline, tool, args(value));
            assert_eq!(response.outcome.code, Some(ErrorCode::BadShape), "{tool}");
            assert!(
                response.outcome.text.contains(needle),
                "{tool}: {}",
                response.outcome.text
            );
            assert_eq!(response.report()["code"], "E_BAD_SHAPE");
        }
    }

    #[test]
    fn the_structured_warnings_are_bounded_and_fit_the_output_schema() {
        let mut outcome = Outcome::success("Updated a.txt".to_string());
        outcome.warnings = (0..50)
            .map(|i| format!("[W_LOOSE_CONTEXT] warning {i}"))
            .collect();
        let result = tool_result(Response::from_outcome(outcome));
        let structured = result.structured_content.expect("structured content");
        let warnings = structured["warnings"].as_array().map(Vec::len);
        assert_eq!(warnings, Some(20), "{structured}");
        assert_eq!(structured["leftOut"]["warnings"], 30, "{structured}");
        assert_eq!(structured["leftOut"]["files"], 0, "{structured}");
        let schema = serde_json::Value::Object(super::super::output::output_schema("edit"));
        let validator = jsonschema::validator_for(&schema).expect("the edit output schema");
        assert!(validator.is_valid(&structured), "{structured}");
    }

    #[test]
    fn a_fenced_patch_is_unwrapped() {
        assert_eq!(unfence("```\na\nb\n```\n"), Some("a\nb\n"));
        assert_eq!(unfence("```diff\n¶a#1\n```"), Some("¶a#1\n"));
        assert_eq!(unfence("a\n```\n"), None);
        assert_eq!(unfence("```\na\n"), None);
        assert_eq!(unfence("``` x y\na\n```"), None);
    }

    #[test]
    fn the_dialect_chooses_the_anchors() {
        let (dir, session) = session();
        std::fs::write(dir.path().join("a.txt"), "x\n").expect("write");
        let read = |d: Option<&str>, server| {
            let value = match d {
                Some(d) => serde_json::json!({"path": "a.txt", "dialect": d}),
                None => serde_json::json!({"path": "a.txt"}),
            };
            run(&session, server, "read", args(value)).outcome.text
        };
        assert!(read(None, Dialect::Hashline).starts_with("¶a.txt#"));
        assert!(read(None, Dialect::LineidJson).starts_with("1#"));
        assert!(read(Some("lineid-json"), Dialect::Hashline).starts_with("1#"));
        assert!(read(Some("hashline"), Dialect::LineidJson).starts_with("¶a.txt#"));
    }

    #[test]
    fn a_json_request_object_in_patch_is_taken_as_its_text() {
        let (dir, session) = session();
        std::fs::write(dir.path().join("a.txt"), "x\n").expect("write");
        let value = serde_json::json!({
            "patch": {"filePath": "a.txt", "edits": [{"op": "append", "lines": ["y"]}]},
            "dialect": "lineid-json"
        });
        let response = run(&session, Dialect::Hashline, "edit", args(value));
        assert!(response.outcome.ok, "{}", response.outcome.text);
        let text = std::fs::read_to_string(dir.path().join("a.txt")).expect("read");
        assert_eq!(text, "x\ny\n");
    }
}
