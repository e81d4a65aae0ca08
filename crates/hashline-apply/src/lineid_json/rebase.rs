//! Anchors from an older recorded read (DEVIATIONS §1): the edit is placed on the recorded
//! version and carried onto the disk version through the line diff between them, with zero
//! fuzz. Every replaced line, and both neighbours of an insert point, must survive unchanged and
//! unambiguously (the same number of copies on both sides); otherwise the edit is refused.

use std::collections::{BTreeSet, HashMap};

use hashline_anchor::lineid::{canonical_lines, line_id};
use hashline_state::SnapshotStore;
use hashline_syntax::lineid_json::{EditOp, LineRef};
use imara_diff::{Algorithm, Diff, Token};

use super::error::EngineError;
use super::plan::{all_valid, Resolved};
use super::report::{context_rows, rows_around};
use crate::fs::Target;

/// For every line of `old` (0-based), its 0-based line in `new` when it survives unchanged.
pub(crate) fn map_lines<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<Option<usize>> {
    let mut ids: HashMap<&'a str, u32> = HashMap::new();
    let mut intern = |l: &'a str| {
        let next = ids.len() as u32;
        Token(*ids.entry(l).or_insert(next))
    };
    let before: Vec<Token> = old.iter().map(|&l| intern(l)).collect();
    let after: Vec<Token> = new.iter().map(|&l| intern(l)).collect();
    let mut diff = Diff::default();
    diff.compute_with(Algorithm::Histogram, &before, &after, ids.len() as u32);
    let mut map = vec![None; old.len()];
    let (mut i, mut j) = (0usize, 0usize);
    while i < old.len() {
        if diff.is_removed(i as u32) {
            i += 1;
        } else if j < new.len() && diff.is_added(j as u32) {
            j += 1;
        } else if j < new.len() {
            map[i] = Some(j);
            i += 1;
            j += 1;
        } else {
            break;
        }
    }
    map
}

/// The first 1-based line of the recorded version that cannot be carried over, if any.
pub(crate) fn rebase(
    edits: &[Resolved],
    old: &[&str],
    new: &[&str],
) -> Result<Vec<Resolved>, usize> {
    let map = map_lines(old, new);
    let mut counts: HashMap<&str, (usize, usize)> = HashMap::new();
    for l in old {
        counts.entry(l).or_default().0 += 1;
    }
    for l in new {
        counts.entry(l).or_default().1 += 1;
    }
    // 1-based old line → 1-based new line, when it survives unchanged and unambiguously.
    let carry = |line: usize| -> Option<usize> {
        let content = old.get(line.checked_sub(1)?)?;
        let (a, b) = counts.get(content).copied().unwrap_or_default();
        if a != b {
            return None;
        }
        map.get(line - 1).copied().flatten().map(|n| n + 1)
    };
    let adjacent = |a: usize, b: usize| -> Result<(), usize> {
        match (carry(a), carry(b)) {
            (Some(x), Some(y)) if y == x + 1 => Ok(()),
            (None, _) => Err(a),
            _ => Err(b),
        }
    };
    let mut out = Vec::with_capacity(edits.len());
    for r in edits {
        let pos = r.pos.as_ref().map(|p| p.line);
        match (r.spec.op, pos) {
            (_, None) => {}
            (EditOp::Replace, Some(s)) => {
                let e = r.end.as_ref().map_or(s, |e| e.line);
                for l in s..=e {
                    carry(l).ok_or(l)?;
                }
                if e > s {
                    for l in s..e {
                        adjacent(l, l + 1)?;
                    }
                }
            }
            (EditOp::Append, Some(l)) => {
                carry(l).ok_or(l)?;
                if l < old.len() {
                    adjacent(l, l + 1)?;
                }
            }
            (EditOp::Prepend, Some(l)) => {
                carry(l).ok_or(l)?;
                if l > 1 {
                    adjacent(l - 1, l)?;
                }
            }
        }
        let moved = |x: &Option<LineRef>| -> Result<Option<LineRef>, usize> {
            match x {
                None => Ok(None),
                Some(x) => {
                    let n = carry(x.line).ok_or(x.line)?;
                    Ok(Some(LineRef {
                        line: n,
                        id: line_id(n, new[n - 1]),
                    }))
                }
            }
        };
        out.push(Resolved {
            spec: r.spec.clone(),
            pos: moved(&r.pos)?,
            end: moved(&r.end)?,
        });
    }
    Ok(out)
}

/// Anchors that only fit an older recorded read are carried onto the disk version
/// (DEVIATIONS §1); anchors that fit the disk are used as they are. The session's newest read is
/// preferred when it differs from the disk and the anchors fit it, so an anchor of a line that
/// moved or vanished never lands on another line that happens to have the same ID.
pub(crate) fn choose_base(
    store: &dyn SnapshotStore,
    target: &Target,
    disk: &[&str],
    resolved: Vec<Resolved>,
    warnings: &mut Vec<String>,
) -> Result<Vec<Resolved>, EngineError> {
    if resolved.iter().all(|r| r.pos.is_none()) {
        return Ok(resolved);
    }
    let versions = match store.versions(&target.key) {
        Ok(v) => v,
        Err(e) => {
            warnings.push(format!("session store: {e}"));
            Vec::new()
        }
    };
    let disk_text = disk.join("\n");
    let candidates: Vec<&str> = versions
        .iter()
        .map(|v| v.text.as_str())
        .filter(|t| *t != disk_text)
        .collect();
    let fits_disk = all_valid(&resolved, disk);
    let head_differs = versions.first().is_some_and(|v| v.text != disk_text);
    for (k, old_text) in candidates.iter().enumerate() {
        let is_head = k == 0 && head_differs;
        if fits_disk && !is_head {
            break;
        }
        let old = canonical_lines(old_text);
        if !all_valid(&resolved, &old) {
            continue;
        }
        return match rebase(&resolved, &old, disk) {
            Ok(moved) => {
                warnings.push(format!(
                    "{} changed since it was read; the anchors of that read were carried onto the current file through its line diff",
                    target.display
                ));
                Ok(moved)
            }
            Err(line) => Err(stale(target, &old, line, disk)),
        };
    }
    Ok(resolved)
}

fn stale(target: &Target, old: &[&str], line: usize, disk: &[&str]) -> EngineError {
    let content = old.get(line.saturating_sub(1)).copied().unwrap_or_default();
    let copies: BTreeSet<usize> = disk
        .iter()
        .enumerate()
        .filter(|(_, l)| **l == content)
        .map(|(i, _)| i + 1)
        .take(3)
        .collect();
    let (rows, note) = if copies.is_empty() {
        let near: BTreeSet<usize> = [line.clamp(1, disk.len().max(1))]
            .into_iter()
            .filter(|_| !disk.is_empty())
            .collect();
        (
            rows_around(disk, &near, &BTreeSet::new()),
            "it changed or is gone; the rows near where it was are shown below",
        )
    } else {
        (
            context_rows(disk, &copies),
            "it moved or has several copies now; >>> marks the lines with that text",
        )
    };
    EngineError::Stale {
        message: format!(
            "hash mismatch - {} changed since last read and line {line} of that read ({content:?}) cannot be placed with certainty: {note}. Use updated {{line_number}}#{{hash_id}} references below.\n\n{rows}Tip: re-read the file before editing it again.",
            target.display
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashline_syntax::lineid_json::EditSpec;

    fn edit(op: EditOp, pos: usize, end: Option<usize>) -> Resolved {
        let r = |l: usize| LineRef {
            line: l,
            id: String::new(),
        };
        Resolved {
            spec: EditSpec {
                index: 0,
                op,
                pos: Some(String::new()),
                end: None,
                lines: vec!["x".into()],
            },
            pos: Some(r(pos)),
            end: end.map(r),
        }
    }

    #[test]
    fn maps_through_inserted_lines() {
        let old = ["a", "b", "c"];
        let new = ["new", "a", "b", "c"];
        assert_eq!(map_lines(&old, &new), vec![Some(1), Some(2), Some(3)]);
        let moved = rebase(&[edit(EditOp::Replace, 2, Some(3))], &old, &new).expect("clean");
        assert_eq!(moved[0].pos.as_ref().map(|p| p.line), Some(3));
        assert_eq!(moved[0].end.as_ref().map(|p| p.line), Some(4));
    }

    #[test]
    fn refuses_changed_or_ambiguous_lines() {
        assert_eq!(
            rebase(
                &[edit(EditOp::Replace, 2, None)],
                &["a", "b", "c"],
                &["a", "B", "c"]
            ),
            Err(2)
        );
        // An insert whose neighbour gained a line in between.
        assert_eq!(
            rebase(
                &[edit(EditOp::Append, 1, None)],
                &["a", "b"],
                &["a", "x", "b"]
            ),
            Err(2)
        );
        // A duplicate removed: which copy survived is not provable.
        assert_eq!(
            rebase(
                &[edit(EditOp::Replace, 3, None)],
                &["x", "a", "x"],
                &["a", "x"]
            ),
            Err(3)
        );
    }
}
