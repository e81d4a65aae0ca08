//! The LINE#ID golden vectors of `../shared/conformance/lineid-json/vectors` (produced by the peer).

use std::fs;
use std::path::{Path, PathBuf};

use hashline_anchor::lineid::{
    enhance_read_output, legacy_line_id, line_id, line_ids, render_read,
};
use hashline_core::TextFile;

#[path = "../../../tests-support/shared.rs"]
mod shared;

/// `../shared/conformance/lineid-json/vectors`, or `None` (the test is skipped).
fn vectors_dir() -> Option<PathBuf> {
    shared::path("conformance/lineid-json/vectors")
}

fn read_text(path: &Path) -> String {
    String::from_utf8(fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .unwrap_or_else(|e| panic!("{}: not UTF-8: {e}", path.display()))
}

#[test]
fn file_vectors_ids_and_read_rows() {
    let Some(dir) = vectors_dir() else { return };
    let mut checked = 0;
    let mut entries: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("vectors dir readable")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    entries.sort();
    for txt in entries {
        let file = TextFile::decode(fs::read(&txt).expect("vector readable"));
        let ids: String = line_ids(file.text())
            .iter()
            .enumerate()
            .map(|(i, id)| format!("{}#{id}\n", i + 1))
            .collect();
        assert_eq!(
            ids,
            read_text(&txt.with_extension("ids")),
            "{}",
            txt.display()
        );
        assert_eq!(
            render_read(file.text(), None, None),
            read_text(&txt.with_extension("read")),
            "{}",
            txt.display()
        );
        checked += 1;
    }
    assert_eq!(
        checked, 23,
        "expected the 23 vector files of vectors/README.md"
    );
    println!("lineid vector files: {checked}/{checked} match (ids and read rows)");
}

#[test]
fn single_line_hash_cases() {
    let Some(dir) = vectors_dir() else { return };
    let path = dir.join("hash_cases.jsonl");
    let text = read_text(&path);
    let mut checked = 0;
    for row in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(row).expect("jsonl row");
        let line = v["line"].as_u64().expect("line") as usize;
        let content = v["content"].as_str().expect("content");
        assert_eq!(
            line_id(line, content),
            v["id"].as_str().expect("id"),
            "{row}"
        );
        assert_eq!(
            legacy_line_id(line, content),
            v["legacy_id"].as_str().expect("legacy_id"),
            "{row}"
        );
        checked += 1;
    }
    assert_eq!(checked, 558);
    println!("lineid hash_cases.jsonl: {checked}/{checked} rows match");
}

#[test]
fn read_hook_vectors() {
    let Some(dir) = vectors_dir() else { return };
    let dir = dir.join("read-hook");
    let mut checked = 0;
    for entry in fs::read_dir(&dir).expect("read-hook dir") {
        let input = entry.expect("entry").path();
        if input.extension().is_none_or(|e| e != "in") {
            continue;
        }
        let expected = read_text(&input.with_extension("out"));
        assert_eq!(
            enhance_read_output(&read_text(&input)),
            expected,
            "{}",
            input.display()
        );
        checked += 1;
    }
    assert_eq!(checked, 7);
    println!("lineid read-hook vectors: {checked}/{checked} match");
}
