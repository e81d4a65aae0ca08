//! Stale-tag recovery (seed `000` §e, with the merge rule of DEVIATIONS §1).
//!
//! The edits are applied to the recorded version `V` the tag names and carried onto the live
//! text `C` by the shared merge ([`crate::merge`]): every line an edit depends on (its guard) must
//! survive unchanged and map to a certain place; no context is ever searched for. The section is
//! also read against every other version it may have been written for — the versions the session
//! recorded after `V` (a chained edit may use their line numbers with `V`'s tag) and any other
//! text recorded under the same 16-bit tag — and is carried only when all of them land the same
//! way. Success applies the translated edits to `C` with the seed's banner: EXTERNAL when `V` is
//! the head, SESSION-CHAIN otherwise — or REPLAY when `V` is not the head and the seed's own
//! fuzz-0 merge would have failed on changed context while its replay fallback (same line count,
//! identical anchor lines) gives the same result.

use hashline_core::{Edit, TextFile};
use hashline_state::SnapshotStore;
use hashline_syntax::hashline::Hunk;

use crate::merge::{settle, Footprint, LineMap, Reading, Unsettled};

use super::apply::{splice_edits, Applied};
use super::error::HashlineError;
use super::lower::{lower, BlockCtx, Guard, Lowered};
use super::{messages, mismatch};
use crate::pipeline::stage::splice_file;

/// Context lines of the seed's merge patch.
const SEED_CONTEXT: usize = 3;

/// What a lowering guard asks the merge to keep intact.
fn footprint(guard: &Guard) -> Footprint {
    match *guard {
        Guard::Lines { lo, hi } => Footprint::Lines { lo, hi },
        Guard::Point(p) => Footprint::Boundary { after: p },
        Guard::Free => Footprint::Free,
    }
}

/// Another text a section may have been written against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Other {
    /// The recorded text.
    pub text: String,
    /// Recorded before the primary text: a reading that cannot be carried is dropped (only one
    /// that lands elsewhere refuses). Newer texts must carry: their numbers may be the ones meant.
    pub older: bool,
}

/// The other texts a section bound to `tag` may have been written against, besides `primary`:
/// every version recorded under the same tag, and every version recorded after the oldest of
/// them (newest first, without repeats).
pub(crate) fn other_readings(
    store: &dyn SnapshotStore,
    key: &str,
    tag: &str,
    primary: &str,
) -> Result<Vec<Other>, HashlineError> {
    let versions = store.versions(key)?;
    let Some(oldest) = versions.iter().rposition(|v| v.tag == tag) else {
        return Ok(Vec::new());
    };
    let mut out: Vec<Other> = Vec::new();
    let mut older = false;
    for v in versions.into_iter().take(oldest + 1) {
        if v.text == primary {
            older = true;
        } else if !out.iter().any(|o| o.text == v.text) {
            out.push(Other {
                text: v.text,
                older,
            });
        }
    }
    Ok(out)
}

/// The refusal of a section whose tag is the live file's but also names another text this
/// session recorded, when the two readings land differently: the seed's mismatch rows of the
/// live text under a header that says why.
pub(crate) fn collision_message(
    path: &str,
    tag: &str,
    live: &str,
    anchors: &std::collections::BTreeSet<usize>,
) -> String {
    let full = mismatch::message(path, tag, tag, mismatch::Known::Held, live, anchors);
    let rows = full.split_once("\n\n").map_or("", |(_, rows)| rows);
    let mut msg = format!(
        "Edit rejected for {path}: stale anchor — #{tag} names more than one version of this file in this session (two different texts share the 16-bit tag), and the edit lands differently on them.\nRe-read the file with `read` to refresh the line numbers before retrying; the current lines are below."
    );
    if !rows.is_empty() {
        msg.push_str("\n\n");
        msg.push_str(rows);
    }
    msg
}

/// Lower `hunks` on each text of `others` (a text whose numbers do not fit is no reading), then
/// settle them with `first` onto `live_lines`.
fn settle_with(
    first: Reading<'_>,
    others: &[Other],
    live_lines: &[&str],
    hunks: &[Hunk],
    ctx: BlockCtx<'_>,
) -> Result<Vec<Edit>, Unsettled> {
    let files: Vec<TextFile> = others
        .iter()
        .map(|o| TextFile::from_text(&o.text))
        .collect();
    let lines: Vec<Vec<&str>> = files.iter().map(|f| f.lines().collect()).collect();
    let lowered: Vec<Option<(Lowered, Vec<Footprint>)>> = files
        .iter()
        .zip(&lines)
        .map(|(f, l)| {
            let lw = lower(f.text(), l, hunks, ctx).ok()?;
            let fp = lw.guards.iter().map(footprint).collect();
            Some((lw, fp))
        })
        .collect();
    let mut readings = vec![first];
    for ((l, lw), other) in lines.iter().zip(&lowered).zip(others) {
        if let Some((lw, fp)) = lw {
            readings.push(Reading {
                lines: l,
                edits: &lw.edits,
                footprints: fp,
                optional: other.older,
            });
        }
    }
    settle(&readings, live_lines)
}

/// Whether a section applied to `live` under its own (current) tag lands the same way when read
/// against each of `others` — the texts the session recorded under the same 16-bit tag, and
/// those recorded after them. `false`: the tag does not say which text the numbers belong to.
pub(crate) fn agrees_on_live(
    others: &[Other],
    live: &TextFile,
    hunks: &[Hunk],
    ctx: BlockCtx<'_>,
) -> bool {
    let lines: Vec<&str> = live.lines().collect();
    let Ok(lowered) = lower(live.text(), &lines, hunks, ctx) else {
        return true;
    };
    let fp: Vec<Footprint> = lowered.guards.iter().map(footprint).collect();
    let first = Reading {
        lines: &lines,
        edits: &lowered.edits,
        footprints: &fp,
        optional: false,
    };
    settle_with(first, others, &lines, hunks, ctx).is_ok()
}

/// Try to carry `hunks`, written against the recorded `snapshot`, onto the live file; `others`
/// are the other texts the section may have been written against ([`other_readings`]).
/// `Ok(None)`: recovery cannot prove a result (the caller reports a mismatch).
/// `Err`: a refusal that is not a mismatch (an unresolvable block).
pub(crate) fn recover(
    snapshot: &str,
    is_head: bool,
    others: &[Other],
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
    let live_lines: Vec<&str> = live.lines().collect();
    let fp: Vec<Footprint> = lowered.guards.iter().map(footprint).collect();
    let first = Reading {
        lines: &v_lines,
        edits: &lowered.edits,
        footprints: &fp,
        optional: false,
    };
    let Ok(translated) = settle_with(first, others, &live_lines, hunks, ctx) else {
        return Ok(None);
    };
    let Ok(spliced) = splice_file(live, &live_lines, &translated) else {
        return Ok(None);
    };
    if spliced.text.is(live.text(), live.text()) {
        return Ok(None);
    }
    let banner = if is_head {
        messages::RECOVERY_EXTERNAL
    } else if seed_would_replay(
        &lowered,
        &v_lines,
        live,
        &live_lines,
        &spliced.text.joined(live.text()),
    ) {
        messages::RECOVERY_SESSION_REPLAY
    } else {
        messages::RECOVERY_SESSION_CHAIN
    };
    let mut warnings = vec![banner.to_string()];
    warnings.extend(lowered.warnings);
    // The carried edits pass the executor's guard as fresh ones do, against the disk text.
    Ok(Some(Applied {
        edits: translated,
        spliced,
        warnings,
    }))
}

/// The seed's banner choice for a non-head snapshot: its context merge fails when a line within
/// three lines of an edit changed; it then replays the edits at the same numbers when both texts
/// have as many lines and every anchor line is identical. We report REPLAY only when that replay
/// gives exactly the result our merge proved.
fn seed_would_replay(
    lowered: &Lowered,
    v_lines: &[&str],
    live: &TextFile,
    live_lines: &[&str],
    merged: &str,
) -> bool {
    if v_lines.len() != live_lines.len() {
        return false;
    }
    let map = LineMap::new(v_lines, live_lines);
    let context_changed = lowered.guards.iter().any(|g| {
        let (lo, hi) = match *g {
            Guard::Free => return false,
            Guard::Lines { lo, hi } => (lo.saturating_sub(SEED_CONTEXT), hi + SEED_CONTEXT),
            Guard::Point(p) => ((p + 1).saturating_sub(SEED_CONTEXT), p + SEED_CONTEXT),
        };
        let (lo, hi) = (lo.max(1), hi.min(v_lines.len()));
        lo <= hi && map.run(lo, hi).is_err()
    });
    if !context_changed {
        return false;
    }
    let anchors_same = lowered
        .edits
        .iter()
        .flat_map(Edit::anchor_lines)
        .all(|l| v_lines.get(l - 1) == live_lines.get(l - 1));
    if !anchors_same {
        return false;
    }
    let Ok(replayed) = splice_edits(live_lines, &lowered.edits) else {
        return false;
    };
    live.render_text(&replayed) == merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashline::test_support::{ctx, hunk};
    use hashline_syntax::hashline::HunkOp;

    fn replace(n: u64, row: &str) -> Hunk {
        hunk(HunkOp::Replace { start: n, end: n }, &[row])
    }

    fn insert_after(n: u64, row: &str) -> Hunk {
        hunk(HunkOp::InsertAfter(n), &[row])
    }

    fn numbered(range: std::ops::RangeInclusive<u32>) -> String {
        range.map(|i| format!("L{i}\n")).collect()
    }

    #[test]
    fn external_insert_above_shifts_the_edit() {
        let v = numbered(1..=8);
        let live = TextFile::from_text(&format!("H1\nH2\n{v}"));
        let r = recover(&v, true, &[], &live, &[replace(2, "X")], ctx())
            .expect("ok")
            .expect("recovered");
        assert_eq!(
            r.spliced.text.joined(live.text()),
            format!("H1\nH2\nL1\nX\n{}", numbered(3..=8))
        );
        assert_eq!(r.warnings, vec![messages::RECOVERY_EXTERNAL.to_string()]);
    }

    #[test]
    fn changed_target_line_is_refused() {
        let v = numbered(1..=10);
        let live = TextFile::from_text(&v.replace("L6\n", "L6-CHANGED\n"));
        assert!(recover(&v, true, &[], &live, &[replace(6, "X")], ctx())
            .expect("ok")
            .is_none());
        // A changed neighbour of a replaced line does not matter…
        let r = recover(&v, true, &[], &live, &[replace(5, "X")], ctx())
            .expect("ok")
            .expect("recovered");
        assert!(r
            .spliced
            .text
            .joined(live.text())
            .contains("X\nL6-CHANGED\n"));
        // …but a changed neighbour of an insert point does.
        assert!(
            recover(&v, true, &[], &live, &[insert_after(5, "Y")], ctx())
                .expect("ok")
                .is_none()
        );
    }

    #[test]
    fn lines_inserted_at_the_insert_point_are_ambiguous() {
        let v = numbered(1..=4);
        let live = TextFile::from_text("L1\nL2\nNEW\nL3\nL4\n");
        assert!(
            recover(&v, true, &[], &live, &[insert_after(2, "Y")], ctx())
                .expect("ok")
                .is_none()
        );
        let r = recover(&v, true, &[], &live, &[insert_after(3, "Y")], ctx())
            .expect("ok")
            .expect("recovered");
        assert!(r.spliced.text.is(live.text(), "L1\nL2\nNEW\nL3\nY\nL4\n"));
    }

    #[test]
    fn non_head_banners() {
        let v = numbered(1..=10);
        let live = TextFile::from_text(&v.replace("L5\n", "L5-CHANGED\n"));
        let r = recover(&v, false, &[], &live, &[replace(3, "X")], ctx())
            .expect("ok")
            .expect("recovered");
        assert_eq!(r.warnings[0], messages::RECOVERY_SESSION_REPLAY);
        let advanced =
            TextFile::from_text(&format!("{}TRAILER\n", v.replace("L2\n", "L2-EDITED\n")));
        let r = recover(&v, false, &[], &advanced, &[replace(10, "X")], ctx())
            .expect("ok")
            .expect("recovered");
        assert_eq!(r.warnings[0], messages::RECOVERY_SESSION_CHAIN);
        assert!(r
            .spliced
            .text
            .joined(advanced.text())
            .ends_with("L9\nX\nTRAILER\n"));
    }

    #[test]
    fn no_change_is_not_a_recovery() {
        let v = numbered(1..=3);
        let live = TextFile::from_text("L0\nL1\nL2\nL3\n");
        assert!(recover(&v, true, &[], &live, &[replace(2, "L2")], ctx())
            .expect("ok")
            .is_none());
    }
}
