//! The tag an edit reports is the tag the next read shows, even when the new text starts with
//! U+FEFF (a read takes it for the byte-order mark); such an edit says so in its warnings. A
//! body row that holds a carriage return (a read would split it into two lines) is refused by
//! the guard and leaves the file as it was.

use crate::support;

use std::fs;

use support::sandbox::Sandbox;

#[test]
fn the_reported_tag_is_the_next_reads_tag() {
    let sb = Sandbox::new();
    let root = sb.root.as_path();
    fs::write(root.join("a.txt"), "one\ntwo\n").expect("write");
    let run = |args: &[&str], stdin: &str| sb.run(args, stdin.as_bytes());
    let header = |out: &str| out.lines().next().unwrap_or_default().to_owned();

    for (row, warned) in [("+plain", false), ("+\u{FEFF}bom", true)] {
        let read = run(&["read", "a.txt"], "");
        let patch = format!("{}\ninsert head:\n{row}\n", header(&read.stdout));
        let out = run(&["--json", "edit", "-"], &patch).json();
        assert_eq!(out["ok"], true, "{out}");
        let reported = header(out["text"].as_str().unwrap_or_default());
        let next = run(&["read", "a.txt"], "");
        assert_eq!(reported, header(&next.stdout), "{row:?}: {out}");
        let has_warning = !out["warnings"].as_array().is_none_or(Vec::is_empty);
        assert_eq!(has_warning, warned, "{row:?}: {out}");
    }
}

#[test]
fn a_row_with_a_carriage_return_is_refused() {
    let sb = Sandbox::new();
    fs::write(sb.root.join("a.txt"), "one\ntwo\n").expect("write");
    let read = sb.run(&["read", "a.txt"], b"");
    let header = read.stdout.lines().next().unwrap_or_default().to_owned();
    let patch = format!("{header}\ninsert head:\n+left\rright\n");
    let out = sb.run(&["--json", "edit", "-"], patch.as_bytes()).json();
    assert_eq!(out["ok"], false, "{out}");
    assert_eq!(out["code"], "E_PAYLOAD_CONTAMINATED", "{out}");
    assert_eq!(
        fs::read(sb.root.join("a.txt")).expect("read"),
        b"one\ntwo\n"
    );
}

#[test]
fn the_json_dialects_report_the_next_reads_tag_too() {
    for (dialect, anchors) in [("hash-json", "hash"), ("lineid-json", "lineid")] {
        let sb = Sandbox::new();
        fs::write(sb.root.join("a.txt"), "one\ntwo\n").expect("write");
        let read = sb.run(&["read", "a.txt", "--anchors", anchors], b"");
        assert_eq!(read.code, 0, "{}", read.stdout);
        // A new first line that starts with U+FEFF: a read takes it for the byte-order mark.
        let request = if dialect == "hash-json" {
            r#"{"path": "a.txt", "edits": [{"op": "prepend", "lines": ["\ufeffbom"]}]}"#
        } else {
            r#"{"filePath": "a.txt", "edits": [{"op": "prepend", "lines": ["\ufeffbom"]}]}"#
        };
        let args = ["--json", "edit", "--dialect", dialect, "-"];
        let out = sb.run(&args, request.as_bytes()).json();
        assert_eq!(out["ok"], true, "{dialect}: {out}");
        let reported = out["files"][0]["tag"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let next = sb.run(&["read", "a.txt"], b"");
        let header = next.stdout.lines().next().unwrap_or_default().to_owned();
        assert!(
            header.ends_with(&format!("#{reported}")),
            "{dialect}: {header} vs {reported}"
        );
        assert!(
            out["warnings"].to_string().contains("byte-order mark"),
            "{dialect}: {out}"
        );
    }
}
