//! Paths of `hashline edit --dialect apply-patch` through the real binary: two spellings of one
//! file (`./a` and `a`) are one file whose hunks play in patch order, as Codex applies them; a
//! moved file named again by its new path is edited in patch order, by its old path fails as
//! Codex fails, and what Codex would overwrite is refused; all or nothing either way.

use crate::support;

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

/// `*** Update File: a.txt` + `*** Move to: b.txt`, then more hunks; `c.txt` is updated first.
fn moved_then(sb: &Sandbox, then: &str) -> support::cli::Run {
    sb.put("a.txt", b"one\ntwo\n");
    sb.put("c.txt", b"keep\n");
    let patch = format!(
        "*** Begin Patch\n*** Update File: c.txt\n@@\n-keep\n+kept\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-one\n+ONE\n{then}*** End Patch\n"
    );
    sb.run(
        &["--json", "edit", "--dialect", "apply-patch"],
        patch.as_bytes(),
    )
}

fn untouched(sb: &Sandbox) {
    assert_eq!(read(sb, "a.txt"), "one\ntwo\n");
    assert_eq!(read(sb, "c.txt"), "keep\n");
    assert!(!sb.root.join("b.txt").exists());
}

#[test]
fn a_moved_file_named_again_by_its_new_path_is_edited_in_patch_order() {
    // Codex applies the hunks one after the other: the second hunk edits the moved text.
    let sb = Sandbox::new();
    let out = moved_then(&sb, "*** Update File: ./b.txt\n@@\n ONE\n-two\n+2\n");
    let json = out.json();
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(read(&sb, "b.txt"), "ONE\n2\n");
    assert_eq!(read(&sb, "c.txt"), "kept\n");
    assert!(!sb.root.join("a.txt").exists());
    assert_eq!(json["ok"], true, "{json}");
}

#[test]
fn a_failing_hunk_after_a_move_leaves_every_file_untouched() {
    let sb = Sandbox::new();
    let out = moved_then(&sb, "*** Update File: b.txt\n@@\n-missing\n+x\n");
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(out.json()["code"], "E_CONTEXT_NOT_FOUND", "{out:?}");
    untouched(&sb);
}

#[test]
fn the_old_path_of_a_moved_file_is_gone_for_later_hunks() {
    // Codex fails there (the file was moved away), after writing the earlier hunks; we refuse
    // with its text and write nothing.
    let sb = Sandbox::new();
    let out = moved_then(&sb, "*** Update File: a.txt\n@@\n-two\n+2\n");
    let json = out.json();
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(json["code"], "E_FILE_NOT_FOUND", "{json}");
    let text = json["text"].as_str().unwrap_or_default();
    assert!(text.starts_with("Failed to read file to update "), "{text}");
    assert!(text.contains("a.txt"), "{text}");
    untouched(&sb);
    let out = moved_then(&sb, "*** Delete File: a.txt\n");
    assert_eq!(out.json()["code"], "E_FILE_NOT_FOUND", "{out:?}");
    untouched(&sb);
}

#[test]
fn what_codex_would_overwrite_after_a_move_is_refused_and_nothing_written() {
    let sb = Sandbox::new();
    for then in [
        // a new file at the old path
        "*** Add File: a.txt\n+new\n",
        // the moved file moved again
        "*** Update File: b.txt\n*** Move to: d.txt\n@@\n-two\n+2\n",
    ] {
        let out = moved_then(&sb, then);
        let json = out.json();
        assert_eq!(out.code, 1, "{out:?}");
        assert_eq!(json["code"], "E_DUPLICATE_FILE", "{json}");
        let text = json["text"].as_str().unwrap_or_default();
        assert!(text.contains("*** Move to:"), "{text}");
        untouched(&sb);
        assert!(!sb.root.join("d.txt").exists());
    }
}
