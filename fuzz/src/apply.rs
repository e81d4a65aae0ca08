//! The hashline engine end to end on in-memory files (`hashline_apply::hashline::apply_to_text`).
//!
//! Input layout (what `seed-corpus.sh` writes):
//!
//! ```text
//! FLAGS  BEFORE  SEP  [SNAPSHOT_1  SEP ... SNAPSHOT_k  SEP]  PATCH
//! ```
//!
//! `SEP` is the two bytes `FF FF` (never part of UTF-8 text). One part alone is the patch (empty
//! file). `FLAGS` (one byte):
//! * bit 0: the file exists (else only the store knows it, if anything);
//! * bit 1: record `BEFORE` in the session store after the snapshots (it becomes the head);
//! * bit 2: dry run;
//! * bits 3–4: block resolver: 0 none, 1 next-line stub (the conformance stub), 2 never finds a
//!   block, 3 the whole rest of the file;
//! * bits 5–7: what `{TAG}` stands for: 0 the tag of `BEFORE`, k the tag of snapshot k (when it
//!   exists, else of `BEFORE`).
//!
//! In the patch, `{TAG}` and `{TAG:<path>}` become that tag and `{CWD}` becomes `/work`, so
//! mutated patches still pass the tag check and reach the engine's later stages. The file
//! (and every snapshot) is placed under every section path the patch names.

use std::collections::BTreeMap;
use std::path::Path;

use hashline_anchor::tag::file_tag;
use hashline_apply::hashline::{apply_to_text, normalize_path, EditOptions};
use hashline_apply::FileOp;
use hashline_core::{BlockResolver, BlockSpan, TextFile};
use hashline_state::{MemoryStore, SnapshotStore};
use hashline_syntax::hashline::{split_sections, SplitOptions};

/// The part separator.
pub const SEP: &[u8] = b"\xFF\xFF";

/// A decoded fuzzer input.
#[derive(Debug)]
pub struct Input {
    /// See the module doc.
    pub flags: u8,
    /// The file's bytes.
    pub before: Vec<u8>,
    /// Texts recorded in the store, oldest first.
    pub snapshots: Vec<Vec<u8>>,
    /// The tool input, placeholders not yet substituted.
    pub patch: String,
}

impl Input {
    /// Cut `data` into its parts.
    pub fn decode(data: &[u8]) -> Option<Input> {
        let (&flags, rest) = data.split_first()?;
        let mut parts = split(rest);
        let patch = String::from_utf8_lossy(parts.pop()?).into_owned();
        let before = if parts.is_empty() {
            Vec::new()
        } else {
            parts.remove(0).to_vec()
        };
        Some(Input {
            flags,
            before,
            snapshots: parts.into_iter().map(<[u8]>::to_vec).collect(),
            patch,
        })
    }
}

fn split(mut data: &[u8]) -> Vec<&[u8]> {
    let mut parts = Vec::new();
    while let Some(at) = data.windows(SEP.len()).position(|w| w == SEP) {
        parts.push(&data[..at]);
        data = &data[at + SEP.len()..];
    }
    parts.push(data);
    parts
}

/// `replace block N:` stand-ins; none of them looks at the language.
struct Resolver(u8);

impl BlockResolver for Resolver {
    fn resolve(&self, _path: &Path, text: &str, line: usize) -> Option<BlockSpan> {
        let lines = text.split('\n').count();
        if line == 0 || line > lines {
            return None;
        }
        match self.0 {
            1 => Some(BlockSpan {
                start: line,
                end: (line + 1).min(lines),
            }),
            3 => Some(BlockSpan {
                start: line,
                end: lines,
            }),
            _ => None,
        }
    }
}

/// Replace `{TAG}`, `{TAG:<path>}` and `{CWD}`.
fn substitute(patch: &str, tag: &str) -> String {
    let mut out = String::with_capacity(patch.len());
    let mut rest = patch;
    while let Some(at) = rest.find("{TAG") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 4..];
        if let Some(tail) = after.strip_prefix('}') {
            out.push_str(tag);
            rest = tail;
        } else if let Some(close) = after
            .strip_prefix(':')
            .and_then(|p| p.find('}').filter(|&c| !p[..c].contains('\n')))
        {
            out.push_str(tag);
            rest = &after[1 + close + 1..];
        } else {
            out.push_str("{TAG");
            rest = after;
        }
    }
    out.push_str(rest);
    out.replace("{CWD}", "/work")
}

/// Run one input; panics on an engine panic or a broken invariant.
pub fn check(data: &[u8]) {
    let Some(input) = Input::decode(data) else {
        return;
    };
    let exists = input.flags & 1 != 0;
    let record_before = input.flags & 2 != 0;
    let dry_run = input.flags & 4 != 0;
    let resolver_kind = (input.flags >> 3) & 3;
    let tag_source = usize::from(input.flags >> 5);

    let before_text = TextFile::decode(input.before.clone()).text().to_owned();
    let snapshot_texts: Vec<String> = input
        .snapshots
        .iter()
        .map(|s| TextFile::decode(s.clone()).text().to_owned())
        .collect();
    let tag = match tag_source
        .checked_sub(1)
        .and_then(|k| snapshot_texts.get(k))
    {
        Some(text) => file_tag(text),
        None => file_tag(&before_text),
    };
    let patch = substitute(&input.patch, &tag);

    // Every path the patch names holds the file (the parse itself is the parser target's job).
    let mut keys: Vec<String> = match split_sections(&patch, &SplitOptions::default()) {
        Ok(sections) => sections
            .iter()
            .filter_map(|s| normalize_path(&s.path))
            .collect(),
        Err(_) => Vec::new(),
    };
    if keys.is_empty() {
        keys.push("a.ts".into());
    }
    keys.sort();
    keys.dedup();

    let store = MemoryStore::new();
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for key in &keys {
        for text in &snapshot_texts {
            store.record(key, text).expect("the memory store records");
        }
        if record_before {
            store
                .record(key, &before_text)
                .expect("the memory store records");
        }
        if exists {
            files.insert(key.clone(), input.before.clone());
        }
    }
    let original = files.clone();

    let resolver = Resolver(resolver_kind);
    let opts = EditOptions {
        resolver: (resolver_kind != 0).then_some(&resolver as &dyn BlockResolver),
        dry_run,
        guard: Default::default(),
        skip_anchors: false,
    };
    let out = apply_to_text(&mut files, &store, &patch, &opts);
    if crate::trace() {
        eprintln!("--- patch:\n{patch}\n--- outcome: {out:#?}");
    }

    assert!(!out.text.is_empty(), "an outcome always says something");
    assert_eq!(
        out.ok,
        out.code.is_none(),
        "ok exactly without a code: {out:?}"
    );
    if !out.ok || dry_run {
        assert!(
            out.files.iter().all(|f| !f.written),
            "nothing reported written"
        );
        assert_eq!(
            files, original,
            "a refusal or dry run changes no file: {}",
            out.text
        );
        return;
    }
    assert!(!out.files.is_empty(), "a success reports its files");
    if out.files.iter().all(|f| f.op == FileOp::Noop) {
        assert_eq!(files, original, "a no-op changes no file: {}", out.text);
    }
    for report in &out.files {
        let tag = report.tag.as_deref().unwrap_or_default();
        assert!(
            tag.len() == 4
                && tag
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b)),
            "tag {tag:?} is not 4 upper-hex"
        );
        match report.op {
            FileOp::Noop => assert!(report.diff.is_empty() && !report.written),
            FileOp::Update => assert!(report.written, "an applied update is written"),
            other => panic!("the hashline engine reported {other:?}"),
        }
    }
    // The bytes written read back as the text the store recorded, whose tag was reported (a
    // payload `\r` or a leading U+FEFF included: the engine reports the text as a read shows it).
    for key in &keys {
        let (Some(bytes), Ok(Some(head))) = (files.get(key), store.head(key)) else {
            continue;
        };
        if original.get(key) == Some(bytes) {
            continue;
        }
        let decoded = TextFile::decode(bytes.clone());
        assert_eq!(
            decoded.text(),
            head.text,
            "written bytes read back differently"
        );
        assert!(
            out.files
                .iter()
                .any(|f| f.tag.as_deref() == Some(head.tag.as_str())),
            "the recorded tag {} was not reported",
            head.tag
        );
    }
    // Only the files the patch named may change, and only those that were reported.
    for (key, bytes) in &files {
        if original.get(key) != Some(bytes) {
            assert!(keys.contains(key), "unnamed file {key:?} written");
        }
    }
}
