//! Overlap checks (semantics §7 step 5, DEVIATIONS §4): the peer's range/range check with its
//! message (edits numbered by position in the sorted list), then every other pair in request
//! order — an edit anchored inside another edit's replaced range is refused, while inserts at the
//! outer boundary of a range are fine.

use hashline_syntax::lineid_json::EditOp;

use super::error::EngineError;
use super::plan::Resolved;

/// The lines an edit replaces, or the boundary it inserts at (1-based original lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Span {
    /// Replaces `start..=end`.
    Replace(usize, usize),
    /// Inserts after the line.
    After(usize),
    /// Inserts before the line.
    Before(usize),
    /// Inserts at the start or end of the file.
    Unanchored,
}

/// Where an edit lands.
pub(crate) fn span(r: &Resolved) -> Span {
    let pos = r.pos.as_ref().map_or(0, |p| p.line);
    match (r.spec.op, r.pos.is_some()) {
        (EditOp::Replace, _) => Span::Replace(pos, r.end.as_ref().map_or(pos, |e| e.line)),
        (EditOp::Append, true) => Span::After(pos),
        (EditOp::Prepend, true) => Span::Before(pos),
        _ => Span::Unanchored,
    }
}

fn describe(s: Span) -> String {
    match s {
        Span::Replace(a, b) if a == b => format!("replace line {a}"),
        Span::Replace(a, b) => format!("replace lines {a}-{b}"),
        Span::After(l) => format!("append after line {l}"),
        Span::Before(l) => format!("prepend before line {l}"),
        Span::Unanchored => "insert at a file edge".into(),
    }
}

/// Whether `b` lands inside the lines `a` replaces (DEVIATIONS §4); inserts at the outer
/// boundary of a replaced range are fine.
fn conflicts(a: Span, b: Span) -> bool {
    match (a, b) {
        (Span::Replace(s, e), Span::Replace(t, u)) => t <= e && s <= u,
        (Span::Replace(s, e), Span::After(l)) | (Span::After(l), Span::Replace(s, e)) => {
            s <= l && l < e
        }
        (Span::Replace(s, e), Span::Before(l)) | (Span::Before(l), Span::Replace(s, e)) => {
            s < l && l <= e
        }
        _ => false,
    }
}

/// Refuse overlapping edits (see the module doc).
pub(crate) fn check_overlaps(edits: &[Resolved], order: &[usize]) -> Result<(), EngineError> {
    // The peer's check between ranges given with `end`, numbered by position in the sorted list.
    let mut ranges: Vec<(usize, usize, usize)> = order
        .iter()
        .enumerate()
        .filter(|(_, &i)| edits[i].spec.op == EditOp::Replace && edits[i].end.is_some())
        .filter_map(|(k, &i)| match span(&edits[i]) {
            Span::Replace(s, e) => Some((s, e, k + 1)),
            _ => None,
        })
        .collect();
    ranges.sort_by_key(|&(s, _, _)| s);
    for w in ranges.windows(2) {
        let ((s1, e1, a), (s2, e2, b)) = (w[0], w[1]);
        if s2 <= e1 {
            return Err(EngineError::Overlap {
                message: format!(
                    "Overlapping range edits detected: edit {a} (lines {s1}-{e1}) overlaps with edit {b} (lines {s2}-{e2}). Use pos-only replace for single-line edits."
                ),
            });
        }
    }
    // Every other pair, in request order.
    for (i, a) in edits.iter().enumerate() {
        for b in &edits[i + 1..] {
            let (sa, sb) = (span(a), span(b));
            if conflicts(sa, sb) {
                return Err(EngineError::Overlap {
                    message: format!(
                        "Overlapping edits detected: edits[{}] ({}) and edits[{}] ({}) touch the same lines. Combine them into one edit, or anchor inserts outside the replaced range.",
                        a.spec.index,
                        describe(sa),
                        b.spec.index,
                        describe(sb)
                    ),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_a_range_conflicts_at_its_boundary_does_not() {
        let range = Span::Replace(2, 4);
        assert!(conflicts(range, Span::Replace(3, 3)));
        assert!(conflicts(range, Span::Replace(4, 6)));
        assert!(!conflicts(range, Span::Replace(5, 5)));
        assert!(conflicts(range, Span::After(3)));
        assert!(!conflicts(range, Span::After(4)));
        assert!(!conflicts(range, Span::After(1)));
        assert!(conflicts(range, Span::Before(4)));
        assert!(!conflicts(range, Span::Before(2)));
        assert!(!conflicts(range, Span::Before(5)));
        assert!(!conflicts(Span::After(3), Span::Before(3)));
        assert!(!conflicts(range, Span::Unanchored));
    }
}
