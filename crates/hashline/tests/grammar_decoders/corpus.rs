//! The inputs the grammars are checked against: hashline patches from the golden fixtures and
//! the hashline conformance corpus, and JSON requests from the fixtures and the hash-json and
//! lineid-json corpora, each with whether the engine accepts it.

use std::fs;
use std::path::{Path, PathBuf};

use hashline::Dialect;

use crate::support::corpus::{corpus, subdirs};

/// One input, named for the report.
pub struct Input {
    /// `fixture <name>/<step>` or `<corpus> <case>`.
    pub name: String,
    /// The text as the tool receives it.
    pub text: String,
    /// The working directory of a hashline case that relativizes absolute header paths.
    pub cwd: Option<String>,
    /// Whether the engine carries the call out (`None` when only the parser decides, as for
    /// hashline patches, whose syntax the tests check with the parser itself).
    pub accepted: Option<bool>,
    /// The refusal's code, when the corpus records one (hash-json: `E_BAD_SHAPE`, …).
    pub code: Option<String>,
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// Every fixture step that sends `dialect` to `hashline edit` on stdin (named with
/// `--dialect`, or detected when the step names none).
pub fn fixture_inputs(dialect: Dialect) -> Vec<Input> {
    let mut out = Vec::new();
    for fixture in subdirs(&fixtures_dir()) {
        let steps = fixture.join("steps");
        if !steps.is_dir() {
            continue;
        }
        for step in subdirs(&steps) {
            let (Ok(args), Ok(stdin)) = (
                fs::read_to_string(step.join("args")),
                fs::read_to_string(step.join("stdin")),
            ) else {
                continue;
            };
            let args: Vec<&str> = args.lines().collect();
            if !args.contains(&"edit") {
                continue;
            }
            let named = args
                .iter()
                .position(|a| *a == "--dialect")
                .and_then(|i| args.get(i + 1))
                .map(|d| d.parse::<Dialect>().unwrap_or(Dialect::Auto));
            if named.unwrap_or(Dialect::Auto).resolve(&stdin) != dialect {
                continue;
            }
            let exit = fs::read_to_string(step.join("exit")).unwrap_or_default();
            out.push(Input {
                name: format!("fixture {}", rel(&step, &fixtures_dir())),
                text: stdin,
                cwd: None,
                accepted: Some(exit.trim() == "0"),
                code: None,
            });
        }
    }
    out
}

/// Every `patch.txt` of the hashline corpus, tags filled in (`{TAG}`, `{TAG:<path>}` become
/// `1A2B`: the syntax does not depend on the value) and `{CWD}` set to the case's `cwd`.
/// Empty when `../shared` is missing.
pub fn hashline_cases() -> Vec<Input> {
    let mut out = Vec::new();
    let Some(root) = corpus("hashline") else {
        return out;
    };
    for case in subdirs(&root.join("cases")) {
        let Ok(patch) = fs::read_to_string(case.join("patch.txt")) else {
            continue;
        };
        let meta: serde_json::Value = fs::read_to_string(case.join("meta.json"))
            .ok()
            .and_then(|m| serde_json::from_str(&m).ok())
            .unwrap_or_default();
        let cwd = meta["options"]["cwd"].as_str().map(str::to_string);
        let mut text = patch.replace("{CWD}", cwd.as_deref().unwrap_or("/cwd"));
        while let Some(start) = text.find("{TAG") {
            let Some(len) = text[start..].find('}') else {
                break;
            };
            text.replace_range(start..start + len + 1, "1A2B");
        }
        out.push(Input {
            name: format!("hashline {}", rel(&case, &root)),
            text,
            cwd,
            accepted: None,
            code: None,
        });
    }
    out
}

/// Every `request.json` of the hash-json corpus, with its outcome (`error.txt` names the code
/// of a refusal).
/// Empty when `../shared` is missing.
pub fn hash_json_cases() -> Vec<Input> {
    let mut out = Vec::new();
    let Some(root) = corpus("hash-json") else {
        return out;
    };
    for case in subdirs(&root.join("cases")) {
        let Ok(text) = fs::read_to_string(case.join("request.json")) else {
            continue;
        };
        let error = fs::read_to_string(case.join("error.txt")).ok();
        let code = error.as_deref().and_then(|e| {
            e.lines()
                .next()
                .and_then(|l| l.strip_prefix("code: "))
                .map(str::to_string)
        });
        out.push(Input {
            name: format!("hash-json {}", rel(&case, &root)),
            text,
            cwd: None,
            accepted: Some(error.is_none()),
            code,
        });
    }
    out
}

/// Every `request.json` of the lineid-json corpus, with its outcome (`case.json` `expect.ok`).
/// Empty when `../shared` is missing.
pub fn lineid_cases() -> Vec<Input> {
    let mut out = Vec::new();
    let Some(root) = corpus("lineid-json") else {
        return out;
    };
    for case in subdirs(&root.join("cases")) {
        let Ok(text) = fs::read_to_string(case.join("request.json")) else {
            continue;
        };
        let meta: serde_json::Value = fs::read_to_string(case.join("case.json"))
            .ok()
            .and_then(|m| serde_json::from_str(&m).ok())
            .unwrap_or_default();
        out.push(Input {
            name: format!("lineid-json {}", rel(&case, &root)),
            text,
            cwd: None,
            accepted: meta["expect"]["ok"].as_bool(),
            code: meta["expect"]["error_code"].as_str().map(str::to_string),
        });
    }
    out
}

fn rel(path: &Path, base: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}
