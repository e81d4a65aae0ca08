//! Every golden vector of `conformance/hash-json/vectors`: the pro 0.2.0 hash arrays
//! (`NAME.all.hashes`, `NAME.hashes`), the hash/content rows of `NAME.read.txt`, and the raw
//! xxh32 → 4-character rows of `raw_xxh32_pro.tsv`.

use std::path::{Path, PathBuf};

use hashline_anchor::hash_json::{hash_lines, line_hashes, visible_line_count, LineHash};

#[path = "../../../tests-support/shared.rs"]
mod shared;

/// `../shared/conformance/hash-json/vectors`, or `None` (the test is skipped).
fn vectors() -> Option<PathBuf> {
    shared::path("conformance/hash-json/vectors")
}

/// The dialect's line model: lossy UTF-8, one leading U+FEFF removed, CRLF then CR → LF.
fn normalize(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    text.replace("\r\n", "\n").replace('\r', "\n")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "conformance file {} missing or unreadable: {e}",
            path.display()
        )
    })
}

fn names(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("conformance folder {} is unreadable: {e}", dir.display()));
    let mut inputs: Vec<PathBuf> = entries
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".txt") && !name.ends_with(".read.txt") && name != "README.md"
        })
        .collect();
    inputs.sort();
    inputs
}

fn expected_list(path: &Path) -> Vec<String> {
    read(path).lines().map(str::to_owned).collect()
}

#[test]
fn all_hash_arrays_match() {
    let Some(dir) = vectors() else { return };
    let inputs = names(&dir);
    assert!(
        inputs.len() >= 19,
        "expected 19 vector inputs, found {}",
        inputs.len()
    );
    let mut checked = 0;
    let mut failures = Vec::new();
    for input in &inputs {
        let stem = input
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("utf-8 name");
        let bytes = std::fs::read(input).expect("input readable");
        let text = normalize(&bytes);
        let all = line_hashes(&text);

        let expected_all = expected_list(&input.with_file_name(format!("{stem}.all.hashes")));
        if all != expected_all {
            failures.push(format!("{stem}.all.hashes differs"));
        }
        checked += 1;

        let expected_visible = expected_list(&input.with_file_name(format!("{stem}.hashes")));
        let visible = visible_line_count(&text);
        if all[..visible] != expected_visible[..] {
            failures.push(format!("{stem}.hashes differs"));
        }
        checked += 1;
    }
    println!(
        "hash-json vectors: {}/{checked} hash files match",
        checked - failures.len()
    );
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
}

#[test]
fn read_rows_match_hash_and_content() {
    let Some(dir) = vectors() else { return };
    let mut rows_checked = 0;
    let mut failures = Vec::new();
    for input in names(&dir) {
        let stem = input
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("utf-8 name");
        let bytes = std::fs::read(&input).expect("input readable");
        let text = normalize(&bytes);
        let hashes = hash_lines(&text);
        let read_txt = read(&input.with_file_name(format!("{stem}.read.txt")));
        if visible_line_count(&text) == 0 {
            continue; // the advisory text, checked by the read-case tests of hashline-apply
        }
        // Rows come first; hints/notes follow after a blank line.
        let rows = read_txt.split("\n\n[").next().unwrap_or("");
        for (index, (row, content)) in rows.split('\n').zip(text.split('\n')).enumerate() {
            let expected = format!("{}:{content}", hashes[index]);
            if row != expected {
                failures.push(format!(
                    "{stem} line {}: {row:?} vs computed {expected:?}",
                    index + 1
                ));
            }
            rows_checked += 1;
        }
    }
    println!(
        "hash-json read rows: {}/{rows_checked} match",
        rows_checked - failures.len()
    );
    assert!(rows_checked > 2000, "too few rows checked: {rows_checked}");
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
}

#[test]
fn raw_xxh32_rows_match() {
    let Some(dir) = vectors() else { return };
    let data = read(&dir.join("raw_xxh32_pro.tsv"));
    let mut checked = 0;
    for row in data.lines().skip(1).filter(|r| !r.trim().is_empty()) {
        let cols: Vec<&str> = row.split('\t').collect();
        assert_eq!(cols.len(), 5, "bad row {row:?}");
        let input: String = serde_json::from_str(cols[0]).expect("JSON string column");
        let h = xxhash_rust::xxh32::xxh32(input.as_bytes(), 0);
        assert_eq!(format!("{h:08x}"), cols[2], "xxh32 of {input:?}");
        assert_eq!(LineHash::from_xxh32(h), cols[4], "encoding of {input:?}");
        checked += 1;
    }
    println!("raw_xxh32_pro.tsv: {checked}/{checked} rows match");
    assert!(checked >= 4);
}
