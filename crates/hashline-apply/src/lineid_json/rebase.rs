//! Anchors from an older recorded read (DEVIATIONS §1): the edit is placed on the recorded
//! version and carried onto the disk version by the shared merge ([`crate::merge`]), with zero
//! fuzz. Every replaced line, and both neighbours of an insert point, must survive unchanged and
//! map to a certain place; otherwise the edit is refused.
//!
//! A `N#ID` anchor can fit more than one version: the read it came from, and the file after an
//! edit that moved lines (the line now at `N` may have the same 2-letter ID — the same text, or a
//! collision). Every version the session has seen that all anchors fit, and the disk when they
//! fit it, is a reading of the request; it is applied only when all readings land the same way.

use std::collections::BTreeSet;

use hashline_anchor::lineid::{canonical_lines, line_id};
use hashline_core::{Edit, EditKind};
use hashline_state::SnapshotStore;
use hashline_syntax::lineid_json::{EditOp, LineRef};

use super::error::EngineError;
use super::plan::{all_valid, Resolved};
use super::report::{context_rows, rows_around};
use crate::fs::Target;
use crate::merge::{forget_older, settle, Reading, Unsettled};

/// The anchored edits of `resolved` as core edits (payload as sent), `origin` = index in
/// `resolved`; unanchored inserts are position-free.
fn skeleton(resolved: &[Resolved]) -> Vec<Edit> {
    resolved
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let pos = r.pos.as_ref().map(|p| p.line);
            let kind = match (r.spec.op, pos) {
                (EditOp::Replace, Some(s)) => EditKind::Replace {
                    start: s,
                    end: r.end.as_ref().map_or(s, |e| e.line),
                },
                (EditOp::Append, Some(l)) => EditKind::InsertAfter(l),
                (EditOp::Prepend, Some(l)) => EditKind::InsertBefore(l),
                (EditOp::Append, None) => EditKind::Tail,
                (_, None) => EditKind::Head,
            };
            Edit {
                kind,
                rows: r.spec.lines.clone(),
                origin: k,
            }
        })
        .collect()
}

/// `resolved` with its references moved to where `carried` (the [`skeleton`] carried onto
/// `disk`) puts them, with the disk's IDs.
fn moved(resolved: Vec<Resolved>, carried: &[Edit], disk: &[&str]) -> Vec<Resolved> {
    let at = |n: usize| LineRef {
        line: n,
        id: line_id(n, disk.get(n.wrapping_sub(1)).copied().unwrap_or("")),
    };
    resolved
        .into_iter()
        .zip(carried)
        .map(|(r, e)| {
            let (pos, end) = match e.kind {
                EditKind::Replace { start, end } => (start, end),
                EditKind::InsertAfter(l) | EditKind::InsertBefore(l) => (l, l),
                EditKind::Head | EditKind::Tail => return r,
            };
            Resolved {
                pos: r.pos.as_ref().map(|_| at(pos)),
                end: r.end.as_ref().map(|_| at(end)),
                spec: r.spec,
            }
        })
        .collect()
}

/// Anchors that only fit an older recorded read are carried onto the disk version
/// (DEVIATIONS §1); anchors that fit only the disk are used as they are. The newest recorded
/// version all anchors fit is the base; every other version they fit must land the same way, so
/// an anchor of a line that moved or vanished never lands on another line that happens to have
/// the same ID. When the disk was read, older reads whose lines did not survive are dropped (the
/// newest read wins); when it was not (an edit of this session, a change outside it), the disk
/// is one more reading if the anchors fit it, and a read whose anchored line is gone refuses.
/// After a refusal, when `record`, the disk is the only version the session remembers (the
/// refusal showed its anchors).
pub(crate) fn choose_base(
    store: &dyn SnapshotStore,
    target: &Target,
    (disk_text, disk): (&str, &[&str]),
    resolved: Vec<Resolved>,
    record: bool,
    warnings: &mut Vec<String>,
) -> Result<Vec<Resolved>, EngineError> {
    if resolved.iter().all(|r| r.pos.is_none()) {
        return Ok(resolved);
    }
    // The versions that hold the disk's text are not loaded: they are the disk (`None`).
    let versions = match store.versions_except(&target.key, disk_text) {
        Ok(v) => v,
        Err(e) => {
            warnings.push(format!(
                "[W_STATE_UNREADABLE] session store: {e}; the recorded versions were not used"
            ));
            Vec::new()
        }
    };
    // Every recorded version all anchors fit, newest first. The edits of this dialect are not
    // recorded (their reply shows no anchors), so a recorded version is one the session showed.
    let mut texts: Vec<&str> = Vec::new();
    for v in &versions {
        let (text, fits) = match v {
            None => (disk_text, all_valid(&resolved, disk)),
            Some(v) => (
                v.text.as_str(),
                all_valid(&resolved, &canonical_lines(&v.text)),
            ),
        };
        if fits && !texts.contains(&text) {
            texts.push(text);
        }
    }
    let disk_seen = versions.iter().any(Option::is_none);
    // The disk text itself is told by its address, without comparing its bytes.
    let is_disk = |t: &&str| std::ptr::eq(*t, disk_text) || *t == disk_text;
    let fits_disk = all_valid(&resolved, disk);
    if texts.iter().all(is_disk) {
        let in_bounds = resolved
            .iter()
            .flat_map(Resolved::refs)
            .all(|r| (1..=disk.len()).contains(&r.line));
        if record && in_bounds && !fits_disk {
            // The mismatch report will show fresh anchors of the disk: a read of it.
            forget_older(store, &target.key, disk_text);
        }
        return Ok(resolved);
    }
    // A disk nobody read (an edit of this session, a change outside it) that the anchors fit by
    // their 8-bit IDs is one more reading, and then none is optional: the anchors come from a
    // read, so a read whose line is gone is a stale anchor, not a reading to drop. When the disk
    // was read, the newest read wins: older ones are readings only where their lines survive.
    if fits_disk && !disk_seen {
        texts.push(disk_text);
    }
    let optional = disk_seen;
    // `None`: the disk itself is the base.
    let base: Option<&str> = texts.first().copied().filter(|t| !is_disk(t));
    let lines: Vec<Vec<&str>> = texts
        .iter()
        .map(|t| {
            if is_disk(t) {
                disk.to_vec()
            } else {
                canonical_lines(t)
            }
        })
        .collect();
    let edits = skeleton(&resolved);
    // Older views whose lines did not survive are no readings; one that lands elsewhere is.
    let readings: Vec<Reading<'_>> = lines
        .iter()
        .enumerate()
        .map(|(k, l)| Reading {
            lines: l,
            edits: &edits,
            footprints: &[],
            optional: optional && k > 0,
        })
        .collect();
    let fail = |e: EngineError| {
        if record {
            forget_older(store, &target.key, disk_text);
        }
        e
    };
    match settle(&readings, disk) {
        Ok(carried) => {
            if base.is_none() || fits_disk {
                // Every reading lands where the anchors name the disk's lines.
                return Ok(resolved);
            }
            warnings.push(format!(
                "[W_STALE_RECOVERED] {} changed since it was read; the anchors of that read were carried onto the current file through its line diff",
                target.display
            ));
            Ok(moved(resolved, &carried, disk))
        }
        Err(Unsettled::Stale { reading: 0, stale }) if base.is_some() => {
            let old = lines.first().map_or(&[][..], Vec::as_slice);
            let line = stale.first().map_or(1, |s| s.line);
            Err(fail(self::stale(target, old, line, disk)))
        }
        Err(why) => {
            let (edit, landed) = match why {
                Unsettled::Stale { stale, .. } => (stale.first().map(|s| s.origin), Vec::new()),
                Unsettled::Differ { edit, lines, .. } => {
                    (edit, lines.0.into_iter().chain(lines.1).collect())
                }
            };
            let r = edit.and_then(|k| resolved.get(k)).or(resolved.first());
            let anchor = r.and_then(|r| r.pos.as_ref());
            Err(fail(ambiguous(target, anchor, &landed, disk)))
        }
    }
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
        (
            rows_around(disk, &near(line, disk), &BTreeSet::new()),
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

/// The disk line nearest to `line` (none in an empty file).
fn near(line: usize, disk: &[&str]) -> BTreeSet<usize> {
    [line.clamp(1, disk.len().max(1))]
        .into_iter()
        .filter(|_| !disk.is_empty())
        .collect()
}

/// The refusal of an anchor that fits several versions the session has seen and lands
/// differently from them (`landed`: the disk lines where the readings put it).
fn ambiguous(
    target: &Target,
    anchor: Option<&LineRef>,
    landed: &[usize],
    disk: &[&str],
) -> EngineError {
    let (name, line) = anchor.map_or((String::new(), 1), |a| {
        (format!(" {}#{}", a.line, a.id), a.line)
    });
    let marked: BTreeSet<usize> = landed
        .iter()
        .copied()
        .filter(|n| (1..=disk.len()).contains(n))
        .collect();
    let rows = if marked.is_empty() {
        rows_around(disk, &near(line, disk), &BTreeSet::new())
    } else {
        context_rows(disk, &marked)
    };
    EngineError::Stale {
        message: format!(
            "hash mismatch - {} changed since last read and the anchor{name} is stale: it fits more than one version of the file this session has seen and names different lines in them, so it cannot be placed with certainty. Use updated {{line_number}}#{{hash_id}} references below (>>> marks where each version's line is now).\n\n{rows}Tip: re-read the file before editing it again.",
            target.display
        ),
    }
}
