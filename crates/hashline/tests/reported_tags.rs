//! The tag an edit reports is the tag the next read shows, even when a body row holds a
//! carriage return (a read splits it into two lines) or the new text starts with U+FEFF (a
//! read takes it for the byte-order mark); such an edit says so in its warnings.

mod support;

use std::fs;

use support::sandbox::Sandbox;

#[test]
fn the_reported_tag_is_the_next_reads_tag() {
    let sb = Sandbox::new();
    let root = sb.root.as_path();
    fs::write(root.join("a.txt"), "one\ntwo\n").expect("write");
    let run = |args: &[&str], stdin: &str| sb.run(args, stdin.as_bytes());
    let header = |out: &str| out.lines().next().unwrap_or_default().to_owned();

    for (row, warned) in [
        ("+plain", false),
        ("+left\rright", true),
        ("+\u{FEFF}bom", true),
    ] {
        let read = run(&["read", "a.txt"], "");
        let patch = format!("{}\ninsert head:\n{row}\n", header(&read.stdout));
        let out = run(&["--json", "edit", "-"], &patch).json();
        assert_eq!(out["ok"], true, "{out}");
        let reported = header(out["text"].as_str().unwrap_or_default());
        let next = run(&["read", "a.txt"], "");
        assert_eq!(reported, header(&next.stdout), "{row:?}: {out}");
        let has_warning = out["warnings"].to_string().contains("carriage return");
        assert_eq!(has_warning, warned, "{row:?}: {out}");
    }
}
