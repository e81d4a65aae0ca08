//! A state directory inside the root (`--state .hashline`, or `HASHLINE_STATE=.hashline` run in
//! the root) is hashline's own (issue 28): no dialect, nor `write`, `read` or `ast-edit`,
//! creates, edits, deletes, moves or reads a file under it (`E_STATE_PATH`), and no walk lists
//! it (ast-edit's directory walk, even with `--hidden`; str-replace's `view` of a directory).
#![cfg(unix)]

use crate::support;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use support::cli::{hashline, Run};
use support::sandbox::Sandbox;

const PLANTED: &[u8] = b"planted by hand\n";

/// Runs `hashline --json ARGS` in `root` with `HASHLINE_STATE=.hashline` and no `--state`.
fn in_root(root: &Path, args: &[&str], stdin: &[u8]) -> Run {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_hashline"))
        .current_dir(root)
        .arg("--json")
        .args(args)
        .env("HASHLINE_STATE", ".hashline")
        .env_remove("HASHLINE_SESSION")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hashline");
    if let Some(mut pipe) = child.stdin.take() {
        if let Err(e) = pipe.write_all(stdin) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
        }
    }
    let out = child.wait_with_output().expect("wait for hashline");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// Every request that names a file under `.hashline`, per dialect and command.
fn attempts() -> Vec<(&'static str, Vec<&'static str>, String)> {
    let edit = |dialect: &'static str| vec!["edit", "--dialect", dialect, "-"];
    let patch = |body: &str| format!("*** Begin Patch\n{body}*** End Patch\n");
    vec![
        ("read", vec!["read", ".hashline/planted.txt"], String::new()),
        (
            "hashline",
            edit("hashline"),
            "¶.hashline/planted.txt#0000\ninsert tail:\n+x\n".to_owned(),
        ),
        (
            "hash-json",
            edit("hash-json"),
            r#"{"path":".hashline/planted.txt","edits":[{"op":"append","lines":["x"]}]}"#
                .to_owned(),
        ),
        (
            "lineid-json append",
            edit("lineid-json"),
            r#"{"filePath":".hashline/planted.txt","edits":[{"op":"append","lines":["x"]}]}"#
                .to_owned(),
        ),
        (
            "lineid-json delete",
            edit("lineid-json"),
            r#"{"filePath":".hashline/planted.txt","delete":true}"#.to_owned(),
        ),
        (
            "lineid-json rename into",
            edit("lineid-json"),
            r#"{"filePath":"a.txt","rename":".hashline/a.txt","edits":[{"op":"append","lines":["x"]}]}"#.to_owned(),
        ),
        (
            "lineid-json rename out",
            edit("lineid-json"),
            r#"{"filePath":".hashline/planted.txt","rename":"out.txt","edits":[{"op":"append","lines":["x"]}]}"#.to_owned(),
        ),
        (
            "str-replace create",
            edit("str-replace"),
            r#"{"command":"create","path":".hashline/new.txt","file_text":"x\n"}"#.to_owned(),
        ),
        (
            "str-replace str_replace",
            edit("str-replace"),
            r#"{"command":"str_replace","path":".hashline/planted.txt","old_str":"planted","new_str":"x"}"#
                .to_owned(),
        ),
        (
            "str-replace view",
            edit("str-replace"),
            r#"{"command":"view","path":".hashline"}"#.to_owned(),
        ),
        (
            "apply-patch add",
            edit("apply-patch"),
            patch("*** Add File: .hashline/new.txt\n+x\n"),
        ),
        (
            "apply-patch update",
            edit("apply-patch"),
            patch("*** Update File: .hashline/planted.txt\n@@\n-planted by hand\n+x\n"),
        ),
        (
            "apply-patch delete",
            edit("apply-patch"),
            patch("*** Delete File: .hashline/planted.txt\n"),
        ),
        (
            "apply-patch move into",
            edit("apply-patch"),
            patch("*** Update File: a.txt\n*** Move to: .hashline/a.txt\n@@\n-one\n+uno\n"),
        ),
        (
            "write",
            vec!["write", ".hashline/new.txt", "--overwrite"],
            "x\n".to_owned(),
        ),
        (
            "ast-edit",
            vec!["ast-edit", "--pat", "foo($A)", "--out", "bar($A)", ".hashline"],
            String::new(),
        ),
        (
            "ast-edit glob",
            vec!["ast-edit", "--pat", "foo($A)", "--out", "bar($A)", ".hashline/*.py"],
            String::new(),
        ),
    ]
}

fn assert_untouched(root: &Path, why: &str) {
    let state = root.join(".hashline");
    assert_eq!(
        fs::read(state.join("planted.txt")).ok(),
        Some(PLANTED.to_vec()),
        "{why}"
    );
    assert!(!state.join("new.txt").exists(), "{why}");
    assert!(!state.join("a.txt").exists(), "{why}");
    assert!(!root.join("out.txt").exists(), "{why}");
    assert_eq!(
        fs::read(root.join("a.txt")).ok(),
        Some(b"one\n".to_vec()),
        "{why}"
    );
}

fn check_every_attempt(sb: &Sandbox, run: &dyn Fn(&[&str], &[u8]) -> Run) {
    for (why, args, stdin) in attempts() {
        let out = run(&args, stdin.as_bytes());
        let json = out.json();
        assert_eq!(json["code"], "E_STATE_PATH", "{why}: {out:?}");
        assert!(
            json["text"]
                .as_str()
                .unwrap_or("")
                .contains("state directory"),
            "{why}: {json}"
        );
        assert_untouched(&sb.root, why);
    }
}

fn setup() -> Sandbox {
    let sb = Sandbox::new();
    sb.put("a.txt", b"one\n");
    sb.put("code.py", b"foo(1)\n");
    sb
}

#[test]
fn no_dialect_touches_a_state_directory_given_by_flag_inside_the_root() {
    let sb = setup();
    let state = sb.root.join(".hashline");
    let run = |args: &[&str], stdin: &[u8]| {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        hashline(&sb.root, &state, &all, stdin)
    };
    // A first call makes the state directory (database, journal, key).
    assert_eq!(run(&["read", "a.txt"], b"").code, 0);
    fs::write(state.join("planted.txt"), PLANTED).expect("planted");
    fs::write(state.join("planted.py"), b"foo(2)\n").expect("planted.py");
    check_every_attempt(&sb, &run);
}

#[test]
fn no_dialect_touches_a_state_directory_given_by_the_environment() {
    let sb = setup();
    let run = |args: &[&str], stdin: &[u8]| in_root(&sb.root, args, stdin);
    assert_eq!(run(&["read", "a.txt"], b"").code, 0);
    let state = sb.root.join(".hashline");
    assert!(state.join("state.sqlite3").exists());
    fs::write(state.join("planted.txt"), PLANTED).expect("planted");
    fs::write(state.join("planted.py"), b"foo(2)\n").expect("planted.py");
    check_every_attempt(&sb, &run);
}

#[test]
fn walks_never_list_the_state_directory() {
    let sb = setup();
    // Not hidden, so only the exclusion keeps it out of a walk.
    let state = sb.root.join("state");
    let run = |args: &[&str], stdin: &[u8]| hashline(&sb.root, &state, args, stdin);
    assert_eq!(run(&["read", "a.txt"], b"").code, 0);
    fs::write(state.join("planted.py"), b"foo(2)\n").expect("planted.py");

    for hidden in [false, true] {
        let mut args = vec!["--json", "ast-edit", "--pat", "foo($A)", "--out", "bar($A)"];
        if hidden {
            args.push("--hidden");
        }
        args.push(".");
        let out = run(&args, b"").json();
        let files: Vec<&str> = out["files"]
            .as_array()
            .expect("files")
            .iter()
            .filter_map(|f| f["path"].as_str())
            .collect();
        assert_eq!(files, ["code.py"], "hidden {hidden}: {out}");
        let glob = run(
            &[
                "--json", "ast-edit", "--pat", "foo($A)", "--out", "bar($A)", "**/*.py",
            ],
            b"",
        )
        .json();
        assert!(!glob.to_string().contains("planted"), "{glob}");
    }
    // Applying the queued previews writes code.py only.
    let applied = run(&["resolve", "apply"], b"");
    assert_eq!(applied.code, 0, "{applied:?}");
    assert_eq!(
        fs::read(state.join("planted.py")).ok(),
        Some(b"foo(2)\n".to_vec())
    );

    let view = run(
        &["--json", "edit", "--dialect", "str-replace", "-"],
        br#"{"command":"view","path":"."}"#,
    )
    .json();
    let text = view["text"].as_str().expect("text");
    assert!(text.contains("a.txt"), "{text}");
    assert!(!text.contains("state"), "{text}");
}
