//! The syntax guard (`E_SYNTAX_INTRODUCED`) through the real binary: an edit that adds a syntax
//! error is refused and leaves the root byte-identical; `--allow-syntax-errors` (or the JSON
//! dialects' `"allowSyntaxErrors": true`) lets the same edit land; ast-edit refuses such a
//! rewrite and queues nothing.

use crate::support;

use std::fs;

use support::sandbox::Sandbox;
use support::tree::snapshot;

const TS: &str = "function f(x: number) {\n  if (x > 1) {\n    y();\n  }\n  z();\n}\n";
const BROKEN: &str = "function f(x: number) {\n  if (x > 1) {\n    y(;\n  }\n  z();\n}\n";

/// A sandbox holding `a.ts` = [`TS`], read with `anchors`; returns the read output's lines.
fn read_with(anchors: &str) -> (Sandbox, Vec<String>) {
    let sb = Sandbox::new();
    sb.put("a.ts", TS.as_bytes());
    let r = sb.run(&["read", "a.ts", "--anchors", anchors], b"");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let lines = r.stdout.lines().map(str::to_string).collect();
    (sb, lines)
}

fn file(sb: &Sandbox) -> String {
    fs::read_to_string(sb.root.join("a.ts")).expect("read a.ts")
}

#[test]
fn a_hashline_edit_that_breaks_the_syntax_is_refused_and_the_flag_lets_it_land() {
    let (sb, lines) = read_with("tag");
    let patch = format!("{}\nreplace 3..3:\n+    y(;\n", lines[0]);
    let before = snapshot(&sb.root);
    let r = sb.run(&["edit"], patch.as_bytes());
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .starts_with("[E_SYNTAX_INTRODUCED] a.ts: the edit would add a syntax error at 3:"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains(">3|    y(;"), "{}", r.stdout);
    assert!(r.stdout.contains("--allow-syntax-errors"), "{}", r.stdout);
    assert_eq!(
        snapshot(&sb.root),
        before,
        "a refusal leaves the root untouched"
    );
    assert_eq!(file(&sb), TS);

    let r = sb.run(&["--json", "edit"], patch.as_bytes());
    assert_eq!(r.json()["code"], "E_SYNTAX_INTRODUCED");

    let r = sb.run(&["edit", "--allow-syntax-errors"], patch.as_bytes());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(file(&sb), BROKEN);
}

#[test]
fn a_correct_edit_passes_the_guard() {
    let (sb, lines) = read_with("tag");
    let patch = format!("{}\nreplace 3..3:\n+    y(x);\n", lines[0]);
    let r = sb.run(&["edit"], patch.as_bytes());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(file(&sb), TS.replace("y();", "y(x);"));
}

/// Sends a JSON request `{"<path_key>":"a.ts",<edits>}` in `dialect`: it is refused and the file
/// stays [`TS`]; the same request with `"allowSyntaxErrors": true` lands and leaves [`BROKEN`].
fn json_request_takes_allow_syntax_errors(
    sb: &Sandbox,
    dialect: &str,
    path_key: &str,
    edits: &str,
) {
    let refused = format!(r#"{{"{path_key}":"a.ts",{edits}}}"#);
    let r = sb.run(&["edit", "--dialect", dialect], refused.as_bytes());
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("[E_SYNTAX_INTRODUCED]"), "{}", r.stdout);
    assert_eq!(file(sb), TS);
    let allowed = format!(r#"{{"{path_key}":"a.ts","allowSyntaxErrors":true,{edits}}}"#);
    let r = sb.run(&["edit", "--dialect", dialect], allowed.as_bytes());
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(file(sb), BROKEN);
}

#[test]
fn hash_json_takes_allow_syntax_errors_from_the_request() {
    let (sb, lines) = read_with("hash");
    let hash = lines[2].split(':').next().expect("hash");
    let edits = format!(
        r#""edits":[{{"op":"replace","start":"{hash}","end":"{hash}","lines":["    y(;"]}}]"#
    );
    json_request_takes_allow_syntax_errors(&sb, "hash-json", "path", &edits);
}

#[test]
fn lineid_json_takes_allow_syntax_errors_from_the_request() {
    let (sb, lines) = read_with("lineid");
    let id = lines[2].split('|').next().expect("id");
    let edits = format!(r#""edits":[{{"op":"replace","pos":"{id}","lines":["    y(;"]}}]"#);
    json_request_takes_allow_syntax_errors(&sb, "lineid-json", "filePath", &edits);
}

#[test]
fn an_ast_edit_that_breaks_the_syntax_queues_nothing() {
    let sb = Sandbox::new();
    sb.put("a.ts", TS.as_bytes());
    let args = ["--json", "ast-edit", "--pat", "y()", "--out", "y(", "a.ts"];
    let r = sb.run(&args, b"");
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let json = r.json();
    assert_eq!(json["code"], "E_SYNTAX_INTRODUCED");
    let text = json["text"].as_str().expect("text");
    assert!(
        text.starts_with("[E_SYNTAX_INTRODUCED] a.ts: the rewrite would add a syntax error at 3:"),
        "{text}"
    );
    let listed = sb.run(&["--json", "resolve"], b"");
    assert_eq!(listed.json()["resolve"]["pending"], serde_json::json!([]));

    let mut allowed = args.to_vec();
    allowed.insert(2, "--allow-syntax-errors");
    let r = sb.run(&allowed, b"");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let r = sb.run(&["resolve", "apply"], b"");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(file(&sb), TS.replace("y();", "y(;"));
}
