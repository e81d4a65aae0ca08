//! A file without write permission is never changed, in any dialect: a rename would replace it
//! all the same (only the directory's permission counts), so every edit of it is refused with
//! `E_PERMISSION_DENIED` (exit 1) and the file keeps its bytes and mode. Runs as root too: the
//! check is on the mode bits, not on what the process may do.
#![cfg(unix)]

use crate::support;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use support::sandbox::Sandbox;

const TEXT: &str = "alpha\nbeta\n";

fn read_only_file(root: &Path) {
    let path = root.join("ro.txt");
    fs::write(&path, TEXT).expect("write");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).expect("chmod");
}

fn assert_untouched(root: &Path) {
    let path = root.join("ro.txt");
    assert_eq!(fs::read_to_string(&path).expect("read"), TEXT);
    let mode = fs::metadata(&path).expect("meta").permissions().mode();
    assert_eq!(mode & 0o777, 0o444);
    let names: Vec<String> = fs::read_dir(root)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["ro.txt"], "no temp file is left behind");
}

#[test]
fn every_dialect_refuses_to_change_a_read_only_file() {
    let sb = Sandbox::new();
    let root = sb.root.as_path();
    read_only_file(root);
    let run = |args: &[&str], stdin: &str| sb.run(args, stdin.as_bytes());

    // hashline language: read for the tag, then a patch.
    let read = run(&["read", "ro.txt"], "");
    assert_eq!(read.code, 0, "{}", read.stderr);
    let header = read.stdout.lines().next().expect("header").to_owned();
    let patch = format!("{header}\nreplace 1..1:\n+ALPHA\n");
    let out = run(&["--json", "edit", "-"], &patch).json();
    assert_eq!(out["code"], "E_PERMISSION_DENIED", "{out}");
    assert!(
        out["text"].as_str().unwrap_or("").contains("ro.txt"),
        "{out}"
    );
    let plain = run(&["edit", "-"], &patch);
    assert_eq!(plain.code, 1, "a refusal, not a tool failure: {plain:?}");
    assert!(plain.stdout.contains("read-only"), "{plain:?}");
    assert_untouched(root);

    // hash-json: the seed's own message.
    let rows = run(&["read", "ro.txt", "--anchors", "hash"], "");
    let hash = rows.stdout.split(':').next().expect("hash").to_owned();
    let request = format!(
        r#"{{"path":"ro.txt","edits":[{{"op":"replace","pos":"{hash}","lines":["ALPHA"]}}]}}"#
    );
    let hj = run(&["edit", "--dialect", "hash-json", "-"], &request);
    assert_eq!(hj.code, 1, "{hj:?}");
    assert!(hj.stdout.contains("File is not writable: ro.txt"), "{hj:?}");
    assert_untouched(root);

    // lineid-json: an edit and a delete.
    let ids = run(&["read", "ro.txt", "--anchors", "lineid"], "");
    let anchor = ids.stdout.split('|').next().expect("anchor").to_owned();
    let edit = format!(
        r#"{{"filePath":"ro.txt","edits":[{{"op":"replace","pos":"{anchor}","lines":["ALPHA"]}}]}}"#
    );
    let li = run(&["--json", "edit", "--dialect", "lineid-json", "-"], &edit).json();
    assert_eq!(li["code"], "E_PERMISSION_DENIED", "{li}");
    let delete = r#"{"filePath":"ro.txt","delete":true}"#;
    let del = run(&["--json", "edit", "--dialect", "lineid-json", "-"], delete).json();
    assert_eq!(del["code"], "E_PERMISSION_DENIED", "{del}");
    assert_untouched(root);

    // write: replacing the whole file is a change too.
    let w = run(&["--json", "write", "ro.txt", "-"], "other\n").json();
    assert_eq!(w["code"], "E_PERMISSION_DENIED", "{w}");
    assert_untouched(root);

    // --dry-run only validates: it shows the diff and writes nothing, so it is not refused.
    let dry = run(&["edit", "--dry-run", "-"], &patch);
    assert_eq!(dry.code, 0, "{dry:?}");
    assert_untouched(root);
}
