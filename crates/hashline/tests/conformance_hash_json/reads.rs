//! The read cases and the vectors of the hash-json corpus through the binary.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::deviations::code_for_plain_message;
use super::harness::{check, corpus, name_of, subdirs, text_of, Sandbox, Seen};

/// `--offset` / `--limit` as the CLI takes them: the JSON value's text (`2`, `1.5`, and a
/// string as its quoted JSON, which the dialect rejects as the tool rejects a string). JSON
/// `null` means "not given", which the CLI says by leaving the flag out.
fn arg_text(v: &Value) -> Option<String> {
    (!v.is_null()).then(|| v.to_string())
}

/// The text a successful read must record: the whole file, BOM-free, LF.
fn expected_record(input: &[u8]) -> String {
    let text = String::from_utf8_lossy(input);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    text.replace("\r\n", "\n").replace('\r', "\n")
}

fn run_read_case(case: &Path) -> Result<(), String> {
    let name = name_of(case);
    let request: Value = serde_json::from_str(&text_of(&case.join("request.json")))
        .map_err(|e| format!("request.json: {e}"))?;
    let path = request["path"].as_str().ok_or("no path")?;
    let sb = Sandbox::new();
    let input = fs::read(case.join("input.txt")).ok();
    match &input {
        Some(bytes) => sb.put(path, bytes),
        // The README: input.txt is absent for the missing-file and directory cases.
        None if name.contains("directory") => {
            fs::create_dir_all(sb.root.join(path)).map_err(|e| e.to_string())?
        }
        None => {}
    }
    let mut args = vec!["read".to_owned(), path.to_owned()];
    for key in ["offset", "limit"] {
        if let Some(text) = request.get(key).and_then(arg_text) {
            args.push(format!("--{key}"));
            args.push(text);
        }
    }
    args.extend(["--anchors".to_owned(), "hash".to_owned()]);
    let plain: Vec<&str> = args.iter().map(String::as_str).collect();
    let json: Vec<&str> = std::iter::once("--json")
        .chain(plain.iter().copied())
        .collect();
    let output = case.join("output.txt");
    for (mode, seen) in [
        ("json", Seen::from_json(&sb.run(&json, b""))?),
        ("plain", Seen::from_plain(&sb.run(&plain, b""))),
    ] {
        let result = if output.exists() {
            let want = text_of(&output);
            check(seen.ok && seen.exit == 0 && seen.code.is_none(), || {
                format!("refused (exit {}): {}", seen.exit, seen.text)
            })
            .and_then(|()| {
                check(seen.text == want, || {
                    format!("output\n{:.300}\nwant\n{want:.300}", seen.text)
                })
            })
        } else {
            let want = text_of(&case.join("error.txt"));
            seen.expect_refused(code_for_plain_message(&want), &want)
        };
        result.map_err(|e| format!("[{mode}] {e}"))?;
    }
    let shows_rows = output.exists() && {
        let out = text_of(&output);
        !out.starts_with("Offset ") && !out.starts_with("[Line ")
    };
    let want = match (&input, shows_rows) {
        (Some(bytes), true) => Some(expected_record(bytes)),
        _ => None,
    };
    let got = sb.recorded(path);
    check(got == want, || {
        format!(
            "recorded {:?} bytes, want {:?}",
            got.map(|g| g.len()),
            want.map(|w| w.len())
        )
    })
}

#[test]
fn read_cases_through_the_binary() {
    let Some(corpus) = corpus() else { return };
    let dirs = subdirs(&corpus.join("read-cases"));
    assert_eq!(dirs.len(), 23, "expected the 23 read cases");
    let failures: Vec<String> = dirs
        .iter()
        .filter_map(|d| {
            run_read_case(d)
                .err()
                .map(|e| format!("--- {}\n{e}", name_of(d)))
        })
        .collect();
    println!(
        "hash-json read cases (binary, --json and plain, recorded text): {} passed, {} failed",
        dirs.len() - failures.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The `HASH` column of a read output's rows, and the offset its continuation hint names.
fn rows_and_next(text: &str) -> (Vec<String>, Option<usize>) {
    let (rows, tail) = text.split_once("\n\n").unwrap_or((text, ""));
    let hashes = if rows.starts_with("File is empty.") {
        Vec::new()
    } else {
        rows.split('\n')
            .map(|r| r.chars().take(4).collect())
            .collect()
    };
    let next = tail.split_once("Use offset=").and_then(|(_, rest)| {
        rest.split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse().ok())
    });
    (hashes, next)
}

fn lines_of(path: &Path) -> Vec<String> {
    text_of(path).lines().map(str::to_owned).collect()
}

fn run_vector(input: &Path) -> Result<(), String> {
    let stem = input
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or("bad name")?;
    let file = format!("{stem}.txt");
    let sb = Sandbox::new();
    sb.put(&file, &fs::read(input).map_err(|e| e.to_string())?);
    let read = |offset: Option<usize>| -> Result<Seen, String> {
        let offset = offset.map(|o| o.to_string());
        let mut args = vec!["--json", "read", file.as_str(), "--anchors", "hash"];
        if let Some(o) = &offset {
            args.extend(["--offset", o.as_str()]);
        }
        Seen::from_json(&sb.run(&args, b""))
    };
    let first = read(None)?;
    let want = text_of(&input.with_file_name(format!("{stem}.read.txt")));
    check(first.ok && first.text == want, || {
        format!("read\n{:.300}\nwant\n{want:.300}", first.text)
    })?;
    // Every visible hash, page by page.
    let (mut hashes, mut next) = rows_and_next(&first.text);
    while let Some(offset) = next {
        let page = read(Some(offset))?;
        check(page.ok, || format!("page at {offset}: {}", page.text))?;
        let (more, after) = rows_and_next(&page.text);
        hashes.extend(more);
        next = after;
    }
    let visible = lines_of(&input.with_file_name(format!("{stem}.hashes")));
    check(hashes == visible, || {
        format!(
            "visible hashes differ ({} read, {} expected)",
            hashes.len(),
            visible.len()
        )
    })?;
    // The entries beyond the visible ones (the sentinel, or the empty file's single entry)
    // resolve as anchors: an append after them is accepted.
    let all = lines_of(&input.with_file_name(format!("{stem}.all.hashes")));
    for hash in all.iter().skip(visible.len()) {
        let request = serde_json::json!({
            "path": file,
            "edits": [{"op": "append", "pos": hash, "lines": ["zz"]}],
        })
        .to_string();
        let run = sb.run(
            &["--json", "edit", "--dialect", "hash-json", "--dry-run", "-"],
            request.as_bytes(),
        );
        let seen = Seen::from_json(&run)?;
        check(seen.ok, || {
            format!("append after hidden entry {hash}: {}", seen.text)
        })?;
    }
    Ok(())
}

/// A file whose `line`-th line hashes from `input` (`C{k}:TEXT` or `S{L}:TEXT`), when one can.
fn file_for_raw(input: &str) -> Option<(String, usize)> {
    let (disc, canonical) = input.split_once(':')?;
    let symbol_only = !canonical.chars().any(char::is_alphanumeric);
    if canonical.trim_end() != canonical || canonical.contains('\n') {
        return None;
    }
    let n: usize = disc.get(1..)?.parse().ok()?;
    match disc.chars().next()? {
        'C' if !symbol_only => Some((format!("{canonical}\n").repeat(n), n)),
        'S' if symbol_only => {
            let filler: String = (1..n).map(|i| format!("filler {i}\n")).collect();
            Some((format!("{filler}{canonical}\n"), n))
        }
        _ => None,
    }
}

#[test]
fn vectors_through_the_binary() {
    let Some(corpus) = corpus() else { return };
    let dir = corpus.join("vectors");
    let mut inputs: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{} missing: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            n.ends_with(".txt") && !n.ends_with(".read.txt")
        })
        .collect();
    inputs.sort();
    assert_eq!(inputs.len(), 19, "expected the 19 vector inputs");
    let mut failures: Vec<String> = inputs
        .iter()
        .filter_map(|p| {
            run_vector(p)
                .err()
                .map(|e| format!("--- {}\n{e}", name_of(p)))
        })
        .collect();
    let files_passed = inputs.len() - failures.len();

    let tsv = text_of(&dir.join("raw_xxh32_pro.tsv"));
    let (mut raw_checked, mut raw_library_only) = (0usize, Vec::new());
    for row in tsv.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let (Some(json), Some(hash)) = (cols.first(), cols.last()) else {
            continue;
        };
        let input: String = serde_json::from_str(json).expect("input column is JSON");
        let Some((content, line)) = file_for_raw(&input) else {
            raw_library_only.push(input);
            continue;
        };
        let sb = Sandbox::new();
        sb.put("raw.txt", content.as_bytes());
        let seen =
            Seen::from_json(&sb.run(&["--json", "read", "raw.txt", "--anchors", "hash"], b""))
                .unwrap_or_else(|e| panic!("{e}"));
        let got = rows_and_next(&seen.text).0.get(line - 1).cloned();
        if got.as_deref() != Some(*hash) {
            failures.push(format!("raw {json}: read shows {got:?}, want {hash}"));
        }
        raw_checked += 1;
    }
    assert_eq!(
        raw_library_only,
        ["", "S1:\u{a0}"],
        "the raw rows that no file line can produce changed; update the module doc"
    );
    println!(
        "hash-json vectors (binary): {} of {} files passed (read text, every visible hash, hidden \
         entries as anchors); raw xxh32 rows: {raw_checked} checked, {} library-only",
        files_passed,
        inputs.len(),
        raw_library_only.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
