//! The applier on mutated conformance patches: every single-file `apply` case of
//! `../shared/conformance/hashline/cases`, its patch bound to the live tag of `before.txt`,
//! then edited at random (characters deleted, inserted, digits changed). Whatever comes out,
//! the applier returns an outcome without panicking, and a refusal leaves the file untouched.

use std::collections::BTreeMap;
use std::fs;
use std::sync::OnceLock;

use hashline_anchor::tag::file_tag;
use hashline_apply::hashline::{apply_to_text, EditOptions};
use hashline_core::TextFile;
use hashline_state::{MemoryStore, SnapshotStore};
use proptest::prelude::*;

use crate::shared;

/// Pieces a mutation inserts: the language's own tokens and the usual model slips.
const PIECES: &[&str] = &[
    "",
    "\n",
    "+",
    "-",
    " ",
    "..",
    ":",
    "¶",
    "#",
    "0",
    "1",
    "2",
    "9",
    "99",
    "replace ",
    "delete ",
    "insert ",
    "before ",
    "after ",
    "head",
    "tail",
    "block ",
    "*** End Patch\n",
    "\r\n",
    "\t",
    "{",
    "}",
    "a.ts",
    "#FFFF",
];

struct Case {
    path: String,
    before: Vec<u8>,
    patch: String,
}

fn corpus() -> &'static [Case] {
    static CORPUS: OnceLock<Vec<Case>> = OnceLock::new();
    CORPUS.get_or_init(read_corpus)
}

/// The corpus's apply cases; empty when `../shared` is missing (the test is skipped).
fn read_corpus() -> Vec<Case> {
    let Some(dir) = shared::path("conformance/hashline/cases") else {
        return Vec::new();
    };
    let mut cases = Vec::new();
    let mut entries: Vec<_> = fs::read_dir(&dir)
        .expect("readable corpus")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for case in entries {
        let Ok(meta) = fs::read_to_string(case.join("meta.json")) else {
            continue;
        };
        let Ok(meta) = serde_json::from_str::<serde_json::Value>(&meta) else {
            continue;
        };
        let (Some(path), Ok(before), Ok(patch)) = (
            meta["path"].as_str(),
            fs::read(case.join("before.txt")),
            fs::read_to_string(case.join("patch.txt")),
        ) else {
            continue;
        };
        if meta["kind"] != "apply" {
            continue;
        }
        let tag = file_tag(TextFile::decode(before.clone()).text());
        cases.push(Case {
            path: path.to_string(),
            before,
            patch: patch.replace("{TAG}", &tag).replace("{CWD}", "/work"),
        });
    }
    assert!(
        cases.len() > 50,
        "expected the apply corpus, found {} cases",
        cases.len()
    );
    cases
}

#[derive(Debug, Clone)]
struct Mutation {
    at: usize,
    delete: usize,
    insert: &'static str,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    (any::<usize>(), 0usize..5, prop::sample::select(PIECES))
        .prop_map(|(at, delete, insert)| Mutation { at, delete, insert })
}

fn mutate(patch: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = patch.chars().collect();
    for m in mutations {
        let at = m.at % (chars.len() + 1);
        let end = (at + m.delete).min(chars.len());
        chars.splice(at..end, m.insert.chars());
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// A mutated corpus patch: an outcome, never a panic; a refusal changes nothing; a success
    /// reports the file it changed.
    #[test]
    fn mutated_corpus_patches_never_panic(index in any::<prop::sample::Index>(), mutations in prop::collection::vec(mutation(), 0..4)) {
        let cases = corpus();
        if cases.is_empty() {
            return Ok(());
        }
        let case = &cases[index.index(cases.len())];
        let patch = mutate(&case.patch, &mutations);
        let store = MemoryStore::new();
        let recorded = store.record(&case.path, TextFile::decode(case.before.clone()).text());
        prop_assert!(recorded.is_ok());
        let mut files = BTreeMap::new();
        files.insert(case.path.clone(), case.before.clone());
        let out = apply_to_text(&mut files, &store, &patch, &EditOptions { resolver: None, dry_run: false, guard: Default::default(), skip_anchors: false });
        prop_assert!(!out.text.is_empty(), "an outcome always says something");
        if out.ok {
            prop_assert!(out.code.is_none());
        } else {
            prop_assert!(out.code.is_some(), "a refusal has a code: {}", out.text);
            prop_assert_eq!(files.len(), 1, "a refusal creates no file");
            prop_assert_eq!(&files[&case.path], &case.before, "a refusal leaves the file as it was");
        }
    }
}
