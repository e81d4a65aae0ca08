//! `hashline undo [ID]` through the real binary: the exact prior bytes (endings, BOM, mode) of
//! every file a call changed come back, all or nothing; a call whose files changed since is
//! refused (`E_UNDO_CHANGED`, naming the file) and nothing is restored.
#![cfg(unix)]

use crate::support;

use std::fs;
use std::os::unix::fs::PermissionsExt;

use support::sandbox::Sandbox;

fn mode(sb: &Sandbox, rel: &str) -> u32 {
    fs::metadata(sb.root.join(rel))
        .expect("meta")
        .permissions()
        .mode()
        & 0o7777
}

fn header(sb: &Sandbox, rel: &str) -> String {
    let read = sb.run(&["read", rel], b"");
    assert_eq!(read.code, 0, "{read:?}");
    read.stdout.lines().next().expect("header").to_owned()
}

/// A hashline patch over two files (CRLF + BOM and a mode-0640 file); returns its undo id.
fn edit_two(sb: &Sandbox, word: &str) -> u64 {
    let (a, b) = (header(sb, "a.txt"), header(sb, "b.sh"));
    let patch = format!("{a}\nreplace 2..2:\n+{word}\n{b}\ninsert tail:\n+echo {word}\n");
    let out = sb.run(&["--json", "edit", "-"], patch.as_bytes());
    let json = out.json();
    assert_eq!(json["ok"], true, "{json}");
    json["undo"].as_u64().expect("an undo id")
}

const A: &[u8] = b"\xef\xbb\xbfone\r\ntwo\r\nthree\r\n";
const B: &[u8] = b"#!/bin/sh\necho hi";

fn two_files() -> Sandbox {
    let sb = Sandbox::new();
    sb.put("a.txt", A);
    sb.put("b.sh", B);
    fs::set_permissions(sb.root.join("b.sh"), fs::Permissions::from_mode(0o750)).expect("chmod");
    sb
}

#[test]
fn undo_of_a_multi_file_edit_restores_exact_bytes_and_modes() {
    let sb = two_files();
    let id = edit_two(&sb, "TWO");
    assert_ne!(fs::read(sb.root.join("a.txt")).expect("a"), A);
    let list = sb.run(&["undo", "--list"], b"");
    assert!(
        list.stdout.starts_with(&format!("{id}\tdefault\t")),
        "{list:?}"
    );
    assert!(
        list.stdout.contains("a.txt (update), b.sh (update)"),
        "{list:?}"
    );

    let out = sb.run(&["--json", "undo", &id.to_string()], b"").json();
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(
        fs::read(sb.root.join("a.txt")).expect("a"),
        A,
        "CRLF and BOM"
    );
    assert_eq!(
        fs::read(sb.root.join("b.sh")).expect("b"),
        B,
        "no final newline"
    );
    assert_eq!(mode(&sb, "b.sh"), 0o750);

    // The restored texts are the session's snapshots: a patch against a fresh read applies,
    // and the undone call is gone from the log.
    let again = sb.run(&["--json", "undo", &id.to_string()], b"").json();
    assert_eq!(again["code"], "E_UNDO_UNKNOWN", "{again}");
    edit_two(&sb, "TWO");
    let names: Vec<_> = fs::read_dir(&sb.root).expect("ls").flatten().collect();
    assert_eq!(names.len(), 2, "no temp file left: {names:?}");
}

#[test]
fn undo_without_id_takes_the_sessions_last_call_and_walks_back() {
    let sb = two_files();
    let first = edit_two(&sb, "TWO");
    let after_first = fs::read(sb.root.join("a.txt")).expect("a");
    let second = edit_two(&sb, "2");
    assert!(second > first);
    // Another session's call does not count as this session's last.
    let other = sb.run(&["--session", "other", "write", "c.txt"], b"c\n");
    assert_eq!(other.code, 0, "{other:?}");

    let out = sb.run(&["undo"], b"");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.starts_with(&format!("Undid call {second}:")),
        "{out:?}"
    );
    assert_eq!(fs::read(sb.root.join("a.txt")).expect("a"), after_first);
    assert!(sb
        .run(&["undo"], b"")
        .stdout
        .starts_with(&format!("Undid call {first}:")));
    assert_eq!(fs::read(sb.root.join("a.txt")).expect("a"), A);
    assert!(
        sb.root.join("c.txt").exists(),
        "the other session's file stays"
    );
    let none = sb.run(&["--json", "undo"], b"").json();
    assert_eq!(none["code"], "E_UNDO_UNKNOWN", "{none}");
}

#[test]
fn undo_of_a_create_removes_and_of_a_delete_restores_with_its_mode() {
    let sb = Sandbox::new();
    let created = sb.run(&["--json", "write", "new/n.txt"], b"fresh\n").json();
    let create_id = created["undo"].as_u64().expect("undo id");
    sb.put("d.txt", b"keep me\r\n");
    fs::set_permissions(sb.root.join("d.txt"), fs::Permissions::from_mode(0o604)).expect("chmod");
    assert_eq!(
        sb.run(&["read", "d.txt", "--anchors", "lineid"], b"").code,
        0
    );
    let deleted = sb.run(
        &["--json", "edit", "--dialect", "lineid-json"],
        br#"{"filePath":"d.txt","delete":true}"#,
    );
    let delete_id = deleted.json()["undo"].as_u64().expect("undo id");
    assert!(!sb.root.join("d.txt").exists());

    let out = sb.run(&["undo", &delete_id.to_string()], b"");
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(fs::read(sb.root.join("d.txt")).expect("d"), b"keep me\r\n");
    assert_eq!(mode(&sb, "d.txt"), 0o604);

    let out = sb.run(&["undo", &create_id.to_string()], b"");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        !sb.root.join("new/n.txt").exists(),
        "the created file is removed"
    );
}

#[test]
fn undo_is_refused_when_a_file_changed_since_and_restores_nothing() {
    let sb = two_files();
    let id = edit_two(&sb, "TWO");
    let a_new = fs::read(sb.root.join("a.txt")).expect("a");
    fs::write(sb.root.join("b.sh"), b"changed by hand\n").expect("write");

    let out = sb.run(&["--json", "undo", &id.to_string()], b"");
    let json = out.json();
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(json["code"], "E_UNDO_CHANGED", "{json}");
    assert!(
        json["text"].as_str().unwrap_or("").contains("b.sh"),
        "{json}"
    );
    assert_eq!(
        fs::read(sb.root.join("a.txt")).expect("a"),
        a_new,
        "all or nothing"
    );
    assert_eq!(
        fs::read(sb.root.join("b.sh")).expect("b"),
        b"changed by hand\n"
    );
    // The record stays listed (it is still true); putting the file back makes it undoable.
    assert!(sb
        .run(&["undo", "--list"], b"")
        .stdout
        .starts_with(&format!("{id}\t")));
}

#[test]
fn the_log_keeps_at_most_the_configured_number_of_calls() {
    let sb = Sandbox::new();
    let mut ids = Vec::new();
    for n in 0..4 {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_hashline"))
            .args(["--root"])
            .arg(&sb.root)
            .arg("--state")
            .arg(&sb.state)
            .args(["--json", "write", &format!("f{n}.txt"), "-"])
            .env("HASHLINE_UNDO_MAX_CALLS", "2")
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        ids.push(json["undo"].as_u64().expect("undo id"));
    }
    let list = sb.run(&["undo", "--list"], b"").stdout;
    let listed: Vec<u64> = list
        .lines()
        .filter_map(|l| l.split('\t').next()?.parse().ok())
        .collect();
    assert_eq!(listed, vec![ids[3], ids[2]], "oldest dropped first: {list}");
    let old = sb.run(&["--json", "undo", &ids[0].to_string()], b"").json();
    assert_eq!(old["code"], "E_UNDO_UNKNOWN", "{old}");
}

#[test]
fn resolve_apply_carries_its_undo_id_and_undo_puts_the_file_back() {
    let sb = Sandbox::new();
    sb.put("e.ts", b"console.log(1);\n");
    let preview = sb.run(
        &[
            "ast-edit",
            "--pat",
            "console.log($$$A)",
            "--out",
            "logger.info($$$A)",
            "e.ts",
        ],
        b"",
    );
    assert_eq!(preview.code, 0, "{preview:?}");
    let applied = sb.run(&["--json", "resolve", "apply"], b"");
    let json = applied.json();
    assert_eq!(json["ok"], true, "{json}");
    let id = json["undo"].as_u64().expect("an undo id");
    let listed = sb.run(&["--json", "resolve"], b"").json();
    assert!(
        listed.get("undo").is_none(),
        "a list writes nothing: {listed}"
    );
    let undo = sb.run(&["undo", &id.to_string()], b"");
    assert_eq!(undo.code, 0, "{undo:?}");
    assert_eq!(
        fs::read(sb.root.join("e.ts")).expect("e.ts"),
        b"console.log(1);\n"
    );
}

#[test]
fn undo_of_a_created_file_removes_the_folders_made_for_it_when_empty() {
    let sb = Sandbox::new();
    sb.put("kept/old.txt", b"x\n");
    let made = sb.run(&["--json", "write", "new/sub/x.txt"], b"hi\n");
    assert_eq!(made.json()["ok"], true, "{made:?}");
    let beside = sb.run(&["--json", "write", "kept/y.txt"], b"y\n");
    assert_eq!(beside.json()["ok"], true, "{beside:?}");
    let undo = sb.run(&["undo"], b"");
    assert_eq!(undo.code, 0, "{undo:?}");
    assert!(
        sb.root.join("kept/old.txt").exists(),
        "a folder it did not make stays"
    );
    let undo = sb.run(&["undo"], b"");
    assert_eq!(undo.code, 0, "{undo:?}");
    assert!(
        !sb.root.join("new").exists(),
        "the folders it made are gone"
    );
    // A folder that holds something else by then stays.
    let again = sb.run(&["write", "a/b.txt"], b"b\n");
    assert_eq!(again.code, 0, "{again:?}");
    sb.put("a/other.txt", b"o\n");
    let undo = sb.run(&["undo"], b"");
    assert_eq!(undo.code, 0, "{undo:?}");
    assert!(!sb.root.join("a/b.txt").exists());
    assert!(sb.root.join("a/other.txt").exists());
}
