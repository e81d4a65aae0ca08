//! The LINE#ID conformance corpus (`../shared/conformance/lineid-json`) through the real binary.
//!
//! Every case: `before.txt` at `request.filePath`, `hashline read P --anchors lineid` (records
//! the session snapshot), `hashline --json edit --dialect lineid-json --dry-run -` (must write
//! nothing and agree on success), then the real `hashline --json edit --dialect lineid-json -`
//! with `request.json` on stdin. The text must equal `result.txt` / `error.txt` exactly, the exit
//! code must be 0 / 1, and the whole tree afterwards must be exactly the expected file at
//! `case.json → expect.final_path` (nothing at all after a delete; `before.txt` untouched after a
//! refusal) — renames, creations in new directories and deletions included.
//!
//! Cases where `DEVIATIONS.md` decides otherwise take their exact expectation from
//! `hashline-apply/tests/data/lineid/deviations/<case>/` (or the case's `*.head.txt`, §9), and
//! additionally the property DEVIATIONS.md states for them, checked from the request itself.
//!
//! The ID vectors run through `read --anchors lineid` on files made of the vector lines.

mod support;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use support::cli::{hashline, Run};
use support::tree::{self, Entry};

fn shared() -> Option<PathBuf> {
    support::corpus::corpus("lineid-json")
}

fn deviations_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../hashline-apply/tests/data/lineid/deviations")
}

/// What one case produced, for the DEVIATIONS checks.
struct Ran<'a> {
    before: Option<&'a [u8]>,
    request: &'a Value,
    ok: bool,
    text: &'a str,
    /// The bytes at `request.filePath` afterwards (`None` when gone).
    after: Option<Vec<u8>>,
}

type Check = fn(&Ran) -> Result<(), String>;

/// Every case where DEVIATIONS.md overrides the peer, the rule, and what the rule says we do.
const DEVIATIONS: &[(&str, &str, Check)] = &[
    (
        "023-string-lines-trailing-newline-adds-blank",
        "§5",
        applied_as_sent,
    ),
    ("044-mixed-eol-lf-first-normalized-to-lf", "§2", |r| {
        after_is(r, b"LINE1\nline2\r\nline3\r\n")
    }),
    ("048-append-eof-with-trailing-newline", "§5", |r| {
        after_is(r, b"a\nb\nX\n")
    }),
    (
        "065-literal-LINE-placeholder-multi-edit-no-hint",
        "§10",
        |r| refused_with(r, &["Did you mean \"1#"]),
    ),
    (
        "089-single-replace-inside-range-not-detected",
        "§4",
        overlap_in_request_order,
    ),
    ("092-two-appends-same-anchor-reversed", "§3", |r| {
        after_is(r, b"a\nfirst\nsecond\nb")
    }),
    (
        "097-append-anchor-inside-range",
        "§4",
        overlap_in_request_order,
    ),
    ("101-ac-hash-prefix-below-threshold-kept", "§6", |r| {
        refused_with(r, &["pasted LINE#ID prefix", "\"4#ZZ|one\""])
    }),
    (
        "102-ac-prefix-without-line-number-not-stripped",
        "§6",
        prefixes_stripped,
    ),
    (
        "104-ac-plus-single-line-stripped-quirk",
        "§6",
        applied_as_sent,
    ),
    ("106-ac-minus-lines-not-stripped", "§6", |r| {
        refused_with(r, &["look like a diff"])
    }),
    ("111-ac-insert-before-single-echo-kept", "§8", |r| {
        // Refused like `109-ac-insert-after-only-echo-rejected`, with the prepend wording.
        refused_with(
            r,
            &["Error: prepend (anchored) requires non-empty text for 2#XH"],
        )
    }),
    ("113-ac-range-boundary-echo-indent-change", "§9", |r| {
        // Exact comparison: the re-indented last row stays, the exact first echo goes.
        after_is(
            r,
            b"    before_context\nnew_line_1\nnew_line_2\n      after_context\n    after_context",
        )
    }),
    // An autocorrection never changes a correct request: a closer keeps its column, and
    // with no line around the range nothing says the indentation was lost.
    (
        "117-ac-bad-example-from-description",
        "autocorrect",
        applied_as_sent,
    ),
    (
        "129-ac-wrapped-span-collapsed-with-other-changes",
        "§7",
        applied_as_sent,
    ),
    ("133-ac-split-line-reverted-noop", "§7", applied_as_sent),
    (
        "136-ac-merged-join-resplit-loses-indent",
        "§7",
        applied_as_sent,
    ),
    (
        "141-ac-merged-declines-count-mismatch",
        "autocorrect",
        applied_as_sent,
    ),
];

fn after_is(r: &Ran, want: &[u8]) -> Result<(), String> {
    if !r.ok || r.after.as_deref() != Some(want) {
        return Err(format!(
            "DEVIATIONS: expected the file {:?}, got (ok={}) {:?}",
            String::from_utf8_lossy(want),
            r.ok,
            r.after.as_deref().map(String::from_utf8_lossy)
        ));
    }
    Ok(())
}

fn refused_with(r: &Ran, parts: &[&str]) -> Result<(), String> {
    match parts.iter().find(|p| !r.text.contains(**p)) {
        _ if r.ok => Err(format!("DEVIATIONS: expected a refusal, got {:?}", r.text)),
        Some(p) => Err(format!("DEVIATIONS: refusal lacks {p:?}: {:?}", r.text)),
        None if r.after.as_deref() != r.before => Err("refused, but the file changed".into()),
        None => Ok(()),
    }
}

fn overlap_in_request_order(r: &Ran) -> Result<(), String> {
    refused_with(
        r,
        &["Overlapping edits detected: edits[0] (", ") and edits[1] ("],
    )
}

/// The payload of the request's only edit, split as the dialect does (a string loses one
/// trailing `\n`: DEVIATIONS §5).
fn payload(request: &Value) -> Vec<String> {
    match &request["edits"][0]["lines"] {
        Value::String(s) => s
            .strip_suffix('\n')
            .unwrap_or(s)
            .split('\n')
            .map(str::to_string)
            .collect(),
        Value::Array(a) => a
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

fn line_of(anchor: &Value) -> Option<usize> {
    anchor.as_str()?.split('#').next()?.trim().parse().ok()
}

/// `before.txt` with the only edit (a replace) applied exactly as sent: no autocorrection.
fn splice_as_sent(r: &Ran, rows: Vec<String>) -> Result<Vec<u8>, String> {
    let edit = &r.request["edits"][0];
    let start = line_of(&edit["pos"]).ok_or("no pos")?;
    let end = line_of(&edit["end"]).unwrap_or(start);
    let before = String::from_utf8_lossy(r.before.ok_or("no before.txt")?).into_owned();
    let mut lines: Vec<String> = before.split('\n').map(str::to_string).collect();
    lines.splice(start - 1..end, rows);
    Ok(lines.join("\n").into_bytes())
}

fn applied_as_sent(r: &Ran) -> Result<(), String> {
    let want = splice_as_sent(r, payload(r.request))?;
    after_is(r, &want)
}

fn prefixes_stripped(r: &Ran) -> Result<(), String> {
    // Every row carries `#ID|`: stripped from every row, nothing else changed.
    let rows: Vec<String> = payload(r.request)
        .iter()
        .map(|row| {
            row.split_once('|')
                .map_or(row.as_str(), |(_, t)| t)
                .to_string()
        })
        .collect();
    let want = splice_as_sent(r, rows)?;
    after_is(r, &want)
}

fn file_entry(bytes: Vec<u8>) -> Entry {
    Entry::File { bytes, exec: false }
}

/// The exact expectation: `(result text, after bytes)` or the error text.
fn expectation(case: &Path, name: &str) -> (Option<String>, Option<Vec<u8>>, Option<String>) {
    let dev = deviations_dir().join(name);
    let (dir, suffix) = if dev.is_dir() {
        (dev, "")
    } else if case.join("after.head.txt").is_file() {
        (case.to_path_buf(), ".head")
    } else {
        (case.to_path_buf(), "")
    };
    let get = |stem: &str| fs::read(dir.join(format!("{stem}{suffix}.txt"))).ok();
    let text = |stem: &str| get(stem).map(|b| String::from_utf8_lossy(&b).into_owned());
    (text("result"), get("after"), text("error"))
}

fn edit(root: &Path, state: &Path, request: &[u8], dry_run: bool) -> Result<(Run, Value), String> {
    let mut args = vec!["--json", "edit", "--dialect", "lineid-json"];
    if dry_run {
        args.push("--dry-run");
    }
    args.push("-");
    let run = hashline(root, state, &args, request);
    let out: Value = serde_json::from_str(&run.stdout).map_err(|e| {
        format!(
            "edit printed no JSON ({e}), exit {}: {}{}",
            run.code, run.stdout, run.stderr
        )
    })?;
    let ok = out["ok"].as_bool().ok_or("no `ok` in the JSON")?;
    if run.code != if ok { 0 } else { 1 } {
        return Err(format!("exit {} with ok={ok}: {}", run.code, run.stdout));
    }
    if ok != out["code"].is_null() {
        return Err(format!("ok={ok} but code={}", out["code"]));
    }
    Ok((run, out))
}

fn run_case(case: &Path, name: &str, check: Option<Check>) -> Result<(), String> {
    let request_bytes = fs::read(case.join("request.json")).map_err(|e| e.to_string())?;
    let request: Value = serde_json::from_slice(&request_bytes).map_err(|e| e.to_string())?;
    let meta: Value = serde_json::from_slice(&fs::read(case.join("case.json")).unwrap_or_default())
        .map_err(|e| format!("case.json: {e}"))?;
    let file_path = request["filePath"].as_str().ok_or("no filePath")?;
    let before = fs::read(case.join("before.txt")).ok();

    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (root, state) = (tmp.path().join("root"), tmp.path().join("state"));
    fs::create_dir_all(&root).map_err(|e| e.to_string())?;
    let mut start = BTreeMap::new();
    if let Some(b) = &before {
        let at = root.join(file_path);
        fs::create_dir_all(at.parent().ok_or("no parent")?).map_err(|e| e.to_string())?;
        fs::write(&at, b).map_err(|e| e.to_string())?;
        start.insert(file_path.to_string(), file_entry(b.clone()));
        let read = hashline(
            &root,
            &state,
            &["read", file_path, "--anchors", "lineid"],
            b"",
        );
        if read.code != 0 {
            return Err(format!("read failed: {}{}", read.stdout, read.stderr));
        }
    }

    let (_, dry) = edit(&root, &state, &request_bytes, true)?;
    let dry_diff = tree::diff_trees(&start, &tree::snapshot(&root));
    if !dry_diff.is_empty() {
        return Err(format!("--dry-run wrote:\n{dry_diff}"));
    }

    let (_, out) = edit(&root, &state, &request_bytes, false)?;
    let ok = out["ok"].as_bool().unwrap_or(false);
    let text = out["text"].as_str().unwrap_or_default();
    if dry["ok"] != out["ok"] {
        return Err(format!("--dry-run said ok={}, the edit ok={ok}", dry["ok"]));
    }
    let (result, after, error) = expectation(case, name);
    let mut errs = Vec::new();
    let mut want_tree = BTreeMap::new();
    if let Some(error) = error {
        if ok || text != error {
            errs.push(format!("expected error {error:?}, got (ok={ok}) {text:?}"));
        }
        if !dry["ok"].as_bool().unwrap_or(true) && dry["text"] != out["text"] {
            errs.push(format!("--dry-run refused differently: {}", dry["text"]));
        }
        want_tree = start;
    } else {
        let result = result.ok_or("case has neither result.txt nor error.txt")?;
        if !ok || seed_text(text) != result {
            errs.push(format!("expected {result:?}, got (ok={ok}) {text:?}"));
        }
        if let Some(final_path) = meta["expect"]["final_path"].as_str() {
            let after = after.ok_or("no after.txt")?;
            want_tree.insert(final_path.to_string(), file_entry(after));
        }
    }
    let got_tree = tree::snapshot(&root);
    let tree_diff = tree::diff_trees(&want_tree, &got_tree);
    if !tree_diff.is_empty() {
        errs.push(format!("tree after the call:\n{tree_diff}"));
    }
    let original_exists = root.join(file_path).exists();
    if let Some(want) = meta["expect"]["original_path_exists_after"].as_bool() {
        if original_exists != want && ok {
            errs.push(format!(
                "{file_path} exists={original_exists}, expected {want}"
            ));
        }
    }
    if let Some(check) = check {
        let ran = Ran {
            before: before.as_deref(),
            request: &request,
            ok,
            text,
            after: fs::read(root.join(file_path)).ok(),
        };
        if let Err(e) = check(&ran) {
            errs.push(e);
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("\n  "))
    }
}

#[test]
fn lineid_corpus_through_the_binary() {
    let Some(shared) = shared() else { return };
    let cases_dir = shared.join("cases");
    let cases: Vec<PathBuf> = support::corpus::subdirs(&cases_dir)
        .into_iter()
        .filter(|p| p.join("request.json").is_file())
        .collect();
    assert_eq!(cases.len(), 91, "the corpus has 91 cases");

    // The deviation list, its data folders and the corpus must agree.
    let mut with_data: Vec<String> = fs::read_dir(deviations_dir())
        .expect("hashline-apply/tests/data/lineid/deviations")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .chain(["113-ac-range-boundary-echo-indent-change".to_string()])
        .collect();
    with_data.sort();
    let listed: Vec<&str> = DEVIATIONS.iter().map(|(c, _, _)| *c).collect();
    assert_eq!(
        listed, with_data,
        "DEVIATIONS list and deviation data disagree"
    );

    let (mut passed, mut deviations, mut failed) = (0, 0, Vec::new());
    for case in &cases {
        let name = case.file_name().unwrap_or_default().to_string_lossy();
        let check = DEVIATIONS.iter().find(|(c, _, _)| *c == name).map(|d| d.2);
        match run_case(case, &name, check) {
            Ok(()) if check.is_some() => deviations += 1,
            Ok(()) => passed += 1,
            Err(e) => failed.push(format!("{name}:\n  {e}")),
        }
    }
    println!(
        "lineid conformance (binary): {passed} passed, {deviations} deviations checked, {} failed",
        failed.len()
    );
    assert!(
        failed.is_empty(),
        "{} cases failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

fn read_json(root: &Path, state: &Path, args: &[&str]) -> Value {
    let run = hashline(root, state, args, b"");
    assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
    run.json()
}

#[test]
fn lineid_vector_files_through_read() {
    let Some(shared) = shared() else { return };
    let dir = shared.join("vectors");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("vectors")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 23, "the vectors README lists 23 files");
    let tmp = tempfile::tempdir().expect("tempdir");
    let (root, state) = (tmp.path().join("root"), tmp.path().join("state"));
    fs::create_dir_all(&root).expect("root");
    let mut failed = Vec::new();
    for txt in &files {
        let name = txt.file_name().unwrap_or_default().to_string_lossy();
        fs::copy(txt, root.join(&*name)).expect("copy vector");
        let out = read_json(
            &root,
            &state,
            &["--json", "read", &name, "--anchors", "lineid"],
        );
        let text = out["text"].as_str().unwrap_or_default();
        let want = fs::read_to_string(txt.with_extension("read")).expect(".read");
        let ids: String = text
            .lines()
            .map(|row| format!("{}\n", row.split('|').next().unwrap_or_default()))
            .collect();
        let want_ids = fs::read_to_string(txt.with_extension("ids")).expect(".ids");
        if text != want || ids != want_ids {
            failed.push(format!("{name}: got {text:?}, expected {want:?}"));
        }
    }
    println!(
        "lineid vector files (binary): {} passed, {} failed",
        files.len() - failed.len(),
        failed.len()
    );
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// One `hash_cases.jsonl` row.
struct HashCase {
    line: usize,
    content: String,
    id: String,
    legacy: String,
}

/// The file holding `content` at every line of `at` (blank lines elsewhere, and a final `\n`
/// so that an empty line 1 is a line). A leading U+FEFF on line 1 needs a real BOM in front,
/// which the file model strips.
fn file_with(content: &str, at: &[usize]) -> String {
    let last = at.iter().copied().max().unwrap_or(1);
    let mut out = String::new();
    if at.contains(&1) && content.starts_with('\u{feff}') {
        out.push('\u{feff}');
    }
    for n in 1..=last {
        if at.contains(&n) {
            out.push_str(content);
        }
        out.push('\n');
    }
    out
}

/// `hash_cases.jsonl`: each `content` put at line `line` of a file (blank lines elsewhere) and
/// read back (lines up to 1000 in one read per content, the others with `--offset`/`--limit`);
/// where the legacy ID differs, an edit anchored on it must validate (`--dry-run`).
#[test]
fn lineid_hash_cases_through_read() {
    let Some(shared) = shared() else { return };
    let path = shared.join("vectors/hash_cases.jsonl");
    let cases: Vec<HashCase> = fs::read_to_string(&path)
        .expect("hash_cases.jsonl")
        .lines()
        .map(|l| {
            let row: Value = serde_json::from_str(l).expect("JSON row");
            let text = |k: &str| row[k].as_str().expect(k).to_string();
            HashCase {
                line: row["line"].as_u64().expect("line") as usize,
                content: text("content"),
                id: text("id"),
                legacy: text("legacy_id"),
            }
        })
        .collect();
    assert_eq!(cases.len(), 558);
    let tmp = tempfile::tempdir().expect("tempdir");
    let (root, state) = (tmp.path().join("root"), tmp.path().join("state"));
    fs::create_dir_all(&root).expect("root");
    let mut by_content: BTreeMap<&str, Vec<&HashCase>> = BTreeMap::new();
    for c in &cases {
        by_content.entry(&c.content).or_default().push(c);
    }
    let (mut legacy_checked, mut failed) = (0, Vec::new());
    for (content, rows) in &by_content {
        // A `\r` is a line break in a file (it shifts later lines): one file per row then.
        let (small, single): (Vec<&HashCase>, Vec<&HashCase>) = rows
            .iter()
            .partition(|c| c.line <= 1000 && !content.contains('\r'));
        let mut batches: Vec<(Vec<&HashCase>, String)> = single
            .into_iter()
            .map(|c| (vec![c], c.line.to_string()))
            .collect();
        if !small.is_empty() {
            batches.push((small, String::new()));
        }
        for (batch, offset) in batches {
            let at: Vec<usize> = batch.iter().map(|c| c.line).collect();
            fs::write(root.join("v.txt"), file_with(content, &at)).expect("write");
            let mut args = vec!["--json", "read", "v.txt", "--anchors", "lineid"];
            if !offset.is_empty() {
                args.extend(["--offset", &offset, "--limit", "1"]);
            }
            let out = read_json(&root, &state, &args);
            let text = out["text"].as_str().unwrap_or_default();
            let first = offset.parse().unwrap_or(1);
            for c in &batch {
                let got = text.lines().nth(c.line - first).unwrap_or_default();
                // The ID ignores a `\r`; the file shows the text before it on this line.
                let shown = c.content.split('\r').next().unwrap_or_default();
                let want = format!("{}#{}|{shown}", c.line, c.id);
                if got != want {
                    failed.push(format!(
                        "{:?} at line {}: got {got:?}, expected {want:?}",
                        c.content, c.line
                    ));
                }
            }
            for c in batch.iter().filter(|c| c.legacy != c.id) {
                let request = serde_json::json!({
                    "filePath": "v.txt",
                    "edits": [{"op": "replace", "pos": format!("{}#{}", c.line, c.legacy), "lines": ["REPLACED"]}]
                });
                let run = hashline(
                    &root,
                    &state,
                    &[
                        "--json",
                        "edit",
                        "--dialect",
                        "lineid-json",
                        "--dry-run",
                        "-",
                    ],
                    request.to_string().as_bytes(),
                );
                if run.code != 0 {
                    failed.push(format!(
                        "legacy ID {}#{} of {:?} refused: {}",
                        c.line, c.legacy, c.content, run.stdout
                    ));
                }
                legacy_checked += 1;
            }
        }
    }
    println!(
        "lineid hash cases (binary): {} rows, {legacy_checked} legacy IDs, {} failed",
        cases.len(),
        failed.len()
    );
    assert!(failed.is_empty(), "{}", failed.join("\n"));
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
