//! Every case of `../shared/conformance/lineid-json/cases`, run through `lineid_json::edit` on a
//! scratch directory with a fresh `MemoryStore` (LAYOUT.md: `before.txt` at `request.filePath`,
//! `after.txt` + `result.txt`, or `error.txt` exactly with the file unchanged; `case.json →
//! expect` for final paths).
//!
//! Where `DEVIATIONS.md` decides differently, our expectation lives in
//! `tests/data/lineid/deviations/<case>/` (same file names) or, for DEVIATIONS §9, in the case's
//! own `*.head.txt`. [`DEVIATIONS`] lists each such case with its reason; the list and the data
//! folders must agree.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use hashline_apply::fs::Workspace;
use hashline_apply::lineid_json::{edit, EditOptions};
use hashline_state::MemoryStore;

/// Cases where we assert our behaviour instead of the peer's, and why.
const DEVIATIONS: &[(&str, &str)] = &[
    (
        "023-string-lines-trailing-newline-adds-blank",
        "§5: a string payload ending in one \\n adds no empty line",
    ),
    (
        "044-mixed-eol-lf-first-normalized-to-lf",
        "§2: untouched lines keep their own CRLF endings",
    ),
    (
        "048-append-eof-with-trailing-newline",
        "§5: EOF append goes before the final newline and keeps it",
    ),
    (
        "065-literal-LINE-placeholder-multi-edit-no-hint",
        "§10: the 'Did you mean' hint also with 2+ edits",
    ),
    (
        "089-single-replace-inside-range-not-detected",
        "§4: an edit inside another's replaced range is an overlap error",
    ),
    (
        "092-two-appends-same-anchor-reversed",
        "§3: inserts at one boundary keep request order",
    ),
    (
        "097-append-anchor-inside-range",
        "§4: an insert anchored inside a replaced range is an overlap error",
    ),
    (
        "101-ac-hash-prefix-below-threshold-kept",
        "§6: a pasted N#ID| prefix on only some rows is refused, never written",
    ),
    (
        "102-ac-prefix-without-line-number-not-stripped",
        "§6: `#ID|` prefixes on every row are stripped",
    ),
    (
        "104-ac-plus-single-line-stripped-quirk",
        "§6: a single `+ item` line is kept as sent",
    ),
    (
        "106-ac-minus-lines-not-stripped",
        "§6: a payload of - and + rows is a diff: refused",
    ),
    (
        "111-ac-insert-before-single-echo-kept",
        "§8: a one-line prepend equal to its anchor is refused like append",
    ),
    (
        "113-ac-range-boundary-echo-indent-change",
        "§9: boundary echo compares exactly (the case's *.head.txt)",
    ),
    (
        "117-ac-bad-example-from-description",
        "autocorrect: a closer keeps its column (a correct request is never changed)",
    ),
    (
        "129-ac-wrapped-span-collapsed-with-other-changes",
        "§7: a re-wrapped line is applied as sent",
    ),
    (
        "133-ac-split-line-reverted-noop",
        "§7: a split line is applied as sent, not reverted",
    ),
    (
        "136-ac-merged-join-resplit-loses-indent",
        "§7: a deliberate join is applied as sent",
    ),
    (
        "141-ac-merged-declines-count-mismatch",
        "autocorrect: no line around says the indentation was lost: applied as sent",
    ),
];

#[path = "../../../tests-support/shared.rs"]
mod shared;

/// `../shared/conformance/lineid-json/cases`, or `None` (the test is skipped).
fn root() -> Option<PathBuf> {
    shared::path("conformance/lineid-json/cases")
}

fn deviations_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/lineid/deviations"
    ))
}

fn read_opt(p: &Path) -> Option<Vec<u8>> {
    fs::read(p).ok()
}

fn text(p: &Path) -> Option<String> {
    read_opt(p).map(|b| String::from_utf8_lossy(&b).into_owned())
}

struct Expect {
    result: Option<String>,
    after: Option<Vec<u8>>,
    error: Option<String>,
}

fn expectation(case: &Path, name: &str) -> Expect {
    let dev = deviations_dir().join(name);
    if dev.is_dir() {
        return Expect {
            result: text(&dev.join("result.txt")),
            after: read_opt(&dev.join("after.txt")),
            error: text(&dev.join("error.txt")),
        };
    }
    if case.join("after.head.txt").is_file() {
        return Expect {
            result: text(&case.join("result.head.txt")),
            after: read_opt(&case.join("after.head.txt")),
            error: text(&case.join("error.head.txt")),
        };
    }
    Expect {
        result: text(&case.join("result.txt")),
        after: read_opt(&case.join("after.txt")),
        error: text(&case.join("error.txt")),
    }
}

fn run_case(case: &Path, name: &str) -> Result<(), String> {
    let request = text(&case.join("request.json")).ok_or("no request.json")?;
    let req: serde_json::Value = serde_json::from_str(&request).map_err(|e| e.to_string())?;
    let meta: serde_json::Value =
        serde_json::from_str(&text(&case.join("case.json")).ok_or("no case.json")?)
            .map_err(|e| e.to_string())?;
    let file_path = req["filePath"].as_str().ok_or("no filePath")?;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let before = read_opt(&case.join("before.txt"));
    let at = dir.path().join(file_path);
    if let Some(b) = &before {
        if let Some(parent) = at.parent() {
            fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        fs::write(&at, b).map_err(|e| e.to_string())?;
    }
    let ws = Workspace::new(dir.path()).map_err(|e| e.to_string())?;
    let store = MemoryStore::new();
    let out = edit(&ws, &store, &request, &EditOptions::default());
    let exp = expectation(case, name);
    if let Some(error) = exp.error {
        if out.ok || out.text != error {
            return Err(format!(
                "expected error\n  {error:?}\ngot (ok={})\n  {:?}",
                out.ok, out.text
            ));
        }
        if read_opt(&at) != before {
            return Err("file changed although the call was refused".into());
        }
        return Ok(());
    }
    let result = exp
        .result
        .ok_or("case has neither error.txt nor result.txt")?;
    if !out.ok || seed_text(&out.text) != result {
        return Err(format!(
            "expected result {result:?}, got (ok={}) {:?}",
            out.ok, out.text
        ));
    }
    let expect = &meta["expect"];
    if let Some(final_path) = expect["final_path"].as_str() {
        let got = read_opt(&dir.path().join(final_path));
        if got != exp.after {
            return Err(format!(
                "final file {final_path} differs:\n  expected {:?}\n  got      {:?}",
                exp.after.map(|b| String::from_utf8_lossy(&b).into_owned()),
                got.map(|b| String::from_utf8_lossy(&b).into_owned())
            ));
        }
    } else if at.exists() {
        return Err("file should be gone".into());
    }
    if let Some(exists) = expect["original_path_exists_after"].as_bool() {
        if at.exists() != exists {
            return Err(format!(
                "original path exists = {}, expected {exists}",
                at.exists()
            ));
        }
    }
    Ok(())
}

#[test]
fn lineid_json_conformance() {
    let Some(root) = root() else { return };
    let mut cases: Vec<PathBuf> = fs::read_dir(&root)
        .expect("cases dir")
        .map(|e| e.expect("entry").path())
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 91,
        "expected the lineid-json cases, found {}",
        cases.len()
    );

    let listed: BTreeSet<&str> = DEVIATIONS.iter().map(|(c, _)| *c).collect();
    let mut with_data: BTreeSet<String> = fs::read_dir(deviations_dir())
        .expect("deviation data")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    with_data.insert("113-ac-range-boundary-echo-indent-change".into());
    let with_data: BTreeSet<&str> = with_data.iter().map(String::as_str).collect();
    assert_eq!(
        listed, with_data,
        "DEVIATIONS list and tests/data/lineid/deviations disagree"
    );

    let (mut passed, mut deviated, mut failed) = (0, 0, Vec::new());
    for case in &cases {
        let name = case
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        match run_case(case, &name) {
            Ok(()) if listed.contains(name.as_str()) => deviated += 1,
            Ok(()) => passed += 1,
            Err(e) => failed.push(format!("{name}: {e}")),
        }
    }
    println!(
        "lineid-json conformance: {passed} passed, {deviated} deviations asserted, {} failed",
        failed.len()
    );
    assert!(failed.is_empty(), "failures:\n{}", failed.join("\n\n"));
}

/// The seed's text of a result: hashline appends a `Warnings:` block of coded warnings (`[W_…]`)
/// when the guard suspects a mistake in a request it applies as the seed does — a row that
/// repeats the line next to the edit (DEVIATIONS 4a, extended to this dialect), a range edge.
/// Anything else stays and must match.
fn seed_text(text: &str) -> &str {
    match text.split_once("\n\nWarnings:\n") {
        Some((seed, block)) if block.lines().all(|l| l.starts_with("[W_")) => seed,
        _ => text,
    }
}
