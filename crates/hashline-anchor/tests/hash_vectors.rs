//! Every row of the shared hashline tag vectors (`conformance/hashline/hash-vectors.tsv`).

use hashline_anchor::tag::file_tag;

#[path = "../../../tests-support/shared.rs"]
mod shared;

#[test]
fn all_hash_vectors_match() {
    let Some(vectors) = shared::path("conformance/hashline/hash-vectors.tsv") else {
        return;
    };
    let data = std::fs::read_to_string(&vectors)
        .unwrap_or_else(|e| panic!("{} is unreadable: {e}", vectors.display()));
    let mut checked = 0;
    let mut failures = Vec::new();
    for (no, row) in data.lines().enumerate() {
        if row.starts_with('#') || row.trim().is_empty() {
            continue;
        }
        let (json, tag) = row
            .split_once('\t')
            .unwrap_or_else(|| panic!("line {}: no tab in {row:?}", no + 1));
        let text: String = serde_json::from_str(json)
            .unwrap_or_else(|e| panic!("line {}: bad JSON string {json:?}: {e}", no + 1));
        let got = file_tag(&text);
        if got != tag.trim() {
            failures.push(format!("line {}: {json} → {got}, expected {tag}", no + 1));
        }
        checked += 1;
    }
    println!("hash-vectors: {}/{checked} match", checked - failures.len());
    assert!(
        checked >= 20,
        "expected at least 20 vectors, found {checked}"
    );
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
}
