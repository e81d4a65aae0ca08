//! Every case of `conformance/hash-json/read-cases` (and every `NAME.read.txt` of
//! `conformance/hash-json/vectors`), run through the pure core
//! (`hash_json::read::render`) and through the workspace wrapper (`hash_json::read::read`) on a
//! temp directory. Output text must match byte for byte; refusals must match the verbatim
//! error text and carry the right code; successful reads must record the whole text.

use std::path::{Path, PathBuf};

use hashline_apply::fs::Workspace;
use hashline_apply::hash_json::read::{read, render, ReadArg, Source};
use hashline_apply::Outcome;
use hashline_core::ErrorCode;
use hashline_state::{MemoryStore, SnapshotStore};
use serde_json::Value;

#[path = "../../../tests-support/shared.rs"]
mod shared;

struct Case {
    name: String,
    path: String,
    offset: Option<Value>,
    limit: Option<Value>,
    input: Option<Vec<u8>>,
    is_dir: bool,
    expected: Result<String, String>,
}

fn read_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{} unreadable: {e}", path.display()))
}

/// The read cases, or `None` when `../shared` is missing (the test is skipped).
fn cases() -> Option<Vec<Case>> {
    let dir = shared::path("conformance/hash-json/read-cases")?;
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("conformance folder {} is missing: {e}", dir.display()));
    let mut dirs: Vec<PathBuf> = entries
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let cases = dirs
        .iter()
        .map(|case| {
            let name = case
                .file_name()
                .and_then(|n| n.to_str())
                .expect("utf-8 name")
                .to_owned();
            let request: Value = serde_json::from_str(&read_text(&case.join("request.json")))
                .expect("request.json is JSON");
            let output = case.join("output.txt");
            let expected = if output.exists() {
                Ok(read_text(&output))
            } else {
                Err(read_text(&case.join("error.txt")))
            };
            Case {
                path: request["path"].as_str().expect("request.path").to_owned(),
                offset: request.get("offset").cloned(),
                limit: request.get("limit").cloned(),
                input: std::fs::read(case.join("input.txt")).ok(),
                // The README: input.txt is absent for the missing-file and directory cases.
                is_dir: name.contains("directory"),
                name,
                expected,
            }
        })
        .collect();
    Some(cases)
}

/// The code a refusal text must carry.
fn code_for(message: &str) -> ErrorCode {
    if message.starts_with("Read request field") {
        ErrorCode::BadShape
    } else if message.starts_with("File not found") {
        ErrorCode::FileNotFound
    } else if message.starts_with("Path is a directory") {
        ErrorCode::IsDirectory
    } else if message.starts_with("Path is a binary file") {
        ErrorCode::Binary
    } else {
        panic!("unexpected refusal text {message:?}")
    }
}

/// Compares an outcome with a case's expectation; `None` when it matches.
fn mismatch(case: &Case, out: &Outcome) -> Option<String> {
    match &case.expected {
        Ok(text) if out.ok && out.code.is_none() && &out.text == text => None,
        Err(text) if !out.ok && &out.text == text && out.code == Some(code_for(text)) => None,
        expected => Some(format!(
            "{}: expected {:?}\n   got ok={} code={:?} text={:?}",
            case.name,
            expected
                .as_ref()
                .map(|t| t.chars().take(300).collect::<String>()),
            out.ok,
            out.code,
            out.text.chars().take(300).collect::<String>()
        )),
    }
}

/// The text a successful read must record: the whole file, BOM-free, LF.
fn expected_record(input: &[u8]) -> String {
    let text = String::from_utf8_lossy(input);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// Checks the store holds the file text exactly when rows or the empty-file advisory were shown.
fn check_record(case: &Case, store: &MemoryStore, key: &str, failures: &mut Vec<String>) {
    let head = store
        .head(key)
        .expect("memory store never fails")
        .map(|s| s.text);
    let shows_rows =
        matches!(&case.expected, Ok(t) if !t.starts_with("Offset ") && !t.starts_with("[Line "));
    let want = match (&case.input, shows_rows) {
        (Some(input), true) => Some(expected_record(input)),
        _ => None,
    };
    if head != want {
        failures.push(format!(
            "{}: recorded {:?} bytes, expected {:?}",
            case.name,
            head.map(|h| h.len()),
            want.map(|w| w.len())
        ));
    }
}

#[test]
fn read_cases_through_pure_core() {
    let Some(cases) = cases() else { return };
    assert_eq!(cases.len(), 23, "expected 23 read cases");
    let mut failures = Vec::new();
    for case in &cases {
        let store = MemoryStore::new();
        let source = match (&case.input, case.is_dir) {
            (Some(bytes), _) => Source::Bytes(bytes),
            (None, true) => Source::Directory,
            (None, false) => Source::Missing,
        };
        let out = render(
            &case.path,
            source,
            case.offset.as_ref().map(ReadArg::Json),
            case.limit.as_ref().map(ReadArg::Json),
            &store,
            "key",
        );
        if let Some(m) = mismatch(case, &out) {
            failures.push(m);
        }
        check_record(case, &store, "key", &mut failures);
    }
    println!(
        "read-cases (pure core, output + record): {}/{} checks pass",
        cases.len() * 2 - failures.len(),
        cases.len() * 2
    );
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
}

#[test]
fn read_cases_through_workspace() {
    let Some(cases) = cases() else { return };
    assert_eq!(cases.len(), 23, "expected 23 read cases");
    let mut failures = Vec::new();
    for case in &cases {
        let tmp = tempfile::tempdir().expect("temp dir");
        let file = tmp.path().join(&case.path);
        if let Some(bytes) = &case.input {
            std::fs::write(&file, bytes).expect("write input");
        } else if case.is_dir {
            std::fs::create_dir(&file).expect("create dir");
        }
        let ws = Workspace::new(tmp.path()).expect("workspace");
        let store = MemoryStore::new();
        // Tool calls pass JSON values; the CLI passes the same numbers as strings.
        let offset_text = case.offset.as_ref().map(Value::to_string);
        let limit_text = case.limit.as_ref().map(Value::to_string);
        let runs = [
            (
                "json",
                case.offset.as_ref().map(ReadArg::Json),
                case.limit.as_ref().map(ReadArg::Json),
            ),
            (
                "cli",
                offset_text.as_deref().map(ReadArg::Text),
                limit_text.as_deref().map(ReadArg::Text),
            ),
        ];
        for (label, offset, limit) in runs {
            let out = read(&ws, &store, &case.path, offset, limit);
            if let Some(m) = mismatch(case, &out) {
                failures.push(format!("[{label}] {m}"));
            }
        }
        let key = ws.resolve(&case.path).expect("inside root").key;
        check_record(case, &store, &key, &mut failures);
    }
    println!(
        "read-cases (workspace: json args, cli args, record): {}/{} checks pass",
        cases.len() * 3 - failures.len(),
        cases.len() * 3
    );
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
}

#[test]
fn vector_read_outputs() {
    let Some(dir) = shared::path("conformance/hash-json/vectors") else {
        return;
    };
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("conformance folder {} is missing: {e}", dir.display()));
    let mut inputs: Vec<PathBuf> = entries
        .map(|e| e.expect("directory entry").path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "txt") && !p.to_string_lossy().ends_with(".read.txt")
        })
        .collect();
    inputs.sort();
    assert!(
        inputs.len() >= 19,
        "expected 19 vector inputs, found {}",
        inputs.len()
    );
    let mut failures = Vec::new();
    for input in &inputs {
        let stem = input
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("utf-8 name");
        let bytes = std::fs::read(input).expect("input readable");
        let expected = read_text(&input.with_file_name(format!("{stem}.read.txt")));
        let store = MemoryStore::new();
        let out = render(stem, Source::Bytes(&bytes), None, None, &store, "key");
        if !out.ok || out.text != expected {
            failures.push(format!(
                "{stem}: got {:?}",
                out.text.chars().take(200).collect::<String>()
            ));
        }
    }
    println!(
        "vectors NAME.read.txt: {}/{} match",
        inputs.len() - failures.len(),
        inputs.len()
    );
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
}
