//! Conformance: every `kind: "sections"` case of the hashline corpus splits exactly as the
//! peer did (path, `fileHash` = tag, `diff` = body).

use std::fs;
use std::path::{Path, PathBuf};

use hashline_syntax::hashline::{split_sections, SplitOptions};
use serde_json::Value;

#[path = "../../../tests-support/shared.rs"]
mod shared;

const CASES: &str = "conformance/hashline/cases";

/// The corpus's case folders, or `None` when `../shared` is missing (the test is skipped).
fn case_dirs() -> Option<Vec<PathBuf>> {
    let dir = shared::path(CASES)?;
    let mut dirs: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.join("meta.json").is_file())
        .collect();
    dirs.sort();
    Some(dirs)
}

fn read_json(path: &Path) -> Value {
    let text =
        fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

#[test]
fn sections_cases_split_like_the_peer() {
    let mut ran = 0;
    let mut failures = Vec::new();
    let Some(dirs) = case_dirs() else { return };
    for dir in dirs {
        let meta = read_json(&dir.join("meta.json"));
        if meta["kind"] != "sections" {
            continue;
        }
        ran += 1;
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let options = &meta["options"];
        let cwd = options["cwd"].as_str().map(str::to_string);
        let mut patch = fs::read_to_string(dir.join("patch.txt")).expect("patch.txt");
        if let Some(cwd) = &cwd {
            patch = patch.replace("{CWD}", cwd);
        }
        let opts = SplitOptions {
            cwd,
            fallback_path: options["path"].as_str().map(str::to_string),
        };
        let expected: Vec<(String, Option<String>, String)> = read_json(&dir.join("sections.json"))
            .as_array()
            .expect("sections.json is an array")
            .iter()
            .map(|s| {
                let text = |key: &str| s[key].as_str().map(str::to_string);
                (
                    text("path").expect("path"),
                    text("fileHash"),
                    text("diff").expect("diff"),
                )
            })
            .collect();
        match split_sections(&patch, &opts) {
            Ok(sections) => {
                let got: Vec<_> = sections
                    .into_iter()
                    .map(|s| (s.path, s.tag, s.body))
                    .collect();
                if got != expected {
                    failures.push(format!("{name}: got {got:?}, expected {expected:?}"));
                }
            }
            Err(e) => failures.push(format!("{name}: error {:?}", e.message)),
        }
    }
    println!("sections cases: {ran} run, {} failed", failures.len());
    assert!(ran > 0, "no `sections` case found in {CASES}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
