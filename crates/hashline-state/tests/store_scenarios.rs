//! Runs every scenario of `shared/conformance/hashline/store-scenarios.json` against each store
//! implementation (the in-memory store, and the SQLite store when its feature is on).

use hashline_state::{MemoryStore, SnapshotStore, MAX_PATHS, MAX_VERSIONS};
use serde::Deserialize;
use std::collections::HashMap;

#[path = "../../../tests-support/shared.rs"]
mod shared;

const SCENARIOS: &str = "conformance/hashline/store-scenarios.json";

#[derive(Debug, Deserialize)]
struct File {
    scenarios: Vec<Scenario>,
}

#[derive(Debug, Deserialize)]
struct Scenario {
    name: String,
    #[serde(default)]
    options: Options,
    steps: Vec<Step>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Options {
    max_paths: Option<usize>,
    max_versions_per_path: Option<usize>,
}

#[derive(Debug, Deserialize)]
struct Step {
    op: String,
    path: Option<String>,
    text: Option<String>,
    #[serde(rename = "as")]
    name: Option<String>,
    tag: Option<String>,
    /// Present-and-null means "expect nothing"; absent means "no expectation".
    #[serde(default, deserialize_with = "present")]
    expect: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    expect_text: Option<Option<String>>,
    by: Option<String>,
    expect_same_as: Option<String>,
    expect_differs_from: Option<String>,
    #[serde(default)]
    expect_equals_content_hash: bool,
}

/// Distinguishes `"key": null` (Some(None)) from a missing key (None, via `default`).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// The scenarios, or `None` when `../shared` is missing (the test is skipped).
fn load() -> Option<File> {
    let path = shared::path(SCENARIOS)?;
    let raw = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    Some(serde_json::from_str(&raw).unwrap_or_else(|e| panic!("{SCENARIOS} does not parse: {e}")))
}

/// The tag of a text that has no trailing blanks: XXH32 (seed 0), low 16 bits, 4 upper-hex.
/// Computed here independently of the store's own tag function.
fn content_hash(text: &str) -> String {
    assert!(
        !text.contains(" \n") && !text.contains("\t\n") && !text.contains("\r"),
        "content_hash only handles texts without trailing blanks"
    );
    format!(
        "{:04X}",
        xxhash_rust::xxh32::xxh32(text.as_bytes(), 0) & 0xFFFF
    )
}

fn step_path(step: &Step, scenario: &str) -> String {
    step.path
        .clone()
        .unwrap_or_else(|| panic!("{scenario}: step {} has no path", step.op))
}

/// Runs one scenario; `store` is fresh. Returns the paths it recorded.
fn run(scenario: &Scenario, store: &dyn SnapshotStore, backend: &str) -> Vec<String> {
    let ctx = format!("[{backend}] {}", scenario.name);
    let mut tags: HashMap<String, String> = HashMap::new();
    let mut recorded = Vec::new();
    let named = |tags: &HashMap<String, String>, name: &str| -> String {
        tags.get(name)
            .cloned()
            .unwrap_or_else(|| panic!("{ctx}: unknown tag name {name}"))
    };
    for (i, step) in scenario.steps.iter().enumerate() {
        let at = format!("{ctx} step {i} ({})", step.op);
        match step.op.as_str() {
            "record" => {
                let path = step_path(step, &at);
                let text = step.text.clone().unwrap_or_else(|| panic!("{at}: no text"));
                let tag = store
                    .record(&path, &text)
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                assert_eq!(tag.len(), 4, "{at}: tag {tag} is not 4 hex digits");
                if step.expect_equals_content_hash {
                    assert_eq!(
                        tag,
                        content_hash(&text),
                        "{at}: tag is not the content hash"
                    );
                }
                if let Some(other) = &step.expect_same_as {
                    assert_eq!(
                        tag,
                        named(&tags, other),
                        "{at}: expected same tag as {other}"
                    );
                }
                if let Some(other) = &step.expect_differs_from {
                    assert_ne!(
                        tag,
                        named(&tags, other),
                        "{at}: expected a tag unlike {other}"
                    );
                }
                if let Some(name) = &step.name {
                    tags.insert(name.clone(), tag);
                }
                recorded.push(path);
            }
            "head" => {
                let path = step_path(step, &at);
                let head = store.head(&path).unwrap_or_else(|e| panic!("{at}: {e}"));
                let expect = step
                    .expect
                    .clone()
                    .unwrap_or_else(|| panic!("{at}: head step without expect"));
                match (expect, head) {
                    (None, None) => {}
                    (None, Some(found)) => panic!("{at}: expected no head, found {found:?}"),
                    (Some(want), None) => panic!("{at}: expected head {want:?}, found none"),
                    (Some(want), Some(found)) => match step.by.as_deref() {
                        Some("hash") => assert_eq!(found.tag, named(&tags, &want), "{at}"),
                        Some("text") => assert_eq!(found.text, want, "{at}"),
                        other => panic!("{at}: unknown comparison {other:?}"),
                    },
                }
            }
            "byHash" => {
                let path = step_path(step, &at);
                let name = step.tag.clone().unwrap_or_else(|| panic!("{at}: no tag"));
                let tag = named(&tags, &name);
                let found = store
                    .by_tag(&path, &tag)
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                let want = step
                    .expect_text
                    .clone()
                    .unwrap_or_else(|| panic!("{at}: byHash step without expect_text"));
                assert_eq!(found.as_ref().map(|s| s.text.clone()), want, "{at}");
                if let Some(snapshot) = found {
                    assert_eq!(snapshot.tag, tag, "{at}: snapshot carries another tag");
                    assert_eq!(snapshot.path, path, "{at}: snapshot carries another path");
                }
            }
            "invalidate" => {
                let path = step_path(step, &at);
                store
                    .invalidate(&path)
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
            }
            "clear" => store.clear().unwrap_or_else(|e| panic!("{at}: {e}")),
            other => panic!("{at}: unknown op {other}"),
        }
    }
    recorded
}

fn limits(scenario: &Scenario) -> (usize, usize) {
    (
        scenario.options.max_paths.unwrap_or(MAX_PATHS),
        scenario
            .options
            .max_versions_per_path
            .unwrap_or(MAX_VERSIONS),
    )
}

fn assert_isolated(other: &dyn SnapshotStore, recorded: &[String], ctx: &str) {
    for path in recorded {
        let head = other.head(path).unwrap_or_else(|e| panic!("{ctx}: {e}"));
        assert!(head.is_none(), "{ctx}: another session sees {path}");
    }
}

#[test]
fn memory_store_passes_every_scenario() {
    let Some(file) = load() else { return };
    assert!(!file.scenarios.is_empty(), "no scenarios in {SCENARIOS}");
    for scenario in &file.scenarios {
        let (paths, versions) = limits(scenario);
        let store = MemoryStore::with_limits(paths, versions);
        let recorded = run(scenario, &store, "memory");
        assert_isolated(&MemoryStore::new(), &recorded, &scenario.name);
    }
    eprintln!("memory: {} scenarios passed", file.scenarios.len());
}

#[cfg(feature = "sqlite")]
#[test]
fn sqlite_store_passes_every_scenario() {
    use hashline_state::SqliteStore;
    let Some(file) = load() else { return };
    assert!(!file.scenarios.is_empty(), "no scenarios in {SCENARIOS}");
    let dir = tempfile::tempdir().expect("temp dir");
    for (i, scenario) in file.scenarios.iter().enumerate() {
        let (paths, versions) = limits(scenario);
        let session = format!("scenario-{i}");
        let store = SqliteStore::open_with_limits(dir.path(), &session, paths, versions)
            .unwrap_or_else(|e| panic!("{}: open: {e}", scenario.name));
        let recorded = run(scenario, &store, "sqlite");
        // Same database, another session: nothing leaks across.
        let other = SqliteStore::open(dir.path(), &format!("{session}-other"))
            .unwrap_or_else(|e| panic!("{}: open: {e}", scenario.name));
        assert_isolated(&other, &recorded, &scenario.name);
    }
    assert!(dir.path().join(hashline_state::SQLITE_DB_FILE).is_file());
    eprintln!("sqlite: {} scenarios passed", file.scenarios.len());
}
