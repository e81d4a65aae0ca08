//! Runs every hashline conformance case of kind `apply`, `preview` and `diff-preview`
//! (`../shared/conformance/hashline/cases`) through [`hashline_apply::hashline::edit`] /
//! [`hashline_apply::hashline::preview`] on a temporary workspace with a `MemoryStore`.
//!
//! Cases that need the real tree-sitter block resolver (crate `hashline-ast`, which this crate
//! must not depend on) are skipped here and counted; the lead runs them through the binary.
//! DEVIATIONS §4a: `no_warnings` tolerates the repeated-adjacent-line notice (`repeats line`),
//! and, likewise, the edit guard's coded warnings (`[W_…]`): both announce a suspected mistake
//! in a request that lands exactly as the seed applies it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hashline_anchor::tag::file_tag;
use hashline_apply::fs::Workspace;
use hashline_apply::hashline::{edit, preview, EditOptions};
use hashline_apply::{FileOp, Outcome};
use hashline_core::{BlockResolver, BlockSpan, TextFile};
use hashline_state::{MemoryStore, SnapshotStore};
use serde_json::Value;

#[path = "../../../tests-support/shared.rs"]
mod shared;

/// The seed's unit-test resolver: a block starting on line N spans N..N+1.
struct StubNextLine;
impl BlockResolver for StubNextLine {
    fn resolve(&self, _: &Path, _: &str, line: usize) -> Option<BlockSpan> {
        Some(BlockSpan {
            start: line,
            end: line + 1,
        })
    }
}

/// A resolver that never finds a block.
struct NullResolver;
impl BlockResolver for NullResolver {
    fn resolve(&self, _: &Path, _: &str, _: usize) -> Option<BlockSpan> {
        None
    }
}

enum Verdict {
    Pass,
    Skip,
    Fail(String),
}

fn read_bytes(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("read {}: {e}", p.display()))
}

fn read_text(p: &Path) -> String {
    String::from_utf8(read_bytes(p)).unwrap_or_else(|e| panic!("utf8 {}: {e}", p.display()))
}

fn lf(bytes: &[u8]) -> String {
    TextFile::decode(bytes.to_vec()).text().to_string()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Paths of the case and their `before` bytes.
fn befores(case: &Path, meta: &Value) -> Vec<(String, Option<Vec<u8>>)> {
    match &meta["path"] {
        Value::Array(paths) => paths
            .iter()
            .filter_map(Value::as_str)
            .map(|p| {
                let f = case.join("before").join(p);
                (p.to_string(), f.exists().then(|| read_bytes(&f)))
            })
            .collect(),
        Value::String(p) => {
            let f = case.join("before.txt");
            vec![(p.clone(), f.exists().then(|| read_bytes(&f)))]
        }
        _ => Vec::new(),
    }
}

/// Snapshot texts per path, oldest first.
fn snapshots(case: &Path, path: &str, multi: bool) -> Vec<String> {
    let dir = if multi {
        case.join("snapshots").join(path)
    } else {
        case.join("snapshots")
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files.iter().map(|p| read_text(p)).collect()
}

fn uses_block_ops(patch: &str) -> bool {
    patch.lines().any(|l| {
        let t = l.trim_start();
        t.starts_with("replace block") || t.starts_with("delete block")
    })
}

fn run_case(case: &Path) -> Verdict {
    let meta: Value = match serde_json::from_str(&read_text(&case.join("meta.json"))) {
        Ok(v) => v,
        Err(e) => return Verdict::Fail(format!("meta.json: {e}")),
    };
    let kind = meta["kind"].as_str().unwrap_or("");
    let expect = &meta["expect"];
    if kind == "diff-preview" {
        return run_diff_preview(case, expect);
    }
    let mut patch = read_text(&case.join("patch.txt"));
    let resolver_name = meta["block_resolver"].as_str().unwrap_or("tree-sitter");
    let resolver: Option<&dyn BlockResolver> = match resolver_name {
        "stub-next-line" => Some(&StubNextLine),
        "null" => Some(&NullResolver),
        "none" => None,
        _ if uses_block_ops(&patch) => return Verdict::Skip,
        _ => None,
    };

    let dir = tempfile::tempdir().expect("tempdir");
    let files = befores(case, &meta);
    let multi = meta["path"].is_array();
    for (p, bytes) in &files {
        if let Some(b) = bytes {
            let f = dir.path().join(p);
            if let Some(parent) = f.parent() {
                std::fs::create_dir_all(parent).expect("mkdir");
            }
            std::fs::write(&f, b).expect("write before");
        }
    }
    let ws = Workspace::new(dir.path()).expect("workspace");
    let store = MemoryStore::new();
    let mut snaps_by_path: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (p, _) in &files {
        let snaps = snapshots(case, p, multi);
        let key = ws.resolve(p).expect("resolve").key;
        for s in &snaps {
            store.record(&key, s).expect("record");
        }
        snaps_by_path.insert(p.clone(), snaps);
    }

    // Tag substitution.
    let live_tag = |p: &str| -> String {
        files
            .iter()
            .find(|(q, _)| q == p)
            .and_then(|(_, b)| b.as_ref())
            .map(|b| file_tag(&lf(b)))
            .unwrap_or_default()
    };
    for (p, _) in &files {
        patch = patch.replace(&format!("{{TAG:{p}}}"), &live_tag(p));
    }
    let main_path = files.first().map(|(p, _)| p.clone()).unwrap_or_default();
    match &meta["tag"] {
        Value::String(s) if s == "live" => patch = patch.replace("{TAG}", &live_tag(&main_path)),
        Value::Object(o) => {
            let i = o.get("snapshot").and_then(Value::as_u64).unwrap_or(0) as usize;
            let Some(text) = snaps_by_path.get(&main_path).and_then(|s| s.get(i)) else {
                return Verdict::Fail(format!("snapshot {i} missing"));
            };
            patch = patch.replace("{TAG}", &file_tag(&lf(text.as_bytes())));
        }
        _ => {}
    }

    let opts = EditOptions {
        skip_anchors: false,
        resolver,
        dry_run: false,
        guard: Default::default(),
    };
    let out = if kind == "preview" {
        preview(&ws, &store, &patch, &opts)
    } else {
        edit(&ws, &store, &patch, &opts)
    };
    let disk = |p: &str| std::fs::read(dir.path().join(p)).ok();
    check(case, expect, &out, &files, &disk, &patch)
}

fn check(
    case: &Path,
    expect: &Value,
    out: &Outcome,
    files: &[(String, Option<Vec<u8>>)],
    disk: &dyn Fn(&str) -> Option<Vec<u8>>,
    patch: &str,
) -> Verdict {
    let mut problems: Vec<String> = Vec::new();
    let Some(map) = expect.as_object() else {
        return Verdict::Fail("no expect".into());
    };
    let is_error = map.contains_key("error_substrings") || map.contains_key("error_kind");
    if is_error {
        if out.ok {
            problems.push(format!("expected an error, got ok: {}", out.text));
        }
        for (p, before) in files {
            if disk(p) != *before {
                problems.push(format!("{p} changed on a refused call"));
            }
        }
    } else if !out.ok {
        problems.push(format!("refused ({:?}): {}", out.code, out.text));
    }
    let main_after = files.first().and_then(|(p, _)| disk(p)).unwrap_or_default();
    let after_text = String::from_utf8_lossy(&main_after).to_string();
    let after_lines: Vec<&str> = after_text
        .strip_suffix('\n')
        .unwrap_or(&after_text)
        .split('\n')
        .collect();
    let repeats = |w: &String| is_ours(w);
    for (key, val) in map {
        match key.as_str() {
            "after" => {
                let want = read_bytes(&case.join(val.as_str().unwrap_or("after.txt")));
                if main_after != want {
                    problems.push(format!(
                        "after: got {:?}, want {:?}",
                        after_text,
                        String::from_utf8_lossy(&want)
                    ));
                }
            }
            "after_files" => {
                for rel in strings(val) {
                    let want = read_bytes(&case.join(&rel));
                    let p = rel.trim_start_matches("after/");
                    if disk(p).as_deref() != Some(&want[..]) {
                        problems.push(format!("{p}: content differs"));
                    }
                }
            }
            "error_substrings" => {
                let ci = expect["error_case_insensitive"].as_bool().unwrap_or(false);
                for s in strings(val) {
                    let hit = if ci {
                        out.text.to_lowercase().contains(&s.to_lowercase())
                    } else {
                        out.text.contains(&s)
                    };
                    if !hit {
                        problems.push(format!("error lacks {s:?}: {}", out.text));
                    }
                }
            }
            "error_case_insensitive" => {}
            "error_kind" => {
                if val.as_str() == Some("mismatch") && !out.text.starts_with("Edit rejected") {
                    problems.push(format!("not a mismatch: {}", out.text));
                }
            }
            "warning_substrings" => {
                for s in strings(val) {
                    if !out.warnings.iter().any(|w| w.contains(&s)) {
                        problems.push(format!("no warning contains {s:?}: {:?}", out.warnings));
                    }
                }
            }
            "no_warnings" => {
                if val.as_bool() == Some(true) && out.warnings.iter().any(|w| !repeats(w)) {
                    problems.push(format!("unexpected warnings: {:?}", out.warnings));
                }
            }
            "warnings_absent_substrings" => {
                for s in strings(val) {
                    if out.warnings.iter().any(|w| w.contains(&s)) {
                        problems.push(format!("a warning contains {s:?}"));
                    }
                }
            }
            "output_substrings" | "diff_contains" => {
                for s in strings(val) {
                    if !out.text.contains(&s) {
                        problems.push(format!("output lacks {s:?}: {}", out.text));
                    }
                }
            }
            "output_absent_substrings" => {
                for s in strings(val) {
                    if out.text.contains(&s) {
                        problems.push(format!("output contains {s:?}"));
                    }
                }
            }
            "op" => {
                let want = match val.as_str() {
                    Some("noop") => FileOp::Noop,
                    _ => FileOp::Update,
                };
                if out.files.first().map(|f| f.op) != Some(want) {
                    problems.push(format!(
                        "op: got {:?}, want {want:?}",
                        out.files.first().map(|f| f.op)
                    ));
                }
            }
            "result_tag_differs_from_input_tag" => {
                let tag = out
                    .files
                    .first()
                    .and_then(|f| f.tag.clone())
                    .unwrap_or_default();
                let ok = tag.len() == 4
                    && tag
                        .chars()
                        .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_lowercase());
                if !ok || patch.contains(&format!("#{tag}")) {
                    problems.push(format!("result tag {tag:?} is not new"));
                }
            }
            "after_contains" => {
                for s in strings(val) {
                    if !after_text.contains(&s) {
                        problems.push(format!("after lacks {s:?}"));
                    }
                }
            }
            "after_lines_include" => {
                for s in strings(val) {
                    if !after_lines.contains(&s.as_str()) {
                        problems.push(format!("after has no line {s:?}"));
                    }
                }
            }
            "after_lines_exclude" => {
                for s in strings(val) {
                    if after_lines.contains(&s.as_str()) {
                        problems.push(format!("after has line {s:?}"));
                    }
                }
            }
            "after_startswith_lines" => {
                let want = strings(val);
                if after_lines.len() < want.len()
                    || after_lines[..want.len()]
                        != want.iter().map(String::as_str).collect::<Vec<_>>()[..]
                {
                    problems.push(format!("after does not start with {want:?}"));
                }
            }
            "after_endswith" => {
                if !after_text.ends_with(val.as_str().unwrap_or("\u{0}")) {
                    problems.push(format!("after does not end with {val}"));
                }
            }
            "after_line_count" | "after_trimmed_line_count" => {
                let trimmed = key == "after_trimmed_line_count";
                for (line, n) in val.as_object().into_iter().flatten() {
                    let count = after_lines
                        .iter()
                        .filter(|l| {
                            if trimmed {
                                l.trim() == line.trim()
                            } else {
                                *l == line
                            }
                        })
                        .count() as u64;
                    if Some(count) != n.as_u64() {
                        problems.push(format!("line {line:?} occurs {count} times, want {n}"));
                    }
                }
            }
            other => problems.push(format!("unchecked expectation {other:?}")),
        }
    }
    problems.extend(compare_with_peer(case, out));
    if problems.is_empty() {
        Verdict::Pass
    } else {
        Verdict::Fail(problems.join("\n    "))
    }
}

/// The peer's exact strings (`peer/`): the refusal text, the warnings (apart from the
/// DEVIATIONS §4a notice) and the tool text with the compact preview removed (the peer harness
/// omitted it).
fn compare_with_peer(case: &Path, out: &Outcome) -> Vec<String> {
    let peer = case.join("peer");
    let mut problems = Vec::new();
    let want_text = std::fs::read_to_string(peer.join("warnings.txt")).unwrap_or_default();
    // A seed warning carries our code in front of the seed's text (DEVIATIONS 30): compared
    // without it. A coded warning the peer does not print is ours.
    let ours_warnings: Vec<&str> = out
        .warnings
        .iter()
        .filter(|w| want_text.lines().any(|l| l == uncoded(w)) || !is_ours(w))
        .map(|w| uncoded(w))
        .collect();
    if let Ok(err) = std::fs::read_to_string(peer.join("error.txt")) {
        if !out.ok && out.text != err {
            problems.push(format!(
                "error text differs from the peer's:\n{}\n--- peer:\n{err}",
                out.text
            ));
        }
    }
    if let Ok(w) = std::fs::read_to_string(peer.join("warnings.txt")) {
        let want: Vec<&str> = w.lines().filter(|l| !l.is_empty()).collect();
        if ours_warnings != want {
            problems.push(format!(
                "warnings differ from the peer's: {ours_warnings:?} vs {want:?}"
            ));
        }
    }
    if let Ok(text) = std::fs::read_to_string(peer.join("output.txt")) {
        if out.ok {
            let without_preview = strip_preview(&out.text, &want_text);
            if without_preview != text {
                problems.push(format!(
                    "output differs from the peer's:\n{without_preview}\n--- peer:\n{text}"
                ));
            }
        }
    }
    problems
}

/// Our tool text without compact-preview rows and §4a notices (the rows after each `¶` header up
/// to the warnings block).
/// A coded seed warning (one of `seed_warnings`' lines once its code is cut) is kept, uncoded.
fn strip_preview(text: &str, seed_warnings: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut in_preview = false;
    for line in text.split('\n') {
        if line.starts_with('¶') {
            in_preview = true;
            out.push(line);
            continue;
        }
        if line.is_empty() {
            in_preview = false;
        }
        if !in_preview && !is_ours(line) {
            out.push(line);
        } else if !in_preview && seed_warnings.lines().any(|l| l == uncoded(line)) {
            out.push(uncoded(line));
        }
    }
    let joined = out.join("\n");
    joined
        .strip_suffix("\n\nWarnings:")
        .unwrap_or(&joined)
        .to_string()
}

fn run_diff_preview(case: &Path, expect: &Value) -> Verdict {
    let old = read_text(&case.join("old.txt"));
    let new = read_text(&case.join("new.txt"));
    let compact =
        hashline_apply::diff::compact_preview(&hashline_apply::diff::numbered(&old, &new));
    let rows: Vec<&str> = compact.split('\n').collect();
    let mut problems = Vec::new();
    for (key, val) in expect.as_object().into_iter().flatten() {
        match key.as_str() {
            "added" | "removed" => {
                let sign = if key == "added" { '+' } else { '-' };
                let got: Vec<String> = rows
                    .iter()
                    .filter(|r| r.starts_with(sign))
                    .map(|r| r.to_string())
                    .collect();
                if got != strings(val) {
                    problems.push(format!("{key}: got {got:?}, want {val}"));
                }
            }
            "context_lines_match_new_file" => {
                let new_lines: Vec<&str> = new.split('\n').collect();
                for r in rows.iter().filter(|r| r.starts_with(' ')) {
                    let Some((n, t)) = r[1..].split_once(':') else {
                        continue;
                    };
                    let ok = n
                        .parse::<usize>()
                        .ok()
                        .and_then(|n| new_lines.get(n.wrapping_sub(1)))
                        == Some(&t);
                    if !ok && t != "..." {
                        problems.push(format!("context row {r:?} does not match the new file"));
                    }
                }
            }
            other => problems.push(format!("unchecked expectation {other:?}")),
        }
    }
    if problems.is_empty() {
        Verdict::Pass
    } else {
        Verdict::Fail(problems.join("\n    "))
    }
}

#[test]
fn hashline_conformance() {
    let Some(root) = shared::path("conformance/hashline/cases") else {
        return;
    };
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("cases dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    cases.sort();
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut failures = Vec::new();
    for case in &cases {
        let meta = read_text(&case.join("meta.json"));
        let kind: Value = serde_json::from_str(&meta).expect("meta.json");
        if !matches!(
            kind["kind"].as_str(),
            Some("apply" | "preview" | "diff-preview")
        ) {
            continue;
        }
        match run_case(case) {
            Verdict::Pass => passed += 1,
            Verdict::Skip => skipped += 1,
            Verdict::Fail(why) => {
                failed += 1;
                failures.push(format!(
                    "{}:\n    {why}",
                    case.file_name()
                        .map(|n| n.to_string_lossy())
                        .unwrap_or_default()
                ));
            }
        }
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    println!(
        "hashline conformance: {passed} passed, {failed} failed, {skipped} skipped (tree-sitter)"
    );
    assert!(passed > 0, "no case ran");
    assert_eq!(failed, 0, "{}", failures.join("\n"));
}

/// A warning of ours, not the seed's: the 4a notice or a guard warning (`[W_…]`).
fn is_ours(w: &str) -> bool {
    w.contains("repeats line") || w.starts_with("[W_")
}

/// `w` without a leading `[W_…] ` code.
fn uncoded(w: &str) -> &str {
    w.strip_prefix("[W_")
        .and_then(|r| r.split_once("] "))
        .map_or(w, |(_, text)| text)
}
