//! Driving `hashline mcp` as a child process with the `rmcp` client.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;

/// A connected client and the server's process id.
pub struct Client {
    /// The rmcp client.
    pub service: RunningService<RoleClient, ()>,
    /// The `hashline mcp` process.
    pub pid: u32,
    /// Each tool's `outputSchema` from `tools/list`, compiled: [`call`] checks every
    /// structured result against its tool's.
    pub outputs: HashMap<String, jsonschema::Validator>,
}

/// What one tool call answered.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The text content (the CLI's stdout).
    pub text: String,
    /// The structured content (the CLI's `--json` object).
    pub json: Value,
    /// `isError`.
    pub is_error: bool,
}

impl Answer {
    /// The refusal code, if any.
    pub fn code(&self) -> Option<&str> {
        self.json["code"].as_str()
    }
}

/// Start `hashline --root ROOT --state STATE --session SESSION mcp ARGS…` and connect.
pub async fn connect(root: &Path, state: &Path, session: &str, args: &[&str]) -> Client {
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_hashline")).configure(|cmd| {
        cmd.arg("--root")
            .arg(root)
            .arg("--state")
            .arg(state)
            .arg("--session")
            .arg(session)
            .arg("mcp")
            .args(args)
            .env_remove("HASHLINE_SESSION");
    });
    let transport = TokioChildProcess::new(command).expect("spawn hashline mcp");
    let pid = transport.id().expect("child pid");
    let service = within(().serve(transport))
        .await
        .expect("MCP initialization");
    let outputs = output_validators(&service).await;
    Client {
        service,
        pid,
        outputs,
    }
}

/// Each tool's `outputSchema`, compiled (a tool without one is a failure: every tool has one).
pub async fn output_validators<S: rmcp::service::Service<RoleClient>>(
    service: &RunningService<RoleClient, S>,
) -> HashMap<String, jsonschema::Validator> {
    let tools = within(service.list_all_tools()).await.expect("tools/list");
    tools
        .into_iter()
        .map(|tool| {
            let schema = tool
                .output_schema
                .unwrap_or_else(|| panic!("{}: no outputSchema", tool.name));
            let schema = Value::Object((*schema).clone());
            let validator = jsonschema::validator_for(&schema)
                .unwrap_or_else(|e| panic!("{}: outputSchema does not compile: {e}", tool.name));
            (tool.name.to_string(), validator)
        })
        .collect()
}

/// Panics unless `answer`'s structured content fits tool `name`'s `outputSchema` (a tool the
/// server does not have has none to fit).
pub fn check_output(outputs: &HashMap<String, jsonschema::Validator>, name: &str, answer: &Answer) {
    if let Some(validator) = outputs.get(name) {
        let errors: Vec<String> = validator
            .iter_errors(&answer.json)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{name}: structuredContent does not fit the outputSchema: {errors:#?}\n{}",
            answer.json
        );
    }
}

/// Call tool `name` with `args` (a JSON object); panics if the server does not answer with a
/// tool result within the time limit.
pub async fn call(client: &Client, name: &str, args: Value) -> Answer {
    let result = try_call(client, name, args)
        .await
        .unwrap_or_else(|e| panic!("{name}: no tool result: {e}"));
    let answer = answer(result);
    check_output(&client.outputs, name, &answer);
    answer
}

/// Like [`call`], returning the client's error instead of panicking.
pub async fn try_call(
    client: &Client,
    name: &str,
    args: Value,
) -> Result<CallToolResult, rmcp::ServiceError> {
    let mut params = CallToolRequestParams::new(name.to_string());
    if let Value::Object(map) = args {
        params = params.with_arguments(map);
    }
    within(client.service.call_tool(params)).await
}

/// The text, structured content and `isError` of a tool result.
pub fn answer(result: CallToolResult) -> Answer {
    let text = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("");
    Answer {
        text,
        json: result.structured_content.unwrap_or(Value::Null),
        is_error: result.is_error.unwrap_or(false),
    }
}

/// `future`, or a panic after 60 s: a test of the server never hangs.
pub async fn within<T>(future: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(60), future)
        .await
        .expect("the MCP server did not answer within 60 s")
}

/// The resident set size of process `pid` in KiB (`VmRSS` of `/proc/PID/status`).
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// `hashline --root ROOT --state STATE ARGS… mcp` spoken to with raw JSON-RPC lines: the child,
/// its standard input, and its output lines as a thread reads them (stderr as `stderr` says).
pub fn spawn_raw(
    root: &Path,
    state: &Path,
    args: &[&str],
    stderr: std::process::Stdio,
) -> (
    std::process::Child,
    std::process::ChildStdin,
    std::sync::mpsc::Receiver<String>,
) {
    use std::io::BufRead;
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hashline"))
        .arg("--root")
        .arg(root)
        .arg("--state")
        .arg(state)
        .args(args)
        .arg("mcp")
        .env_remove("HASHLINE_SESSION")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("spawn hashline mcp");
    let stdout = child.stdout.take().expect("stdout");
    let (send, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            if send.send(line).is_err() {
                return;
            }
        }
    });
    let stdin = child.stdin.take().expect("stdin");
    (child, stdin, lines)
}
