//! DEVIATIONS §1: edits resolved on a recorded older version, carried onto the file on disk
//! with zero fuzz by the shared merge ([`crate::merge`]).
//!
//! A request's anchors may fit several versions the session has seen: the read they came from,
//! the file after the session's own edit (a symbol-only line hashes by its number, a repeated
//! line by its occurrence, so both can name other lines there), the disk. The newest recorded
//! version they fit is the base; every other version they fit is another reading of the request,
//! and the edit is applied only when all of them land the same way on disk. An edit whose lines
//! changed, moved apart or map ambiguously, or a request whose readings disagree, is refused
//! with fresh anchors of the disk version. No context is ever searched for.

use hashline_anchor::hash_json::{hash_lines, render_rows, visible_line_count};
use hashline_core::affix::common_prefix;
use hashline_core::{Edit, EditKind, ErrorCode};
use hashline_state::SnapshotStore;
use hashline_syntax::hash_json::EditItem;

use crate::merge::{carry, settle, LineMap, Reading, Unsettled};

use super::resolve::{anchors_of, resolve, Place, Version};
use hashline_core::Refusal;

/// Rows of fresh anchors shown around a refused edit.
const FRESH_ROWS: usize = 12;

/// The version a request is resolved against, and the other versions it may belong to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Base {
    /// The text the request is resolved and planned on: the newest recorded version every
    /// anchor fits (the disk text itself when that is the newest).
    pub text: String,
    /// Every other recorded version the anchors fit, newest first.
    pub others: Vec<String>,
}

/// The recorded version the request's anchors were taken from, when the request may belong to
/// another version than the disk (DEVIATIONS §1). `None` means "resolve against the disk", as
/// the peer always does: no anchor, nothing recorded, or no recorded version besides the disk
/// text that every anchor fits.
///
/// Every version the session recorded that every anchor fits — the disk text included when it
/// was recorded — is a reading of the request; the newest is the base, the others are kept to be
/// compared. A disk text the session never showed is no reading: the anchors cannot come from it.
pub(crate) fn recorded_base(
    store: &dyn SnapshotStore,
    key: &str,
    live: &Version<'_>,
    items: &[EditItem],
) -> Option<Base> {
    if items.iter().all(|i| anchors_of(i).is_empty()) {
        return None;
    }
    // A store that cannot be read leaves the peer's behaviour. The versions holding the disk's
    // text are not loaded: they are the disk (`None`).
    let versions = store.versions_except(key, live.text).ok()?;
    let live_fits = live.fits(items);
    // When the disk is a reading, an older version that starts with the same lines as the disk,
    // down past every line the request names there, lands the same way (or not at all): it is
    // not hashed (a 100 MB file's history would be, on every edit).
    let deepest = (live_fits && versions.iter().any(Option::is_none))
        .then(|| resolve(items, live).ok())
        .flatten()
        .map(|places| places.iter().map(deepest_line).max().unwrap_or(0));
    // The texts all anchors fit, newest first (`None`: the disk's).
    let mut fitting: Vec<Option<String>> = Vec::new();
    for v in versions {
        let (fits, text) = match v {
            None => (live_fits, None),
            Some(v) if deepest.is_some_and(|d| d < common_lines(&v.text, live.text)) => {
                (false, Some(v.text))
            }
            Some(v) => (Version::new(&v.text).fits(items), Some(v.text)),
        };
        if fits && !fitting.contains(&text) {
            fitting.push(text);
        }
    }
    if fitting.iter().all(Option::is_none) {
        return None;
    }
    let mut texts = fitting
        .into_iter()
        .map(|t| t.unwrap_or_else(|| live.text.to_owned()));
    let text = texts.next()?;
    Some(Base {
        text,
        others: texts.collect(),
    })
}

/// The last line a resolved item depends on (an insert also on the line after its anchor).
fn deepest_line(place: &Place) -> usize {
    match *place {
        Place::Replace(_, end) => end,
        Place::Append(Some(l)) | Place::Prepend(Some(l)) => l + 1,
        Place::Append(None) | Place::Prepend(None) => 0,
    }
}

/// How many whole leading lines `a` and `b` share.
fn common_lines(a: &str, b: &str) -> usize {
    let same = common_prefix(a.as_bytes(), b.as_bytes());
    a.as_bytes()
        .get(..same)
        .map_or(0, |p| p.iter().filter(|&&c| c == b'\n').count())
}

/// Carry `edits` (planned on `base.text`) onto `disk`, after checking that every other reading
/// of `items` lands the same way. `anchors(origin)` lists the anchors of the request item an
/// edit came from, for the refusal.
pub(crate) fn rebase(
    edits: &[Edit],
    base: &Base,
    disk: &str,
    items: &[EditItem],
    anchors: &dyn Fn(usize) -> Vec<String>,
) -> Result<Vec<Edit>, Refusal> {
    let recorded: Vec<&str> = base.text.split('\n').collect();
    let disk_lines: Vec<&str> = disk.split('\n').collect();
    let map = LineMap::new(&recorded, &disk_lines);
    let carried = carry(&map, edits, &[]).map_err(|stale| {
        let failed: Vec<&Edit> = stale.iter().filter_map(|s| edits.get(s.index)).collect();
        let line = failed
            .first()
            .and_then(|e| e.anchor_lines().first().copied())
            .unwrap_or(1);
        stale_refusal(
            &failed,
            anchors,
            map.near(line),
            disk,
            "The file changed on disk since the read these anchors came from, and the lines they name changed or moved",
        )
    })?;
    if base.others.is_empty() {
        return Ok(carried);
    }
    let versions: Vec<Version<'_>> = std::iter::once(&base.text)
        .chain(&base.others)
        .map(|t| Version::new(t))
        .collect();
    // A version the items do not resolve on (a range reversed there) is no reading.
    let readings: Vec<(&Version<'_>, Vec<Edit>)> = versions
        .iter()
        .filter_map(|v| Some((v, skeleton(items, &resolve(items, v).ok()?))))
        .collect();
    // A resend: on an older version the anchors came from, the request gives exactly the disk's
    // text, so the disk already holds it (an insert would otherwise land twice).
    let resent = readings
        .iter()
        .filter(|(v, _)| v.text != disk)
        .find(|(v, e)| gives(&v.lines, e, &disk_lines));
    if let Some((_, e)) = resent {
        return Err(resend_refusal(e, anchors, disk));
    }
    // Older views whose lines did not survive are no readings; one that lands elsewhere is.
    let views: Vec<Reading<'_>> = readings
        .iter()
        .enumerate()
        .map(|(k, (v, e))| Reading {
            lines: &v.lines,
            edits: e,
            footprints: &[],
            optional: k > 0,
        })
        .collect();
    match settle(&views, &disk_lines) {
        Ok(_) => Ok(carried),
        Err(why) => {
            let first = readings.first().map_or(&[][..], |(_, e)| e);
            let (failed, centre): (Vec<&Edit>, usize) = match &why {
                Unsettled::Stale { reading, stale } => {
                    let theirs = readings.get(*reading).map_or(&[][..], |(_, e)| e);
                    let failed = stale.iter().filter_map(|s| theirs.get(s.index)).collect();
                    (failed, stale.first().map_or(1, |s| s.near))
                }
                Unsettled::Differ { edit, lines, .. } => {
                    let failed = match edit.and_then(|k| first.get(k)) {
                        Some(e) => vec![e],
                        None => first.iter().collect(),
                    };
                    let centre = lines.0.first().or(lines.1.first()).copied().unwrap_or(1);
                    (failed, centre)
                }
            };
            Err(stale_refusal(
                &failed,
                anchors,
                centre,
                disk,
                "These anchors fit more than one version of the file this session has seen, and they name different lines in them",
            ))
        }
    }
}

/// A request's items as edits on the version `places` were resolved in, each reading built the
/// same way (payload as sent) so that their results can be compared.
fn skeleton(items: &[EditItem], places: &[Place]) -> Vec<Edit> {
    items
        .iter()
        .zip(places)
        .map(|(item, place)| Edit {
            kind: match *place {
                Place::Replace(start, end) => EditKind::Replace { start, end },
                Place::Append(Some(l)) => EditKind::InsertAfter(l),
                Place::Append(None) => EditKind::Tail,
                Place::Prepend(Some(l)) => EditKind::InsertBefore(l),
                Place::Prepend(None) => EditKind::Head,
            },
            rows: item.lines.clone(),
            origin: item.index,
        })
        .collect()
}

/// Whether `edits` on `lines` give exactly `want` (both split at `\n`).
fn gives(lines: &[&str], edits: &[Edit], want: &[&str]) -> bool {
    let Ok(out) = hashline_core::splice(lines, edits) else {
        return false;
    };
    out.len() == want.len()
        && out.iter().zip(want).all(|(o, w)| match o {
            hashline_core::OutLine::Kept(i) => lines.get(*i) == Some(w),
            hashline_core::OutLine::New { text, .. } => text == w,
        })
}

/// `[E_STALE_ANCHOR]` for a request the disk already holds: applied to the version its anchors
/// came from it gives the file as it is now.
fn resend_refusal(edits: &[Edit], anchors: &dyn Fn(usize) -> Vec<String>, disk: &str) -> Refusal {
    let names: Vec<String> = edits
        .iter()
        .flat_map(|e| anchors(e.origin))
        .map(|a| format!("\"{a}\""))
        .collect();
    let centre = edits
        .iter()
        .flat_map(|e| e.anchor_lines())
        .min()
        .unwrap_or(1);
    let mut message = format!(
        "[E_STALE_ANCHOR] {}: these anchors come from a version of the file before this \
         session's last edit of it, and applied there this request gives exactly the file as it \
         is now: it has already been applied (sent twice?). Nothing was written. To add the rows \
         a second time on purpose, anchor the edit on a line the first one wrote (fresh anchors \
         below).",
        names.join(", ")
    );
    push_fresh(&mut message, disk, centre);
    Refusal::new(ErrorCode::StaleAnchor, message)
}

/// Fresh anchors of `disk` from two lines above `centre`, appended to `message`.
fn push_fresh(message: &mut String, disk: &str, centre: usize) {
    let visible = visible_line_count(disk);
    let from = centre.saturating_sub(2).max(1);
    let to = (from + FRESH_ROWS - 1).min(visible);
    if from <= to {
        message.push_str("\n\nCurrent state (around the edit):");
        let rows = render_rows(disk, &hash_lines(disk), from, to);
        for row in rows.split('\n') {
            message.push_str("\n>>> ");
            message.push_str(row);
        }
    }
}

/// `[E_STALE_ANCHOR]` naming the anchors of `failed`, `why` the file changed, and fresh anchors
/// of `disk` from two lines above `centre`.
fn stale_refusal(
    failed: &[&Edit],
    anchors: &dyn Fn(usize) -> Vec<String>,
    centre: usize,
    disk: &str,
    why: &str,
) -> Refusal {
    let names: Vec<String> = failed
        .iter()
        .flat_map(|e| anchors(e.origin))
        .map(|a| format!("\"{a}\""))
        .collect();
    let mut message = format!(
        "[E_STALE_ANCHOR] {} {}: {}. {why}, so the edit cannot be placed with certainty. \
         Re-read the file to refresh.",
        names.len(),
        if names.len() == 1 {
            "stale anchor"
        } else {
            "stale anchors"
        },
        names.join(", ")
    );
    push_fresh(&mut message, disk, centre);
    Refusal::new(ErrorCode::StaleAnchor, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(kind: EditKind) -> Edit {
        Edit {
            kind,
            rows: vec!["X".into()],
            origin: 0,
        }
    }

    fn none(_: usize) -> Vec<String> {
        vec!["AAAA".into()]
    }

    fn base(text: &str) -> Base {
        Base {
            text: text.into(),
            others: Vec::new(),
        }
    }

    #[test]
    fn unchanged_lines_move_with_the_disk() {
        let out = rebase(
            &[edit(EditKind::Replace { start: 2, end: 3 })],
            &base("a\nb\nc\n"),
            "new\na\nb\nc\n",
            &[],
            &none,
        )
        .expect("clean merge");
        assert_eq!(out[0].kind, EditKind::Replace { start: 3, end: 4 });
    }

    #[test]
    fn changed_lines_are_refused_with_fresh_anchors() {
        let err = rebase(
            &[edit(EditKind::Replace { start: 1, end: 1 })],
            &base("foo\nbar\nfoo\n"),
            "bar\nfoo\n",
            &[],
            &none,
        )
        .expect_err("deleted line");
        assert_eq!(err.code, ErrorCode::StaleAnchor);
        assert!(
            err.message
                .starts_with("[E_STALE_ANCHOR] 1 stale anchor: \"AAAA\". The file changed on disk"),
            "{}",
            err.message
        );
        assert!(err.message.contains(">>> "), "{}", err.message);
    }
}
