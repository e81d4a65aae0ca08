//! Every row of the shared `block-spans.json` conformance table through [`TreeSitterBlocks`].
// Needs TypeScript, Python and Rust: without those grammars there is nothing to test.
#![cfg(feature = "lang-core")]

use std::path::Path;

use hashline_ast::TreeSitterBlocks;
use hashline_core::BlockResolver;
use serde_json::Value;

#[path = "../../../tests-support/shared.rs"]
mod shared;

const TABLE: &str = "conformance/hashline/block-spans.json";

#[test]
fn block_spans_conformance() {
    let Some(path) = shared::path(TABLE) else {
        return;
    };
    let raw = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let table: Value = serde_json::from_str(&raw).expect("block-spans.json is JSON");
    let cases = table["cases"].as_array().expect("`cases` array");
    assert!(!cases.is_empty(), "no cases in {TABLE}");
    let resolver = TreeSitterBlocks::new();
    let mut failures = Vec::new();
    for case in cases {
        let name = case["test"].as_str().expect("test name");
        let path = case["path"].as_str().expect("path");
        let line = case["line"].as_u64().expect("line") as usize;
        let code = case["code"].as_str().expect("code");
        let got = resolver
            .resolve(Path::new(path), code, line)
            .map(|s| (s.start, s.end));
        let ok = match &case["expected_span"] {
            Value::Null => got.is_none(),
            Value::Array(pair) => {
                let want = (
                    pair[0].as_u64().expect("start") as usize,
                    pair[1].as_u64().expect("end") as usize,
                );
                got == Some(want)
            }
            // "start_line==1 (some span)": any span that starts on the named line.
            Value::String(_) => {
                let reimpl = &case["reimpl_span"];
                got.is_some_and(|(s, _)| s == line)
                    && reimpl.as_array().is_none_or(|p| {
                        got == Some((
                            p[0].as_u64().unwrap_or(0) as usize,
                            p[1].as_u64().unwrap_or(0) as usize,
                        ))
                    })
            }
            other => panic!("{name}: unexpected expected_span {other}"),
        };
        if !ok {
            failures.push(format!(
                "{name}: got {got:?}, want {}",
                case["expected_span"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    eprintln!("block-spans: {} / {} rows pass", cases.len(), cases.len());
}
