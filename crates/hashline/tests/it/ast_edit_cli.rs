//! `hashline ast-edit` + `hashline resolve` through the real binary: previews are queued in the
//! session state, applied exactly as previewed, refused when stale, discarded, listed.

use crate::support;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use support::cli::{hashline, Run};
use support::tree::{snapshot, Entry};

/// A root and a state directory with `files` written under the root.
fn setup(files: &[(&str, &str)]) -> (tempfile::TempDir, tempfile::TempDir) {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    for (name, content) in files {
        let path = root.path().join(name);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(path, content).expect("write");
    }
    (root, state)
}

fn run(root: &Path, state: &Path, args: &[&str]) -> Run {
    hashline(root, state, args, b"")
}

fn read(root: &Path, name: &str) -> String {
    fs::read_to_string(root.join(name)).expect("read")
}

/// The preview id of an `ast-edit --json` run.
fn preview_id(run: &Run) -> String {
    let json = run.json();
    assert_eq!(json["ok"], true, "{}", run.stdout);
    json["preview"]["id"].as_i64().expect("queued").to_string()
}

const A: &str = "foo(1);\nconst y = foo(2) + 1;\n";
const B: &str = "// b\nfoo(3);\n";
const C: &str = "foo(4);\n";

#[test]
fn preview_then_apply_writes_exactly_what_the_preview_said() {
    let (root, state) = setup(&[
        ("src/a.ts", A),
        ("src/b.ts", B),
        ("src/none.ts", "bar();\n"),
    ]);
    let r = root.path();
    let s = state.path();
    let preview = run(
        r,
        s,
        &[
            "--json",
            "ast-edit",
            "--pat",
            "foo($A)",
            "--out",
            "baz($A, 0)",
            "src",
        ],
    );
    assert_eq!(preview.code, 0, "{}", preview.stdout);
    assert_eq!(preview.stderr, "", "no progress bar off a terminal");
    let json = preview.json();
    let p = &json["preview"];
    assert_eq!(p["total_replacements"], 3);
    assert_eq!(p["files_touched"], 2);
    assert_eq!(p["files_searched"], 3);
    let matches = p["matches"].as_array().expect("matches");
    let ids: Vec<&str> = matches
        .iter()
        .map(|m| m["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, ["1:1", "1:2", "2:1"]);
    assert_eq!(matches[1]["file"], "src/a.ts");
    assert_eq!(matches[1]["line"], 2);
    assert_eq!(matches[1]["before"], "foo(2)");
    assert_eq!(matches[1]["after"], "baz(2, 0)");
    assert_eq!(matches[1]["byte_range"]["start"], 18);
    assert_eq!(matches[1]["byte_range"]["end"], 24);
    let text = json["text"].as_str().expect("text");
    assert!(text.starts_with(&format!(
        "Staged as preview {} (3 replacements in 2 files) — files NOT modified yet.",
        p["id"]
    )));
    assert!(text.contains("\n\n¶src/a.ts#"), "{text}");
    assert!(
        text.contains(
            "\n[1:1]\n-1:foo(1)\n+1:baz(1, 0)\n[1:2]\n-2:foo(2)\n+2:baz(2, 0)\n\n¶src/b.ts#"
        ),
        "{text}"
    );
    assert!(
        text.contains("\n[2:1]\n-"),
        "every match shows its id: {text}"
    );
    assert_eq!(read(r, "src/a.ts"), A, "a preview writes nothing");

    // What the preview said, computed from its byte ranges alone.
    let mut expected: BTreeMap<String, String> = BTreeMap::new();
    for file in ["src/a.ts", "src/b.ts"] {
        let original = read(r, file);
        let mut out = String::new();
        let mut at = 0;
        for m in matches.iter().filter(|m| m["file"] == file) {
            let start = m["byte_range"]["start"].as_u64().expect("start") as usize;
            let end = m["byte_range"]["end"].as_u64().expect("end") as usize;
            assert_eq!(&original[start..end], m["before"].as_str().expect("before"));
            out.push_str(&original[at..start]);
            out.push_str(m["after"].as_str().expect("after"));
            at = end;
        }
        out.push_str(&original[at..]);
        expected.insert(file.to_string(), out);
    }

    let applied = run(r, s, &["resolve", "apply"]);
    assert_eq!(applied.code, 0, "{}", applied.stdout);
    let lines: Vec<&str> = applied.stdout.lines().collect();
    assert_eq!(lines[0], "Applied 3 replacements in 2 files.");
    assert!(lines[1].starts_with("¶src/a.ts#") && lines[2].starts_with("¶src/b.ts#"));
    for (file, want) in &expected {
        assert_eq!(&read(r, file), want);
    }
    assert_eq!(
        read(r, "src/a.ts"),
        "baz(1, 0);\nconst y = baz(2, 0) + 1;\n"
    );
    assert_eq!(read(r, "src/none.ts"), "bar();\n");

    // The fresh header is the file's current tag, recorded in the session: a hashline edit
    // anchored on it applies.
    let header = lines[1];
    let read_back = run(r, s, &["read", "src/a.ts"]);
    assert_eq!(read_back.stdout.lines().next(), Some(header));
    let patch = format!("{header}\nreplace 1..1:\n+baz(1, 1);\n");
    let edit = hashline(r, s, &["edit"], patch.as_bytes());
    assert_eq!(edit.code, 0, "{}", edit.stdout);

    let list = run(r, s, &["resolve"]);
    assert_eq!(
        (list.code, list.stdout.as_str()),
        (0, "No pending previews.\n")
    );
}

#[test]
fn preview_tags_are_session_anchors() {
    let (root, state) = setup(&[("a.ts", A)]);
    let (r, s) = (root.path(), state.path());
    let preview = run(
        r,
        s,
        &["ast-edit", "--pat", "foo($A)", "--out", "baz($A)", "a.ts"],
    );
    let header = preview
        .stdout
        .lines()
        .find(|l| l.starts_with('¶'))
        .expect("header")
        .to_string();
    let read_back = run(r, s, &["read", "a.ts"]);
    assert_eq!(read_back.stdout.lines().next(), Some(header.as_str()));
}

#[test]
fn a_file_changed_after_the_preview_refuses_apply_and_nothing_changes() {
    let (root, state) = setup(&[("a.ts", A), ("b.ts", B), ("c.ts", C)]);
    let (r, s) = (root.path(), state.path());
    let preview = run(
        r,
        s,
        &[
            "--json", "ast-edit", "--pat", "foo($A)", "--out", "baz($A)", ".",
        ],
    );
    let id = preview_id(&preview);
    assert_eq!(preview.json()["preview"]["files_touched"], 3);
    // Another tool changes only b.ts, keeping its length and match count.
    fs::write(r.join("b.ts"), "// B\nfoo(3);\n").expect("external change");
    let before: BTreeMap<String, Entry> = snapshot(r);

    let apply = run(r, s, &["resolve", "apply", &id]);
    assert_eq!(apply.code, 1, "{}", apply.stdout);
    assert_eq!(
        apply.stdout,
        format!("Preview {id} is stale: b.ts changed since it was made. Nothing was written and the preview was dropped; run ast-edit again to preview the current files.\n")
    );
    assert_eq!(snapshot(r), before, "no file changed, no temp file left");
    assert_eq!(read(r, "a.ts"), A);
    assert_eq!(read(r, "c.ts"), C);

    let json = run(r, s, &["--json", "resolve", "apply", &id]).json();
    assert_eq!(json["code"], "E_NO_PREVIEW", "a stale preview is dropped");
    // A fresh preview of the current files applies.
    let again = run(
        r,
        s,
        &["ast-edit", "--pat", "foo($A)", "--out", "baz($A)", "."],
    );
    assert_eq!(again.code, 0);
    let apply = run(r, s, &["resolve", "apply"]);
    assert_eq!(apply.code, 0, "{}", apply.stdout);
    assert_eq!(read(r, "b.ts"), "// B\nbaz(3);\n");
}

#[test]
fn stale_json_carries_the_code() {
    let (root, state) = setup(&[("a.ts", A), ("b.ts", B)]);
    let (r, s) = (root.path(), state.path());
    run(
        r,
        s,
        &["ast-edit", "--pat", "foo($A)", "--out", "baz($A)", "."],
    );
    fs::remove_file(r.join("a.ts")).expect("delete");
    let json = run(r, s, &["--json", "resolve", "apply"]).json();
    assert_eq!(json["ok"], false);
    assert_eq!(json["code"], "E_STALE_PREVIEW");
    assert_eq!(json["resolve"]["action"], "apply");
    assert_eq!(read(r, "b.ts"), B);
}

#[test]
fn discard_drops_the_preview_and_writes_nothing() {
    let (root, state) = setup(&[("a.ts", A)]);
    let (r, s) = (root.path(), state.path());
    let id = preview_id(&run(
        r,
        s,
        &[
            "--json", "ast-edit", "--pat", "foo($A)", "--out", "baz($A)", "a.ts",
        ],
    ));
    let discard = run(r, s, &["resolve", "discard", &id]);
    assert_eq!(discard.code, 0);
    assert_eq!(
        discard.stdout,
        format!(
            "Discarded: AST Edit: 2 replacements in 1 file (preview {id}). No file was changed.\n"
        )
    );
    assert_eq!(read(r, "a.ts"), A);
    let apply = run(r, s, &["--json", "resolve", "apply"]);
    assert_eq!(apply.code, 1);
    assert_eq!(apply.json()["code"], "E_NO_PREVIEW");
    // Nothing queued: `discard` refuses as `apply` does (issue 13: it exited 0).
    let nothing = run(r, s, &["--json", "resolve", "discard"]);
    assert_eq!(nothing.code, 1, "{nothing:?}");
    assert_eq!(nothing.json()["code"], "E_NO_PREVIEW");
    let plain = run(r, s, &["resolve", "discard"]);
    assert_eq!(plain.code, 1);
    assert!(
        plain.stdout.starts_with("No pending ast-edit preview"),
        "{plain:?}"
    );
}

#[test]
fn only_applies_the_chosen_matches_and_unknown_ids_are_refused() {
    let (root, state) = setup(&[("a.ts", A), ("b.ts", B)]);
    let (r, s) = (root.path(), state.path());
    let id = preview_id(&run(
        r,
        s,
        &[
            "--json", "ast-edit", "--pat", "foo($A)", "--out", "baz($A)", ".",
        ],
    ));

    let unknown = run(
        r,
        s,
        &["--json", "resolve", "apply", &id, "--only", "1:2,9:9"],
    );
    assert_eq!(unknown.code, 1);
    let json = unknown.json();
    assert_eq!(json["code"], "E_BAD_REF");
    assert!(json["text"]
        .as_str()
        .expect("text")
        .contains("no match `9:9`; its match ids are 1:1, 1:2, 2:1"));
    assert_eq!(
        (read(r, "a.ts"), read(r, "b.ts")),
        (A.to_string(), B.to_string())
    );

    let only = run(
        r,
        s,
        &["--json", "resolve", "apply", &id, "--only", "1:2,2:1"],
    );
    assert_eq!(only.code, 0, "{}", only.stdout);
    let json = only.json();
    assert_eq!(
        json["resolve"]["matches"],
        serde_json::json!(["1:2", "2:1"])
    );
    assert!(json["text"]
        .as_str()
        .expect("text")
        .starts_with("Applied 2 replacements in 2 files."));
    assert_eq!(json["files"][0]["written"], true);
    assert_eq!(read(r, "a.ts"), "foo(1);\nconst y = baz(2) + 1;\n");
    assert_eq!(read(r, "b.ts"), "// b\nbaz(3);\n");
    // Issue 13: the match not chosen stays pending, and the text says which.
    assert_eq!(json["resolve"]["still_pending"], serde_json::json!(["1:1"]));
    assert!(
        json["text"].as_str().expect("text").contains(&format!(
            "Still pending in preview {id}: 1 replacement in 1 file (1:1)."
        )),
        "{json}"
    );
    let rest = run(r, s, &["resolve", "apply", &id]);
    assert_eq!(rest.code, 0, "{rest:?}");
    assert_eq!(read(r, "a.ts"), "baz(1);\nconst y = baz(2) + 1;\n");
    assert_eq!(run(r, s, &["resolve"]).stdout, "No pending previews.\n");
}

#[test]
fn a_pattern_that_does_not_compile_is_bad_pattern() {
    let (root, state) = setup(&[("a.ts", A)]);
    let (r, s) = (root.path(), state.path());
    let out = run(
        r,
        s,
        &[
            "--json", "ast-edit", "--pat", "foo(", "--out", "bar", "a.ts",
        ],
    );
    assert_eq!(out.code, 1, "{out:?}");
    let json = out.json();
    assert_eq!(json["code"], "E_BAD_PATTERN", "{json}");
    assert_eq!(json["ok"], false);
    let plain = run(r, s, &["ast-edit", "--pat", "foo(", "--out", "bar", "a.ts"]);
    assert_eq!(plain.code, 1);
    assert!(
        plain.stdout.starts_with("pattern `foo(` does not compile"),
        "{plain:?}"
    );
    assert_eq!(run(r, s, &["resolve"]).stdout, "No pending previews.\n");
}

#[test]
fn resolve_lists_pending_previews_newest_first() {
    let (root, state) = setup(&[("a.ts", A), ("b.ts", B)]);
    let (r, s) = (root.path(), state.path());
    let first = preview_id(&run(
        r,
        s,
        &[
            "--json", "ast-edit", "--pat", "foo($A)", "--out", "baz($A)", "a.ts",
        ],
    ));
    let second = preview_id(&run(
        r,
        s,
        &[
            "--json", "ast-edit", "--pat", "foo($A)", "--out", "qux($A)", "b.ts",
        ],
    ));
    let list = run(r, s, &["resolve"]);
    assert_eq!(list.code, 0);
    let lines: Vec<&str> = list.stdout.lines().collect();
    assert_eq!(lines[0], "2 pending previews (newest first):");
    assert!(
        lines[1].starts_with(&format!(
            "{second}: AST Edit: 1 replacement in 1 file (`foo($A)` → `qux($A)`; b.ts), "
        )),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with(&format!(
            "{first}: AST Edit: 2 replacements in 1 file (`foo($A)` → `baz($A)`; a.ts), "
        )),
        "{}",
        lines[2]
    );
    assert_eq!(run(r, s, &["resolve", "list"]).stdout, list.stdout);

    let json = run(r, s, &["--json", "resolve"]).json();
    let pending = json["resolve"]["pending"].as_array().expect("pending");
    assert_eq!(pending.len(), 2);
    assert_eq!(pending[1]["files"], serde_json::json!(["a.ts"]));
    assert_eq!(pending[1]["rules"][0]["pattern"], "foo($A)");

    // Applying the older one by id leaves the newer one queued.
    assert_eq!(run(r, s, &["resolve", "apply", &first]).code, 0);
    assert_eq!(read(r, "a.ts"), "baz(1);\nconst y = baz(2) + 1;\n");
    assert_eq!(read(r, "b.ts"), B);
    let json = run(r, s, &["--json", "resolve"]).json();
    assert_eq!(json["resolve"]["pending"][0]["id"].to_string(), second);
    // Another session sees none of them.
    let other = hashline(r, s, &["--session", "other", "resolve"], b"");
    assert_eq!(other.stdout, "No pending previews.\n");
}

#[test]
fn an_unknown_preview_id_is_refused() {
    let (root, state) = setup(&[("a.ts", A)]);
    let (r, s) = (root.path(), state.path());
    let apply = run(r, s, &["resolve", "apply", "999"]);
    assert_eq!(apply.code, 1);
    assert!(
        apply
            .stdout
            .starts_with("No pending preview 999 in this session"),
        "{}",
        apply.stdout
    );
    let discard = run(r, s, &["--json", "resolve", "discard", "999"]);
    assert_eq!(
        (discard.code, discard.json()["code"].as_str()),
        (1, Some("E_NO_PREVIEW"))
    );
    let nothing = run(r, s, &["--json", "resolve", "apply"]);
    assert_eq!(nothing.json()["code"], "E_NO_PREVIEW");
    assert_eq!(
        run(r, s, &["resolve", "apply", "abc"]).code,
        2,
        "a malformed id is a usage error"
    );
    assert_eq!(read(r, "a.ts"), A);
}

#[test]
fn one_call_rewrites_ts_and_tsx() {
    let tsx = "export const App = () => <div>{foo(1)}</div>;\n";
    let (root, state) = setup(&[("web/a.ts", A), ("web/App.tsx", tsx)]);
    let (r, s) = (root.path(), state.path());
    let preview = run(
        r,
        s,
        &[
            "--json", "ast-edit", "--pat", "foo($A)", "--out", "baz($A)", "web",
        ],
    );
    let json = preview.json();
    assert_eq!(json["preview"]["parse_issues"], serde_json::json!([]));
    let files: Vec<&str> = json["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["path"].as_str().expect("path"))
        .collect();
    assert_eq!(files, ["web/App.tsx", "web/a.ts"]);
    assert_eq!(run(r, s, &["resolve", "apply"]).code, 0);
    assert_eq!(
        read(r, "web/App.tsx"),
        "export const App = () => <div>{baz(1)}</div>;\n"
    );
    assert_eq!(read(r, "web/a.ts"), "baz(1);\nconst y = baz(2) + 1;\n");
}

#[test]
fn no_match_queues_nothing_and_bad_calls_are_refused() {
    let (root, state) = setup(&[("a.ts", A)]);
    let (r, s) = (root.path(), state.path());
    let none = run(
        r,
        s,
        &[
            "--json",
            "ast-edit",
            "--pat",
            "nothing($A)",
            "--out",
            "x($A)",
            "a.ts",
        ],
    );
    assert_eq!(none.code, 0);
    let json = none.json();
    assert_eq!(json["text"], "No replacements made");
    assert_eq!(json["preview"]["id"], serde_json::Value::Null);
    assert_eq!(run(r, s, &["resolve"]).stdout, "No pending previews.\n");

    let dup = run(
        r,
        s,
        &[
            "--json", "ast-edit", "--pat", "foo($A)", "--out", "a", "--pat", "foo($A)", "--out",
            "b", "a.ts",
        ],
    );
    assert_eq!(dup.code, 1);
    assert_eq!(dup.json()["code"], "E_BAD_PATTERN");
    let unpaired = run(
        r,
        s,
        &[
            "ast-edit", "--pat", "foo($A)", "--pat", "bar($A)", "--out", "x", "a.ts",
        ],
    );
    assert_eq!(unpaired.code, 2);
    let missing = run(
        r,
        s,
        &[
            "--json", "ast-edit", "--pat", "foo($A)", "--out", "x", "nope",
        ],
    );
    assert_eq!(
        (missing.code, missing.json()["code"].as_str()),
        (1, Some("E_FILE_NOT_FOUND"))
    );
    assert_eq!(read(r, "a.ts"), A);
}

/// Directory walks have ripgrep's defaults: hidden and gitignored files are skipped unless
/// `--hidden` / `--no-ignore` ask for them; a hidden file named on the command line is used.
#[test]
fn hidden_and_ignored_files_are_skipped_unless_asked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (r, s) = (dir.path().join("root"), dir.path().join("state"));
    for (p, body) in [
        ("a.ts", "foo(1);\n"),
        (".hidden/h.ts", "foo(2);\n"),
        (".h.ts", "foo(3);\n"),
        ("gen/g.ts", "foo(4);\n"),
        (".gitignore", "gen/\n"),
    ] {
        let path = r.join(p);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(path, body).expect("write");
    }
    let files = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["--json", "ast-edit", "--pat", "foo($A)", "--out", "bar($A)"];
        args.extend_from_slice(extra);
        let out = run(&r, &s, &args);
        let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("json");
        let mut names: Vec<String> = v["files"]
            .as_array()
            .expect("files")
            .iter()
            .map(|f| f["path"].as_str().unwrap_or_default().to_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(files(&["."]), ["a.ts"]);
    assert_eq!(files(&["--hidden", "."]), [".h.ts", ".hidden/h.ts", "a.ts"]);
    assert_eq!(files(&["--no-ignore", "."]), ["a.ts", "gen/g.ts"]);
    assert_eq!(files(&[".h.ts"]), [".h.ts"]);
}

#[test]
fn the_preview_shows_ids_totals_and_a_multi_line_change_whole() {
    let src = "call(\n  one,\n  two,\n);\nother();\n";
    let (root, state) = setup(&[("m.ts", src)]);
    let (r, s) = (root.path(), state.path());
    let out = run(
        r,
        s,
        &[
            "ast-edit",
            "--pat",
            "call($$$A)",
            "--out",
            "wrap(call($$$A))",
            "m.ts",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert!(
        out.stdout
            .starts_with("Staged as preview 1 (1 replacement in 1 file) — files NOT modified yet."),
        "{}",
        out.stdout
    );
    // The id `--only` takes, then every line of the matched call and of its rewrite.
    assert!(
        out.stdout
            .contains("\n[1:1]\n-1:call(\n-2:  one,\n-3:  two,\n-4:)\n+1:wrap(call("),
        "{}",
        out.stdout
    );
    assert_eq!(read(r, "m.ts"), src, "a preview writes nothing");
}

#[test]
fn a_file_whose_rewrite_would_not_parse_is_left_out_and_the_rest_queued() {
    // In a statement `foo(1); bar()` parses; as an argument it does not.
    let (root, state) = setup(&[("a.ts", "foo(1);\n"), ("b.ts", "g(foo(2));\n")]);
    let (root, state) = (root.path(), state.path());
    let args = [
        "--json",
        "ast-edit",
        "--pat",
        "foo($A)",
        "--out",
        "foo($A); bar()",
    ];
    let out = run(root, state, &[&args[..], &["a.ts", "b.ts"]].concat());
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains("[E_SYNTAX_INTRODUCED] b.ts") && out.stdout.contains("left out"),
        "{out:?}"
    );
    let applied = run(root, state, &["resolve", "apply", &preview_id(&out)]);
    assert_eq!(applied.code, 0, "{applied:?}");
    assert_eq!(read(root, "a.ts"), "foo(1); bar();\n");
    assert_eq!(read(root, "b.ts"), "g(foo(2));\n");
    // When every file would break, the call is refused and nothing is queued.
    let alone = run(root, state, &[&args[..], &["b.ts"]].concat());
    assert_eq!(alone.code, 1, "{alone:?}");
    assert!(alone.stdout.contains("Nothing was queued"), "{alone:?}");
}
