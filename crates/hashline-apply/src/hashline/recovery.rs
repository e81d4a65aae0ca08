//! Stale-tag recovery (seed `000` §e, with the merge rule of DEVIATIONS §1).
//!
//! The edits are applied to the recorded version `V` the tag names; every line an edit depends on
//! is then mapped through the line diff `V → C` (the live text). The edit is carried over only if
//! each such line survived unchanged, stayed adjacent to its neighbours, and nothing was inserted
//! at an insert point; no context is ever searched for. Success applies the translated edits to
//! `C` with the seed's banner: EXTERNAL when `V` is the head, SESSION-CHAIN otherwise — or
//! REPLAY when `V` is not the head and the seed's own fuzz-0 merge would have failed on changed
//! context while its replay fallback (same line count, identical anchor lines) gives the same
//! result.

use hashline_core::{Edit, EditKind, OutLine, TextFile};
use hashline_syntax::hashline::Hunk;

use crate::diff::{line_hunks, DiffHunk};

use super::apply::{splice_edits, Applied};
use super::error::HashlineError;
use super::lower::{lower, BlockCtx, Guard};
use super::messages;

/// Context lines of the seed's merge patch.
const SEED_CONTEXT: usize = 3;

/// Whether any change of `V → C` touches 0-based lines `lo..=hi` of `V`, or inserts between them.
fn lines_conflict(hunks: &[DiffHunk], lo: usize, hi: usize) -> bool {
    hunks.iter().any(|h| {
        (h.old.start <= hi && h.old.end > lo)
            || (h.old.is_empty() && h.old.start > lo && h.old.start <= hi)
    })
}

/// Whether the boundary before 0-based line `p` is disturbed: a neighbour changed, or lines were
/// inserted exactly there.
fn point_conflict(hunks: &[DiffHunk], p: usize, v_len: usize) -> bool {
    let lo = p.saturating_sub(1);
    let hi = p.min(v_len.saturating_sub(1));
    lines_conflict(hunks, lo, hi) || hunks.iter().any(|h| h.old.is_empty() && h.old.start == p)
}

fn guard_conflict(hunks: &[DiffHunk], guard: Guard, v_len: usize, widen: usize) -> bool {
    match guard {
        Guard::Free => false,
        Guard::Lines { lo, hi } => {
            lines_conflict(hunks, (lo - 1).saturating_sub(widen), hi - 1 + widen)
        }
        Guard::Point(p) if widen == 0 => point_conflict(hunks, p, v_len),
        Guard::Point(p) => lines_conflict(hunks, p.saturating_sub(widen), p + widen - 1),
    }
}

/// Map 0-based line `i` of `V` to `C` (it must be outside every changed region).
fn map_line(hunks: &[DiffHunk], i: usize) -> usize {
    let shift = hunks
        .iter()
        .take_while(|h| h.old.end <= i && h.old.start <= i)
        .last()
        .map_or(0isize, |h| h.new.end as isize - h.old.end as isize);
    (i as isize + shift).max(0) as usize
}

/// 1-based line `l` of `V` → 1-based line of `C`.
fn map1(hunks: &[DiffHunk], l: usize) -> usize {
    map_line(hunks, l - 1) + 1
}

fn translate(hunks: &[DiffHunk], e: &Edit, v_len: usize) -> Edit {
    let kind = match e.kind {
        EditKind::Replace { start, end } => EditKind::Replace {
            start: map1(hunks, start),
            end: map1(hunks, end),
        },
        EditKind::InsertBefore(l) if l <= v_len => EditKind::InsertBefore(map1(hunks, l)),
        EditKind::InsertAfter(l) if l <= v_len => EditKind::InsertAfter(map1(hunks, l)),
        other => other,
    };
    Edit {
        kind,
        rows: e.rows.clone(),
        origin: e.origin,
    }
}

/// Try to carry `hunks`, written against the recorded `snapshot`, onto the live file.
/// `Ok(None)`: recovery cannot prove a result (the caller reports a mismatch).
/// `Err`: a refusal that is not a mismatch (an unresolvable block).
pub(crate) fn recover(
    snapshot: &str,
    is_head: bool,
    live: &TextFile,
    hunks: &[Hunk],
    ctx: BlockCtx<'_>,
) -> Result<Option<Applied>, HashlineError> {
    let v = TextFile::from_text(snapshot);
    let v_lines: Vec<&str> = v.lines().collect();
    let lowered = match lower(v.text(), &v_lines, hunks, ctx) {
        Ok(l) => l,
        Err(e @ HashlineError::BlockUnresolved(_)) => return Err(e),
        Err(_) => return Ok(None),
    };
    let Ok(v_out) = splice_edits(&v_lines, &lowered.edits) else {
        return Ok(None);
    };
    if v.render_text(&v_out) == v.text() {
        return Ok(None);
    }
    let diff = line_hunks(v.text(), live.text());
    let v_len = v_lines.len();
    if lowered
        .guards
        .iter()
        .any(|g| guard_conflict(&diff, *g, v_len, 0))
    {
        return Ok(None);
    }
    let translated: Vec<Edit> = lowered
        .edits
        .iter()
        .map(|e| translate(&diff, e, v_len))
        .collect();
    let live_lines: Vec<&str> = live.lines().collect();
    let Ok(out) = splice_edits(&live_lines, &translated) else {
        return Ok(None);
    };
    let text = live.render_text(&out);
    if text == live.text() {
        return Ok(None);
    }
    let banner = if is_head {
        messages::RECOVERY_EXTERNAL
    } else if seed_would_replay(
        &diff,
        &lowered.guards,
        &lowered.edits,
        &v_lines,
        &live_lines,
        &text,
    ) {
        messages::RECOVERY_SESSION_REPLAY
    } else {
        messages::RECOVERY_SESSION_CHAIN
    };
    let mut warnings = vec![banner.to_string()];
    warnings.extend(lowered.warnings);
    Ok(Some(Applied {
        out,
        text,
        warnings,
    }))
}

/// The seed's banner choice for a non-head snapshot: its context merge fails when a line within
/// three lines of an edit changed; it then replays the edits at the same numbers when both texts
/// have as many lines and every anchor line is identical. We report REPLAY only when that replay
/// gives exactly the result our merge proved.
fn seed_would_replay(
    diff: &[DiffHunk],
    guards: &[Guard],
    edits: &[Edit],
    v_lines: &[&str],
    live_lines: &[&str],
    merged: &str,
) -> bool {
    let context_changed = guards
        .iter()
        .any(|g| guard_conflict(diff, *g, v_lines.len(), SEED_CONTEXT));
    if !context_changed || v_lines.len() != live_lines.len() {
        return false;
    }
    let anchors_same = edits
        .iter()
        .flat_map(Edit::anchor_lines)
        .all(|l| v_lines.get(l - 1) == live_lines.get(l - 1));
    if !anchors_same {
        return false;
    }
    let Ok(replayed) = splice_edits(live_lines, edits) else {
        return false;
    };
    render(live_lines, &replayed) == merged
}

fn render(lines: &[&str], out: &[OutLine]) -> String {
    let mut s = String::new();
    for (k, l) in out.iter().enumerate() {
        if k > 0 {
            s.push('\n');
        }
        match l {
            OutLine::Kept(i) => s.push_str(lines.get(*i).copied().unwrap_or("")),
            OutLine::New { text, .. } => s.push_str(text),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashline_syntax::hashline::HunkOp;
    use std::path::Path;

    fn replace(n: u64, row: &str) -> Hunk {
        Hunk {
            op: HunkOp::Replace { start: n, end: n },
            rows: vec![row.to_string()],
            header_line: 1,
            header_span: 0..0,
        }
    }

    fn insert_after(n: u64, row: &str) -> Hunk {
        Hunk {
            op: HunkOp::InsertAfter(n),
            rows: vec![row.to_string()],
            header_line: 1,
            header_span: 0..0,
        }
    }

    fn ctx() -> BlockCtx<'static> {
        BlockCtx {
            resolver: None,
            path: Path::new("a.ts"),
        }
    }

    fn numbered(range: std::ops::RangeInclusive<u32>) -> String {
        range.map(|i| format!("L{i}\n")).collect()
    }

    #[test]
    fn external_insert_above_shifts_the_edit() {
        let v = numbered(1..=8);
        let live = TextFile::from_text(&format!("H1\nH2\n{v}"));
        let r = recover(&v, true, &live, &[replace(2, "X")], ctx())
            .expect("ok")
            .expect("recovered");
        assert_eq!(r.text, format!("H1\nH2\nL1\nX\n{}", numbered(3..=8)));
        assert_eq!(r.warnings, vec![messages::RECOVERY_EXTERNAL.to_string()]);
    }

    #[test]
    fn changed_target_line_is_refused() {
        let v = numbered(1..=10);
        let live = TextFile::from_text(&v.replace("L6\n", "L6-CHANGED\n"));
        assert!(recover(&v, true, &live, &[replace(6, "X")], ctx())
            .expect("ok")
            .is_none());
        // A changed neighbour of a replaced line does not matter…
        let r = recover(&v, true, &live, &[replace(5, "X")], ctx())
            .expect("ok")
            .expect("recovered");
        assert!(r.text.contains("X\nL6-CHANGED\n"));
        // …but a changed neighbour of an insert point does.
        assert!(recover(&v, true, &live, &[insert_after(5, "Y")], ctx())
            .expect("ok")
            .is_none());
    }

    #[test]
    fn lines_inserted_at_the_insert_point_are_ambiguous() {
        let v = numbered(1..=4);
        let live = TextFile::from_text("L1\nL2\nNEW\nL3\nL4\n");
        assert!(recover(&v, true, &live, &[insert_after(2, "Y")], ctx())
            .expect("ok")
            .is_none());
        let r = recover(&v, true, &live, &[insert_after(3, "Y")], ctx())
            .expect("ok")
            .expect("recovered");
        assert_eq!(r.text, "L1\nL2\nNEW\nL3\nY\nL4\n");
    }

    #[test]
    fn non_head_banners() {
        let v = numbered(1..=10);
        let live = TextFile::from_text(&v.replace("L5\n", "L5-CHANGED\n"));
        let r = recover(&v, false, &live, &[replace(3, "X")], ctx())
            .expect("ok")
            .expect("recovered");
        assert_eq!(r.warnings[0], messages::RECOVERY_SESSION_REPLAY);
        let advanced =
            TextFile::from_text(&format!("{}TRAILER\n", v.replace("L2\n", "L2-EDITED\n")));
        let r = recover(&v, false, &advanced, &[replace(10, "X")], ctx())
            .expect("ok")
            .expect("recovered");
        assert_eq!(r.warnings[0], messages::RECOVERY_SESSION_CHAIN);
        assert!(r.text.ends_with("L9\nX\nTRAILER\n"));
    }

    #[test]
    fn no_change_is_not_a_recovery() {
        let v = numbered(1..=3);
        let live = TextFile::from_text("L0\nL1\nL2\nL3\n");
        assert!(recover(&v, true, &live, &[replace(2, "L2")], ctx())
            .expect("ok")
            .is_none());
    }
}
