//! Over MCP an `ast_edit` over thousands of files answers within 64 KiB of text (a summary,
//! the first matches, the way to the rest), its structured content is cut to the same
//! matches, `resolve` pages through the rest, applying the preview writes every match, and a
//! client that sends a progress token gets `notifications/progress` while files are parsed.

use crate::support;

use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, NumberOrString, ProgressNotificationParam, ProgressToken,
    RequestParamsMeta,
};
use rmcp::service::NotificationContext;
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{json, Value};
use std::collections::HashMap;
use support::mcp::{answer, check_output, output_validators, within, Answer};

const FILES: usize = 3_000;

fn tree(root: &Path) {
    for i in 0..FILES {
        let dir = root.join(format!("src/m{}", i / 100));
        fs::create_dir_all(&dir).expect("dir");
        fs::write(
            dir.join(format!("f{i}.ts")),
            format!("export function f{i}(x: number) {{\n  console.log(x);\n  return x;\n}}\n"),
        )
        .expect("file");
    }
}

/// A client that counts the progress notifications it receives.
#[derive(Clone, Default)]
struct Counting {
    seen: Arc<AtomicUsize>,
    last: Arc<AtomicUsize>,
}

impl ClientHandler for Counting {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.seen.fetch_add(1, Ordering::SeqCst);
        self.last
            .fetch_max(params.progress as usize, Ordering::SeqCst);
    }
}

/// Call `tool`, checking its structured content against the tool's `outputSchema`.
async fn ask(
    service: &RunningService<RoleClient, Counting>,
    outputs: &HashMap<String, jsonschema::Validator>,
    tool: &str,
    args: Value,
) -> Answer {
    let mut params = CallToolRequestParams::new(tool.to_string());
    if let Value::Object(map) = args {
        params = params.with_arguments(map);
    }
    let answer = answer(within(service.call_tool(params)).await.expect(tool));
    check_output(outputs, tool, &answer);
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_big_ast_edit_is_bounded_paged_and_applies_whole() {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    let r = root.path();
    tree(r);
    let counting = Counting::default();
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_hashline")).configure(|cmd| {
        cmd.arg("--root")
            .arg(r)
            .arg("--state")
            .arg(state.path())
            .arg("--session")
            .arg("bound")
            .arg("mcp")
            .env_remove("HASHLINE_SESSION");
    });
    let transport = TokioChildProcess::new(command).expect("spawn hashline mcp");
    let service = within(counting.clone().serve(transport))
        .await
        .expect("MCP initialization");

    let args = json!({
        "ops": [{"pat": "console.log($A)", "out": "logger.log($A)"}],
        "paths": ["src"],
    });
    let mut params = CallToolRequestParams::new("ast_edit");
    if let Value::Object(map) = args {
        params = params.with_arguments(map);
    }
    params.set_progress_token(ProgressToken(NumberOrString::Number(7)));
    let result = within(service.call_tool(params)).await.expect("ast_edit");
    let preview = answer(result);
    let outputs = output_validators(&service).await;
    check_output(&outputs, "ast_edit", &preview);
    assert!(!preview.is_error, "{}", preview.text);
    let structured = serde_json::to_string(&preview.json).expect("json").len();
    eprintln!(
        "ast_edit over {FILES} files: text {} bytes, structured {structured} bytes",
        preview.text.len()
    );
    assert!(preview.text.len() <= 64 * 1024, "{}", preview.text.len());
    assert!(structured <= 256 * 1024, "{structured}");
    // No `maxFiles` was given: the whole tree is previewed (no file cap over MCP).
    assert_eq!(preview.json["preview"]["total_replacements"], FILES);
    assert_eq!(preview.json["preview"]["limit_reached"], false);
    let left = &preview.json["leftOut"];
    let shown = left["nextOffset"].as_u64().expect("nextOffset") as usize;
    assert!(shown > 0 && shown < FILES, "{left}");
    assert_eq!(left["matches"], FILES - shown);
    assert_eq!(
        preview.json["preview"]["matches"].as_array().map(Vec::len),
        Some(shown)
    );
    let id = preview.json["preview"]["id"].as_i64().expect("id");
    let next =
        format!("`resolve` with {{\"action\": \"list\", \"id\": {id}, \"offset\": {shown}}}");
    assert!(preview.text.contains(&next), "{}", preview.text);
    assert!(
        preview.text.contains("Files (matches in each):"),
        "{}",
        preview.text
    );
    assert!(!preview.text.contains("`hashline "), "{}", preview.text);

    // Progress: the engine parsed every file and said so. The server sends every notification
    // before the result; the client may handle them after it, so they are waited for.
    for _ in 0..100 {
        if counting.last.load(Ordering::SeqCst) == FILES {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let seen = counting.seen.load(Ordering::SeqCst);
    assert!((2..=200).contains(&seen), "{seen} progress notifications");
    assert_eq!(counting.last.load(Ordering::SeqCst), FILES);

    // Paging: the next matches, then the last page says there is no next one.
    let page = ask(
        &service,
        &outputs,
        "resolve",
        json!({"action": "list", "id": id, "offset": shown}),
    )
    .await;
    assert!(!page.is_error, "{}", page.text);
    assert!(page.text.len() <= 64 * 1024, "{}", page.text.len());
    assert_eq!(page.json["page"]["offset"], shown);
    let last = ask(
        &service,
        &outputs,
        "resolve",
        json!({"action": "list", "id": id, "offset": FILES - 1}),
    )
    .await;
    assert!(last.json["page"]["nextOffset"].is_null(), "{}", last.json);
    assert!(!last.text.contains("Next:"), "{}", last.text);
    let past = ask(
        &service,
        &outputs,
        "resolve",
        json!({"action": "list", "id": id, "offset": FILES}),
    )
    .await;
    assert!(
        past.is_error && past.text.contains("past the last"),
        "{}",
        past.text
    );

    // Applying the preview writes every match, shown or not.
    let applied = ask(
        &service,
        &outputs,
        "resolve",
        json!({"action": "apply", "id": id}),
    )
    .await;
    assert!(!applied.is_error, "{}", applied.text);
    eprintln!(
        "resolve apply: text {} bytes, structured {} bytes",
        applied.text.len(),
        applied.json.to_string().len()
    );
    assert!(applied.text.len() <= 64 * 1024, "{}", applied.text.len());
    assert!(applied.json.to_string().len() <= 256 * 1024);
    assert!(
        applied.json["leftOut"]["files"].as_u64() > Some(0),
        "{}",
        applied.json["leftOut"]
    );
    for i in [0, shown, FILES - 1] {
        let path = r.join(format!("src/m{}/f{i}.ts", i / 100));
        let text = fs::read_to_string(path).expect("file");
        assert!(text.contains("logger.log(x)"), "f{i}: {text}");
    }
}
