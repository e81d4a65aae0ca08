//! [`carry`]: edits in the lines of a recorded version → the same edits in the lines of the disk
//! version, or the lines that stop them.

use hashline_core::{Edit, EditKind};

use super::map::LineMap;

/// The recorded lines an edit depends on: what must survive on disk for it to be carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Footprint {
    /// Lines `lo..=hi` (1-based) survived unchanged, in order, with nothing inserted between.
    Lines {
        /// First line.
        lo: usize,
        /// Last line (inclusive).
        hi: usize,
    },
    /// The boundary after line `after` (0: the start of the file): both neighbours survived and
    /// nothing was inserted between them; the file's start and end count as neighbours.
    Boundary {
        /// The line before the boundary.
        after: usize,
    },
    /// Nothing: head and tail inserts land wherever the file starts or ends.
    Free,
}

impl Footprint {
    /// What `edit` itself depends on: the lines it replaces, or both neighbours of the point
    /// it inserts at.
    pub fn of(edit: &Edit) -> Footprint {
        match edit.kind {
            EditKind::Replace { start, end } => Footprint::Lines {
                lo: start.min(end),
                hi: end.max(start),
            },
            EditKind::InsertBefore(l) => Footprint::Boundary {
                after: l.saturating_sub(1),
            },
            EditKind::InsertAfter(l) => Footprint::Boundary { after: l },
            EditKind::Head | EditKind::Tail => Footprint::Free,
        }
    }

    /// Whether the footprint survived in `map`; `Err` names the first recorded line that did
    /// not.
    fn check(self, map: &LineMap) -> Result<(), usize> {
        match self {
            Footprint::Lines { lo, hi } => map.run(lo.max(1), hi.max(lo).max(1)).map(|_| ()),
            Footprint::Boundary { after } => map.boundary(after),
            Footprint::Free => Ok(()),
        }
    }
}

/// An edit that cannot be carried onto the disk version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stale {
    /// Its position in the slice given to [`carry`].
    pub index: usize,
    /// Its [`Edit::origin`] (the request item it came from).
    pub origin: usize,
    /// The recorded line (1-based) that changed, vanished, moved apart from its neighbour or
    /// maps ambiguously.
    pub line: usize,
    /// The disk line (1-based) where that line's region is now, for fresh anchors.
    pub near: usize,
}

/// Carry `edits` (lines of the recorded version of `map`) onto the disk version.
///
/// Each edit's own [`Footprint`] must survive, and so must `extra[k]` when given (a wider region
/// the edit was computed from, such as the lines a boundary repair looked at). Success returns
/// the edits in disk line numbers, rows and origins unchanged; otherwise every edit that could
/// not be carried, in order.
pub fn carry(map: &LineMap, edits: &[Edit], extra: &[Footprint]) -> Result<Vec<Edit>, Vec<Stale>> {
    let mut out = Vec::with_capacity(edits.len());
    let mut stale = Vec::new();
    for (index, edit) in edits.iter().enumerate() {
        // The anchor itself first, then its neighbours, then the wider region.
        let carried = moved(map, edit).and_then(|kind| {
            Footprint::of(edit).check(map)?;
            extra.get(index).map_or(Ok(()), |f| f.check(map))?;
            Ok(kind)
        });
        match carried {
            Ok(kind) => out.push(Edit {
                kind,
                rows: edit.rows.clone(),
                origin: edit.origin,
            }),
            Err(line) => stale.push(Stale {
                index,
                origin: edit.origin,
                line,
                near: map.near(line),
            }),
        }
    }
    if stale.is_empty() {
        Ok(out)
    } else {
        Err(stale)
    }
}

/// Where `edit` lands on disk, if its anchor lines have images there.
fn moved(map: &LineMap, edit: &Edit) -> Result<EditKind, usize> {
    let image = |l: usize| map.image(l).ok_or(l);
    Ok(match edit.kind {
        EditKind::Replace { start, end } => {
            // A reversed range keeps its shape: the dialect reports it in its own words.
            let lo = start.min(end);
            let at = map.run(lo, start.max(end))?;
            EditKind::Replace {
                start: at + (start - lo),
                end: at + (end - lo),
            }
        }
        EditKind::InsertBefore(l) => EditKind::InsertBefore(image(l)?),
        EditKind::InsertAfter(l) => EditKind::InsertAfter(image(l)?),
        kind @ (EditKind::Head | EditKind::Tail) => kind,
    })
}
