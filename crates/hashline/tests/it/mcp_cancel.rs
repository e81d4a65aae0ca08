//! An `ast_edit` that the client cancels (`notifications/cancelled`, MCP 2025-11-25
//! "Cancellation") stops: over a 3,000-file tree the client cancels when the first progress
//! notification arrives, the server sends no result for the cancelled request (as the
//! protocol asks), queues no preview and writes nothing, and goes on serving the next calls.
//! Raw JSON-RPC lines through the real binary; no timing is measured.

use crate::support;

use std::io::Write;
use std::path::Path;
use std::process::{ChildStdin, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use serde_json::{json, Value};

const FILES: usize = 3_000;

fn tree(root: &Path) {
    for i in 0..FILES {
        let dir = root.join(format!("src/m{}", i / 100));
        std::fs::create_dir_all(&dir).expect("dir");
        let body: String = (0..20)
            .map(|n| format!("  console.log(x + {n});\n"))
            .collect();
        std::fs::write(
            dir.join(format!("f{i}.ts")),
            format!("export function f{i}(x: number) {{\n{body}  return x;\n}}\n"),
        )
        .expect("file");
    }
}

struct Server {
    stdin: ChildStdin,
    lines: Receiver<String>,
    child: std::process::Child,
    /// The highest `progress` of the notifications seen.
    progress: f64,
}

impl Server {
    fn start(root: &Path, state: &Path) -> Server {
        let (child, stdin, lines) =
            support::mcp::spawn_raw(root, state, &["--session", "cancel"], Stdio::null());
        Server {
            stdin,
            lines,
            child,
            progress: 0.0,
        }
    }

    fn send(&mut self, message: &Value) {
        let line = format!("{message}\n");
        self.stdin.write_all(line.as_bytes()).expect("write");
        self.stdin.flush().expect("flush");
    }

    /// The next message from the server (a hang guard, not a timing check).
    fn next(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(120))
            .expect("the server wrote a line");
        let message: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        if let Some(p) = message["params"]["progress"].as_f64() {
            self.progress = self.progress.max(p);
        }
        message
    }

    /// Messages up to the answer to request `id`; panics on an answer to any other request.
    fn answer(&mut self, id: u64) -> Value {
        loop {
            let message = self.next();
            if message.get("method").is_some() {
                continue; // a notification (progress)
            }
            assert_eq!(message["id"], id, "an answer to another request: {message}");
            return message;
        }
    }

    fn call(&mut self, id: u64, name: &str, arguments: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}));
        self.answer(id)
    }
}

#[test]
fn a_cancelled_ast_edit_stops_queues_nothing_and_the_server_goes_on() {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    tree(root.path());
    let sample = root.path().join("src/m0/f0.ts");
    let before = std::fs::read_to_string(&sample).expect("sample");
    let mut server = Server::start(root.path(), state.path());
    server.send(
        &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "cancel-test", "version": "1"}}}),
    );
    let init = server.answer(0);
    assert_eq!(init["result"]["serverInfo"]["name"], "hashline", "{init}");
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    // The ast_edit asks for progress; the first notification proves it is running.
    server.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "ast_edit",
        "arguments": {"ops": [{"pat": "console.log($A)", "out": "logger.log($A)"}],
                      "paths": ["src"]},
        "_meta": {"progressToken": "scan"}}}),
    );
    let first = server.next();
    assert_eq!(first["method"], "notifications/progress", "{first}");
    // Numbers of progress are JSON numbers (rmcp sends `3000.0`).
    let total = first["params"]["total"].as_f64().expect("total");
    assert_eq!(total, FILES as f64, "{first}");
    assert!(
        first["params"]["progress"].as_f64() < Some(total),
        "the scan ended before it could be cancelled: {first}"
    );
    server.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 1, "reason": "the user changed their mind"}}),
    );

    // The next request is answered, and no answer to request 1 comes before it (`answer`
    // fails on one): the server sent no result for the cancelled call.
    let list = server.call(2, "resolve", json!({"action": "list"}));
    let result = &list["result"];
    assert_eq!(result["isError"], false, "{list}");
    let pending = &result["structuredContent"]["resolve"]["pending"];
    assert_eq!(
        pending.as_array().map(Vec::len),
        Some(0),
        "a cancelled ast_edit queued a preview: {}",
        result["content"][0]["text"]
    );
    // Reported, not asserted: how far the scan got (a busy machine may be slow to cancel).
    eprintln!(
        "cancelled ast_edit over {FILES} files: first progress {}, last {} of {total}",
        first["params"]["progress"], server.progress
    );
    assert_eq!(
        std::fs::read_to_string(&sample).expect("sample"),
        before,
        "a cancelled ast_edit wrote"
    );

    // The server goes on: the same ast_edit over one file previews and queues.
    let again = server.call(
        3,
        "ast_edit",
        json!({"ops": [{"pat": "console.log($A)", "out": "logger.log($A)"}],
               "paths": ["src/m0/f0.ts"]}),
    );
    assert_eq!(again["result"]["isError"], false, "{again}");
    let id = &again["result"]["structuredContent"]["preview"]["id"];
    assert!(id.is_i64(), "{again}");
    let list = server.call(4, "resolve", json!({"action": "list"}));
    let pending = list["result"]["structuredContent"]["resolve"]["pending"]
        .as_array()
        .map(Vec::len);
    assert_eq!(pending, Some(1), "{list}");

    drop(server.stdin);
    let status = server.child.wait().expect("wait");
    assert!(status.success(), "{status}");
}
