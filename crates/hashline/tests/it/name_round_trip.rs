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

/// Names that print alike unless escaped: NFC and NFD `café`, a zero-width space, a
/// zero-width joiner, a byte order mark, a right-to-left mark, next to their plain twin.
const ALIKE: [(&str, &str); 6] = [
    ("caf\u{e9}.txt", "caf\u{e9}.txt"),
    ("cafe\u{301}.txt", "\"cafe\\u{301}.txt\""),
    ("ab.txt", "ab.txt"),
    ("a\u{200b}b.txt", "\"a\\u{200b}b.txt\""),
    ("a\u{200d}b.txt", "\"a\\u{200d}b.txt\""),
    ("\u{feff}ab\u{200f}.txt", "\"\\u{feff}ab\\u{200f}.txt\""),
];

#[test]
fn names_that_print_alike_are_escaped_and_edit_their_own_file() {
    let sb = Sandbox::new();
    for (k, (name, _)) in ALIKE.iter().enumerate() {
        sb.put(name, format!("file {k}\n").as_bytes());
    }
    let mut headers = Vec::new();
    for (k, (name, shown)) in ALIKE.iter().enumerate() {
        let read = sb.run(&["read", name], b"");
        assert_eq!(read.code, 0, "{name:?}: {read:?}");
        let header = read.stdout.lines().next().expect("header").to_owned();
        assert!(
            header.starts_with(&format!("¶{shown}#")),
            "{name:?}: {header}"
        );
        // The header holds nothing invisible: what the model sees is what it names.
        assert!(
            !header.contains(['\u{200b}', '\u{200d}', '\u{feff}', '\u{200f}', '\u{301}']),
            "{header:?}"
        );
        let patch = format!("{header}\nreplace 1..1:\n+edited {k}\n");
        let edit = sb.run(&["edit", "--dialect", "hashline"], patch.as_bytes());
        assert_eq!(edit.code, 0, "{name:?}: {edit:?}");
        assert!(
            edit.stdout.starts_with(&format!("¶{shown}#")),
            "{name:?}: {edit:?}"
        );
        headers.push(header);
    }
    for (k, (name, _)) in ALIKE.iter().enumerate() {
        let now = fs::read_to_string(sb.root.join(name)).expect("read back");
        assert_eq!(now, format!("edited {k}\n"), "{name:?}");
    }
    let mut names: Vec<&str> = headers
        .iter()
        .map(|h| h.rsplit_once('#').map_or(h.as_str(), |(n, _)| n))
        .collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), ALIKE.len(), "{headers:?}");
}

#[test]
fn ast_edit_previews_name_alike_files_apart() {
    let sb = Sandbox::new();
    sb.put("caf\u{e9}.js", b"let a = void 0;\n");
    sb.put("cafe\u{301}.js", b"let b = void 0;\n");
    let preview = sb.run(&[&crate::support::cli::VOID_0[..], &["."]].concat(), b"");
    assert_eq!(preview.code, 0, "{preview:?}");
    assert!(
        preview.stdout.contains("caf\u{e9}.js") && preview.stdout.contains("cafe\\u{301}.js"),
        "{}",
        preview.stdout
    );
    assert!(!preview.stdout.contains('\u{301}'), "{}", preview.stdout);
}

#[test]
fn a_directory_view_lists_alike_names_apart() {
    let sb = Sandbox::new();
    for (name, _) in ALIKE {
        sb.put(&format!("d/{name}"), b"x\n");
    }
    let view = sb.run(
        &["edit", "--dialect", "str-replace"],
        br#"{"command":"view","path":"d"}"#,
    );
    assert_eq!(view.code, 0, "{view:?}");
    for shown in [
        "d/caf\u{e9}.txt",
        "d/cafe\\u{301}.txt",
        "d/ab.txt",
        "d/a\\u{200b}b.txt",
        "d/a\\u{200d}b.txt",
        "d/\\u{feff}ab\\u{200f}.txt",
    ] {
        assert!(
            view.stdout.lines().any(|l| l == shown),
            "{shown:?} in {}",
            view.stdout
        );
    }
}
