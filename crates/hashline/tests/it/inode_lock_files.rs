//! The lock file of a hard-linked file's inode (`hashline-inode-<dev>-<ino>.lock`, taken so
//! that edits through different links serialize) is removed by its holder when it lets go:
//! editing and reading 50 distinct hard-linked files leaves none behind in the lock directory
//! (issue 28), where before every hard-linked file ever edited left one. The slot files stay
//! (at most 256).
#![cfg(unix)]

use crate::support;

use std::fs;
use std::path::Path;

use support::cli::hashline_env;
use support::sandbox::Sandbox;

fn lock_files(dir: &Path, prefix: &str) -> usize {
    fs::read_dir(dir).map_or(0, |entries| {
        entries
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
            .count()
    })
}

#[test]
fn editing_fifty_hard_linked_files_leaves_no_inode_lock_files() {
    let sb = Sandbox::new();
    let tmp = sb.root.with_file_name("tmp");
    fs::create_dir_all(&tmp).expect("tmp");
    let tmpdir = tmp.display().to_string();
    let env = [("TMPDIR", tmpdir.as_str())];
    let mut patch = String::from("*** Begin Patch\n");
    for n in 0..50 {
        sb.put(&format!("f{n}.txt"), format!("line {n}\n").as_bytes());
        fs::hard_link(
            sb.root.join(format!("f{n}.txt")),
            sb.root.join(format!("link{n}.txt")),
        )
        .expect("hard link");
        patch.push_str(&format!(
            "*** Update File: f{n}.txt\n@@\n-line {n}\n+LINE {n}\n"
        ));
    }
    patch.push_str("*** End Patch\n");
    // One call that rewrites all 50 in place, then one call per file through its other name.
    let out = hashline_env(
        &sb.root,
        &sb.state,
        &["edit", "--dialect", "apply-patch"],
        patch.as_bytes(),
        &env,
    );
    assert_eq!(out.code, 0, "{out:?}");
    for n in 0..50 {
        let edit = format!(
            "*** Begin Patch\n*** Update File: link{n}.txt\n@@\n-LINE {n}\n+line {n} again\n*** End Patch\n"
        );
        let out = hashline_env(
            &sb.root,
            &sb.state,
            &["edit", "--dialect", "apply-patch"],
            edit.as_bytes(),
            &env,
        );
        assert_eq!(out.code, 0, "{out:?}");
        let read = hashline_env(
            &sb.root,
            &sb.state,
            &["read", &format!("f{n}.txt")],
            b"",
            &env,
        );
        assert!(read.stdout.contains(&format!("line {n} again")), "{read:?}");
    }
    let locks = tmp.join("hashline-locks");
    assert!(
        lock_files(&locks, "hashline-slot-") > 0,
        "the locks were taken here"
    );
    assert_eq!(lock_files(&locks, "hashline-inode-"), 0);
    // Still one file behind both names.
    assert_eq!(
        fs::read(sb.root.join("link7.txt")).expect("link"),
        b"line 7 again\n"
    );
}
