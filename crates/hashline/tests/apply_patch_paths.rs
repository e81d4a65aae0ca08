//! Paths of `hashline edit --dialect apply-patch` through the real binary: two spellings of one
//! file (`./a` and `a`) are one file whose hunks play in patch order, as Codex applies them; a
//! moved file named again by another hunk is refused with the reason, nothing written.

mod support;

use std::fs;

use support::sandbox::Sandbox;

fn read(sb: &Sandbox, rel: &str) -> String {
    fs::read_to_string(sb.root.join(rel)).expect("read file")
}

#[test]
fn two_spellings_of_one_path_are_played_in_order() {
    let sb = Sandbox::new();
    sb.put("a.txt", b"one\ntwo\nthree\n");
    let patch = "*** Begin Patch\n*** Update File: ./a.txt\n@@\n-one\n+ONE\n*** Update File: a.txt\n@@\n ONE\n-two\n+TWO\n*** End Patch\n";
    let out = sb.run(&["edit", "--dialect", "apply-patch"], patch.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.stdout,
        "Success. Updated the following files:\nM ./a.txt\nM a.txt\n"
    );
    assert_eq!(read(&sb, "a.txt"), "ONE\nTWO\nthree\n");
}

#[test]
fn a_moved_file_named_again_is_refused_and_nothing_written() {
    let sb = Sandbox::new();
    sb.put("a.txt", b"one\n");
    sb.put("c.txt", b"keep\n");
    let patch = "*** Begin Patch\n*** Update File: c.txt\n@@\n-keep\n+kept\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-one\n+ONE\n*** Update File: ./b.txt\n@@\n-ONE\n+1\n*** End Patch\n";
    let out = sb.run(
        &["--json", "edit", "--dialect", "apply-patch"],
        patch.as_bytes(),
    );
    let json = out.json();
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(json["code"], "E_DUPLICATE_FILE", "{json}");
    let text = json["text"].as_str().unwrap_or_default();
    assert!(text.contains("*** Move to:"), "{text}");
    assert_eq!(read(&sb, "a.txt"), "one\n");
    assert_eq!(read(&sb, "c.txt"), "keep\n");
    assert!(!sb.root.join("b.txt").exists());
}
