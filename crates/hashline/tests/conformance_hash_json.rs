//! The hash-json conformance corpus (`../shared/conformance/hash-json`) through the real
//! `hashline` binary: every edit case (`cases/`), every read case (`read-cases/`) and every
//! pro 0.2.0 vector (`vectors/`).
//!
//! Edit cases run twice, each in a fresh root and state directory:
//! * **fresh**: the file is put in place and `hashline --json edit --dialect hash-json -` gets
//!   `request.json` on stdin with nothing recorded, exactly as the peer ran it;
//! * **read first**: `hashline read PATH --anchors hash` records the text the anchors came from
//!   (`anchors_from.txt` when the case has one, else `before.txt`), then `before.txt` is put in
//!   place with a plain write and the edit runs in plain mode, so stdout and the exit code are
//!   checked too.
//!
//! Before the real edit, the same request runs with `--dry-run`: the file stays as it was and the
//! dry run decides as the real run does (the same exit code, the same refusal text).
//!
//! Success: file bytes == `after.txt`, text == `response.txt`, exit 0, every warning of the
//! `--json` list is in the text. Refusal: the code of `error.txt`, the text ==
//! `error_message.txt`, exit 1, the file byte-identical. Deviation cases (DEVIATIONS.md) assert
//! what we do instead (`hashline-apply/tests/common/hash_json_deviations.rs`, shared with the
//! library-level run).
//!
//! Not expressible through the binary (covered at library level only):
//! * `vectors/raw_xxh32_pro.tsv` rows `""` and `"S1:\u00a0"`: no file line hashes to them (the
//!   first has no discriminator; the second ends in NBSP, which the canonical form trims). Every
//!   other row is checked as the hash `read` prints for a line built to carry that input
//!   (`hashline-anchor/tests/hash_json_vectors.rs` checks all rows).
//! * `vectors/*.v070.*` and `*.v083.*`: upstream hash variants the engine does not speak.
//!
//! Read-case arguments go to `--offset` / `--limit` as their JSON text, which the dialect parses
//! as JSON (`2`, `0`, `1.5`; a string would go quoted and be refused as the tool refuses it), so
//! no read case is library-only. The one JSON argument with no CLI spelling is `null` ("not
//! given"), which the CLI expresses by leaving the flag out; the corpus has none.

#[path = "../../hashline-apply/tests/common/hash_json_deviations.rs"]
mod deviations;
#[path = "conformance_hash_json/harness.rs"]
mod harness;
#[path = "conformance_hash_json/reads.rs"]
mod reads;
mod support;

use std::fs;
use std::path::Path;

use deviations::{code_for_plain_message, Ours, When, DEVIATIONS};
use harness::{check, corpus, name_of, subdirs, text_of, Sandbox, Seen};
use hashline_core::ErrorCode;
use serde_json::Value;

/// The expected refusal of an error case: its code and full message.
fn expected_refusal(case: &Path) -> Result<(ErrorCode, String), String> {
    let error = text_of(&case.join("error.txt"));
    let mut lines = error.lines();
    let code_line = lines.next().unwrap_or_default();
    let first = lines
        .next()
        .unwrap_or_default()
        .strip_prefix("contains: ")
        .unwrap_or_default();
    let code = match code_line.strip_prefix("code: ") {
        Some("-") => code_for_plain_message(first),
        Some(code) => serde_json::from_value(Value::String(code.to_owned()))
            .map_err(|e| format!("unknown code {code}: {e}"))?,
        None => return Err(format!("bad error.txt: {code_line}")),
    };
    let full = text_of(&case.join("error_message.txt"));
    let full = full.trim_end_matches('\n').to_owned();
    check(full.lines().next() == Some(first), || {
        format!("error.txt line 2 is not the first line of error_message.txt: {first:?}")
    })?;
    Ok((code, full))
}

/// Runs one edit case in one setup; `Ok(true)` when a deviation was asserted.
fn run_edit_case(case: &Path, read_first: bool) -> Result<bool, String> {
    let name = name_of(case);
    let meta: Value = serde_json::from_str(&text_of(&case.join("meta.json")))
        .map_err(|e| format!("meta.json: {e}"))?;
    let file_name = meta["file_name"].as_str().ok_or("no file_name")?;
    match meta["setup"].as_str() {
        None | Some("missing") => {}
        Some(other) => return Err(format!("unknown setup {other:?}: teach the harness")),
    }
    let sb = Sandbox::new();
    let before = fs::read(case.join("before.txt")).ok();
    let anchors_from = fs::read(case.join("anchors_from.txt")).ok();
    if read_first {
        if let Some(seen) = anchors_from.as_ref().or(before.as_ref()) {
            sb.put(file_name, seen);
            // A binary file's read is refused (exit 1), as the model would see it.
            let r = sb.run(&["read", file_name, "--anchors", "hash"], b"");
            check(
                r.code == 0 || r.stdout.starts_with("Path is a binary file"),
                || format!("recording read failed: {}{}", r.stdout, r.stderr),
            )?;
        }
    }
    match &before {
        Some(bytes) => sb.put(file_name, bytes),
        None => {
            let _ = fs::remove_file(sb.root.join(file_name));
        }
    }
    let request = fs::read(case.join("request.json")).map_err(|e| e.to_string())?;
    // A dry run first: it writes nothing and must decide as the real run does. The peer has no
    // syntax guard (`074-…` writes broken Python on purpose): its parser is switched off.
    let dry = Seen::from_json(&sb.run(
        &[
            "--json",
            "edit",
            "--dialect",
            "hash-json",
            "--allow-syntax-errors",
            "--dry-run",
            "-",
        ],
        &request,
    ))?;
    check(fs::read(sb.root.join(file_name)).ok() == before, || {
        "the dry run changed the file".to_owned()
    })?;
    let args: &[&str] = if read_first {
        &[
            "edit",
            "--dialect",
            "hash-json",
            "--allow-syntax-errors",
            "-",
        ]
    } else {
        &[
            "--json",
            "edit",
            "--dialect",
            "hash-json",
            "--allow-syntax-errors",
            "-",
        ]
    };
    let run = sb.run(args, &request);
    let seen = if read_first {
        Seen::from_plain(&run)
    } else {
        Seen::from_json(&run)?
    };
    let now = fs::read(sb.root.join(file_name)).ok();
    let recorded = read_first && anchors_from.is_some();
    check(dry.ok == seen.ok && dry.exit == seen.exit, || {
        format!("dry run ok={} exit {}: {}", dry.ok, dry.exit, dry.text)
    })?;
    if !seen.ok {
        check(dry.text == seen.text, || {
            format!("dry-run refusal\n{}\nreal\n{}", dry.text, seen.text)
        })?;
    }

    let deviation = DEVIATIONS
        .iter()
        .find(|(id, _, when, _)| *id == name && (*when == When::Always || recorded));
    if let Some((_, _, _, ours)) = deviation {
        match ours {
            Ours::Applied { after, response } => {
                seen.expect_applied(response)?;
                check(now.as_deref() == Some(*after), || {
                    format!("file {now:?}, want {after:?}")
                })?;
            }
            Ours::Refused { code, message } => {
                seen.expect_refused(*code, message)?;
                check(now == before, || "file changed on refusal".to_owned())?;
            }
        }
        return Ok(true);
    }

    if case.join("error.txt").exists() {
        let (code, message) = expected_refusal(case)?;
        seen.expect_refused(code, &message)?;
        check(now == before, || "file changed on refusal".to_owned())?;
    } else {
        let after = fs::read(case.join("after.txt")).map_err(|e| format!("after.txt: {e}"))?;
        seen.expect_applied(&text_of(&case.join("response.txt")))?;
        check(now.as_deref() == Some(after.as_slice()), || {
            format!("file {now:?}, want {after:?}")
        })?;
    }
    Ok(false)
}

#[test]
fn edit_cases_through_the_binary() {
    let Some(corpus) = corpus() else { return };
    let dirs = subdirs(&corpus.join("cases"));
    assert!(dirs.len() >= 100, "expected the 105 edit cases");
    for (id, _, _, _) in DEVIATIONS {
        assert!(
            dirs.iter().any(|d| d.ends_with(id)),
            "deviation names a case that does not exist: {id}"
        );
    }
    let (mut passed, mut deviations, mut failed_cases) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for dir in &dirs {
        let mut deviated = false;
        let mut failed = false;
        for read_first in [false, true] {
            let setup = if read_first { "read first" } else { "fresh" };
            match run_edit_case(dir, read_first) {
                Ok(d) => deviated |= d,
                Err(why) => {
                    failed = true;
                    failures.push(format!("--- {} [{setup}]\n{why}", name_of(dir)));
                }
            }
        }
        match (failed, deviated) {
            (true, _) => failed_cases += 1,
            (false, true) => deviations += 1,
            (false, false) => passed += 1,
        }
    }
    println!(
        "hash-json conformance (binary): {passed} passed, {deviations} deviations checked, {} failed \
         (each case fresh and after a recording read)",
        failed_cases
    );
    assert!(
        failures.is_empty(),
        "{} run(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
