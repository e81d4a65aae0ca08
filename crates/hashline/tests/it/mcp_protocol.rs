//! `hashline mcp` at the protocol's edges, through the real binary and raw lines on its
//! standard input: every malformed message (over the size limit, not JSON, a lone surrogate
//! escape, nested past the parser's limit, a `tools/call` whose `arguments` is a string or an
//! array or that has no `name`) is answered — a JSON-RPC error, or an `E_BAD_SHAPE` tool result
//! for a bad `tools/call` — with one line on standard error, and the server keeps serving.

use crate::support;

use std::io::{Read, Write};
use std::process::{ChildStdin, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use serde_json::{json, Value};

/// The server and its output lines.
struct Server {
    stdin: ChildStdin,
    lines: Receiver<String>,
    child: std::process::Child,
}

impl Server {
    fn start(root: &std::path::Path, state: &std::path::Path) -> Server {
        let (child, stdin, lines) = support::mcp::spawn_raw(root, state, &[], Stdio::piped());
        Server {
            stdin,
            lines,
            child,
        }
    }

    /// Send `bytes` as one line and return the answer.
    fn ask(&mut self, bytes: &[u8]) -> Value {
        self.stdin.write_all(bytes).expect("write");
        self.stdin.write_all(b"\n").expect("write");
        self.stdin.flush().expect("flush");
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answered within 60 s");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("answer not JSON ({e}): {line}"))
    }

    /// Close standard input and return what the server wrote on standard error.
    fn finish(mut self) -> String {
        drop(self.stdin);
        let mut stderr = String::new();
        if let Some(mut pipe) = self.child.stderr.take() {
            pipe.read_to_string(&mut stderr).expect("stderr");
        }
        let status = self.child.wait().expect("wait");
        assert!(status.success(), "{status}: {stderr}");
        stderr
    }
}

fn call(id: u64, params: &str) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{params}}}"#).into_bytes()
}

#[test]
fn every_malformed_message_is_answered_and_logged() {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    std::fs::write(root.path().join("a.txt"), "hi\n").expect("a.txt");
    let mut server = Server::start(root.path(), state.path());
    let init = server.ask(
        br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    );
    assert_eq!(init["result"]["serverInfo"]["name"], "hashline", "{init}");
    server
        .stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .expect("initialized");

    let deep = format!(
        r#"{{"name":"read","arguments":{{"path":{}1{}}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let mut big = call(
        7,
        r#"{"name":"write","arguments":{"path":"big","content":""#,
    );
    big.extend(std::iter::repeat_n(b'x', 16 * 1024 * 1024));
    big.extend_from_slice(b"\"}}}");
    // (line, id of the answer, JSON-RPC error code or the tool result's code, words of it)
    let cases: Vec<(Vec<u8>, Value, Value, &str)> = vec![
        (
            b"this is not json".to_vec(),
            Value::Null,
            json!(-32700),
            "not JSON",
        ),
        (
            call(3, r#"{"name":"read","arguments":{"path":"\ud800"}}"#),
            json!(3),
            json!(-32600),
            "lone surrogate",
        ),
        (call(4, &deep), json!(4), json!(-32600), "deeper than 128"),
        (big, json!(7), json!(-32600), "16777216 bytes (16 MiB)"),
        (
            call(5, r#"{"name":"read","arguments":"{\"path\":\"a.txt\"}"}"#),
            json!(5),
            json!("E_BAD_SHAPE"),
            "`arguments` is a string",
        ),
        (
            call(6, r#"{"name":"read","arguments":["a.txt"]}"#),
            json!(6),
            json!("E_BAD_SHAPE"),
            "`arguments` is an array",
        ),
        (
            call(8, r#"{"arguments":{"path":"a.txt"}}"#),
            json!(8),
            json!("E_BAD_SHAPE"),
            "`name` is missing",
        ),
    ];
    let count = cases.len();
    for (line, id, code, words) in cases {
        let answer = server.ask(&line);
        assert_eq!(answer["id"], id, "{answer}");
        let message = match &code {
            Value::String(_) => {
                assert_eq!(answer["result"]["isError"], true, "{answer}");
                assert_eq!(answer["result"]["structuredContent"]["code"], code);
                answer["result"]["content"][0]["text"].clone()
            }
            _ => {
                assert_eq!(answer["error"]["code"], code, "{answer}");
                answer["error"]["message"].clone()
            }
        };
        let message = message.as_str().unwrap_or_default().to_string();
        assert!(message.contains(words), "{words}: {message}");
    }

    // Still serving.
    let read = server.ask(&call(9, r#"{"name":"read","arguments":{"path":"a.txt"}}"#));
    assert_eq!(read["result"]["structuredContent"]["ok"], true, "{read}");
    assert!(!root.path().join("big").exists());

    let stderr = server.finish();
    let logged = stderr
        .lines()
        .filter(|l| l.starts_with("hashline mcp: answered a malformed"))
        .count();
    assert_eq!(logged, count, "one line per malformed message:\n{stderr}");
}
