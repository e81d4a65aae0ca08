//! Every command's `--json` object, through the real binary, against the documented shape:
//! `docs/json-schema.json` (validated with the `jsonschema` crate; every object closed with
//! `unevaluatedProperties: false`, so an undocumented field fails), every field of it named in
//! `docs/JSON.md`, and every exit path (0, 1 and 2) printing exactly one object.

use crate::support;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use support::cli::{hashline, Run};

fn docs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs")
}

/// The MCP server embeds a copy of the schema that lives inside the crate (an `include_str!`
/// may not reach outside a packaged crate): it must be the documented one, byte for byte.
#[test]
fn the_crates_copy_of_the_schema_is_the_documented_one() {
    let docs_copy = fs::read(docs().join("json-schema.json")).expect("docs/json-schema.json");
    let crate_copy = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/json-schema.json");
    let crate_copy = fs::read(&crate_copy).expect("crates/hashline/schema/json-schema.json");
    assert!(
        docs_copy == crate_copy,
        "docs/json-schema.json and crates/hashline/schema/json-schema.json differ: copy the \
         documented one over the crate's"
    );
}

fn schema() -> Value {
    let text = fs::read_to_string(docs().join("json-schema.json")).expect("docs/json-schema.json");
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// The schema of one command's object: the file's `$defs` with `$ref` to `$defs/<def>`.
fn schema_of(full: &Value, def: &str) -> Value {
    assert!(full["$defs"].get(def).is_some(), "no $defs/{def}");
    json!({
        "$schema": full["$schema"],
        "$defs": full["$defs"],
        "$ref": format!("#/$defs/{def}"),
    })
}

/// One call checked: its exit code, then its stdout as one object of `$defs/<def>`.
struct Checker {
    root: tempfile::TempDir,
    state: tempfile::TempDir,
    schema: Value,
    seen: BTreeSet<String>,
}

impl Checker {
    fn new(files: &[(&str, &str)]) -> Checker {
        let root = tempfile::tempdir().expect("root");
        let state = tempfile::tempdir().expect("state");
        for (name, content) in files {
            fs::write(root.path().join(name), content).expect("write");
        }
        Checker {
            root,
            state,
            schema: schema(),
            seen: BTreeSet::new(),
        }
    }

    /// `hashline --json ARGS` with `stdin`: exit `code`, an object valid as `$defs/<def>`.
    fn call(&mut self, def: &str, args: &[&str], stdin: &str, code: i32) -> Value {
        let mut full = vec!["--json"];
        full.extend_from_slice(args);
        let run = hashline(self.root.path(), self.state.path(), &full, stdin.as_bytes());
        self.check(def, args, &run, code)
    }

    fn check(&mut self, def: &str, args: &[&str], run: &Run, code: i32) -> Value {
        assert_eq!(
            run.code, code,
            "{args:?}: exit {}\nstdout: {}\nstderr: {}",
            run.code, run.stdout, run.stderr
        );
        assert_eq!(
            run.stdout.lines().count(),
            1,
            "{args:?}: one line of JSON: {}",
            run.stdout
        );
        let object = run.json();
        let validator =
            jsonschema::validator_for(&schema_of(&self.schema, def)).expect("the schema compiles");
        let errors: Vec<String> = validator
            .iter_errors(&object)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{args:?}: not a `{def}` object:\n{}\n{object:#}",
            errors.join("\n")
        );
        // And not an object of a neighbouring shape by accident: the whole-file schema too.
        assert!(
            jsonschema::is_valid(&self.schema, &object),
            "{args:?}: {object}"
        );
        assert_eq!(object["schema_version"], json!(1), "{args:?}");
        assert_eq!(
            object["ok"],
            json!(code == 0),
            "{args:?}: ok follows the exit code"
        );
        self.seen.insert(def.to_owned());
        object
    }

    fn read_text(&mut self, args: &[&str]) -> String {
        let object = self.call("read", args, "", 0);
        object["text"].as_str().expect("text").to_owned()
    }
}

#[test]
fn every_command_and_exit_path_prints_one_documented_object() {
    let mut c = Checker::new(&[
        ("a.txt", "one\ntwo\nthree\n"),
        ("h.txt", "alpha\nbeta\n"),
        ("l.txt", "red\ngreen\n"),
        ("s.txt", "left\nright\n"),
        ("b.js", "console.log(1);\nconsole.log(2);\n"),
    ]);

    // read: each anchor mode, a page, a refusal.
    let shown = c.read_text(&["read", "a.txt"]);
    c.read_text(&["read", "a.txt:2"]);
    c.read_text(&["read", "--offset", "2", "--limit", "1", "a.txt"]);
    let hashes = c.read_text(&["read", "--anchors", "hash", "h.txt"]);
    let ids = c.read_text(&["read", "--anchors", "lineid", "l.txt"]);
    c.call("read", &["read", "missing.txt"], "", 1);
    c.call("read", &["read", "--offset", "0", "a.txt"], "", 1);

    // edit: every dialect, a dry run, a refusal.
    let header = shown.lines().next().expect("header").to_owned();
    let dry = c.call(
        "edit",
        &["edit", "--dry-run"],
        &format!("{header}\nreplace 2..2:\n+TWO\n"),
        0,
    );
    assert_eq!(dry["files"][0]["written"], json!(false));
    let done = c.call(
        "edit",
        &["edit"],
        &format!("{header}\nreplace 2..2:\n+TWO\n"),
        0,
    );
    assert!(done["undo"].is_u64(), "{done}");
    c.call(
        "edit",
        &["edit"],
        &format!("{header}\nreplace 1..2:\n+ONE\n"),
        1,
    );
    let beta = hashes
        .lines()
        .find(|l| l.ends_with(":beta"))
        .and_then(|l| l.split(':').next())
        .expect("hash of beta");
    let request = json!({"path": "h.txt", "edits": [
        {"op": "replace", "start": beta, "end": beta, "lines": ["BETA"]}
    ]});
    c.call(
        "edit",
        &["edit", "--dialect", "hash-json"],
        &request.to_string(),
        0,
    );
    let green = ids
        .lines()
        .nth(1)
        .and_then(|l| l.split('|').next())
        .expect("id");
    let request = json!({"filePath": "l.txt", "edits": [
        {"op": "replace", "pos": green, "lines": ["GREEN"]}
    ]});
    c.call(
        "edit",
        &["edit", "--dialect", "lineid-json"],
        &request.to_string(),
        0,
    );
    let request =
        json!({"command": "str_replace", "path": "s.txt", "old_str": "right", "new_str": "RIGHT"});
    c.call(
        "edit",
        &["edit", "--dialect", "str-replace"],
        &request.to_string(),
        0,
    );
    let patch = "*** Begin Patch\n*** Update File: s.txt\n@@\n-left\n+LEFT\n*** End Patch\n";
    let moved = c.call("edit", &["edit", "--dialect", "apply-patch"], patch, 0);
    assert_eq!(moved["files"][0]["op"], json!("update"), "{moved}");
    c.call("edit", &["edit"], "¶a.txt#ZZZZ\nreplace 9..1:\n", 1);

    // write: a new file, then one that exists (the tool's own rules decide which is refused).
    let written = c.call("write", &["write", "new.txt"], "fresh\n", 0);
    assert_eq!(written["files"][0]["op"], json!("create"), "{written}");

    // ast-edit: a preview, a search that matches nothing, a bad pattern.
    let preview = c.call(
        "ast-edit",
        &[
            "ast-edit",
            "--pat",
            "console.log($A)",
            "--out",
            "log($A)",
            "b.js",
        ],
        "",
        0,
    );
    assert_eq!(
        preview["preview"]["total_replacements"],
        json!(2),
        "{preview}"
    );
    c.call(
        "ast-edit",
        &[
            "ast-edit",
            "--pat",
            "nothing_here($A)",
            "--out",
            "x",
            "b.js",
        ],
        "",
        0,
    );
    let bad = c.call(
        "ast-edit",
        &["ast-edit", "--pat", "(((", "--out", "x", "b.js"],
        "",
        1,
    );
    assert_eq!(bad["code"], json!("E_BAD_PATTERN"), "{bad}");

    // resolve: list, a partial apply (the rest stays queued), discard, nothing left.
    let listed = c.call("resolve", &["resolve"], "", 0);
    assert_eq!(
        listed["resolve"]["pending"].as_array().map(Vec::len),
        Some(1)
    );
    let partial = c.call("resolve", &["resolve", "apply", "--only", "1:1"], "", 0);
    assert_eq!(
        partial["resolve"]["still_pending"],
        json!(["1:2"]),
        "{partial}"
    );
    assert!(partial["undo"].is_u64(), "an apply that wrote: {partial}");
    c.call("resolve", &["resolve", "discard"], "", 0);
    c.call("resolve", &["resolve", "discard"], "", 1);
    c.call("resolve", &["resolve", "apply"], "", 1);

    // undo, recover.
    c.call("undo", &["undo", "--list"], "", 0);
    c.call("undo", &["undo"], "", 0);
    c.call("undo", &["undo", "999999"], "", 1);
    c.call("recover", &["recover"], "", 0);

    // grammar: one that exists, one that does not (exit 2).
    // state: list, a dry-run prune, a prune without a bound (usage).
    let listed = c.call("state", &["state"], "", 0);
    assert!(
        listed["sessions"].as_array().is_some_and(|s| !s.is_empty()),
        "{listed}"
    );
    c.call(
        "state",
        &["state", "prune", "--older-than", "1s", "--dry-run"],
        "",
        0,
    );
    c.call("usage", &["state", "prune"], "", 2);

    let lark = c.call("grammar", &["grammar"], "", 0);
    assert_eq!(
        lark["grammar"],
        json!({"format": "lark", "dialect": "hashline"})
    );
    c.call(
        "grammar",
        &[
            "grammar",
            "--format",
            "json-schema",
            "--dialect",
            "hashline",
        ],
        "",
        2,
    );

    // Exit 2 before any command ran: clap's errors, our own, help and version.
    for args in [
        &["--bogus"][..],
        &[],
        &["read"],
        &["read", "--anchors", "nope", "a.txt"],
        &["edit", "no-such.patch"],
        &["ast-edit", "--pat", "a", "--out", "b", "--out", "c", "b.js"],
    ] {
        let object = c.call("usage", args, "", 2);
        assert_eq!(object["code"], json!("E_USAGE"), "{args:?}");
    }
    let help = c.call("usage", &["--help"], "", 0);
    assert!(help["text"].as_str().is_some_and(|t| t.contains("Usage:")));
    c.call("usage", &["edit", "--help"], "", 0);
    c.call("usage", &["--version"], "", 0);
    // completions and man: the bare envelope, their script or page as `text`.
    let script = c.call("usage", &["completions", "bash"], "", 0);
    assert!(script["text"]
        .as_str()
        .is_some_and(|t| t.contains("_hashline()")));
    let page = c.call("usage", &["man", "read"], "", 0);
    assert!(page["text"]
        .as_str()
        .is_some_and(|t| t.contains(".SH \"EXIT STATUS\"")));
    // grammar of a JSON format: its JSON Schema without --format.
    let schema = c.call("grammar", &["grammar", "--dialect", "lineid-json"], "", 0);
    assert_eq!(
        schema["grammar"],
        json!({"format": "json-schema", "dialect": "lineid-json"})
    );
    let gone = c.root.path().join("gone");
    let run = support::cli::hashline(&gone, c.state.path(), &["--json", "read", "a.txt"], b"");
    c.check("usage", &["--root", "gone"], &run, 2);

    let commands: BTreeSet<String> = [
        "read", "edit", "write", "ast-edit", "resolve", "undo", "recover", "grammar", "state",
        "usage",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(c.seen, commands, "every command's object was checked");
}

/// Every property the schema defines is explained in docs/JSON.md, and the schema's version is
/// the one the library prints.
#[test]
fn json_md_documents_every_field_of_the_schema() {
    let doc = fs::read_to_string(docs().join("JSON.md")).expect("docs/JSON.md");
    let mut names = BTreeSet::new();
    collect_properties(&schema(), &mut names);
    let missing: Vec<&String> = names
        .iter()
        .filter(|name| !doc.contains(&format!("`{name}`")))
        .collect();
    assert!(missing.is_empty(), "docs/JSON.md does not name {missing:?}");
    assert!(doc.contains(&format!(
        "\"schema_version\": {}",
        hashline::JSON_SCHEMA_VERSION
    )));
    assert_eq!(
        schema()["$defs"]["envelope"]["properties"]["schema_version"]["const"],
        json!(hashline::JSON_SCHEMA_VERSION)
    );
}

fn collect_properties(value: &Value, names: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = map.get("properties") {
                names.extend(props.keys().cloned());
            }
            map.values().for_each(|v| collect_properties(v, names));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_properties(v, names)),
        _ => {}
    }
}
