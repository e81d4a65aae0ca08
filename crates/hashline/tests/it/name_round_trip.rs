//! Names round-trip (issue 28): every name `read` prints is read back by `edit` exactly, white
//! space included. `read` quotes a name that starts or ends with white space in its
//! `¶PATH#TAG` header (the parser would trim it bare), and the parser keeps white space
//! inside quotes, so an edit of ` notes.txt` never lands on `notes.txt`. The JSON dialects'
//! paths are JSON strings, taken as they are.

use crate::support;

use std::fs;

use support::sandbox::Sandbox;

/// `notes.txt` and ` notes.txt` (and `notes.txt `) side by side.
fn setup() -> Sandbox {
    let sb = Sandbox::new();
    sb.put("notes.txt", b"plain\n");
    sb.put(" notes.txt", b"leading\n");
    sb.put("notes.txt ", b"trailing\n");
    sb
}

fn contents(sb: &Sandbox) -> [Vec<u8>; 3] {
    ["notes.txt", " notes.txt", "notes.txt "].map(|n| fs::read(sb.root.join(n)).expect(n))
}

#[test]
fn the_header_read_prints_edits_that_file_only() {
    let sb = setup();
    for (name, old, want) in [
        (
            " notes.txt",
            "leading",
            [&b"plain\n"[..], b"LEADING\n", b"trailing\n"],
        ),
        (
            "notes.txt ",
            "trailing",
            [&b"plain\n"[..], b"LEADING\n", b"TRAILING\n"],
        ),
    ] {
        let read = sb.run(&["read", name], b"");
        assert_eq!(read.code, 0, "{read:?}");
        let header = read.stdout.lines().next().expect("header").to_owned();
        assert!(header.starts_with(&format!("¶\"{name}\"#")), "{header}");
        let patch = format!("{header}\nreplace 1..1:\n+{}\n", old.to_uppercase());
        let edit = sb.run(&["edit", "--dialect", "hashline"], patch.as_bytes());
        assert_eq!(edit.code, 0, "{name:?}: {edit:?}");
        // The reply's header names the same file, quoted the same way.
        assert!(
            edit.stdout.starts_with(&format!("¶\"{name}\"#")),
            "{edit:?}"
        );
        assert_eq!(contents(&sb), want.map(<[u8]>::to_vec), "{name:?}");
    }
}

#[test]
fn json_dialects_take_the_path_as_written() {
    let sb = setup();
    let read = sb.run(&["read", " notes.txt", "--anchors", "lineid"], b"");
    assert_eq!(read.code, 0, "{read:?}");
    let anchor = read
        .stdout
        .lines()
        .find_map(|l| l.split_once('|').map(|(a, _)| a.to_owned()))
        .expect("anchor");
    let request = format!(
        r#"{{"filePath":" notes.txt","edits":[{{"op":"replace","pos":"{anchor}","lines":["L"]}}]}}"#
    );
    let edit = sb.run(&["edit", "--dialect", "lineid-json"], request.as_bytes());
    assert_eq!(edit.code, 0, "{edit:?}");
    assert_eq!(
        contents(&sb),
        [b"plain\n".to_vec(), b"L\n".to_vec(), b"trailing\n".to_vec()]
    );
}
