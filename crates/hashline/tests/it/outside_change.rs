//! After an outside change (a formatter, `sed -i`) to a file the session edited or viewed,
//! a request written against the disk as it is now lands, in apply-patch and str-replace:
//! Codex never calls `read`, and the text the model copied is in the file.

use crate::support;

use std::fs;

use support::sandbox::Sandbox;

fn text(sb: &Sandbox, path: &str) -> String {
    fs::read_to_string(sb.root.join(path)).expect("file")
}

#[test]
fn apply_patch_matches_the_disk_after_an_outside_change() {
    let sb = Sandbox::new();
    sb.put("m.rs", b"fn a() {\n    let x = 1;\n    let y = 2;\n}\n");
    let first = "*** Begin Patch\n*** Update File: m.rs\n@@\n-    let x = 1;\n+    let x = 10;\n*** End Patch\n";
    assert_eq!(
        sb.run(&["edit", "--dialect", "apply-patch"], first.as_bytes())
            .code,
        0
    );
    // A formatter changes a line the session's version does not have.
    sb.put("m.rs", b"fn a() {\n    let x = 10;\n    let y  =  2;\n}\n");
    let second = "*** Begin Patch\n*** Update File: m.rs\n@@\n     let x = 10;\n-    let y  =  2;\n+    let y = 3;\n }\n*** End Patch\n";
    let out = sb.run(&["edit", "--dialect", "apply-patch"], second.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        text(&sb, "m.rs"),
        "fn a() {\n    let x = 10;\n    let y = 3;\n}\n"
    );
}

#[test]
fn apply_patch_written_on_the_version_read_is_still_carried() {
    // The other way round stays as it was: context from the version read, the disk changed
    // elsewhere, the edit is carried over.
    let sb = Sandbox::new();
    sb.put("m.rs", b"fn a() {\n    let x = 1;\n    let y = 2;\n}\n");
    assert_eq!(sb.run(&["read", "m.rs"], b"").code, 0);
    sb.put(
        "m.rs",
        b"// header\nfn a() {\n    let x = 1;\n    let y = 2;\n}\n",
    );
    let patch = "*** Begin Patch\n*** Update File: m.rs\n@@\n-    let y = 2;\n+    let y = 3;\n*** End Patch\n";
    let out = sb.run(&["edit", "--dialect", "apply-patch"], patch.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        text(&sb, "m.rs"),
        "// header\nfn a() {\n    let x = 1;\n    let y = 3;\n}\n"
    );
}

#[test]
fn str_replace_matches_the_disk_after_an_outside_change() {
    let sb = Sandbox::new();
    sb.put("p.py", b"a = 1\nb = 2\n");
    let view = br#"{"command":"view","path":"p.py"}"#;
    assert_eq!(sb.run(&["edit", "--dialect", "str-replace"], view).code, 0);
    sb.put("p.py", b"a = 1\nb  = 2\n");
    let req = br#"{"command":"str_replace","path":"p.py","old_str":"b  = 2","new_str":"b = 3"}"#;
    let out = sb.run(&["edit", "--dialect", "str-replace"], req);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stdout.contains("did not appear verbatim"), "{out:?}");
    assert_eq!(text(&sb, "p.py"), "a = 1\nb = 3\n");
}

#[test]
fn str_replace_with_old_str_missing_everywhere_is_still_refused() {
    let sb = Sandbox::new();
    sb.put("p.py", b"a = 1\nb = 2\n");
    let view = br#"{"command":"view","path":"p.py"}"#;
    assert_eq!(sb.run(&["edit", "--dialect", "str-replace"], view).code, 0);
    sb.put("p.py", b"a = 1\nb  = 2\n");
    let req = br#"{"command":"str_replace","path":"p.py","old_str":"c = 2","new_str":"c = 3"}"#;
    let out = sb.run(&["edit", "--dialect", "str-replace"], req);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(text(&sb, "p.py"), "a = 1\nb  = 2\n");
}

#[test]
fn str_replace_old_str_without_its_indentation_is_not_indented_twice() {
    let sb = Sandbox::new();
    sb.put("f.py", b"def f():\n    return 1\n");
    let view = br#"{"command":"view","path":"f.py"}"#;
    assert_eq!(sb.run(&["edit", "--dialect", "str-replace"], view).code, 0);
    let req =
        br#"{"command":"str_replace","path":"f.py","old_str":"return 1","new_str":"    return 2"}"#;
    let out = sb.run(&["--json", "edit", "--dialect", "str-replace"], req);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(out.json()["code"], "E_INDENTATION");
    assert_eq!(text(&sb, "f.py"), "def f():\n    return 1\n");
}
