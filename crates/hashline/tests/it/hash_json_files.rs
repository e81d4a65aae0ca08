//! hash-json edits and writes on real files through the `hashline` binary: link chains and hard
//! links, several processes editing one file at once, an anchor of a deleted duplicate, and the
//! auto-read that `write --anchors hash` prints.

use crate::support;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::sync::Barrier;

use serde_json::{json, Value};
use support::sandbox::Sandbox;

/// The hash-json calls these tests make, on the shared [`Sandbox`].
impl Sandbox {
    /// `read PATH --anchors hash` in `session`: the `HASH:content` rows.
    fn read(&self, session: &str, path: &str) -> Vec<(String, String)> {
        let r = self.run(
            &["--session", session, "read", path, "--anchors", "hash"],
            b"",
        );
        assert_eq!(r.code, 0, "read {path}: {}{}", r.stdout, r.stderr);
        rows(&r.stdout)
    }

    /// `--json edit --dialect hash-json -` in `session`.
    fn edit(&self, session: &str, request: &Value) -> Value {
        let r = self.run(
            &[
                "--session",
                session,
                "--json",
                "edit",
                "--dialect",
                "hash-json",
                "-",
            ],
            request.to_string().as_bytes(),
        );
        let out = r.json();
        let ok = out["ok"].as_bool() == Some(true);
        assert_eq!(r.code, if ok { 0 } else { 1 }, "exit code of {out}");
        out
    }

    /// The names of every entry below the root (files, links, directories).
    fn listing(&self) -> BTreeSet<String> {
        support::tree::snapshot(&self.root).into_keys().collect()
    }
}

/// The `HASH:content` rows of a read output (up to the first blank line).
fn rows(text: &str) -> Vec<(String, String)> {
    text.split("\n\n")
        .next()
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(h, c)| (h.to_owned(), c.to_owned()))
        .collect()
}

/// The hash of the row showing `content` (the first one).
fn hash_of(rows: &[(String, String)], content: &str) -> String {
    rows.iter()
        .find(|(_, c)| c == content)
        .map(|(h, _)| h.clone())
        .unwrap_or_else(|| panic!("no row shows {content:?} in {rows:?}"))
}

fn replace(path: &str, hash: &str, lines: &[&str]) -> Value {
    json!({"path": path, "edits": [{"op": "replace", "start": hash, "end": hash, "lines": lines}]})
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).expect("metadata").permissions().mode() & 0o7777
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).expect("chmod");
}

#[cfg(unix)]
#[test]
fn edit_through_a_symlink_chain_keeps_the_links() {
    use std::os::unix::fs::symlink;
    let sb = Sandbox::new();
    let real = sb.root.join("real.txt");
    fs::write(&real, "one\ntwo\nthree\n").expect("write");
    set_mode(&real, 0o751);
    symlink("real.txt", sb.root.join("mid.lnk")).expect("link");
    symlink("mid.lnk", sb.root.join("top.lnk")).expect("link");
    let before = sb.listing();

    let rows = sb.read("s", "top.lnk");
    let out = sb.edit("s", &replace("top.lnk", &hash_of(&rows, "two"), &["TWO"]));
    assert_eq!(out["ok"], true, "{out}");

    assert_eq!(
        fs::read_to_string(&real).expect("read"),
        "one\nTWO\nthree\n"
    );
    assert_eq!(
        fs::read_link(sb.root.join("top.lnk")).expect("link"),
        Path::new("mid.lnk")
    );
    assert_eq!(
        fs::read_link(sb.root.join("mid.lnk")).expect("link"),
        Path::new("real.txt")
    );
    assert!(fs::symlink_metadata(&real).expect("meta").is_file());
    assert_eq!(mode(&real), 0o751, "permissions kept");
    assert_eq!(sb.listing(), before, "no temp file left, no entry replaced");

    // A chained edit through the other link uses the anchors of the first response.
    let fresh = rows_after_anchors(&out);
    let out = sb.edit("s", &replace("mid.lnk", &hash_of(&fresh, "three"), &["3"]));
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(fs::read_to_string(&real).expect("read"), "one\nTWO\n3\n");
    assert_eq!(sb.listing(), before);

    // Read through one link, a line inserted above by another tool, edit through the other
    // link with the old anchors: the session's read is found under the real file and the edit
    // is carried onto the disk text (DEVIATIONS §1), even for a position-hashed `}`.
    fs::write(
        &real, "a
}
b
}
",
    )
    .expect("write");
    let rows = sb.read("s", "top.lnk");
    fs::write(
        &real,
        "zero
a
}
b
}
",
    )
    .expect("external write");
    let last_brace = rows[3].0.clone();
    let out = sb.edit("s", &replace("mid.lnk", &last_brace, &["};"]));
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(
        fs::read_to_string(&real).expect("read"),
        "zero\na\n}\nb\n};\n"
    );
    assert_eq!(mode(&real), 0o751);
    assert_eq!(sb.listing(), before);
}

/// The rows of an applied edit's `--- Anchors ---` block.
fn rows_after_anchors(out: &Value) -> Vec<(String, String)> {
    let text = out["text"].as_str().unwrap_or_default();
    rows(text.strip_prefix("--- Anchors ---\n").unwrap_or(text))
}

#[cfg(unix)]
#[test]
fn edit_through_one_of_two_hard_links_keeps_the_inode() {
    use std::os::unix::fs::MetadataExt;
    let sb = Sandbox::new();
    let a = sb.root.join("a.txt");
    let b = sb.root.join("b.txt");
    fs::write(&a, "alpha\nbeta\r\ngamma\n").expect("write");
    set_mode(&a, 0o604);
    fs::hard_link(&a, &b).expect("hard link");
    let ino = fs::metadata(&a).expect("meta").ino();
    let before = sb.listing();

    let rows = sb.read("s", "b.txt");
    let out = sb.edit("s", &replace("b.txt", &hash_of(&rows, "beta"), &["BETA"]));
    assert_eq!(out["ok"], true, "{out}");

    let want = "alpha\nBETA\r\ngamma\n";
    assert_eq!(fs::read_to_string(&b).expect("read"), want);
    assert_eq!(
        fs::read_to_string(&a).expect("read"),
        want,
        "the other link sees it"
    );
    for p in [&a, &b] {
        let meta = fs::metadata(p).expect("meta");
        assert_eq!(meta.ino(), ino, "{} is still the same inode", p.display());
        assert_eq!(meta.nlink(), 2);
        assert_eq!(mode(p), 0o604, "permissions kept");
    }
    assert_eq!(sb.listing(), before, "no temp file left");
}

/// What each process does to its own slot line in one round.
fn slot_request(path: &str, hash: &str, k: usize, round: usize) -> (Value, String, Option<String>) {
    let new = format!("slot {k} = r{round}");
    let note = (round % 2 == 1).then(|| format!("  note {k} r{round}"));
    let mut edits = vec![json!({"op": "replace", "start": hash, "end": hash, "lines": [new]})];
    if let Some(n) = &note {
        edits.push(json!({"op": "append", "pos": hash, "lines": [n]}));
    }
    (json!({"path": path, "edits": edits}), new, note)
}

/// The model of the shared file: each process owns one slot line and the notes below it.
fn render_slots(slots: &[(String, Vec<String>)]) -> String {
    let mut text = String::from("header\n");
    for (line, notes) in slots {
        text.push_str(line);
        text.push('\n');
        for n in notes {
            text.push_str(n);
            text.push('\n');
        }
    }
    text.push_str("footer\n");
    text
}

/// Six `hashline` processes at once, each in its own session, read `shared.txt` through
/// `names[k % names.len()]` and edit their own slot with anchors from that read; five rounds.
/// Every edit lands intact or is refused as stale, and the file holds exactly the landed ones.
fn concurrent_rounds(sb: &Sandbox, names: &[&str]) {
    const PROCS: usize = 6;
    const ROUNDS: usize = 5;
    let file = sb.root.join("shared.txt");
    let mut slots: Vec<(String, Vec<String>)> = (0..PROCS)
        .map(|k| (format!("slot {k} = r0"), Vec::new()))
        .collect();
    fs::write(&file, render_slots(&slots)).expect("write");
    let listing = sb.listing();
    let (mut landed, mut stale) = (0usize, 0usize);

    for round in 1..=ROUNDS {
        let barrier = Barrier::new(PROCS);
        let current: Vec<String> = slots.iter().map(|(l, _)| l.clone()).collect();
        let results: Vec<(bool, Value, String, Option<String>)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..PROCS)
                .map(|k| {
                    let (barrier, mine, name) = (&barrier, &current[k], names[k % names.len()]);
                    scope.spawn(move || {
                        let session = format!("p{k}");
                        barrier.wait();
                        let rows = sb.read(&session, name);
                        let (req, new, note) = slot_request(name, &hash_of(&rows, mine), k, round);
                        let out = sb.edit(&session, &req);
                        (out["ok"] == true, out, new, note)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("worker"))
                .collect()
        });
        for (k, (ok, out, new, note)) in results.into_iter().enumerate() {
            if ok {
                landed += 1;
                slots[k].0 = new;
                if let Some(n) = note {
                    slots[k].1.insert(0, n);
                }
            } else {
                stale += 1;
                // A replace-only round touches no line another process changes: the merge
                // onto the disk text must place it (DEVIATIONS §1), never refuse it.
                assert!(round % 2 == 1, "round {round}, p{k} refused: {out}");
                assert_eq!(out["code"], "E_STALE_ANCHOR", "round {round}, p{k}: {out}");
                let text = out["text"].as_str().unwrap_or_default();
                assert!(text.starts_with("[E_STALE_ANCHOR]"), "{text}");
            }
        }
        assert_eq!(
            fs::read_to_string(&file).expect("read"),
            render_slots(&slots),
            "after round {round}: every landed edit is there, intact, and nothing else changed"
        );
        assert_eq!(sb.listing(), listing, "no temp file left");
    }
    println!("concurrent hash-json edits via {names:?}: {landed} landed, {stale} refused as stale");
    assert!(landed > 0, "at least the first edit of each round lands");
}

#[test]
fn concurrent_processes_never_lose_a_landed_edit() {
    concurrent_rounds(&Sandbox::new(), &["shared.txt"]);
}

#[cfg(unix)]
#[test]
fn concurrent_processes_through_hard_links_and_a_symlink() {
    let sb = Sandbox::new();
    fs::write(sb.root.join("shared.txt"), "").expect("write");
    fs::hard_link(sb.root.join("shared.txt"), sb.root.join("twin.txt")).expect("hard link");
    std::os::unix::fs::symlink("twin.txt", sb.root.join("link.txt")).expect("symlink");
    concurrent_rounds(&sb, &["shared.txt", "twin.txt", "link.txt"]);
}

#[test]
fn anchor_of_a_deleted_duplicate_is_refused_not_retargeted() {
    let original = "alpha\nfoo\nbeta\nfoo\ngamma\n";
    let external = "alpha\nbeta\nfoo\ngamma\n";
    let sb = Sandbox::new();
    let file = sb.root.join("dup.txt");
    fs::write(&file, original).expect("write");
    let rows = sb.read("s", "dup.txt");
    let first_foo = rows[1].0.clone();
    assert_eq!(rows[1].1, "foo");
    assert_ne!(first_foo, rows[3].0, "the two copies hash apart");

    // Another tool deletes the first copy; the old anchor of that copy now names the survivor.
    fs::write(&file, external).expect("external write");
    let out = sb.edit("s", &replace("dup.txt", &first_foo, &["FOO"]));
    assert_eq!(out["ok"], false, "{out}");
    assert_eq!(out["code"], "E_STALE_ANCHOR", "{out}");
    assert_eq!(
        fs::read_to_string(&file).expect("read"),
        external,
        "the surviving line is untouched"
    );

    // The refusal's fresh anchors are a read of the disk: a retry with them lands.
    let text = out["text"].as_str().unwrap_or_default();
    let fresh: Vec<(String, String)> = text
        .lines()
        .filter_map(|l| l.strip_prefix(">>> "))
        .filter_map(|l| l.split_once(':'))
        .map(|(h, c)| (h.to_owned(), c.to_owned()))
        .collect();
    let survivor = hash_of(&fresh, "foo");
    let out = sb.edit("s", &replace("dup.txt", &survivor, &["FOO"]));
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(
        fs::read_to_string(&file).expect("read"),
        "alpha\nbeta\nFOO\ngamma\n"
    );

    // Without the recorded read the peer's behaviour stands (DEVIATIONS §1): the anchor resolves
    // against the disk, where it names the survivor.
    let fresh_sb = Sandbox::new();
    fs::write(fresh_sb.root.join("dup.txt"), external).expect("write");
    let out = fresh_sb.edit("never-read", &replace("dup.txt", &first_foo, &["FOO"]));
    assert_eq!(out["ok"], true, "{out}");
}

#[test]
fn write_prints_the_seed_auto_read() {
    let sb = Sandbox::new();
    let w = sb.run(
        &["write", "new/a.txt", "--anchors", "hash"],
        b"function hello() {\n  console.log(\"world\");\n}\n",
    );
    assert_eq!(w.code, 0, "{}{}", w.stdout, w.stderr);
    assert_eq!(
        w.stdout,
        "Successfully wrote 45 bytes to new/a.txt\n\n--- Auto-read (hashline anchors) ---\n\
         0qH3:function hello() {\nszJr:  console.log(\"world\");\n_zlP:}\n"
    );
    // The anchors it printed are recorded: an edit with them lands.
    let out = sb.edit("default", &replace("new/a.txt", "szJr", &["  return 1;"]));
    assert_eq!(out["ok"], true, "{out}");

    // The block is hashline_apply's auto-read of the written text (BOM-free, LF), capped at
    // 2000 lines with the seed's hint; an empty file gets no block.
    let big: String = (1..=2001).map(|i| format!("line {i}\r\n")).collect();
    let w = sb.run(
        &["--json", "write", "big.txt", "--anchors", "hash"],
        format!("\u{feff}{big}").as_bytes(),
    );
    let out = w.json();
    let normalized = big.replace("\r\n", "\n");
    assert_eq!(
        out["text"],
        format!(
            "Successfully wrote {} bytes to big.txt{}",
            big.len() + 3,
            hashline_apply::hash_json::render_anchors(&normalized)
        )
    );
    assert!(out["text"]
        .as_str()
        .unwrap_or_default()
        .ends_with("\n\n[Showing lines 1-2000 of 2001. Use offset=2001 to continue.]"));
    let w = sb.run(&["write", "empty.txt", "--anchors", "hash"], b"");
    assert_eq!(w.stdout, "Successfully wrote 0 bytes to empty.txt\n");
    // Binary content is written and reported, not refused as a read of it would be.
    let w = sb.run(&["--json", "write", "b.bin", "--anchors", "hash"], b"x\0y");
    assert_eq!(w.json()["ok"], true, "{}", w.stdout);
    assert_eq!(fs::read(sb.root.join("b.bin")).expect("read"), b"x\0y");
}
