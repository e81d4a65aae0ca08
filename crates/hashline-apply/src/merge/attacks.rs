//! The attacks on each dialect's stale-anchor handling that the shared merge must refuse, run
//! through the dialects' engines (each fails on the per-dialect merges this module replaced).

use std::collections::BTreeMap;

use hashline_state::{MemoryStore, SnapshotStore};

use crate::fs::Workspace;

fn hashline_edit(
    files: &mut BTreeMap<String, Vec<u8>>,
    store: &MemoryStore,
    patch: &str,
) -> crate::Outcome {
    crate::hashline::apply_to_text(files, store, patch, &Default::default())
}

fn file(files: &BTreeMap<String, Vec<u8>>) -> String {
    String::from_utf8(files.get("f.txt").cloned().unwrap_or_default()).unwrap_or_default()
}

fn tag(text: &str) -> String {
    hashline_anchor::tag::file_tag(text)
}

/// A chained hashline edit whose numbers fit the file after the session's first edit while its
/// tag names the read before it (mistake `stale-chain-renumbered`) is never carried.
#[test]
fn hashline_chain_numbers_of_the_newer_version_are_refused() {
    let v: String = (1..=12).map(|i| format!("L{i}\n")).collect();
    let mut files = BTreeMap::from([("f.txt".to_string(), v.clone().into_bytes())]);
    let store = MemoryStore::new();
    store.record("f.txt", &v).expect("memory store");
    let t = tag(&v);
    let first = format!("¶f.txt#{t}\ninsert after 2:\n+INS\n");
    assert!(hashline_edit(&mut files, &store, &first).ok);
    let after_first = file(&files);
    // Line 9 of the new file (L8) with the old tag: V's line 9 is L9. Which one is meant?
    let second = format!("¶f.txt#{t}\nreplace 9..9:\n+X\n");
    let out = hashline_edit(&mut files, &store, &second);
    assert!(!out.ok, "{}", out.text);
    assert!(out.text.contains("Edit rejected"), "{}", out.text);
    assert_eq!(file(&files), after_first);
    // Above the first edit both numberings agree: the chain is recovered.
    let third = format!("¶f.txt#{t}\nreplace 1..1:\n+TOP\n");
    let out = hashline_edit(&mut files, &store, &third);
    assert!(out.ok, "{}", out.text);
    assert!(file(&files).starts_with("TOP\nL2\nINS\nL3\n"));
}

/// The issue's hashline attack on copies: `a\nb\n` read, disk `a\nX\na\nb\n`, stale
/// `replace 1..1`.
#[test]
fn hashline_recovery_never_lands_on_a_copy() {
    let v = "a\nb\n";
    let disk = "a\nX\na\nb\n";
    let mut files = BTreeMap::from([("f.txt".to_string(), disk.as_bytes().to_vec())]);
    let store = MemoryStore::new();
    store.record("f.txt", v).expect("memory store");
    let out = hashline_edit(
        &mut files,
        &store,
        &format!("¶f.txt#{}\nreplace 1..1:\n+A\n", tag(v)),
    );
    assert!(!out.ok, "{}", out.text);
    assert_eq!(file(&files), disk);
}

/// The issue's tag collision: `insert before 2: +filler 32678` on `alpha\ntarget line\nomega\n`
/// keeps the tag #B8A1, so a stale edit with that tag matches the disk's tag.
#[test]
fn hashline_colliding_tag_is_not_taken_as_fresh() {
    let v = "alpha\ntarget line\nomega\n";
    let t = tag(v);
    assert_eq!(
        t,
        tag("alpha\nfiller 32678\ntarget line\nomega\n"),
        "the collision"
    );
    let mut files = BTreeMap::from([("f.txt".to_string(), v.as_bytes().to_vec())]);
    let store = MemoryStore::new();
    store.record("f.txt", v).expect("memory store");
    let first = format!("¶f.txt#{t}\ninsert before 2:\n+filler 32678\n");
    assert!(hashline_edit(&mut files, &store, &first).ok);
    let after_first = file(&files);
    let stale = format!("¶f.txt#{t}\nreplace 2..2:\n+TARGET\n");
    let out = hashline_edit(&mut files, &store, &stale);
    assert!(!out.ok, "{}", out.text);
    assert!(out.text.contains("stale anchor"), "{}", out.text);
    assert!(out.text.contains("*2:filler 32678"), "{}", out.text);
    assert_eq!(file(&files), after_first);
    // The refusal showed the current lines: a retry with them applies.
    let retry = format!("¶f.txt#{t}\nreplace 3..3:\n+TARGET\n");
    let out = hashline_edit(&mut files, &store, &retry);
    assert!(out.ok, "{}", out.text);
    assert_eq!(file(&files), "alpha\nfiller 32678\nTARGET\nomega\n");
}

struct Ws {
    _dir: tempfile::TempDir,
    ws: Workspace,
    store: MemoryStore,
}

impl Ws {
    fn new(text: &str) -> Ws {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("f.txt"), text).expect("write");
        let ws = Workspace::new(dir.path()).expect("workspace");
        Ws {
            _dir: dir,
            ws,
            store: MemoryStore::new(),
        }
    }

    fn text(&self) -> String {
        std::fs::read_to_string(self.ws.root().join("f.txt")).expect("read")
    }

    fn record(&self) {
        let key = self.ws.resolve("f.txt").expect("resolve").key;
        self.store.record(&key, &self.text()).expect("memory store");
    }

    fn lineid(&self, edits: &str) -> crate::Outcome {
        let req = format!(r#"{{"filePath":"f.txt","edits":[{edits}]}}"#);
        crate::lineid_json::edit(&self.ws, &self.store, &req, &Default::default())
    }

    fn hash_json(&self, edits: &str) -> crate::Outcome {
        let req = format!(r#"{{"path":"f.txt","edits":[{edits}]}}"#);
        crate::hash_json::edit(&self.ws, &self.store, &req, &Default::default())
    }
}

/// The issue's lineid attack: an anchor of a read, reused after an insert above it whose new line
/// has the same 2-letter ID, must not be applied to the inserted line.
#[test]
fn lineid_anchor_reused_after_an_insert_with_the_same_id_is_refused() {
    let s = Ws::new("alpha\ntarget line\nomega\n");
    assert!(crate::lineid_json::read(&s.ws, &s.store, "f.txt", None, None).ok);
    let id = hashline_anchor::lineid::line_id(2, "target line");
    assert_eq!(
        id,
        hashline_anchor::lineid::line_id(2, "filler 674"),
        "the collision"
    );
    let out = s.lineid(&format!(
        r#"{{"op":"prepend","pos":"2#{id}","lines":["filler 674"]}}"#
    ));
    assert!(out.ok, "{}", out.text);
    let out = s.lineid(&format!(
        r#"{{"op":"replace","pos":"2#{id}","lines":["TARGET"]}}"#
    ));
    assert!(!out.ok, "{}", out.text);
    assert!(out.text.contains("stale"), "{}", out.text);
    assert_eq!(s.text(), "alpha\nfiller 674\ntarget line\nomega\n");
    // The fresh anchors of the refusal work.
    let fresh = hashline_anchor::lineid::line_id(3, "target line");
    let out = s.lineid(&format!(
        r#"{{"op":"replace","pos":"3#{fresh}","lines":["TARGET"]}}"#
    ));
    assert!(out.ok, "{}", out.text);
    assert_eq!(s.text(), "alpha\nfiller 674\nTARGET\nomega\n");
}

/// A lineid anchor of a read whose line the session's own edit rewrote to a text with the same
/// 2-letter ID: the edit's result was never shown with anchors, so the anchor comes from the read,
/// and its line is gone — refused, never applied to the rewritten line.
#[test]
fn lineid_anchor_of_a_line_rewritten_to_the_same_id_is_refused() {
    use hashline_anchor::lineid::line_id;
    let s = Ws::new("alpha\ncount 1\nomega\n");
    assert!(crate::lineid_json::read(&s.ws, &s.store, "f.txt", None, None).ok);
    let id = line_id(2, "count 1");
    let twin = (2..100_000)
        .map(|k| format!("count {k}"))
        .find(|t| line_id(2, t) == id)
        .expect("an 8-bit ID collides within a few hundred texts");
    let out = s.lineid(&format!(
        r#"{{"op":"replace","pos":"2#{id}","lines":["{twin}"]}}"#
    ));
    assert!(out.ok, "{}", out.text);
    let after_first = s.text();
    // The read's anchor again: it names "count 1", which is gone.
    let out = s.lineid(&format!(
        r#"{{"op":"replace","pos":"2#{id}","lines":["count 0"]}}"#
    ));
    assert!(!out.ok, "{}", out.text);
    assert!(out.text.contains("changed since last read"), "{}", out.text);
    assert_eq!(s.text(), after_first);
    // A fresh read shows the new line; its anchor works.
    assert!(crate::lineid_json::read(&s.ws, &s.store, "f.txt", None, None).ok);
    let out = s.lineid(&format!(
        r#"{{"op":"replace","pos":"2#{id}","lines":["count 0"]}}"#
    ));
    assert!(out.ok, "{}", out.text);
    assert_eq!(s.text(), "alpha\ncount 0\nomega\n");
}

/// A stale lineid anchor on one of several identical copies (`    }` has the same ID at the same
/// number before and after an edit that inserted a method above it).
#[test]
fn lineid_anchor_on_one_of_several_copies_is_refused() {
    let v = "fn a() {\n    x\n    }\n\nfn b() {\n    y\n    }\n";
    let s = Ws::new(v);
    assert!(crate::lineid_json::read(&s.ws, &s.store, "f.txt", None, None).ok);
    let id3 = hashline_anchor::lineid::line_id(3, "    }");
    let out = s.lineid(&format!(
        r#"{{"op":"append","pos":"3#{id3}","lines":["","fn c() {{","    z","    }}"]}}"#
    ));
    assert!(out.ok, "{}", out.text);
    let after_first = s.text();
    // The read's `7#..` (b's brace) fits line 7 of the new file too (c's brace).
    let id7 = hashline_anchor::lineid::line_id(7, "    }");
    let out = s.lineid(&format!(
        r#"{{"op":"append","pos":"7#{id7}","lines":["// end"]}}"#
    ));
    assert!(!out.ok, "{}", out.text);
    assert_eq!(s.text(), after_first);
}

fn hashes(text: &str) -> Vec<String> {
    hashline_anchor::hash_json::line_hashes(text)
}

/// hash-json: a symbol-only line hashes by its number, so a stale anchor of `    }` also names
/// the `    }` now at that number (mistake `wrong-occurrence`).
#[test]
fn hash_json_symbol_line_at_the_same_number_is_refused() {
    let v = "fn a() {\n    x\n    }\n\nfn b() {\n    y\n    }\n";
    let s = Ws::new(v);
    s.record();
    let h = hashes(v);
    let first = format!(
        r#"{{"op":"append","pos":"{}","lines":["","fn c() {{","    z","    }}"]}}"#,
        h[2]
    );
    let out = s.hash_json(&first);
    assert!(out.ok, "{}", out.text);
    let after_first = s.text();
    let out = s.hash_json(&format!(
        r#"{{"op":"append","pos":"{}","lines":["// end"]}}"#,
        h[6]
    ));
    assert!(!out.ok, "{}", out.text);
    assert!(out.text.starts_with("[E_STALE_ANCHOR]"), "{}", out.text);
    assert_eq!(s.text(), after_first);
}

/// hash-json: a repeated content line hashes by its occurrence, so after a copy was inserted
/// above it a stale anchor names another copy (mistake `wrong-occurrence`).
#[test]
fn hash_json_occurrence_shifted_by_a_new_copy_is_refused() {
    let v = "a: {\n  rollout: 100,\n},\nb: {\n  rollout: 100,\n},\n";
    let s = Ws::new(v);
    s.record();
    let h = hashes(v);
    let first = format!(
        r#"{{"op":"prepend","pos":"{}","lines":["k: {{","  rollout: 100,","}},"]}}"#,
        h[3]
    );
    let out = s.hash_json(&first);
    assert!(out.ok, "{}", out.text);
    let after_first = s.text();
    let out = s.hash_json(&format!(
        r#"{{"op":"replace","start":"{0}","end":"{0}","lines":["  rollout: 50,"]}}"#,
        h[4]
    ));
    assert!(!out.ok, "{}", out.text);
    assert_eq!(s.text(), after_first);
}

/// hash-json on repeated `  }` lines: the disk changed which copy is where.
#[test]
fn hash_json_repeated_closers_are_not_guessed() {
    let v = "a\n  }\n  }\nb\n";
    let s = Ws::new(v);
    s.record();
    std::fs::write(s.ws.root().join("f.txt"), "a\n  }\nX\nb\n").expect("write");
    let h = hashes(v);
    let out = s.hash_json(&format!(
        r#"{{"op":"replace","start":"{0}","end":"{0}","lines":["  }} // closed"]}}"#,
        h[1]
    ));
    assert!(!out.ok, "{}", out.text);
    assert_eq!(s.text(), "a\n  }\nX\nb\n");
}
