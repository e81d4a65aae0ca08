//! Runs every case of `../shared/conformance/hash-json/cases` through `hash_json::edit`.
//!
//! Each case runs in a fresh temp dir with a fresh `MemoryStore`; a case with `anchors_from.txt`
//! first records that older text in the store, as the `read` that produced its anchors would.
//! Success cases: file bytes == `after.txt` and `Outcome.text` == `response.txt`. Error cases:
//! the code matches `error.txt` line 1, our message equals `error_message.txt` (so its first line
//! equals line 2), and the file is unchanged.
//!
//! Where `../shared/conformance/DEVIATIONS.md` makes us do better, [`DEVIATIONS`] holds what we
//! assert instead, each with its reason.

use std::path::{Path, PathBuf};

use hashline_apply::fs::Workspace;
use hashline_apply::hash_json::{edit, EditOptions};
use hashline_core::TextFile;
use hashline_state::{MemoryStore, SnapshotStore};

#[path = "common/hash_json_deviations.rs"]
mod deviations;

use deviations::{code_for_plain_message, Ours, DEVIATIONS};

#[path = "../../../tests-support/shared.rs"]
mod shared;

fn read_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Runs one case; `Err` describes a failure.
fn run_case(dir: &Path) -> Result<bool, String> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let meta: serde_json::Value = serde_json::from_str(&read_text(&dir.join("meta.json")))
        .map_err(|e| format!("meta.json: {e}"))?;
    let file_name = meta["file_name"]
        .as_str()
        .ok_or("meta.json has no file_name")?;
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let file = tmp.path().join(file_name);
    let before = std::fs::read(dir.join("before.txt")).ok();
    if let Some(bytes) = &before {
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(&file, bytes).map_err(|e| e.to_string())?;
    }
    let ws = Workspace::new(tmp.path()).map_err(|e| e.to_string())?;
    let store = MemoryStore::new();
    let request = read_text(&dir.join("request.json"));
    if let Ok(older) = std::fs::read(dir.join("anchors_from.txt")) {
        let key = ws.resolve(file_name).map_err(|e| e.to_string())?.key;
        let text = TextFile::decode(older).text().to_owned();
        store.record(&key, &text).map_err(|e| e.to_string())?;
    }
    let out = edit(&ws, &store, &request, &EditOptions::default());
    let now = std::fs::read(&file).ok();

    // Every run records `anchors_from.txt` first, so `When::Recorded` deviations apply too.
    if let Some((_, _, _, ours)) = DEVIATIONS.iter().find(|(id, _, _, _)| *id == name) {
        match ours {
            Ours::Applied { after, response } => {
                check(out.ok, || format!("refused: {}", out.text))?;
                check(now.as_deref() == Some(*after), || {
                    format!("file {now:?}, want {:?}", after)
                })?;
                check(out.text == *response, || {
                    format!("response\n{}\nwant\n{response}", out.text)
                })?;
            }
            Ours::Refused { code, message } => {
                check(!out.ok && out.code == Some(*code), || {
                    format!("got {:?}: {}", out.code, out.text)
                })?;
                check(out.text == *message, || {
                    format!("message\n{}\nwant\n{message}", out.text)
                })?;
                check(now == before, || "file changed".to_owned())?;
            }
        }
        return Ok(true);
    }

    if dir.join("error.txt").exists() {
        let error = read_text(&dir.join("error.txt"));
        let mut lines = error.lines();
        let code_line = lines.next().unwrap_or_default();
        let first_line = lines
            .next()
            .unwrap_or_default()
            .strip_prefix("contains: ")
            .unwrap_or_default();
        let want_code = match code_line.strip_prefix("code: ") {
            Some("-") => code_for_plain_message(first_line),
            Some(code) => serde_json::from_value(serde_json::Value::String(code.to_owned()))
                .map_err(|e| format!("unknown code {code}: {e}"))?,
            None => return Err(format!("bad error.txt: {code_line}")),
        };
        check(!out.ok, || {
            format!("applied, want {want_code}: {}", out.text)
        })?;
        check(out.code == Some(want_code), || {
            format!("code {:?}, want {want_code}: {}", out.code, out.text)
        })?;
        check(out.text.lines().next() == Some(first_line), || {
            format!("first line of\n{}\nwant\n{first_line}", out.text)
        })?;
        let full = read_text(&dir.join("error_message.txt"));
        check(out.text == full.trim_end_matches('\n'), || {
            format!("message\n{}\nwant\n{full}", out.text)
        })?;
        check(now == before, || "file changed on refusal".to_owned())?;
    } else {
        let after = std::fs::read(dir.join("after.txt")).map_err(|e| format!("after.txt: {e}"))?;
        let response = read_text(&dir.join("response.txt"));
        check(out.ok, || format!("refused: {}", out.text))?;
        check(now.as_deref() == Some(after.as_slice()), || {
            format!("file {now:?}, want {:?}", after)
        })?;
        check(out.text == response, || {
            format!("response\n{}\nwant\n{response}", out.text)
        })?;
    }
    Ok(false)
}

fn check(ok: bool, why: impl FnOnce() -> String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(why())
    }
}

#[test]
fn hash_json_conformance() {
    let Some(root) = shared::path("conformance/hash-json/cases") else {
        return;
    };
    let entries =
        std::fs::read_dir(&root).unwrap_or_else(|e| panic!("cannot read {}: {e}", root.display()));
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(
        !dirs.is_empty(),
        "no hash-json conformance cases in {}",
        root.display()
    );
    for (id, _, _, _) in DEVIATIONS {
        assert!(
            dirs.iter().any(|d| d.ends_with(id)),
            "deviation names a case that does not exist: {id}"
        );
    }
    let (mut passed, mut deviations, mut failures) = (0usize, 0usize, Vec::new());
    for dir in &dirs {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match run_case(dir) {
            Ok(true) => deviations += 1,
            Ok(false) => passed += 1,
            Err(why) => failures.push(format!("--- {name}\n{why}")),
        }
    }
    println!(
        "hash-json conformance: {passed} passed, {deviations} deviations asserted, {} failed",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
