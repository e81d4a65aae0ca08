//! Chained edits over MCP (issue 13 item 3): the structured result of `edit` carries the fresh
//! anchors of the changed region (`files[].anchors`), the text shows them after the seed's, and a lineid-json
//! result whose anchors were shown is recorded, so an edit with them chains — even when the new
//! line's 8-bit ID equals the one the read showed for the line it replaced. `write` over a
//! file the session never read is refused there as on the CLI (`E_NOT_READ`).

use crate::support;

use std::fs;

use serde_json::{json, Value};
use support::mcp::{call, connect, within};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lineid_edits_chain_on_the_structured_anchors() {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    // `s{k}` whose ID at line 2 collides with `q`'s: only a recorded result lets it chain.
    let id = hashline_anchor::lineid::line_id(2, "q");
    let twin = (0..100_000)
        .map(|k| format!("s{k}"))
        .find(|s| hashline_anchor::lineid::line_id(2, s) == id)
        .expect("a colliding ID");
    fs::write(root.path().join("f.txt"), "p\nq\nr\n").expect("write");
    let client = connect(
        root.path(),
        state.path(),
        "mcp-anchors",
        &["--dialect", "lineid-json"],
    )
    .await;
    let read = call(&client, "read", json!({"path": "f.txt"})).await;
    assert!(read.text.contains(&format!("2#{id}|q")), "{}", read.text);
    let request = |with: &str| {
        json!({"filePath": "f.txt", "edits": [{"op": "replace", "pos": format!("2#{id}"), "lines": [with]}]})
            .to_string()
    };
    let first = call(&client, "edit", json!({"patch": request(&twin)})).await;
    assert!(!first.is_error, "{}", first.text);
    // The text shows the fresh anchors too (issue 26 item 3), after the seed's line.
    assert!(
        first
            .text
            .starts_with("Updated f.txt\n\n--- Anchors f.txt lines ")
            && first.text.contains(&format!("\n2#{id}|{twin}")),
        "{}",
        first.text
    );
    let rows: Vec<&str> = first.json["files"][0]["anchors"][0]["rows"]
        .as_array()
        .expect("anchors in the structured result")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        rows.contains(&format!("2#{id}|{twin}").as_str()),
        "{rows:?}"
    );
    let second = call(&client, "edit", json!({"patch": request("Z")})).await;
    assert!(!second.is_error, "{}", second.text);
    assert_eq!(
        fs::read_to_string(root.path().join("f.txt")).expect("read"),
        "p\nZ\nr\n"
    );
    within(client.service.cancel()).await.expect("close");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn write_replaces_only_a_file_the_session_read() {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    fs::write(root.path().join("old.txt"), "precious\n").expect("write");
    let client = connect(root.path(), state.path(), "mcp-write", &[]).await;
    let refused = call(
        &client,
        "write",
        json!({"path": "old.txt", "content": "clobbered\n"}),
    )
    .await;
    assert!(refused.is_error, "{}", refused.text);
    assert_eq!(refused.code(), Some("E_NOT_READ"));
    assert_eq!(
        fs::read_to_string(root.path().join("old.txt")).expect("read"),
        "precious\n"
    );
    call(&client, "read", json!({"path": "old.txt"})).await;
    let ok = call(
        &client,
        "write",
        json!({"path": "old.txt", "content": "replaced\n"}),
    )
    .await;
    assert!(!ok.is_error, "{}", ok.text);
    assert_eq!(
        fs::read_to_string(root.path().join("old.txt")).expect("read"),
        "replaced\n"
    );
    // `overwrite: true` replaces a file the session never read.
    fs::write(root.path().join("other.txt"), "unseen\n").expect("write");
    let forced = call(
        &client,
        "write",
        json!({"path": "other.txt", "content": "forced\n", "overwrite": true}),
    )
    .await;
    assert!(!forced.is_error, "{}", forced.text);
    assert_eq!(
        fs::read_to_string(root.path().join("other.txt")).expect("read"),
        "forced\n"
    );
    within(client.service.cancel()).await.expect("close");
}
