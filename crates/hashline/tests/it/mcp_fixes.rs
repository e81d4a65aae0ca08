//! Over MCP every next step a reply proposes is a tool call that works: each refusal that
//! proposes a fix is triggered, the fix is read out of the reply text (a tool name and its
//! JSON arguments, never a command line) and sent, and the server accepts it.

use crate::support;

use std::fs;

use serde_json::{json, Value};
use support::mcp::{call, connect, within, Answer, Client};

/// What no MCP reply may show: a command line or a CLI flag.
const CLI_MARKS: &[&str] = &[
    "`hashline ",
    "(CLI)",
    "--as-sent",
    "--allow-syntax-errors",
    "--only",
    "--overwrite",
    "Use :",
    "Use offset=",
];

/// `call`, checking that the reply names no command line.
async fn ask(client: &Client, tool: &str, args: Value) -> Answer {
    let answer = call(client, tool, args).await;
    for mark in CLI_MARKS {
        assert!(
            !answer.text.contains(mark),
            "{tool}: the reply shows `{mark}`:\n{}",
            answer.text
        );
    }
    answer
}

/// The JSON object that follows `` `tool` with `` in `text`.
fn proposed(text: &str, tool: &str) -> Value {
    let marker = format!("`{tool}` with ");
    let at = text
        .find(&marker)
        .unwrap_or_else(|| panic!("no `{tool}` call proposed:\n{text}"));
    let rest = &text[at + marker.len()..];
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
    stream
        .next()
        .and_then(Result::ok)
        .unwrap_or_else(|| panic!("not a JSON object after `{marker}`: {rest}"))
}

/// `args` with `"allowSyntaxErrors": true`, after checking that `text` proposes it.
fn allowing(text: &str, tool: &str, mut args: Value) -> Value {
    assert!(
        text.contains(&format!("`{tool}`")) && text.contains("\"allowSyntaxErrors\": true"),
        "no allowSyntaxErrors fix proposed:\n{text}"
    );
    args["allowSyntaxErrors"] = json!(true);
    args
}

fn refused(answer: &Answer, code: &str) {
    assert!(answer.is_error, "not refused: {}", answer.text);
    assert_eq!(answer.code(), Some(code), "{}", answer.text);
    assert!(
        answer.text.contains("Nothing was") || answer.text.contains("nothing was"),
        "{code}: a refusal says that nothing was written:\n{}",
        answer.text
    );
}

fn accepted(answer: &Answer) {
    assert!(!answer.is_error, "refused: {}", answer.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_proposed_fix_is_accepted_when_sent() {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    let r = root.path();
    fs::write(r.join("a.js"), "function f(x) {\n  return x;\n}\n").expect("a.js");
    fs::write(r.join("b.py"), "def f():\n    x = 1\n    return x\n").expect("b.py");
    fs::write(r.join("c.txt"), "one\ntwo\nthree\nfour\nfive\n").expect("c.txt");
    fs::write(r.join("d.txt"), "unseen\n").expect("d.txt");
    let client = connect(r, state.path(), "fixes", &[]).await;

    // E_SYNTAX_INTRODUCED (edit): resend with allowSyntaxErrors.
    let read = ask(&client, "read", json!({"path": "a.js"})).await;
    let header = read.text.lines().next().expect("header").to_string();
    let args = json!({"patch": format!("{header}\nreplace 2..2:\n+  return (x;\n")});
    let answer = ask(&client, "edit", args.clone()).await;
    refused(&answer, "E_SYNTAX_INTRODUCED");
    accepted(&ask(&client, "edit", allowing(&answer.text, "edit", args)).await);
    assert!(fs::read_to_string(r.join("a.js"))
        .expect("a.js")
        .contains("return (x;"));

    // E_INDENTATION (edit): rows indented unlike their block; resend with allowSyntaxErrors.
    let read = ask(&client, "read", json!({"path": "b.py"})).await;
    let header = read.text.lines().next().expect("header").to_string();
    let args = json!({"patch": format!("{header}\nreplace 2..2:\n+  x = 2\n")});
    let answer = ask(&client, "edit", args.clone()).await;
    assert!(answer.is_error, "{}", answer.text);
    refused(&answer, answer.code().unwrap_or_default());
    accepted(&ask(&client, "edit", allowing(&answer.text, "edit", args)).await);

    // E_PAYLOAD_CONTAMINATED (edit): read rows pasted as content.
    let read = ask(&client, "read", json!({"path": "c.txt"})).await;
    let header = read.text.lines().next().expect("header").to_string();
    let args = json!({"patch": format!("{header}\nreplace 2..3:\n+2:TWO\n+3:THREE\n")});
    let answer = ask(&client, "edit", args.clone()).await;
    refused(&answer, "E_PAYLOAD_CONTAMINATED");
    accepted(&ask(&client, "edit", allowing(&answer.text, "edit", args)).await);

    // E_NOT_READ (write): "overwrite": true.
    let args = json!({"path": "d.txt", "content": "seen\n"});
    let answer = ask(&client, "write", args.clone()).await;
    refused(&answer, "E_NOT_READ");
    assert!(
        answer.text.contains("\"overwrite\": true"),
        "{}",
        answer.text
    );
    let mut fixed = args;
    fixed["overwrite"] = json!(true);
    accepted(&ask(&client, "write", fixed).await);

    // A paged read: the footer names the next offset.
    let page = ask(&client, "read", json!({"path": "c.txt", "limit": 2})).await;
    accepted(&page);
    let offset = page
        .text
        .split("\"offset\": ")
        .nth(1)
        .and_then(|t| t.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no offset proposed:\n{}", page.text));
    let next = ask(&client, "read", json!({"path": "c.txt", "offset": offset})).await;
    accepted(&next);
    assert!(next.text.contains("3:THREE"), "{}", next.text);

    // ast_edit that would break the syntax: resend with allowSyntaxErrors.
    let args = json!({"ops": [{"pat": "return $X;", "out": "return ($X;"}], "paths": ["a.js"]});
    fs::write(r.join("a.js"), "function f(x) {\n  return x;\n}\n").expect("a.js");
    let answer = ask(&client, "ast_edit", args.clone()).await;
    refused(&answer, "E_SYNTAX_INTRODUCED");
    let preview = ask(
        &client,
        "ast_edit",
        allowing(&answer.text, "ast_edit", args),
    )
    .await;
    accepted(&preview);

    // The preview proposes `resolve` calls: apply only some matches, then the rest.
    fs::write(r.join("e.js"), "f(1);\nf(2);\n").expect("e.js");
    let preview = ask(
        &client,
        "ast_edit",
        json!({"ops": [{"pat": "f($A)", "out": "g($A)"}], "paths": ["e.js"]}),
    )
    .await;
    accepted(&preview);
    let mut apply = proposed(&preview.text, "resolve");
    assert_eq!(apply["action"], "apply", "{apply}");
    apply["only"] = json!(["1:1"]);
    let partial = ask(&client, "resolve", apply).await;
    accepted(&partial);
    assert_eq!(
        fs::read_to_string(r.join("e.js")).expect("e"),
        "g(1);\nf(2);\n"
    );
    let rest = ask(&client, "resolve", proposed(&partial.text, "resolve")).await;
    accepted(&rest);
    assert_eq!(
        fs::read_to_string(r.join("e.js")).expect("e"),
        "g(1);\ng(2);\n"
    );

    // The list of previews, and a missing preview, propose `resolve` calls too.
    let missing = ask(&client, "resolve", json!({"action": "apply", "id": 99})).await;
    refused_plain(&missing, "E_NO_PREVIEW");
    accepted(&ask(&client, "resolve", proposed(&missing.text, "resolve")).await);

    // undo: list, then undo the last call by its id.
    let list = ask(&client, "undo", json!({})).await;
    accepted(&list);
    let undone = ask(&client, "undo", json!({"action": "undo"})).await;
    accepted(&undone);
    assert_eq!(
        fs::read_to_string(r.join("e.js")).expect("e"),
        "g(1);\nf(2);\n"
    );

    within(client.service.cancel()).await.expect("close");
}

/// A refusal of a call that writes nothing by nature (no "Nothing was written" needed).
fn refused_plain(answer: &Answer, code: &str) {
    assert!(answer.is_error, "not refused: {}", answer.text);
    assert_eq!(answer.code(), Some(code), "{}", answer.text);
}

/// `edit` without `dialect` detects the patch's form: a V4A patch and a str-replace request (as
/// the object `request`) land as sent, and the schema lists every front end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edit_detects_every_front_end_the_schema_lists() {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    let r = root.path();
    fs::write(r.join("a.py"), "def f():\n    return 1\n").expect("a.py");
    let client = connect(r, state.path(), "detect", &[]).await;

    let tools = within(client.service.list_all_tools()).await.expect("list");
    let edit = tools.iter().find(|t| t.name == "edit").expect("edit");
    let dialect = &edit.input_schema["properties"]["dialect"];
    assert_eq!(
        dialect["enum"],
        json!([
            "auto",
            "hashline",
            "hash-json",
            "lineid-json",
            "str-replace",
            "apply-patch"
        ])
    );
    assert_eq!(dialect["default"], "auto");

    ask(&client, "read", json!({"path": "a.py"})).await;
    let v4a = "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    return 2\n*** End Patch\n";
    accepted(&ask(&client, "edit", json!({"patch": v4a})).await);
    assert_eq!(
        fs::read_to_string(r.join("a.py")).expect("a.py"),
        "def f():\n    return 2\n"
    );
    let request = json!({"command": "str_replace", "path": "a.py", "old_str": "return 2", "new_str": "return 3"});
    accepted(&ask(&client, "edit", json!({"request": request})).await);
    assert_eq!(
        fs::read_to_string(r.join("a.py")).expect("a.py"),
        "def f():\n    return 3\n"
    );

    // A patch in a Markdown fence lands, with a coded warning; a refused two-file patch
    // says that nothing was written.
    let read = ask(&client, "read", json!({"path": "a.py"})).await;
    let header = read.text.lines().next().expect("header").to_string();
    let fenced = format!("```diff\n{header}\nreplace 2..2:\n+    return 4\n```\n");
    let landed = ask(&client, "edit", json!({"patch": fenced})).await;
    accepted(&landed);
    assert!(
        landed.text.contains("[W_FENCE_STRIPPED]"),
        "{}",
        landed.text
    );
    assert!(landed.json["warnings"]
        .as_array()
        .is_some_and(|w| w.iter().any(|w| w
            .as_str()
            .is_some_and(|w| w.starts_with("[W_FENCE_STRIPPED]")))));
    assert_eq!(
        fs::read_to_string(r.join("a.py")).expect("a.py"),
        "def f():\n    return 4\n"
    );
    let two = "*** Begin Patch\n*** Update File: a.py\n@@\n-    return 4\n+    return 5\n*** Update File: missing.py\n@@\n-x\n+y\n*** End Patch\n";
    let answer = ask(&client, "edit", json!({"patch": two})).await;
    assert!(answer.is_error, "{}", answer.text);
    assert!(
        answer.text.contains("Nothing was written"),
        "{}",
        answer.text
    );
    assert_eq!(
        fs::read_to_string(r.join("a.py")).expect("a.py"),
        "def f():\n    return 4\n"
    );
    within(client.service.cancel()).await.expect("close");
}
