//! Every path `read` prints is editable as printed (issue 13 item 2): a space, a `#` and a
//! non-ASCII name round-trip through the hashline dialect's `¶PATH#TAG` header, bare as `read`
//! prints it and quoted; a chained edit uses the header the edit's reply printed.

use crate::support;

use std::fs;

use support::sandbox::Sandbox;

fn header(out: &str) -> String {
    out.lines().next().expect("a header").to_owned()
}

#[test]
fn headers_with_spaces_hashes_and_unicode_round_trip() {
    for name in [
        "my file.txt",
        "dir with space/no#te.txt",
        "é ü 名前.txt",
        "a #b.txt",
    ] {
        let sb = Sandbox::new();
        sb.put(name, b"a\nb\n");
        let read = sb.run(&["read", name], b"");
        assert_eq!(read.code, 0, "{read:?}");
        let head = header(&read.stdout);
        assert_eq!(head, format!("¶{name}#9A46"));

        let patch = format!("{head}\nreplace 1..1:\n+X\n");
        let edit = sb.run(&["edit", "-"], patch.as_bytes());
        assert_eq!(edit.code, 0, "{name}: {edit:?}");
        // The reply's header is the next edit's, without a re-read.
        let next = header(&edit.stdout);
        assert!(next.starts_with(&format!("¶{name}#")), "{next}");
        let patch = format!("{next}\ninsert tail:\n+Z\n");
        let chained = sb.run(&["edit", "-"], patch.as_bytes());
        assert_eq!(chained.code, 0, "{name}: {chained:?}");

        // Quoted, as a model may write a path with spaces.
        let tag = &header(&chained.stdout)[name.len() + 2..];
        let patch = format!("¶\"{name}\"{tag}\ndelete 2\n");
        let quoted = sb.run(&["edit", "-"], patch.as_bytes());
        assert_eq!(quoted.code, 0, "{name}: {quoted:?}");
        let now = fs::read_to_string(sb.root.join(name)).expect("read back");
        assert_eq!(now, "X\nZ\n", "{name}");
    }
}

#[test]
fn a_space_before_the_tag_is_still_refused() {
    let sb = Sandbox::new();
    sb.put("a.ts", b"a\n");
    let edit = sb.run(&["edit", "-"], b"\xc2\xb6a.ts #9A46\nreplace 1..1:\n+X\n");
    assert_eq!(edit.code, 1, "{edit:?}");
    assert_eq!(fs::read(sb.root.join("a.ts")).expect("read"), b"a\n");
}
