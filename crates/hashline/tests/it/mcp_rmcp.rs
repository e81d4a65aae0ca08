//! `hashline mcp` end to end, driven as a child process by the `rmcp` client: the tool list,
//! read, edit, a stale edit refused with fresh anchors, an ast_edit previewed then resolved,
//! bad arguments answered with a clear error, each tool's refusal answered as a tool result
//! with the CLI's code and text (its next steps named as tool calls), and snapshots shared with CLI calls of the same session.

use crate::support;

use std::fs;
use std::path::Path;

use serde_json::json;
use support::cli::hashline;
use support::mcp::{call, connect, try_call, within, Answer};

const SESSION: &str = "mcp-e2e";

fn setup(files: &[(&str, &str)]) -> (tempfile::TempDir, tempfile::TempDir) {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    for (name, content) in files {
        fs::write(root.path().join(name), content).expect("write");
    }
    (root, state)
}

/// `hashline --session SESSION --json ARGS…` through the CLI.
fn cli(root: &Path, state: &Path, args: &[&str], stdin: &str) -> serde_json::Value {
    let mut full = vec!["--session", SESSION, "--json"];
    full.extend_from_slice(args);
    hashline(root, state, &full, stdin.as_bytes()).json()
}

/// The `¶PATH#TAG` header of a hashline read.
fn header(answer: &Answer) -> String {
    answer.text.lines().next().expect("header").to_string()
}

fn assert_ok(answer: &Answer) {
    assert!(!answer.is_error, "refused: {}", answer.text);
    assert_eq!(answer.json["ok"], true, "{}", answer.json);
}

fn assert_refused(answer: &Answer, code: &str) {
    assert!(answer.is_error, "not an error result: {}", answer.text);
    assert_eq!(answer.code(), Some(code), "{}", answer.text);
    // The structured content is the data, not a second copy of the text.
    assert!(answer.json.get("text").is_none(), "{}", answer.json);
}

const A: &str = "function greet(name) {\n  console.log(name);\n}\n\ngreet(\"x\");\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rmcp_client_scenario() {
    let (root, state) = setup(&[("a.js", A), ("b.txt", "one\ntwo\nthree\n")]);
    let (root, state) = (root.path(), state.path());
    let client = connect(root, state, SESSION, &[]).await;

    // The tool list: six flat, typed tools with annotations.
    let tools = within(client.service.list_all_tools())
        .await
        .expect("tools/list");
    let mut names: Vec<_> = tools.iter().map(|t| t.name.to_string()).collect();
    names.sort();
    assert_eq!(
        names,
        ["ast_edit", "edit", "read", "resolve", "undo", "write"]
    );
    for tool in &tools {
        assert_eq!(tool.input_schema["type"], "object", "{}", tool.name);
        assert!(tool.input_schema.get("anyOf").is_none());
        let hints = tool.annotations.as_ref().expect("annotations");
        assert_eq!(
            hints.read_only_hint,
            Some(tool.name == "read"),
            "{}",
            tool.name
        );
        assert!(hints.destructive_hint.is_some() && hints.idempotent_hint.is_some());
    }
    let edit_tool = tools.iter().find(|t| t.name == "edit").expect("edit");
    let description = edit_tool.description.as_deref().unwrap_or("");
    assert!(description.contains("++text") && description.contains("+-text"));

    // read, then edit with its anchors.
    let read = call(&client, "read", json!({"path": "b.txt"})).await;
    assert_ok(&read);
    assert!(read.text.contains("2:two"), "{}", read.text);
    let old_header = header(&read);
    let patch = format!("{old_header}\nreplace 2..2:\n+TWO\n");
    let edit = call(&client, "edit", json!({"patch": patch})).await;
    assert_ok(&edit);
    assert_eq!(edit.json["files"][0]["written"], true);
    assert_eq!(
        fs::read_to_string(root.join("b.txt")).expect("b"),
        "one\nTWO\nthree\n"
    );

    // A stale edit: line 2 changed on disk since that read; an edit of line 2 against the old
    // read cannot be carried over and is refused with fresh anchors; nothing is written.
    fs::write(root.join("b.txt"), "one\nzwei\nthree\n").expect("external change");
    let stale = format!("{old_header}\nreplace 2..2:\n+deux\n");
    let refused = call(&client, "edit", json!({"patch": stale})).await;
    assert_refused(&refused, "E_STALE_ANCHOR");
    assert!(refused.text.contains("zwei"), "{}", refused.text);
    assert_eq!(
        fs::read_to_string(root.join("b.txt")).expect("b"),
        "one\nzwei\nthree\n"
    );

    // Snapshots are the session's: a CLI read's header works in an MCP edit, and an MCP read's
    // header in a CLI edit.
    let cli_read = cli(root, state, &["read", "b.txt"], "");
    let cli_header = cli_read["text"]
        .as_str()
        .and_then(|t| t.lines().next())
        .expect("header")
        .to_string();
    let via_mcp = call(
        &client,
        "edit",
        json!({"patch": format!("{cli_header}\ninsert tail:\n+four\n")}),
    )
    .await;
    assert_ok(&via_mcp);
    let mcp_read = call(&client, "read", json!({"path": "b.txt"})).await;
    let via_cli = cli(
        root,
        state,
        &["edit"],
        &format!("{}\ninsert head:\n+zero\n", header(&mcp_read)),
    );
    assert_eq!(via_cli["ok"], true, "{via_cli}");
    assert_eq!(
        fs::read_to_string(root.join("b.txt")).expect("b"),
        "zero\none\nzwei\nthree\nfour\n"
    );

    // ast_edit previews (nothing written), resolve applies.
    let preview = call(
        &client,
        "ast_edit",
        json!({"ops": [{"pat": "console.log($A)", "out": "logger.info($A)"}], "paths": ["a.js"]}),
    )
    .await;
    assert_ok(&preview);
    assert!(
        preview.text.contains("logger.info(name)"),
        "{}",
        preview.text
    );
    assert_eq!(fs::read_to_string(root.join("a.js")).expect("a"), A);
    let id = preview.json["preview"]["id"].as_i64().expect("queued id");
    let applied = call(&client, "resolve", json!({"action": "apply", "id": id})).await;
    assert_ok(&applied);
    assert!(
        applied.text.starts_with("Applied 1 replacement"),
        "{}",
        applied.text
    );
    assert!(fs::read_to_string(root.join("a.js"))
        .expect("a")
        .contains("logger.info(name);"));

    // write, with the dialect chosen per call.
    let written = call(
        &client,
        "write",
        json!({"path": "c.txt", "content": "x\ny\n", "dialect": "lineid-json"}),
    )
    .await;
    assert_ok(&written);
    assert!(written.text.starts_with("1#"), "{}", written.text);

    // Bad arguments: clear E_BAD_SHAPE results naming the problem, never a protocol failure.
    let missing = call(&client, "read", json!({})).await;
    assert_refused(&missing, "E_BAD_SHAPE");
    assert!(
        missing.text.contains("missing field `path`"),
        "{}",
        missing.text
    );
    let mistyped = call(&client, "edit", json!({"patch": ["a"]})).await;
    assert_refused(&mistyped, "E_BAD_SHAPE");
    assert!(
        mistyped.text.contains("`patch` is an array"),
        "{}",
        mistyped.text
    );
    let unknown = call(
        &client,
        "write",
        json!({"path": "d", "content": "", "mode": 1}),
    )
    .await;
    assert_refused(&unknown, "E_BAD_SHAPE");
    assert!(
        unknown.text.contains("unknown field `mode`"),
        "{}",
        unknown.text
    );
    let no_args = try_call(&client, "resolve", serde_json::Value::Null).await;
    assert!(
        no_args.is_ok(),
        "resolve without arguments lists: {no_args:?}"
    );
    let no_tool = call(&client, "rm", json!({})).await;
    assert_refused(&no_tool, "E_BAD_SHAPE");

    // Each tool's refusal is a result with the CLI's code and text.
    let refusals = [
        (
            "read",
            json!({"path": "missing.txt"}),
            vec!["read", "missing.txt"],
            "",
            "E_FILE_NOT_FOUND",
        ),
        (
            "read",
            json!({"path": "b.txt", "offset": 0}),
            vec!["read", "b.txt", "--offset", "0"],
            "",
            "E_BAD_SHAPE",
        ),
        (
            "edit",
            json!({"patch": "replace 1..1:\n+x\n"}),
            vec!["edit"],
            "replace 1..1:\n+x\n",
            "E_PARSE",
        ),
        (
            "write",
            json!({"path": "../out.txt", "content": "x"}),
            vec!["write", "../out.txt"],
            "x",
            "E_OUTSIDE_ROOT",
        ),
        (
            "ast_edit",
            json!({"ops": [{"pat": "x", "out": "y"}], "paths": ["b.txt"]}),
            vec!["ast-edit", "--pat", "x", "--out", "y", "b.txt"],
            "",
            "E_UNSUPPORTED_LANGUAGE",
        ),
        (
            "resolve",
            json!({"action": "apply", "id": 999}),
            vec!["resolve", "apply", "999"],
            "",
            "E_NO_PREVIEW",
        ),
    ];
    for (tool, args, cli_args, stdin, code) in refusals {
        let answer = call(&client, tool, args).await;
        assert_refused(&answer, code);
        let by_cli = cli(root, state, &cli_args, stdin);
        assert_eq!(by_cli["code"], code, "{tool}: {by_cli}");
        // The same text, but for the next steps the CLI phrases as command lines, which MCP
        // names as tool calls.
        let cli_text = by_cli["text"].as_str().unwrap_or_default();
        if cli_text.contains("`hashline ") {
            let first = cli_text.split(". ").next().unwrap_or_default();
            assert!(answer.text.starts_with(first), "{tool}: {}", answer.text);
            assert!(
                !answer.text.contains("`hashline "),
                "{tool}: {}",
                answer.text
            );
        } else {
            // A refused call that writes adds that nothing was written, if it does not say so.
            let said = answer.text.strip_suffix("\nNothing was written.");
            assert_eq!(cli_text, said.unwrap_or(&answer.text), "{tool}");
        }
    }

    // A stale preview is refused at resolve time, as a result; nothing is written.
    let preview = call(
        &client,
        "ast_edit",
        json!({"ops": [{"pat": "greet($A)", "out": "hello($A)"}], "paths": ["a.js"]}),
    )
    .await;
    assert_ok(&preview);
    fs::write(root.join("a.js"), "greet(1);\n").expect("external change");
    let stale = call(&client, "resolve", json!({"action": "apply"})).await;
    assert_refused(&stale, "E_STALE_PREVIEW");
    assert_eq!(
        fs::read_to_string(root.join("a.js")).expect("a"),
        "greet(1);\n"
    );

    // Still serving after every refusal.
    let again = call(&client, "read", json!({"path": "a.js"})).await;
    assert_ok(&again);
    within(client.service.cancel()).await.expect("close");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_dialect_option_sets_anchors_and_patch_language() {
    let (root, state) = setup(&[("a.txt", "x\ny\n")]);
    let client = connect(
        root.path(),
        state.path(),
        SESSION,
        &["--dialect", "hash-json"],
    )
    .await;
    let read = call(&client, "read", json!({"path": "a.txt"})).await;
    assert_ok(&read);
    let hash = read
        .text
        .lines()
        .find(|l| l.ends_with(":y"))
        .and_then(|l| l.split(':').next())
        .expect("hash of y")
        .to_string();
    let request = json!({"path": "a.txt", "edits": [{"op": "replace", "start": hash, "end": hash, "lines": ["Y"]}]});
    let edit = call(&client, "edit", json!({"patch": request.to_string()})).await;
    assert_ok(&edit);
    assert_eq!(
        fs::read_to_string(root.path().join("a.txt")).expect("a"),
        "x\nY\n"
    );
    within(client.service.cancel()).await.expect("close");
}
