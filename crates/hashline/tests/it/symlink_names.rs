//! Symlinks (issue 28): a deletion acts on the link itself, never on the file it points to;
//! a move of a link is refused (`E_SYMLINK`), and so is a link's deletion beside other
//! changes (a link's removal is no journaled file change, so it lands in a call of its own).
//! A link that points outside the root is deleted the same way (the link is below the root;
//! what it points to is neither read nor touched), and still lets nothing outside be edited.
#![cfg(unix)]

use crate::support;

use std::fs;
use std::os::unix::fs::symlink;

use support::sandbox::Sandbox;

const TARGET: &[u8] = b"target\n";

/// `t.txt`, `link -> t.txt` and `sub/l2 -> ../t.txt` in the root.
fn setup() -> Sandbox {
    let sb = Sandbox::new();
    sb.put("t.txt", TARGET);
    fs::create_dir_all(sb.root.join("sub")).expect("sub");
    symlink("t.txt", sb.root.join("link")).expect("link");
    symlink("../t.txt", sb.root.join("sub/l2")).expect("l2");
    sb
}

fn apply_patch(sb: &Sandbox, body: &str) -> support::cli::Run {
    let patch = format!("*** Begin Patch\n{body}*** End Patch\n");
    sb.run(
        &["--json", "edit", "--dialect", "apply-patch"],
        patch.as_bytes(),
    )
}

fn is_link(sb: &Sandbox, rel: &str) -> bool {
    fs::symlink_metadata(sb.root.join(rel)).is_ok_and(|m| m.file_type().is_symlink())
}

#[test]
fn apply_patch_delete_removes_the_link_not_its_target() {
    let sb = setup();
    for link in ["link", "sub/l2"] {
        let out = apply_patch(&sb, &format!("*** Delete File: {link}\n"));
        let json = out.json();
        assert_eq!(json["ok"], true, "{json}");
        assert!(!is_link(&sb, link), "{link} still there");
        assert_eq!(fs::read(sb.root.join("t.txt")).expect("t"), TARGET);
        assert!(
            json["warnings"].to_string().contains("W_UNDO_NOT_RECORDED"),
            "{json}"
        );
    }
    // Not undoable, and undo does not revert something older in its place.
    let undo = sb.run(&["--json", "undo"], b"");
    assert_eq!(undo.json()["code"], "E_UNDO_NOT_RECORDED", "{undo:?}");
}

#[test]
fn lineid_json_delete_removes_the_link_not_its_target() {
    let sb = setup();
    let read = sb.run(&["read", "link", "--anchors", "lineid"], b"");
    assert_eq!(read.code, 0, "{read:?}");
    let out = sb.run(
        &["--json", "edit", "--dialect", "lineid-json"],
        br#"{"filePath":"link","delete":true}"#,
    );
    assert_eq!(out.json()["ok"], true, "{out:?}");
    assert!(!is_link(&sb, "link"));
    assert_eq!(fs::read(sb.root.join("t.txt")).expect("t"), TARGET);
}

#[test]
fn a_move_through_a_link_is_refused_and_moves_nothing() {
    let sb = setup();
    let out = apply_patch(
        &sb,
        "*** Update File: link\n*** Move to: moved.txt\n@@\n-target\n+changed\n",
    );
    let json = out.json();
    assert_eq!(json["code"], "E_SYMLINK", "{json}");
    assert!(is_link(&sb, "link"));
    assert_eq!(fs::read(sb.root.join("t.txt")).expect("t"), TARGET);
    assert!(!sb.root.join("moved.txt").exists());

    let read = sb.run(&["read", "link", "--anchors", "lineid"], b"");
    assert_eq!(read.code, 0, "{read:?}");
    let id = read
        .stdout
        .lines()
        .find_map(|l| l.split_once('|').map(|(anchor, _)| anchor.to_owned()))
        .expect("an anchor");
    let request = format!(
        r#"{{"filePath":"link","rename":"moved.txt","edits":[{{"op":"replace","pos":"{id}","lines":["changed"]}}]}}"#
    );
    let out = sb.run(
        &["--json", "edit", "--dialect", "lineid-json"],
        request.as_bytes(),
    );
    assert_eq!(out.json()["code"], "E_SYMLINK", "{out:?}");
    assert!(is_link(&sb, "link"));
    assert_eq!(fs::read(sb.root.join("t.txt")).expect("t"), TARGET);
    assert!(!sb.root.join("moved.txt").exists());
}

#[test]
fn a_link_deletion_beside_other_changes_is_refused() {
    let sb = setup();
    let out = apply_patch(&sb, "*** Delete File: link\n*** Add File: new.txt\n+new\n");
    assert_eq!(out.json()["code"], "E_SYMLINK", "{out:?}");
    assert!(is_link(&sb, "link"));
    assert!(!sb.root.join("new.txt").exists());
    assert_eq!(fs::read(sb.root.join("t.txt")).expect("t"), TARGET);
}

#[test]
fn a_link_out_of_the_root_touches_nothing_outside() {
    let sb = setup();
    let outside = sb.root.parent().expect("parent").join("out.txt");
    fs::write(&outside, b"outside\n").expect("outside");
    symlink(&outside, sb.root.join("olink")).expect("olink");
    for body in [
        "*** Update File: olink\n@@\n-outside\n+changed\n",
        "*** Update File: olink\n*** Move to: moved.txt\n@@\n-outside\n+changed\n",
    ] {
        let out = apply_patch(&sb, body);
        assert_eq!(out.json()["code"], "E_OUTSIDE_ROOT", "{out:?}");
        assert_eq!(fs::read(&outside).expect("outside"), b"outside\n");
        assert!(is_link(&sb, "olink"));
    }
    let lineid = br#"{"filePath":"olink","edits":[{"op":"append","lines":["x"]}]}"#;
    let out = sb.run(&["--json", "edit", "--dialect", "lineid-json"], lineid);
    assert_eq!(out.json()["code"], "E_OUTSIDE_ROOT", "{out:?}");
    // A link below a directory that is itself a link out of the root is no link below it.
    let away = sb.root.parent().expect("parent").join("away");
    fs::create_dir_all(&away).expect("away");
    symlink(&outside, away.join("x")).expect("x");
    symlink(&away, sb.root.join("odir")).expect("odir");
    let out = apply_patch(&sb, "*** Delete File: odir/x\n");
    assert_eq!(out.json()["code"], "E_OUTSIDE_ROOT", "{out:?}");
    assert!(fs::symlink_metadata(away.join("x")).is_ok());
    assert_eq!(fs::read(&outside).expect("outside"), b"outside\n");
}

#[test]
fn deleting_a_link_out_of_the_root_removes_the_link_only() {
    let sb = setup();
    let outside = sb.root.parent().expect("parent").join("out.txt");
    fs::write(&outside, b"outside\n").expect("outside");
    symlink(&outside, sb.root.join("olink")).expect("olink");
    symlink("../../out.txt", sb.root.join("sub/o2")).expect("o2");
    symlink("/nonexistent/far", sb.root.join("dangling")).expect("dangling");
    for link in ["olink", "sub/o2", "dangling"] {
        let out = apply_patch(&sb, &format!("*** Delete File: {link}\n"));
        let json = out.json();
        assert_eq!(json["ok"], true, "{link}: {json}");
        assert!(!is_link(&sb, link), "{link} still there");
        assert_eq!(fs::read(&outside).expect("outside"), b"outside\n");
    }
    symlink(&outside, sb.root.join("olink")).expect("olink again");
    let out = sb.run(
        &["--json", "edit", "--dialect", "lineid-json"],
        br#"{"filePath":"olink","delete":true}"#,
    );
    assert_eq!(out.json()["ok"], true, "{out:?}");
    assert!(!is_link(&sb, "olink"));
    assert_eq!(fs::read(&outside).expect("outside"), b"outside\n");
    assert_eq!(fs::read(sb.root.join("t.txt")).expect("t"), TARGET);
}
