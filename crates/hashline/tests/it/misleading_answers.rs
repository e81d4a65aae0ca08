//! Misleading answers (issue 28): a UTF-8 BOM no longer makes apply-patch's line 1
//! unmatchable (and stays on write); `*** Add File: dir/` is refused (`E_IS_DIRECTORY`)
//! instead of creating a file `dir`; a path below a regular file (`file.txt/x`) is a clear
//! refusal naming the file (`E_NOT_A_DIRECTORY`), not `E_IO`.

use crate::support;

use std::fs;

use support::sandbox::Sandbox;

fn apply_patch(sb: &Sandbox, body: &str) -> serde_json::Value {
    let patch = format!("*** Begin Patch\n{body}*** End Patch\n");
    sb.run(
        &["--json", "edit", "--dialect", "apply-patch"],
        patch.as_bytes(),
    )
    .json()
}

#[test]
fn line_one_of_a_bom_file_is_context_and_the_bom_stays() {
    let sb = Sandbox::new();
    sb.put("bom.txt", b"\xef\xbb\xbffirst\nsecond\n");
    // Line 1 as read (no mark) as context.
    let json = apply_patch(
        &sb,
        "*** Update File: bom.txt\n@@\n first\n-second\n+SECOND\n",
    );
    assert_eq!(json["ok"], true, "{json}");
    assert!(!json["warnings"].to_string().contains("W_LOOSE"), "{json}");
    assert_eq!(
        fs::read(sb.root.join("bom.txt")).expect("bom"),
        b"\xef\xbb\xbffirst\nSECOND\n"
    );
    // Line 1 itself replaced: the mark is the file's, it stays.
    let json = apply_patch(
        &sb,
        "*** Update File: bom.txt\n@@\n-first\n+FIRST\n SECOND\n",
    );
    assert_eq!(json["ok"], true, "{json}");
    assert_eq!(
        fs::read(sb.root.join("bom.txt")).expect("bom"),
        b"\xef\xbb\xbfFIRST\nSECOND\n"
    );
}

#[test]
fn add_file_with_a_trailing_slash_is_refused() {
    let sb = Sandbox::new();
    let json = apply_patch(&sb, "*** Add File: dir/\n+x\n");
    assert_eq!(json["code"], "E_IS_DIRECTORY", "{json}");
    assert!(json["text"]
        .as_str()
        .expect("text")
        .contains("ends with `/`"));
    assert!(!sb.root.join("dir").exists());
    let write = sb.run(&["--json", "write", "dir/"], b"x\n").json();
    assert_eq!(write["code"], "E_IS_DIRECTORY", "{write}");
    assert!(!sb.root.join("dir").exists());
}

#[test]
fn a_path_below_a_file_names_the_file() {
    let sb = Sandbox::new();
    sb.put("file.txt", b"f\n");
    let json = apply_patch(&sb, "*** Add File: file.txt/x\n+x\n");
    assert_eq!(json["code"], "E_NOT_A_DIRECTORY", "{json}");
    assert!(
        json["text"]
            .as_str()
            .expect("text")
            .contains("file.txt is a file, not a directory"),
        "{json}"
    );
    let read = sb.run(&["--json", "read", "file.txt/x"], b"");
    assert_eq!(read.code, 1, "{read:?}");
    assert_eq!(read.json()["code"], "E_NOT_A_DIRECTORY", "{read:?}");
    assert_eq!(fs::read(sb.root.join("file.txt")).expect("f"), b"f\n");
}
