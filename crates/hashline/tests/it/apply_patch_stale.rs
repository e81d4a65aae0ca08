//! Stale safety of `hashline edit --dialect apply-patch` through the real binary (DEVIATIONS
//! §27): after a `read`, a chunk's context is found in the version read and the edit carried
//! onto the disk text by the shared merge, or refused with fresh context and nothing written;
//! a file never read is matched on the disk as Codex does, and `--json` says so.

use crate::support;

use std::fs;

use support::sandbox::Sandbox;

const ORIGINAL: &str =
    "fn main() {\n    let a = 1;\n    let b = 2;\n    println!(\"{a} {b}\");\n}\n";

/// A patch written against [`ORIGINAL`]: `let b = 2;` becomes `let b = 3;`.
const PATCH: &str = "*** Begin Patch\n*** Update File: m.rs\n@@\n     let a = 1;\n-    let b = 2;\n+    let b = 3;\n     println!(\"{a} {b}\");\n*** End Patch\n";

fn read_then_change(disk: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.put("m.rs", ORIGINAL.as_bytes());
    let read = sb.run(&["read", "m.rs"], b"");
    assert_eq!(read.code, 0, "{read:?}");
    sb.put("m.rs", disk.as_bytes());
    sb
}

fn text(sb: &Sandbox) -> String {
    fs::read_to_string(sb.root.join("m.rs")).expect("read m.rs")
}

#[test]
fn a_line_inserted_above_the_chunk_is_merged_onto_the_right_lines() {
    let disk = format!("// header\n{ORIGINAL}fn other() {{}}\n");
    let sb = read_then_change(&disk);
    let out = sb.run(
        &["--json", "edit", "--dialect", "apply-patch"],
        PATCH.as_bytes(),
    );
    let json = out.json();
    assert_eq!(json["ok"], true, "{json}");
    assert_eq!(text(&sb), disk.replace("let b = 2;", "let b = 3;"));
    let warnings = json["warnings"].to_string();
    assert!(!warnings.contains("not read"), "{warnings}");
}

#[test]
fn a_chunk_is_found_in_the_version_read_not_on_the_disk() {
    // The chunk's last context row changed on disk (Codex would not find the chunk); the line
    // it replaces did not, so the merge carries the edit onto the disk.
    let disk = format!("// header\n{}", ORIGINAL.replace("{a} {b}", "{a}, {b}"));
    let sb = read_then_change(&disk);
    let out = sb.run(&["edit", "--dialect", "apply-patch"], PATCH.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(text(&sb), disk.replace("let b = 2;", "let b = 3;"));
}

#[test]
fn a_chunk_whose_lines_were_repeated_on_disk_is_refused_not_applied_to_the_first() {
    // The disk gained a copy of the chunk's lines: where the version read's lines are now is
    // not provable, so nothing is guessed.
    let disk = format!("// header\n{ORIGINAL}{ORIGINAL}");
    let sb = read_then_change(&disk);
    let out = sb.run(&["edit", "--dialect", "apply-patch"], PATCH.as_bytes());
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stdout.contains("changed since it was read"), "{out:?}");
    assert_eq!(text(&sb), disk);
}

#[test]
fn a_change_of_the_chunks_own_lines_is_refused_with_fresh_context() {
    let disk = ORIGINAL.replace("let b = 2;", "let b = 20;");
    let sb = read_then_change(&disk);
    let out = sb.run(
        &["--json", "edit", "--dialect", "apply-patch"],
        PATCH.as_bytes(),
    );
    let json = out.json();
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(json["ok"], false, "{json}");
    assert_eq!(json["code"], "E_STALE_ANCHOR", "{json}");
    let msg = json["text"].as_str().unwrap_or_default();
    assert!(msg.contains("changed since it was read"), "{msg}");
    assert!(msg.contains("chunk 1 of m.rs"), "{msg}");
    assert!(msg.contains("     3\t    let b = 20;"), "{msg}");
    assert_eq!(text(&sb), disk, "nothing written");

    // The refusal showed the disk: a patch written against it now applies.
    let fresh = PATCH.replace("-    let b = 2;", "-    let b = 20;");
    let out = sb.run(&["edit", "--dialect", "apply-patch"], fresh.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(text(&sb), ORIGINAL.replace("let b = 2;", "let b = 3;"));
}

#[test]
fn a_stale_file_among_several_leaves_every_file_untouched() {
    let disk = ORIGINAL.replace("let b = 2;", "let b = 20;");
    let sb = read_then_change(&disk);
    sb.put("n.txt", b"one\n");
    let patch = format!(
        "*** Begin Patch\n*** Update File: n.txt\n@@\n-one\n+ONE\n{}",
        PATCH.trim_start_matches("*** Begin Patch\n")
    );
    let out = sb.run(&["edit", "--dialect", "apply-patch"], patch.as_bytes());
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stdout.contains("changed since it was read"), "{out:?}");
    assert_eq!(text(&sb), disk);
    let n = fs::read_to_string(sb.root.join("n.txt")).expect("n.txt");
    assert_eq!(n, "one\n");
}

#[test]
fn a_file_never_read_is_matched_on_the_disk_with_no_warning() {
    // Codex never reads a file through the tool: a warning on every such edit would be a false
    // alarm on every call (DEVIATIONS 30).
    let sb = Sandbox::new();
    let disk = format!("// header\n{ORIGINAL}");
    sb.put("m.rs", disk.as_bytes());
    let out = sb.run(
        &["--json", "edit", "--dialect", "apply-patch"],
        PATCH.as_bytes(),
    );
    let json = out.json();
    assert_eq!(json["ok"], true, "{json}");
    assert_eq!(json["warnings"], serde_json::json!([]), "{json}");
    assert_eq!(text(&sb), disk.replace("let b = 2;", "let b = 3;"));
}

#[test]
fn two_hunks_of_one_read_file_are_carried_together() {
    // Two updates of the same file (played in order on the version read), the disk changed
    // only far above them.
    let disk = format!("// header\n{ORIGINAL}");
    let sb = read_then_change(&disk);
    let patch = "*** Begin Patch\n*** Update File: m.rs\n@@\n-    let a = 1;\n+    let a = 10;\n*** Update File: m.rs\n@@\n-    let b = 2;\n+    let b = 3;\n*** End Patch\n";
    let out = sb.run(&["edit", "--dialect", "apply-patch"], patch.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    let want = disk
        .replace("let a = 1;", "let a = 10;")
        .replace("let b = 2;", "let b = 3;");
    assert_eq!(text(&sb), want);
}

/// A longer file: three functions, each with one line a patch changes.
const LONG: &str =
    "fn a() {\n    let x = 1;\n}\n\nfn b() {\n    let y = 2;\n}\n\nfn c() {\n    let z = 3;\n}\n";

fn long_read_then_change(disk: &str) -> Sandbox {
    let sb = Sandbox::new();
    sb.put("m.rs", LONG.as_bytes());
    let read = sb.run(&["read", "m.rs"], b"");
    assert_eq!(read.code, 0, "{read:?}");
    sb.put("m.rs", disk.as_bytes());
    sb
}

#[test]
fn hunks_of_one_file_are_carried_one_by_one_around_a_change_between_them() {
    // Two hunks for one file; the disk changed *between* them (a line added inside fn b). Each
    // hunk is carried by itself, so the change between them does not refuse the patch.
    let disk = LONG.replace("    let y = 2;\n", "    let y = 2;\n    let w = 4;\n");
    let sb = long_read_then_change(&disk);
    let patch = "*** Begin Patch\n*** Update File: m.rs\n@@ fn a() {\n-    let x = 1;\n+    let x = 10;\n*** Update File: m.rs\n@@ fn c() {\n-    let z = 3;\n+    let z = 30;\n*** End Patch\n";
    let out = sb.run(&["edit", "--dialect", "apply-patch"], patch.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    let want = disk
        .replace("let x = 1;", "let x = 10;")
        .replace("let z = 3;", "let z = 30;");
    assert_eq!(text(&sb), want);
}

#[test]
fn a_moved_file_read_before_is_carried_hunk_by_hunk() {
    // The move's hunk and a later hunk of the new path, the disk changed between them.
    let disk = LONG.replace("    let y = 2;\n", "    let y = 2;\n    let w = 4;\n");
    let sb = long_read_then_change(&disk);
    let patch = "*** Begin Patch\n*** Update File: m.rs\n*** Move to: n.rs\n@@ fn a() {\n-    let x = 1;\n+    let x = 10;\n*** Update File: n.rs\n@@ fn c() {\n-    let z = 3;\n+    let z = 30;\n*** End Patch\n";
    let out = sb.run(&["edit", "--dialect", "apply-patch"], patch.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    let want = disk
        .replace("let x = 1;", "let x = 10;")
        .replace("let z = 3;", "let z = 30;");
    assert_eq!(
        fs::read_to_string(sb.root.join("n.rs")).expect("n.rs"),
        want
    );
    assert!(!sb.root.join("m.rs").exists());
}

#[test]
fn only_the_chunks_whose_lines_changed_are_named_with_fresh_context() {
    // One hunk, three chunks; the disk changed the line of chunk 2 only.
    let disk = LONG.replace("let y = 2;", "let y = 20;");
    let sb = long_read_then_change(&disk);
    let patch = "*** Begin Patch\n*** Update File: m.rs\n@@ fn a() {\n-    let x = 1;\n+    let x = 10;\n@@ fn b() {\n-    let y = 2;\n+    let y = 0;\n@@ fn c() {\n-    let z = 3;\n+    let z = 30;\n*** End Patch\n";
    let out = sb.run(
        &["--json", "edit", "--dialect", "apply-patch"],
        patch.as_bytes(),
    );
    let json = out.json();
    assert_eq!(json["code"], "E_STALE_ANCHOR", "{json}");
    let msg = json["text"].as_str().unwrap_or_default();
    assert!(msg.contains("the lines chunk 2 of m.rs matched"), "{msg}");
    assert!(
        !msg.contains("chunk 1 of") && !msg.contains("chunk 3 of"),
        "{msg}"
    );
    assert!(msg.contains("     6\t    let y = 20;"), "{msg}");
    assert!(msg.contains("other chunks would carry over"), "{msg}");
    assert_eq!(text(&sb), disk, "nothing written");

    // The same across two hunks: the second hunk's chunk is named, with the disk's lines.
    let sb = long_read_then_change(&disk);
    let patch = "*** Begin Patch\n*** Update File: m.rs\n@@ fn a() {\n-    let x = 1;\n+    let x = 10;\n*** Update File: m.rs\n@@ fn b() {\n-    let y = 2;\n+    let y = 0;\n*** End Patch\n";
    let out = sb.run(
        &["--json", "edit", "--dialect", "apply-patch"],
        patch.as_bytes(),
    );
    let json = out.json();
    assert_eq!(json["code"], "E_STALE_ANCHOR", "{json}");
    let msg = json["text"].as_str().unwrap_or_default();
    assert!(msg.contains("the lines chunk 2 of m.rs matched"), "{msg}");
    assert!(msg.contains("Lines 2-10 of m.rs now read"), "{msg}");
    assert!(msg.contains("     6\t    let y = 20;"), "{msg}");
    assert_eq!(text(&sb), disk, "nothing written");
}
