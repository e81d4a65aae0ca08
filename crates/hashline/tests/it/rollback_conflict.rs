//! Rolling back a journal marked ROLLBACK (a process killed while undoing a failed commit)
//! checks for later changes as rolling forward does: a file that holds neither what the commit
//! wrote nor its old bytes was changed by another writer since the crash, and is left as it is
//! (`[W_RECOVERY_CONFLICT]`), never overwritten with the old bytes.
#![cfg(unix)]

use crate::support;

use std::fs;

use support::forge::{entry, forge_journal, plan, root, sealed};
use support::sandbox::Sandbox;

#[test]
fn rolling_back_leaves_a_file_changed_since_the_crash() {
    let sb = Sandbox::new();
    // One committed call, so the state directory's key exists.
    let seed = "*** Begin Patch\n*** Add File: seed.txt\n+seed\n*** End Patch\n";
    let out = sb.run(&["edit", "--dialect", "apply-patch"], seed.as_bytes());
    assert_eq!(out.code, 0, "{out:?}");
    // The killed commit had written both files; then another writer changed a.txt.
    sb.put("a.txt", b"later\n");
    sb.put("b.txt", b"new b\n");
    let root = root(&sb);
    let entries = [
        entry(
            &root.join("a.txt"),
            Some(b".hashline-4242-abc-0-0.tmp"),
            b"old a\n",
            b"new a\n",
            "old-0",
        ),
        entry(
            &root.join("b.txt"),
            Some(b".hashline-4242-abc-0-1.tmp"),
            b"old b\n",
            b"new b\n",
            "old-1",
        ),
    ];
    let text = sealed(&sb, "journal", &plan(&sb, &entries.join(",")));
    let journal = forge_journal(&sb, &text, "ROLLBACK");
    fs::write(journal.join("old-0"), b"old a\n").expect("backup");
    fs::write(journal.join("old-1"), b"old b\n").expect("backup");

    let out = sb.run(&["--json", "recover"], b"").json();
    assert_eq!(out["ok"], true, "{out}");
    let text = out["text"].as_str().expect("text");
    assert!(text.contains("1 rolled back"), "{text}");
    assert!(
        text.contains("[W_RECOVERY_CONFLICT]") && text.contains("a.txt"),
        "{text}"
    );
    assert!(!text.contains("b.txt"), "{text}");
    assert_eq!(fs::read(sb.root.join("a.txt")).expect("a"), b"later\n");
    assert_eq!(fs::read(sb.root.join("b.txt")).expect("b"), b"old b\n");
    assert!(!journal.exists(), "the journal is finished");
}
