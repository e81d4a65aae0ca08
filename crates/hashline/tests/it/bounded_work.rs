//! Work and resources bounded whatever the size of the request (issue 28 §6), through the real
//! binary: a commit of a thousand files under a low file-descriptor limit, an ast-edit of many
//! matches whose preview stays a page, a stale edit carried over an outside change on every
//! other line, and an apply-patch chunk of thousands of repeated lines. No timing threshold:
//! the quadratic shapes these replaced are checked by counting work in the unit tests
//! (`apply_patch::seek`, `diff`), here the results are checked.

use crate::support;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use support::sandbox::Sandbox;

/// `hashline --root ROOT --state STATE ARGS…` under `ulimit -n LIMIT` (a bash child that
/// lowers the limit and execs the binary); exit code, stdout, stderr.
fn under_fd_limit(sb: &Sandbox, limit: usize, args: &[&str]) -> (i32, String, String) {
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("ulimit -n {limit} && exec \"$@\""))
        .arg("hashline")
        .arg(env!("CARGO_BIN_EXE_hashline"))
        .arg("--root")
        .arg(&sb.root)
        .arg("--state")
        .arg(&sb.state)
        .args(args)
        .env_remove("HASHLINE_SESSION")
        .stdin(Stdio::null())
        .output()
        .expect("run bash");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A patch updating line 2 of each of `files` files (`d<k>/f<i>.txt`, ten directories).
fn many_files(sb: &Sandbox, files: usize) -> String {
    many_files_in(sb, files, 10)
}

/// A patch updating line 2 of each of `files` files (`d<k>/f<i>.txt`, `dirs` directories).
fn many_files_in(sb: &Sandbox, files: usize, dirs: usize) -> String {
    let mut patch = String::from("*** Begin Patch\n");
    for i in 0..files {
        let path = format!("d{}/f{i}.txt", i % dirs);
        sb.put(
            &path,
            format!("alpha {i}\nbeta {i}\ngamma {i}\n").as_bytes(),
        );
        patch.push_str(&format!(
            "*** Update File: {path}\n@@\n alpha {i}\n-beta {i}\n+BETA {i}\n gamma {i}\n"
        ));
    }
    patch.push_str("*** End Patch\n");
    patch
}

#[test]
fn a_thousand_file_commit_lands_under_a_low_descriptor_limit() {
    // Before, a commit held about three descriptors a file (a directory handle, a backup and
    // a temp file) until its end: 300 files failed under `ulimit -n 1024`. Now the lock slots
    // (at most 256), one handle a directory and 32 files being synced at a time.
    let sb = Sandbox::new();
    let file = write_beside(&sb, "many.patch", &many_files(&sb, 1_000));
    let (code, stdout, stderr) =
        under_fd_limit(&sb, 400, &["edit", "--dialect", "apply-patch", &file]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    for i in [0usize, 1, 499, 999] {
        let text =
            fs::read_to_string(sb.root.join(format!("d{}/f{i}.txt", i % 10))).expect("read file");
        assert_eq!(text, format!("alpha {i}\nBETA {i}\ngamma {i}\n"));
    }
    // And it is one call: one undo puts every file back.
    let undo = sb.run(&["undo"], b"");
    assert_eq!(undo.code, 0, "{undo:?}");
    let text = fs::read_to_string(sb.root.join("d9/f999.txt")).expect("read file");
    assert_eq!(text, "alpha 999\nbeta 999\ngamma 999\n");
}

#[test]
fn a_commit_into_a_thousand_directories_lands_under_a_low_descriptor_limit() {
    // One handle a directory held to the end of the commit needed `ulimit -n` 1,285 for a
    // thousand directories; now at most 64 stay open and a closed one is opened again (checked
    // to be the same directory) when needed.
    let sb = Sandbox::new();
    let file = write_beside(&sb, "many.patch", &many_files_in(&sb, 1_000, 1_000));
    let (code, stdout, stderr) =
        under_fd_limit(&sb, 400, &["edit", "--dialect", "apply-patch", &file]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    for i in [0usize, 1, 499, 999] {
        let text = fs::read_to_string(sb.root.join(format!("d{i}/f{i}.txt"))).expect("read file");
        assert_eq!(text, format!("alpha {i}\nBETA {i}\ngamma {i}\n"));
    }
    let (code, stdout, stderr) = under_fd_limit(&sb, 400, &["undo"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let text = fs::read_to_string(sb.root.join("d999/f999.txt")).expect("read file");
    assert_eq!(text, "alpha 999\nbeta 999\ngamma 999\n");
}

#[test]
fn a_failing_file_late_in_a_big_commit_still_writes_nothing() {
    let sb = Sandbox::new();
    let mut patch = many_files(&sb, 300);
    // The last file's context is not there: the whole request is refused.
    patch = patch.replace("-beta 299\n", "-beta 29x\n");
    let file = write_beside(&sb, "many.patch", &patch);
    let (code, _, _) = under_fd_limit(&sb, 400, &["edit", "--dialect", "apply-patch", &file]);
    assert_ne!(code, 0);
    let text = fs::read_to_string(sb.root.join("d0/f0.txt")).expect("read file");
    assert_eq!(text, "alpha 0\nbeta 0\ngamma 0\n");
}

#[test]
fn an_ast_edit_of_many_matches_previews_a_page_and_applies_them_all() {
    const MATCHES: usize = 20_000;
    let sb = Sandbox::new();
    let source: String = (0..MATCHES)
        .map(|i| format!("let x{i} = foo({i}, void 0);\n"))
        .collect();
    sb.put("a.js", source.as_bytes());
    let preview = sb.run(&[&crate::support::cli::VOID_0[..], &["a.js"]].concat(), b"");
    assert_eq!(preview.code, 0, "{}", preview.stderr);
    // A page of rows (64 KiB) and the count of the rest, not 40 bytes a match.
    assert!(
        preview.stdout.len() < 72 * 1024,
        "{} bytes",
        preview.stdout.len()
    );
    let shown = preview
        .stdout
        .lines()
        .filter(|l| l.starts_with("[1:"))
        .count();
    assert!(shown > 100, "{shown} matches shown");
    assert!(
        preview.stdout.contains(&format!(
            "… {} more matches not shown ({MATCHES} in all)",
            MATCHES - shown
        )),
        "{}",
        &preview.stdout[preview.stdout.len().saturating_sub(400)..]
    );
    let apply = sb.run(&["resolve", "apply"], b"");
    assert_eq!(apply.code, 0, "{apply:?}");
    let text = fs::read_to_string(sb.root.join("a.js")).expect("read a.js");
    assert!(!text.contains("void 0"));
    assert_eq!(text.matches(", undefined);").count(), MATCHES);
}

/// Line `i` of the stale-merge file.
fn line(i: usize) -> String {
    format!("export const v{i} = f({i}, \"k{}\");", i % 97)
}

#[test]
fn a_stale_edit_is_carried_over_a_change_on_every_other_line() {
    const LINES: usize = 30_000;
    let sb = Sandbox::new();
    let original: String = (1..=LINES).map(|i| line(i) + "\n").collect();
    sb.put("e.ts", original.as_bytes());
    let read = sb.run(&["read", "e.ts", "--limit", "1"], b"");
    assert_eq!(read.code, 0, "{read:?}");
    let header = read.stdout.lines().next().expect("a header");
    let tag = header.rsplit_once('#').expect("a tag").1.trim();
    // Someone else changes every even line; line 15,001 (odd) is untouched.
    let changed: String = (1..=LINES)
        .map(|i| match i % 2 {
            0 => format!("{} // outside\n", line(i)),
            _ => line(i) + "\n",
        })
        .collect();
    sb.put("e.ts", changed.as_bytes());
    let n = LINES / 2 + 1;
    let edit = format!("¶e.ts#{tag}\nreplace {n}..{n}:\n+export const merged = 1;\n");
    let out = sb.run(&["edit"], edit.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    let text = fs::read_to_string(sb.root.join("e.ts")).expect("read e.ts");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[n - 1], "export const merged = 1;");
    assert_eq!(lines[n - 2], format!("{} // outside", line(n - 1)));
    assert_eq!(lines[n], format!("{} // outside", line(n + 1)));
    assert_eq!(lines.len(), LINES);
}

#[test]
fn an_apply_patch_chunk_of_thousands_of_repeated_lines_lands_once() {
    const LINES: usize = 40_000;
    const CHUNK: usize = 4_000;
    let sb = Sandbox::new();
    let mut lines = vec!["    }".to_string(); LINES];
    let end = LINES - 10;
    lines[end] = "    } // end".to_string();
    sb.put("e.ts", (lines.join("\n") + "\n").as_bytes());
    let mut patch = String::from("*** Begin Patch\n*** Update File: e.ts\n@@\n");
    for l in &lines[end + 1 - CHUNK..=end] {
        patch.push_str(&format!("-{l}\n+{l} // x\n"));
    }
    patch.push_str("*** End Patch\n");
    let file = write_beside(&sb, "chunk.patch", &patch);
    let out = sb.run(
        &[
            "edit",
            "--dialect",
            "apply-patch",
            "--allow-syntax-errors",
            &file,
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{out:?}");
    let text = fs::read_to_string(sb.root.join("e.ts")).expect("read e.ts");
    let got: Vec<&str> = text.lines().collect();
    assert_eq!(got[end], "    } // end // x");
    assert_eq!(got[end + 1 - CHUNK], "    } // x");
    assert_eq!(got[end - CHUNK], "    }");
    assert_eq!(got.iter().filter(|l| l.ends_with("// x")).count(), CHUNK);
}

/// Write `text` beside the root (outside it); its path.
fn write_beside(sb: &Sandbox, name: &str, text: &str) -> String {
    let dir: &Path = sb.root.parent().expect("temp dir");
    let file = dir.join(name);
    fs::write(&file, text).expect("write file");
    file.to_string_lossy().into_owned()
}
