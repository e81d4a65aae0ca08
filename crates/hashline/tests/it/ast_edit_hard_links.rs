//! Two names of one file (hard links) in an ast-edit walk (issue 28): the preview lists the
//! file once, under the first name in walk order, and notes the other, so `resolve apply`
//! writes it; before, both names were previewed and the apply refused as a whole
//! (`E_DUPLICATE_FILE`: one call writes a file through one name).
#![cfg(unix)]

use crate::support;

use std::fs;

use support::sandbox::Sandbox;

#[test]
fn a_hard_linked_file_is_previewed_once_and_applied() {
    let sb = Sandbox::new();
    sb.put("a.py", b"foo(1)\n");
    sb.put("c.py", b"foo(3)\n");
    fs::hard_link(sb.root.join("a.py"), sb.root.join("b.py")).expect("hard link");
    let out = sb
        .run(
            &[
                "--json", "ast-edit", "--pat", "foo($A)", "--out", "bar($A)", ".",
            ],
            b"",
        )
        .json();
    assert_eq!(out["ok"], true, "{out}");
    let files: Vec<&str> = out["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert_eq!(files, ["a.py", "c.py"], "{out}");
    let text = out["text"].as_str().expect("text");
    assert!(text.contains("b.py: the same file as a.py"), "{text}");

    let applied = sb.run(&["--json", "resolve", "apply"], b"").json();
    assert_eq!(applied["ok"], true, "{applied}");
    assert_eq!(fs::read(sb.root.join("a.py")).expect("a"), b"bar(1)\n");
    assert_eq!(fs::read(sb.root.join("b.py")).expect("b"), b"bar(1)\n");
    assert_eq!(fs::read(sb.root.join("c.py")).expect("c"), b"bar(3)\n");
    // Still one file behind both names.
    use std::os::unix::fs::MetadataExt;
    let (a, b) = (
        fs::metadata(sb.root.join("a.py")).expect("a"),
        fs::metadata(sb.root.join("b.py")).expect("b"),
    );
    assert_eq!((a.dev(), a.ino()), (b.dev(), b.ino()));
}
