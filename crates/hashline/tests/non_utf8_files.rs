//! Files that are not UTF-8 everywhere (Latin-1 here), through the binary: lines an edit does
//! not touch keep their bytes, a line the model echoes back with the U+FFFD the read showed
//! keeps its bytes too, and a rewritten line that still holds U+FFFD is announced.

mod support;

use std::fs;

use support::sandbox::Sandbox;

const LATIN1: &[u8] = b"caf\xe9\nplain\nna\xefve\n";

#[test]
fn echoed_lines_keep_their_bytes_and_losses_are_announced() {
    let sb = Sandbox::new();
    let root = sb.root.as_path();
    let path = root.join("menu.txt");
    fs::write(&path, LATIN1).expect("write");
    let run = |args: &[&str], stdin: &str| sb.run(args, stdin.as_bytes());

    // hashline language: replace 1..2 echoing line 1 as shown, changing line 2.
    let read = run(&["read", "menu.txt"], "");
    assert_eq!(read.code, 0, "{read:?}");
    assert!(read.stdout.contains("1:caf\u{FFFD}"), "{}", read.stdout);
    let header = read.stdout.lines().next().expect("header").to_owned();
    let echo = format!("{header}\nreplace 1..2:\n+caf\u{FFFD}\n+PLAIN\n");
    let out = run(&["--json", "edit", "-"], &echo).json();
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(
        fs::read(&path).expect("read"),
        b"caf\xe9\nPLAIN\nna\xefve\n"
    );
    assert_eq!(out["warnings"].as_array().map(Vec::len), Some(0), "{out}");

    // A real change of line 3 that keeps the U+FFFD: written, and said.
    let read = run(&["read", "menu.txt"], "");
    let header = read.stdout.lines().next().expect("header").to_owned();
    let change = format!("{header}\nreplace 3..3:\n+na\u{FFFD}ve!\n");
    let out = run(&["--json", "edit", "-"], &change).json();
    assert_eq!(out["ok"], true, "{out}");
    let warnings = out["warnings"].to_string();
    assert!(warnings.contains("line(s) 3 "), "{out}");
    assert!(
        out["text"].as_str().unwrap_or("").contains("U+FFFD"),
        "{out}"
    );
    assert_eq!(
        fs::read(&path).expect("read"),
        b"caf\xe9\nPLAIN\nna\xef\xbf\xbdve!\n"
    );

    // lineid-json: echoing line 1 with its anchor keeps the Latin-1 byte.
    let ids = run(&["read", "menu.txt", "--anchors", "lineid"], "");
    let anchor = ids.stdout.split('|').next().expect("anchor").to_owned();
    let request = serde_json::json!({
        "filePath": "menu.txt",
        "edits": [{"op": "replace", "pos": anchor, "lines": ["caf\u{FFFD}", "extra"]}],
    });
    let out = run(
        &["--json", "edit", "--dialect", "lineid-json", "-"],
        &request.to_string(),
    )
    .json();
    assert_eq!(out["ok"], true, "{out}");
    assert!(
        fs::read(&path)
            .expect("read")
            .starts_with(b"caf\xe9\nextra\n"),
        "{:?}",
        fs::read(&path)
    );
}
