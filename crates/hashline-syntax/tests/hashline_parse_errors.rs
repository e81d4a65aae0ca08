//! Conformance: every patch-shaped case of the hashline corpus either fails to parse with the
//! peer's parse error (every `error.txt` substring, and the peer's full message when recorded),
//! or splits and parses cleanly (cases that succeed, or fail later in the engine).

use std::fs;
use std::path::PathBuf;

use hashline_syntax::hashline::{parse_body, split_sections, ParseError, SplitOptions};
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
        .filter(|path| path.join("patch.txt").is_file())
        .collect();
    dirs.sort();
    Some(dirs)
}

/// Replace every `{TAG}` / `{TAG:<path>}` placeholder by a 4-hex tag (its value does not
/// matter to parsing).
fn substitute_tags(patch: &str) -> String {
    let mut out = String::with_capacity(patch.len());
    let mut rest = patch;
    while let Some(start) = rest.find("{TAG") {
        out.push_str(&rest[..start]);
        match rest[start..].find('}') {
            Some(end) => {
                out.push_str("0000");
                rest = &rest[start + end + 1..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether a full peer error message is raised by the splitter or the body parser (as opposed
/// to the engine: tags, files, bounds, block resolution, no-ops).
fn is_parse_time(message: &str) -> bool {
    let line_prefixed = message
        .strip_prefix("line ")
        .and_then(|rest| rest.split_once(": "))
        .is_some_and(|(digits, _)| {
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        });
    let block_resolution = message.contains("could not resolve a syntactic block")
        || message.contains("is not available here");
    (line_prefixed && !block_resolution)
        || [
            "input must begin",
            "Input header",
            "Conflicting hashline snapshot tags",
            "unified-diff hunk header",
        ]
        .iter()
        .any(|prefix| message.starts_with(prefix))
}

/// Split (with the case's splitter options), then parse every section in order: the parse
/// warnings of all sections, or the first refusal.
fn split_and_parse(patch: &str, meta: &Value) -> Result<Vec<String>, ParseError> {
    let option = |key: &str| meta["options"][key].as_str().map(str::to_string);
    let opts = SplitOptions {
        cwd: option("cwd"),
        fallback_path: option("path"),
    };
    let patch = match &opts.cwd {
        Some(cwd) => patch.replace("{CWD}", cwd),
        None => patch.to_string(),
    };
    let mut warnings = Vec::new();
    for section in split_sections(&patch, &opts)? {
        warnings.extend(parse_body(&section.body)?.warnings);
    }
    Ok(warnings)
}

#[test]
fn corpus_parse_errors_and_successes() {
    let (mut parse_errors, mut parses, mut exact) = (0, 0, 0);
    let mut failures = Vec::new();
    let Some(dirs) = case_dirs() else { return };
    for dir in dirs {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let meta: Value =
            serde_json::from_str(&fs::read_to_string(dir.join("meta.json")).expect("meta.json"))
                .expect("meta json");
        let patch = substitute_tags(&fs::read_to_string(dir.join("patch.txt")).expect("patch.txt"));
        let substrings: Vec<String> = fs::read_to_string(dir.join("error.txt"))
            .map(|text| {
                text.lines()
                    .filter(|l| !l.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let peer_error = fs::read_to_string(dir.join("peer/error.txt"))
            .ok()
            .map(|t| t.trim_end_matches('\n').to_string());
        let expects_parse_error = match &peer_error {
            Some(full) => is_parse_time(full),
            None => substrings.iter().any(|s| is_parse_time(s)),
        } && !substrings.is_empty();
        let result = split_and_parse(&patch, &meta);
        if !expects_parse_error {
            parses += 1;
            match result {
                Err(e) => failures.push(format!(
                    "{name}: expected a clean parse, got {:?}",
                    e.message
                )),
                // A call that fails later in the engine prints no warnings at all.
                Ok(_) if !substrings.is_empty() => {}
                Ok(warnings) => {
                    // The only parse-time warning is the auto-pipe one; on a successful call
                    // the peer printed it (among its warnings) exactly when the parser raised it.
                    let peer_warnings =
                        fs::read_to_string(dir.join("peer/warnings.txt")).unwrap_or_default();
                    let peer_auto_piped: Vec<&str> = peer_warnings
                        .lines()
                        .filter(|l| l.starts_with("Auto-prefixed"))
                        .collect();
                    // Ours carries its code in front of the seed's text (DEVIATIONS 30).
                    let uncoded: Vec<&str> = warnings
                        .iter()
                        .map(|w| w.strip_prefix("[W_AUTO_PREFIXED] ").unwrap_or(w))
                        .collect();
                    if uncoded != peer_auto_piped {
                        failures.push(format!(
                            "{name}: parse warnings {warnings:?}, peer printed {peer_auto_piped:?}"
                        ));
                    }
                }
            }
            continue;
        }
        parse_errors += 1;
        let message = match result {
            Ok(_) => {
                failures.push(format!(
                    "{name}: expected a parse error containing {substrings:?}, parsed cleanly"
                ));
                continue;
            }
            Err(e) => e.message,
        };
        let insensitive = meta["expect"]["error_case_insensitive"]
            .as_bool()
            .unwrap_or(false);
        let fold = |s: &str| {
            if insensitive {
                s.to_lowercase()
            } else {
                s.to_string()
            }
        };
        for sub in &substrings {
            if !fold(&message).contains(&fold(sub)) {
                failures.push(format!("{name}: {message:?} lacks {sub:?}"));
            }
        }
        if let Some(full) = &peer_error {
            if &message == full {
                exact += 1;
            } else {
                failures.push(format!(
                    "{name}: {message:?} differs from the peer's {full:?}"
                ));
            }
        }
    }
    println!("parse-error cases: {parse_errors} ({exact} identical to the peer's message); clean-parse cases: {parses}");
    assert!(
        parse_errors > 0 && parses > 0,
        "corpus looks empty: {CASES}"
    );
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
