//! Every dialect's edit reply over MCP shows, in its text, what the model needs next (issue 26
//! item 3): the fresh anchors of the changed line in the dialect's own form, and every warning.

use crate::support;

use std::fs;

use serde_json::{json, Value};
use support::mcp::{call, connect, within, Answer, Client};

/// The row that `read` in `dialect` shows for line `n` of `path`, and the first line (the
/// hashline header, or the first row).
async fn read_row(client: &Client, path: &str, dialect: &str, n: usize) -> (String, String) {
    let read = call(client, "read", json!({"path": path, "dialect": dialect})).await;
    assert!(!read.is_error, "{}", read.text);
    let header = read.text.lines().next().unwrap_or_default().to_string();
    let row = read
        .text
        .lines()
        .filter(|l| !l.starts_with('\u{b6}'))
        .nth(n - 1)
        .unwrap_or_else(|| panic!("no row {n} in {}", read.text))
        .to_string();
    (header, row)
}

/// The structured anchor rows of `answer`'s first file.
fn structured_rows(answer: &Answer) -> Vec<String> {
    answer.json["files"][0]["anchors"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|region| region["rows"].as_array().cloned().unwrap_or_default())
        .filter_map(|row| row.as_str().map(str::to_owned))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_dialects_edit_reply_shows_the_fresh_anchor_of_the_changed_line() {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    let dialects = [
        "hashline",
        "hash-json",
        "lineid-json",
        "str-replace",
        "apply-patch",
    ];
    for d in dialects {
        fs::write(root.path().join(format!("{d}.txt")), "alpha\nbeta\ngamma\n").expect("write");
    }
    let client = connect(root.path(), state.path(), "edit-replies", &[]).await;
    for d in dialects {
        let path = format!("{d}.txt");
        let new = format!("BETA-{d}");
        let (header, row) = read_row(&client, &path, d, 2).await;
        let hash = row.split(':').next().unwrap_or_default();
        let lineid = row.split('|').next().unwrap_or_default();
        let args = match d {
            "hashline" => json!({"patch": format!("{header}\nreplace 2..2:\n+{new}\n")}),
            "hash-json" => json!({"request": {"path": path, "edits": [
                {"op": "replace", "start": hash, "end": hash, "lines": [new]}]}}),
            "lineid-json" => json!({"request": {"filePath": path, "edits": [
                {"op": "replace", "pos": lineid, "lines": [new]}]}}),
            "str-replace" => json!({"request": {"command": "str_replace", "path": path,
                "old_str": "beta", "new_str": new}}),
            _ => json!({"patch": format!(
                "*** Begin Patch\n*** Update File: {path}\n@@\n alpha\n-beta\n+{new}\n gamma\n*** End Patch\n"
            )}),
        };
        let answer = call(&client, "edit", args).await;
        assert!(!answer.is_error, "{d}: {}", answer.text);
        let text = &answer.text;
        // The structured anchor row of the new line, in the dialect's form, is in the text.
        let rows = structured_rows(&answer);
        let changed = rows
            .iter()
            .find(|r| r.contains(&new))
            .unwrap_or_else(|| panic!("{d}: no structured anchor of the new line: {rows:?}"));
        assert!(
            text.lines().any(|l| l.ends_with(changed.as_str())),
            "{d}: the reply text lacks the fresh anchor `{changed}`:\n{text}"
        );
        // The anchor the next read shows for the line is the one the reply showed.
        let (fresh_header, fresh_row) = read_row(&client, &path, d, 2).await;
        match d {
            "hashline" => {
                assert!(text.contains(&fresh_header), "{d}: {text}");
                assert!(text.contains(&fresh_row), "{d}: {text}");
            }
            "hash-json" | "lineid-json" => assert!(
                text.lines().any(|l| l == fresh_row),
                "{d}: `{fresh_row}` not in:\n{text}"
            ),
            "str-replace" => assert!(text.contains(&format!("2\t{new}")), "{d}: {text}"),
            _ => assert!(text.lines().any(|l| l == new), "{d}: {text}"),
        }
    }
    within(client.service.cancel()).await.expect("close");
}

/// A lineid-json edit of a file changed on disk since it was read warns, and the warning is in
/// the text, not only in the structured result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_warning_is_in_the_text() {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    let file = root.path().join("w.txt");
    fs::write(&file, "one\ntwo\nthree\n").expect("write");
    let client = connect(root.path(), state.path(), "edit-warnings", &[]).await;
    let (_, row) = read_row(&client, "w.txt", "lineid-json", 2).await;
    fs::write(&file, "zero\none\ntwo\nthree\n").expect("outside change");
    let lineid = row.split('|').next().unwrap_or_default();
    let args = json!({"request": {"filePath": "w.txt", "edits": [
        {"op": "replace", "pos": lineid, "lines": ["TWO"]}]}});
    let answer = call(&client, "edit", args).await;
    assert!(!answer.is_error, "{}", answer.text);
    let warnings: Vec<&str> = answer.json["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    assert!(!warnings.is_empty(), "no warning: {}", answer.json);
    for w in warnings {
        let first = w.lines().next().unwrap_or_default();
        assert!(
            answer.text.contains(first),
            "warning `{w}` not in the text:\n{}",
            answer.text
        );
    }
    within(client.service.cancel()).await.expect("close");
}
