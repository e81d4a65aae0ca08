//! Phase A (§5): every anchor looked up in one version's whole hash array, edit by edit.

use std::collections::HashMap;

use hashline_anchor::hash_json::{hash_lines, LineHash};
use hashline_core::ErrorCode;
use hashline_syntax::hash_json::{Anchor, EditItem, ItemOp};

use hashline_core::Refusal;

/// Line numbers of each hash (foldhash: SipHash dominated 100 MB edits).
type Index<'a> = HashMap<&'a str, Vec<usize>, foldhash::fast::RandomState>;

/// Samples shown per ambiguous hash, and lines of the current-state preview.
const SAMPLES: usize = 5;

/// One version of the file in the dialect's line model: LF text, its entries (sentinel
/// included) and their hashes.
pub(crate) struct Version<'a> {
    /// The LF-normalized, BOM-free text.
    pub text: &'a str,
    /// `text.split('\n')`.
    pub lines: Vec<&'a str>,
    /// The whole-file hashes, one per entry.
    pub hashes: Vec<LineHash>,
}

impl<'a> Version<'a> {
    pub fn new(text: &'a str) -> Version<'a> {
        // Hashed first, so that the hashing's counters are gone before the entries' slices
        // are listed (sized up front: a collect of a split grows by doubling).
        let hashes = hash_lines(text);
        let mut lines = Vec::with_capacity(hashes.len());
        lines.extend(text.split('\n'));
        Version {
            text,
            lines,
            hashes,
        }
    }

    /// Entries, sentinel included (N of the spec).
    pub fn n(&self) -> usize {
        self.lines.len()
    }

    /// Whether the text ends with `\n` (T of the spec).
    pub fn terminated(&self) -> bool {
        self.text.ends_with('\n')
    }

    /// The lines (1-based) of each hash that `items` name, found in one scan of the version's
    /// hashes: only the named ones are kept (a million-line file is not indexed whole for a
    /// request that names two lines, once per version it tries).
    fn index<'s>(&'s self, items: &'s [EditItem]) -> Index<'s> {
        let mut map = Index::default();
        for a in items.iter().flat_map(anchors_of) {
            map.entry(a.as_str()).or_default();
        }
        for (i, h) in self.hashes.iter().enumerate() {
            if let Some(lines) = map.get_mut(h.as_str()) {
                lines.push(i + 1);
            }
        }
        map
    }

    /// Whether every anchor of `items` names exactly one line of this version.
    pub fn fits(&self, items: &[EditItem]) -> bool {
        let index = self.index(items);
        items
            .iter()
            .flat_map(anchors_of)
            .all(|a| index.get(a.as_str()).is_some_and(|l| l.len() == 1))
    }
}

/// The anchors an item names, in order.
pub(crate) fn anchors_of(item: &EditItem) -> Vec<&Anchor> {
    match &item.op {
        ItemOp::Replace { start, end } => vec![start, end],
        ItemOp::Append { pos } | ItemOp::Prepend { pos } => pos.iter().collect(),
    }
}

/// Where a resolved item lands, in 1-based lines of the version it was resolved against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// Replace `s..=e`.
    Replace(usize, usize),
    /// Insert after the line, or at EOF.
    Append(Option<usize>),
    /// Insert before the line, or at BOF.
    Prepend(Option<usize>),
}

enum Failure<'i> {
    NotFound(&'i Anchor),
    Ambiguous(&'i Anchor, Vec<usize>),
}

/// Resolve every item against `v`. Refusals: a reversed range or an empty insert (thrown at
/// once, as the peer does), else one stale/ambiguous report covering every failed anchor.
pub(crate) fn resolve(items: &[EditItem], v: &Version<'_>) -> Result<Vec<Place>, Refusal> {
    let index = v.index(items);
    let mut failures: Vec<Failure<'_>> = Vec::new();
    let mut places = Vec::with_capacity(items.len());
    let find = |a: &Anchor| -> Option<usize> {
        match index.get(a.as_str()).map(Vec::as_slice) {
            Some([one]) => Some(*one),
            _ => None,
        }
    };
    for item in items {
        match &item.op {
            ItemOp::Replace { start, end } => {
                let s = find(start);
                record_failure(&index, start, s, &mut failures);
                let e = find(end);
                record_failure(&index, end, e, &mut failures);
                if let (Some(s), Some(e)) = (s, e) {
                    if s > e {
                        return Err(Refusal::new(
                            ErrorCode::BadOp,
                            format!("[E_BAD_OP] Range start line {s} must be <= end line {e} (anchors {start} and {end})."),
                        ));
                    }
                    places.push(Place::Replace(s, e));
                }
            }
            ItemOp::Append { pos } | ItemOp::Prepend { pos } => {
                let line = pos.as_ref().map(|p| {
                    let l = find(p);
                    record_failure(&index, p, l, &mut failures);
                    l
                });
                if line.is_some_and(|l| l.is_none()) {
                    continue;
                }
                let is_append = matches!(item.op, ItemOp::Append { .. });
                if item.lines.is_empty() {
                    let what = if is_append { "Append" } else { "Prepend" };
                    return Err(Refusal::new(
                        ErrorCode::BadOp,
                        format!("[E_BAD_OP] {what} with empty lines payload. Provide content to insert or remove the edit."),
                    ));
                }
                let line = line.flatten();
                places.push(if is_append {
                    Place::Append(line)
                } else {
                    Place::Prepend(line)
                });
            }
        }
    }
    if failures.is_empty() {
        Ok(places)
    } else {
        Err(failure_report(&failures, v))
    }
}

fn record_failure<'i>(
    index: &Index<'_>,
    anchor: &'i Anchor,
    found: Option<usize>,
    failures: &mut Vec<Failure<'i>>,
) {
    if found.is_some() {
        return;
    }
    match index.get(anchor.as_str()) {
        Some(lines) if lines.len() > 1 => failures.push(Failure::Ambiguous(anchor, lines.clone())),
        _ => failures.push(Failure::NotFound(anchor)),
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn failure_report(failures: &[Failure<'_>], v: &Version<'_>) -> Refusal {
    let stale: Vec<String> = failures
        .iter()
        .filter_map(|f| match f {
            Failure::NotFound(a) => Some(format!("\"{a}\"")),
            Failure::Ambiguous(..) => None,
        })
        .collect();
    let ambiguous: Vec<(&Anchor, &Vec<usize>)> = failures
        .iter()
        .filter_map(|f| match f {
            Failure::Ambiguous(a, lines) => Some((*a, lines)),
            Failure::NotFound(_) => None,
        })
        .collect();
    let mut parts: Vec<String> = Vec::new();
    if !stale.is_empty() {
        parts.push(format!(
            "[E_STALE_ANCHOR] {}: {}. Re-read the file to refresh.",
            plural(stale.len(), "stale anchor"),
            stale.join(", ")
        ));
    }
    if !ambiguous.is_empty() {
        let mut block = format!(
            "[E_AMBIGUOUS_ANCHOR] {}. Re-read the file to refresh.",
            plural(ambiguous.len(), "ambiguous anchor")
        );
        for (anchor, lines) in &ambiguous {
            let shown: Vec<String> = lines.iter().take(SAMPLES).map(usize::to_string).collect();
            let more = if lines.len() > SAMPLES {
                format!(" (+{} more)", lines.len() - SAMPLES)
            } else {
                String::new()
            };
            block.push_str(&format!(
                "\n  Hash \"{anchor}\" matches lines {}{more}.",
                shown.join(", ")
            ));
            for &l in lines.iter().take(SAMPLES) {
                let content = v.lines.get(l - 1).copied().unwrap_or("");
                block.push_str(&format!("\n    {l}: {anchor}:{content}"));
            }
        }
        parts.push(block);
    }
    let mut message = parts.join("\n\n");
    message.push_str("\n\nCurrent state (first lines):");
    for (line, hash) in v.lines.iter().zip(&v.hashes).take(SAMPLES) {
        message.push_str(&format!("\n>>> {hash}:{line}"));
    }
    if v.n() > SAMPLES {
        message.push_str(&format!("\n... {} more.", v.n() - SAMPLES));
    }
    let code = if stale.is_empty() {
        ErrorCode::AmbiguousAnchor
    } else {
        ErrorCode::StaleAnchor
    };
    Refusal::new(code, message)
}
