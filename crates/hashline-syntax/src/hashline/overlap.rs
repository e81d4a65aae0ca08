//! The end-of-parse overlap check: an original line deleted by two hunks (a `replace N..M:`
//! deletes N..M too) is refused. Ranges are kept as intervals, never expanded, so a header
//! such as `delete 1..18446744073709551615` costs nothing.

use std::collections::BTreeMap;

use super::ast::{Hunk, HunkOp};

/// The first collision, in hunk order then line order: `(later header line, anchor line,
/// earlier header line)`.
pub(crate) fn first_overlap(hunks: &[Hunk]) -> Option<(usize, u64, usize)> {
    // Claimed intervals, pairwise disjoint: start → (end, header line of the owner).
    let mut claimed: BTreeMap<u64, (u64, usize)> = BTreeMap::new();
    for hunk in hunks {
        let (start, end) = match hunk.op {
            HunkOp::Replace { start, end } | HunkOp::Delete { start, end } => (start, end),
            _ => continue,
        };
        if let Some((_, &(owner_end, owner))) = claimed.range(..=start).next_back() {
            if owner_end >= start {
                return Some((hunk.header_line, start, owner));
            }
        }
        if let Some((&owner_start, &(_, owner))) = claimed.range(start..=end).next() {
            return Some((hunk.header_line, owner_start, owner));
        }
        claimed.insert(start, (end, hunk.header_line));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunk(op: HunkOp, header_line: usize) -> Hunk {
        Hunk {
            op,
            rows: vec![],
            header_line,
            header_span: 0..0,
        }
    }

    #[test]
    fn finds_first_collision_in_order() {
        let r = |s, e| HunkOp::Replace { start: s, end: e };
        let d = |s, e| HunkOp::Delete { start: s, end: e };
        assert_eq!(
            first_overlap(&[hunk(r(2, 3), 1), hunk(r(2, 3), 4)]),
            Some((4, 2, 1))
        );
        assert_eq!(
            first_overlap(&[hunk(r(2, 4), 1), hunk(r(3, 5), 3)]),
            Some((3, 3, 1))
        );
        assert_eq!(
            first_overlap(&[hunk(d(5, 6), 1), hunk(d(1, 2), 2), hunk(d(2, 5), 3)]),
            Some((3, 2, 2))
        );
        assert_eq!(
            first_overlap(&[hunk(d(5, 9), 1), hunk(d(1, 6), 2)]),
            Some((2, 5, 1))
        );
        assert_eq!(
            first_overlap(&[hunk(d(1, 2), 1), hunk(d(3, 4), 2), hunk(r(5, 5), 3)]),
            None
        );
        assert_eq!(
            first_overlap(&[
                hunk(r(2, 2), 1),
                hunk(HunkOp::InsertAfter(2), 3),
                hunk(HunkOp::DeleteBlock { line: 2 }, 5)
            ]),
            None
        );
        assert_eq!(
            first_overlap(&[hunk(d(1, u64::MAX), 1), hunk(d(u64::MAX, u64::MAX), 2)]),
            Some((2, u64::MAX, 1))
        );
    }
}
