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
use hashline_core::{ErrorCode, TextFile};
use hashline_state::{MemoryStore, SnapshotStore};

const CASES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/conformance/hash-json/cases"
);

/// What we assert instead of the peer's recorded result.
enum Ours {
    /// Applied: the file bytes and the exact response.
    Applied {
        after: &'static [u8],
        response: &'static str,
    },
    /// Refused: the code and the full message.
    Refused {
        code: ErrorCode,
        message: &'static str,
    },
}

/// (case, reason, what we assert).
const DEVIATIONS: &[(&str, &str, Ours)] = &[
    (
        "034-boundary-duplication-warning-before",
        "§4a: the first row repeats the line before the range, so the repeats-line notice joins the warnings",
        Ours::Applied {
            after: b"before\nbefore\nnew one\nnew two\nafter",
            response: "--- Anchors ---\neFfO:before\n0Ibr:before\nPlRV:new one\n4F4w:new two\nH4YZ:after\n\nWarnings:\nPotential boundary duplication before replace 98RN-8_XA: the replacement starts with a line that matches the preceding surviving line after trim.\nrow 1 of replace 98RN-8_XA repeats line 1 (\"before\"); if that was not meant, remove the duplicate",
        },
    ),
    (
        "042-range-replace-plus-boundary-append-no-autocorrect",
        "§3: the append after the replaced range's last line lands after the whole replacement; §4a: `}` repeats the next line",
        Ours::Applied {
            after: b"a\nB\nC\n}\nX\n}",
            response: "--- Anchors ---\nhrLI:a\nVZ6K:B\niU8P:C\nrrvW:}\nRg3w:X\nEKAV:}\n\nWarnings:\nrow 3 of replace gCp1-rVBO repeats line 4 (\"}\"); if that was not meant, remove the duplicate",
        },
    ),
    (
        "059-symbol-boundary-lines-no-warning",
        "§4a: the last row `}` repeats the line after the range (the peer's own check skips lone braces)",
        Ours::Applied {
            after: b"if (ok) {\n  runSafe();\n}\n}\nafter();",
            response: "--- Anchors ---\nb0Gj:if (ok) {\nMSz3:  runSafe();\n_zlP:}\nrrvW:}\nzOHi:after();\n\nWarnings:\nrow 3 of replace b0Gj-C9cC repeats line 3 (\"}\"); if that was not meant, remove the duplicate",
        },
    ),
    (
        "061-trailing-boundary-duplication-warning",
        "§4a: the last row repeats the line after the range, so the repeats-line notice joins the warnings",
        Ours::Applied {
            after: b"aaa\nBBB\nccc\nccc\n",
            response: "--- Anchors ---\n0CFv:aaa\nSG3v:BBB\nY0yQ:ccc\nFwCH:ccc\n\nWarnings:\nPotential boundary duplication after replace 0WIr-0WIr: the replacement ends with a line that matches the next surviving line after trim.\nrow 2 of replace 0WIr-0WIr repeats line 3 (\"ccc\"); if that was not meant, remove the duplicate",
        },
    ),
    (
        "098-legacy-oldtext-newtext",
        "§12: the E_LEGACY_SHAPE message spells the second placeholder `\"<HASH>\"`",
        Ours::Refused {
            code: ErrorCode::LegacyShape,
            message: "[E_LEGACY_SHAPE] \"oldText\" is not supported. Use {op:\"replace\", start:\"<HASH>\", end:\"<HASH>\", lines:[...]}.",
        },
    ),
    (
        "108-edit-item-legacy-replace_text",
        "§12: `op: \"replace_text\"` with `oldText` is E_LEGACY_SHAPE, as the tool's README promises",
        Ours::Refused {
            code: ErrorCode::LegacyShape,
            message: "[E_LEGACY_SHAPE] Edit 0 field \"oldText\" is not supported. Use {op:\"replace\", start:\"<HASH>\", end:\"<HASH>\", lines:[...]}.",
        },
    ),
    (
        "128-mixed-endings-lf-first-becomes-all-lf",
        "§2: untouched lines keep their CRLF endings",
        Ours::Applied { after: b"ALPHA\nbeta\r\ngamma\r\n", response: "--- Anchors ---\nFWg3:ALPHA\nP-cP:beta\nfqFi:gamma" },
    ),
    (
        "129-cr-only-file-rewritten-as-lf",
        "§2: a CR-only file stays CR-only",
        Ours::Applied { after: b"old\rMAC\rline\r", response: "--- Anchors ---\nvCvs:old\nxKf6:MAC\nzLmF:line" },
    ),
    (
        "130-bom-dropped-on-write",
        "§2: the BOM survives",
        Ours::Applied { after: b"\xEF\xBB\xBFFIRST\nsecond\n", response: "--- Anchors ---\nLE-L:FIRST\neEsQ:second" },
    ),
    (
        "135-invalid-utf8-rewritten-as-utf8-with-warning",
        "§2: the untouched line keeps its invalid bytes instead of becoming U+FFFD, and the warning says so",
        Ours::Applied {
            after: b"\xC3(\nlong\n",
            response: "--- Anchors ---\nrj60:\u{FFFD}(\nc-DH:long\n\nWarnings:\nNon-UTF-8 bytes were shown as U+FFFD; lines this edit did not touch keep their original bytes.",
        },
    ),
    (
        "157-duplicate-anchor-retargets-after-earlier-duplicate-removed",
        "§1: the recorded read shows the anchor named the deleted first `foo`; refused instead of retargeted",
        Ours::Refused {
            code: ErrorCode::StaleAnchor,
            message: "[E_STALE_ANCHOR] 1 stale anchor: \"7C3P\". The file changed on disk since the read these anchors came from, and the lines they name changed or moved, so the edit cannot be placed with certainty. Re-read the file to refresh.\n\nCurrent state (around the edit):\n>>> Hy4n:bar\n>>> 7C3P:foo",
        },
    ),
    (
        "163-prepend-after-deleted-range-misplaced-PEER-BUG",
        "§3: the prepend before the line after a deleted range lands before that line",
        Ours::Applied { after: b"a\nX\nd\n", response: "--- Anchors ---\nhrLI:a\nRg3w:X\nHGSv:d" },
    ),
];

fn read_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Our code for the peer's messages that carry no bracketed code.
fn code_for_plain_message(message: &str) -> ErrorCode {
    if message.starts_with("File not found") {
        ErrorCode::FileNotFound
    } else if message.starts_with("Path is a directory") {
        ErrorCode::IsDirectory
    } else if message.starts_with("Path is a binary file")
        || message.starts_with("Path is an image file")
    {
        ErrorCode::Binary
    } else if message.starts_with("No edits provided") {
        ErrorCode::BadShape
    } else {
        panic!("no code mapping for the plain message {message:?}")
    }
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

    if let Some((_, _, ours)) = DEVIATIONS.iter().find(|(id, _, _)| *id == name) {
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
    let root = PathBuf::from(CASES);
    let entries = std::fs::read_dir(&root).unwrap_or_else(|e| {
        panic!(
            "hash-json conformance cases missing at {} ({e}); clone ../shared beside the repo",
            root.display()
        )
    });
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
    for (id, _, _) in DEVIATIONS {
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
