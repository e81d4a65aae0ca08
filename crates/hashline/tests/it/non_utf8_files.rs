//! Files that are not UTF-8 everywhere (Latin-1 here), through the binary: lines an edit does
//! not touch keep their bytes, a line the model echoes back with the U+FFFD the read showed
//! keeps its bytes too, and a rewritten line that still holds U+FFFD is announced.

use crate::support;

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

/// A cp1251 file: `# Кириллица` / `text = "Привет"` / `x = 1`.
const CP1251: &[u8] =
    b"# \xca\xe8\xf0\xe8\xeb\xeb\xe8\xf6\xe0\r\ntext = \"\xcf\xf0\xe8\xe2\xe5\xf2\"\r\nx = 1\r\n";

#[test]
fn str_replace_reads_and_writes_a_legacy_code_page() {
    let sb = Sandbox::new();
    let path = sb.root.join("cp.py");
    fs::write(&path, CP1251).expect("write");
    let run = |request: serde_json::Value| {
        sb.run(
            &["--json", "edit", "--dialect", "str-replace", "-"],
            request.to_string().as_bytes(),
        )
        .json()
    };

    // `view` shows the Cyrillic text (the oracle's chardet decoding), not U+FFFD.
    let out = run(serde_json::json!({"command": "view", "path": "cp.py"}));
    assert_eq!(out["ok"], true, "{out}");
    let text = out["text"].as_str().unwrap_or("");
    assert!(text.contains("     2\ttext = \"Привет\""), "{out}");

    // A Cyrillic replacement is written in cp1251; the untouched lines keep their bytes
    // (CRLF included).
    let out = run(serde_json::json!({
        "command": "str_replace", "path": "cp.py",
        "old_str": "Привет", "new_str": "Здравствуй",
    }));
    assert_eq!(out["ok"], true, "{out}");
    let want: &[u8] = b"# \xca\xe8\xf0\xe8\xeb\xeb\xe8\xf6\xe0\r\ntext = \"\xc7\xe4\xf0\xe0\xe2\xf1\xf2\xe2\xf3\xe9\"\r\nx = 1\r\n";
    assert_eq!(fs::read(&path).expect("read"), want);

    // A character cp1251 cannot hold is refused, nothing written: never UTF-8 inside a cp1251
    // file, never a replacement character.
    let out = run(serde_json::json!({
        "command": "insert", "path": "cp.py", "insert_line": 3, "new_str": "y = \"日本\"",
    }));
    assert_eq!(out["ok"], false, "{out}");
    assert_eq!(out["code"], "E_UNENCODABLE", "{out}");
    let text = out["text"].as_str().unwrap_or("");
    assert!(
        text.contains("windows-1251") && text.contains("U+65E5"),
        "{out}"
    );
    assert_eq!(fs::read(&path).expect("read"), want);

    // undo_edit restores the original bytes.
    let out = run(serde_json::json!({"command": "undo_edit", "path": "cp.py"}));
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(fs::read(&path).expect("read"), CP1251);

    // Bytes no single-byte code page explains stay binary, as the oracle says.
    fs::write(sb.root.join("junk.bin"), b"\x8f\x8f\x8f\x8f").expect("write");
    let out = run(serde_json::json!({"command": "view", "path": "junk.bin"}));
    assert_eq!(out["code"], "E_BINARY", "{out}");
}

#[test]
fn a_legacy_file_read_in_anchor_mode_is_not_stale_for_str_replace() {
    // `read` (anchored modes) shows the cp1251 bytes as UTF-8 with U+FFFD and records that; the
    // file has not changed, so a `str_replace` after it is matched on the disk's decoded text.
    let sb = Sandbox::new();
    let path = sb.root.join("cp.py");
    fs::write(&path, CP1251).expect("write");
    let read = sb.run(&["read", "cp.py"], b"");
    assert_eq!(read.code, 0, "{read:?}");
    let request = serde_json::json!({
        "command": "str_replace", "path": "cp.py", "old_str": "Привет", "new_str": "Мир",
    });
    let out = sb
        .run(
            &["--json", "edit", "--dialect", "str-replace", "-"],
            request.to_string().as_bytes(),
        )
        .json();
    assert_eq!(out["ok"], true, "{out}");
    let want: &[u8] =
        b"# \xca\xe8\xf0\xe8\xeb\xeb\xe8\xf6\xe0\r\ntext = \"\xcc\xe8\xf0\"\r\nx = 1\r\n";
    assert_eq!(fs::read(&path).expect("read"), want);
}
