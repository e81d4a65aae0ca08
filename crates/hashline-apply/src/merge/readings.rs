//! [`settle`]: one request, several versions it may have been written against.
//!
//! A request names lines by anchors (numbers, per-line hashes, IDs, a whole-file tag); the same
//! anchors can fit more than one version the session has seen — an old read and the file after
//! the session's own edit, two texts whose 16-bit tags collide, a line that hashes the same at
//! the same number in both. Each such *reading* is carried onto the disk; the request is applied
//! only when every reading lands with the same result, so a request never lands on a line it may
//! not have meant.

use std::borrow::Cow;

use hashline_core::{splice, Edit, OutLine};
use hashline_state::SnapshotStore;

use super::carry::{carry, Footprint, Stale};
use super::map::LineMap;

/// One way of reading a request: its edits in the lines of one version of the file.
#[derive(Debug, Clone, Copy)]
pub struct Reading<'a> {
    /// That version's lines, in the same line model as the disk's.
    pub lines: &'a [&'a str],
    /// The request's edits in that version's line numbers.
    pub edits: &'a [Edit],
    /// Wider regions the edits depend on, per edit (may be empty; see [`carry`]).
    pub footprints: &'a [Footprint],
    /// Whether the reading may simply not apply: an older view the anchors also fit but whose
    /// lines did not survive to the disk is dropped rather than refusing the request (only a
    /// reading that carries and lands elsewhere does). The first reading is never optional.
    pub optional: bool,
}

/// Why the readings of a request do not settle on one result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unsettled {
    /// Reading `reading` cannot be carried onto the disk: `stale` lists its edits that touch
    /// what changed or map ambiguously.
    Stale {
        /// Index of the reading.
        reading: usize,
        /// Every edit that could not be carried, in order.
        stale: Vec<Stale>,
    },
    /// Reading `reading` carries cleanly but lands differently from the first reading.
    Differ {
        /// Index of the reading.
        reading: usize,
        /// The first edit (index into the first reading's edits) that lands elsewhere, when the
        /// readings have the same number of edits.
        edit: Option<usize>,
        /// The disk lines that edit names in the first reading and in the other one.
        lines: (Vec<usize>, Vec<usize>),
    },
}

/// Carry every reading onto `disk`. `Ok` holds the first reading's edits in disk line numbers
/// when every reading carries (or, if [`Reading::optional`], is dropped for not carrying) and
/// gives the same text; otherwise the first reading that does not, and why.
pub fn settle(readings: &[Reading<'_>], disk: &[&str]) -> Result<Vec<Edit>, Unsettled> {
    let mut first: Option<(Vec<Edit>, Option<Vec<OutLine>>)> = None;
    for (reading, r) in readings.iter().enumerate() {
        let carried = match carry(&LineMap::new(r.lines, disk), r.edits, r.footprints) {
            Ok(carried) => carried,
            Err(_) if r.optional && first.is_some() => continue,
            Err(stale) => return Err(Unsettled::Stale { reading, stale }),
        };
        let out = splice(disk, &carried).ok();
        let Some((edits, expected)) = &first else {
            first = Some((carried, out));
            continue;
        };
        let same = match (expected, &out) {
            (Some(a), Some(b)) => render(disk, a) == render(disk, b),
            _ => *edits == carried,
        };
        if !same {
            let edit = (edits.len() == carried.len())
                .then(|| edits.iter().zip(&carried).position(|(a, b)| a != b))
                .flatten();
            let lines = edit
                .and_then(|k| Some((edits.get(k)?.anchor_lines(), carried.get(k)?.anchor_lines())))
                .unwrap_or_default();
            return Err(Unsettled::Differ {
                reading,
                edit,
                lines,
            });
        }
    }
    Ok(first.map(|(edits, _)| edits).unwrap_or_default())
}

/// After a refusal that showed fresh anchors of `disk`: the disk is the only version the next
/// request can mean, so every older version of `key` is forgotten — a retry with the fresh
/// anchors must not also fit an older read and be refused (or carried) again. Best effort: a
/// store that cannot be written keeps its versions, and the refusal stands either way.
pub fn forget_older(store: &dyn SnapshotStore, key: &str, disk: &str) {
    let _ = store.invalidate(key);
    let _ = store.record(key, disk);
}

/// The text lines of `out` (spliced from `lines`).
fn render<'a>(lines: &[&'a str], out: &'a [OutLine]) -> Vec<Cow<'a, str>> {
    out.iter()
        .map(|l| match l {
            OutLine::Kept(i) => Cow::Borrowed(lines.get(*i).copied().unwrap_or("")),
            OutLine::New { text, .. } => Cow::Borrowed(text.as_str()),
        })
        .collect()
}
