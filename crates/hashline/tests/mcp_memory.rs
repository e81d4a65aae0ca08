//! A long-running `hashline mcp` holds memory flat: 10,000 tool calls (reads, edits, writes
//! over more paths than the session keeps, ast_edit previews discarded, refusals, bad
//! arguments), with the server's resident set size (`VmRSS`) after 1,000 and 10,000 calls.
//!
//! Slow in debug builds, so ignored by default:
//! `cargo test -p hashline --release --test mcp_memory -- --ignored --nocapture`.

mod support;

use serde_json::json;
use support::mcp::{call, connect, rss_kib, within, Client};

/// Step `n` of the mix: one or two calls on file `n / 8 % 40`; returns how many calls it made.
async fn one(client: &Client, n: usize) -> usize {
    let file = format!("f{}.js", n / 8 % 40);
    match n % 8 {
        0 => {
            let content = format!("function f() {{\n  console.log({n});\n}}\n");
            let a = call(client, "write", json!({"path": file, "content": content})).await;
            assert!(!a.is_error, "{}", a.text);
        }
        1 | 2 => {
            let a = call(client, "read", json!({"path": file})).await;
            assert!(!a.is_error, "{}", a.text);
            let header = a.text.lines().next().unwrap_or("").to_string();
            let patch = format!("{header}\nreplace 2..2:\n+  console.log({n}, \"edited\");\n");
            let e = call(client, "edit", json!({"patch": patch})).await;
            assert!(!e.is_error, "{}", e.text);
            return 2;
        }
        3 => {
            let a = call(client, "read", json!({"path": "missing.txt"})).await;
            assert_eq!(a.code(), Some("E_FILE_NOT_FOUND"));
        }
        4 => {
            let a = call(client, "edit", json!({"patch": "¶f0.js#0000\ndelete 1\n"})).await;
            assert!(a.is_error);
        }
        5 => {
            let a = call(
                client,
                "ast_edit",
                json!({"ops": [{"pat": "console.log($$$A)", "out": "log($$$A)"}], "paths": [file]}),
            )
            .await;
            assert!(a.json["preview"]["id"].is_number(), "{}", a.text);
            let d = call(client, "resolve", json!({"action": "discard"})).await;
            assert!(!d.is_error, "{}", d.text);
            return 2;
        }
        6 => {
            let a = call(client, "read", json!({"path": 7})).await;
            assert_eq!(a.code(), Some("E_BAD_SHAPE"));
        }
        _ => {
            let a = call(client, "resolve", json!({})).await;
            assert!(!a.is_error, "{}", a.text);
        }
    }
    1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "10,000 MCP calls: run with --ignored (release build recommended)"]
async fn rss_stays_flat_over_10000_calls() {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    let client = connect(root.path(), state.path(), "mcp-memory", &[]).await;
    let rss = || rss_kib(client.pid).expect("VmRSS of the server");
    let started = std::time::Instant::now();
    let mut calls = 0usize;
    let mut n = 0usize;
    let mut at = Vec::new();
    for checkpoint in [100usize, 1_000, 10_000] {
        while calls < checkpoint {
            calls += one(&client, n).await;
            n += 1;
        }
        at.push((calls, rss()));
        println!(
            "after {calls} calls: VmRSS {} KiB ({:.1?} elapsed)",
            rss(),
            started.elapsed()
        );
    }
    within(client.service.cancel()).await.expect("close");
    let (_, at_1k) = at[1];
    let (_, at_10k) = at[2];
    // Flat: the nine thousand calls after the first thousand add less than 8 MiB.
    assert!(
        at_10k < at_1k + 8 * 1024,
        "RSS grew from {at_1k} KiB to {at_10k} KiB between 1,000 and 10,000 calls"
    );
}
