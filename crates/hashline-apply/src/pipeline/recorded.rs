//! Stale safety for text-matching dialects (DEVIATIONS §27, by way of §1): plan on the
//! version the session recorded, carry the plan onto the live text, or refuse.
//!
//! A dialect that finds its place by matching text (the text-editor tool's `old_str`, `insert_line`,
//! a V4A patch chunk's context) must not match blindly against a file that changed since
//! the model last saw it. The flow, for any such dialect:
//!
//! 1. [`basis`]: which text to match in. [`Basis::Live`] when the session never recorded the
//!    file (the original tools have no read step: match the disk, and say so) or when the
//!    newest recorded text is the disk text; [`Basis::Recorded`] when the session recorded an
//!    older text than the one on disk.
//! 2. The dialect matches and plans its core [`Edit`]s in the lines of [`Basis::text`] (the
//!    shared line model: the LF text split on `\n`, final empty piece included).
//! 3. [`carry_onto`]: the edits in the live text's line numbers, carried through the one
//!    zero-fuzz merge ([`crate::merge`], exactly as hash-json's rebase does). A plan on
//!    [`Basis::Live`] comes back unchanged. When an edit's lines changed, vanished or map
//!    ambiguously on disk, [`Refused`] names the stale edits and the disk line to show fresh
//!    context around; the session then forgets the older versions ([`forget_older`]) so that
//!    a retry written against the fresh context matches the disk.
//!
//! ```ignore
//! let basis = recorded::basis(store, &target.key, live.text());
//! let edits = plan_on(basis.text(live.text()))?;          // the dialect's matching
//! let edits = recorded::carry_onto(&basis, live.text(), &edits, store, &target.key, dry_run)
//!     .map_err(|r| refusal_with_context(live.text(), r.near))?;
//! ```

use hashline_core::Edit;
use hashline_state::SnapshotStore;

use crate::merge::{carry, forget_older, LineMap};

/// The text a text-matching dialect matches in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Basis {
    /// The session never recorded the file: match the disk text (as the original tools do)
    /// and tell the model its edit was not checked against a read.
    Unread,
    /// The newest recorded text is the disk text: match the disk.
    Live,
    /// The session recorded this older text: match in it, then carry onto the disk.
    Recorded(String),
}

impl Basis {
    /// The text to match in: the recorded one, else `live`.
    pub(crate) fn text<'a>(&'a self, live: &'a str) -> &'a str {
        match self {
            Basis::Recorded(text) => text,
            Basis::Unread | Basis::Live => live,
        }
    }
}

/// Which text a request on `key` (whose disk text is `live`) is matched in: the session's
/// newest recorded version. A store that cannot be read counts as never read.
pub(crate) fn basis(store: &dyn SnapshotStore, key: &str, live: &str) -> Basis {
    // The common case, a disk the session read last, is told without loading that version.
    match store.head_holds(key, live) {
        Ok(Some(true)) => Basis::Live,
        Ok(Some(false)) => match store.head(key) {
            Ok(Some(head)) if head.text != live => Basis::Recorded(head.text),
            Ok(Some(_)) => Basis::Live,
            Ok(None) | Err(_) => Basis::Unread,
        },
        Ok(None) | Err(_) => Basis::Unread,
    }
}

/// A plan made on a recorded version that cannot be carried onto the disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refused {
    /// Positions (in the planned slice) of the edits that could not be carried.
    pub stale: Vec<usize>,
    /// For each of [`Refused::stale`], the disk line (1-based) near which its lines are now.
    pub nears: Vec<usize>,
    /// The first recorded line (1-based) that changed, vanished or maps ambiguously.
    pub line: usize,
    /// The disk line (1-based) where that region is now: show fresh context around it.
    pub near: usize,
}

/// `edits` (planned in the lines of `basis`'s text) in the lines of `live`. On a refusal the
/// session forgets every version of `key` but `live` (unless `dry_run`): the refusal shows the
/// disk, so the next request is written against it.
pub(crate) fn carry_onto(
    basis: &Basis,
    live: &str,
    edits: &[Edit],
    store: &dyn SnapshotStore,
    key: &str,
    dry_run: bool,
) -> Result<Vec<Edit>, Refused> {
    let Basis::Recorded(recorded) = basis else {
        return Ok(edits.to_vec());
    };
    carry_between(recorded, live, edits).inspect_err(|_| forget(store, key, live, dry_run))
}

/// The one merge between two texts, without the session: `edits`, planned in the lines of
/// `recorded`, in the lines of `live`, or which of them cannot be carried. A front end that
/// plays several steps on one file (a V4A patch's hunks, in patch order) carries each step
/// from the recorded text as the steps before it left it onto the disk text as they left it,
/// and calls [`forget`] with the disk text when it refuses.
pub(crate) fn carry_between(
    recorded: &str,
    live: &str,
    edits: &[Edit],
) -> Result<Vec<Edit>, Refused> {
    let recorded_lines: Vec<&str> = recorded.split('\n').collect();
    let live_lines: Vec<&str> = live.split('\n').collect();
    let map = LineMap::new(&recorded_lines, &live_lines);
    carry(&map, edits, &[]).map_err(|stale| {
        let first = stale.first();
        Refused {
            stale: stale.iter().map(|s| s.index).collect(),
            nears: stale.iter().map(|s| s.near).collect(),
            line: first.map_or(1, |s| s.line),
            near: first.map_or(1, |s| s.near),
        }
    })
}

/// After a refusal that shows the disk text `live`: the session forgets every other version of
/// `key` (unless `dry_run`), so that a retry written against the fresh context matches.
pub(crate) fn forget(store: &dyn SnapshotStore, key: &str, live: &str, dry_run: bool) {
    if !dry_run {
        forget_older(store, key, live);
    }
}

#[cfg(test)]
mod tests {
    use hashline_core::EditKind;
    use hashline_state::MemoryStore;

    use super::*;

    fn replace(line: usize, row: &str) -> Edit {
        Edit::replace(line, line, vec![row.into()], 0)
    }

    #[test]
    fn never_read_and_current_reads_match_the_disk() {
        let store = MemoryStore::new();
        assert_eq!(basis(&store, "a", "x\n"), Basis::Unread);
        store.record("a", "x\n").expect("record");
        assert_eq!(basis(&store, "a", "x\n"), Basis::Live);
        let b = basis(&store, "a", "y\nx\n");
        assert_eq!(b, Basis::Recorded("x\n".into()));
        assert_eq!(b.text("y\nx\n"), "x\n");
    }

    #[test]
    fn an_edit_away_from_the_change_is_carried() {
        let store = MemoryStore::new();
        let b = Basis::Recorded("a\nb\nc\n".into());
        let out = carry_onto(&b, "new\na\nb\nc\n", &[replace(2, "B")], &store, "k", false)
            .expect("carried");
        assert_eq!(out[0].kind, EditKind::Replace { start: 3, end: 3 });
    }

    #[test]
    fn an_edit_of_a_changed_line_is_refused_and_older_versions_forgotten() {
        let store = MemoryStore::new();
        store.record("k", "a\nb\nc\n").expect("record");
        let b = basis(&store, "k", "a\nbb\nc\n");
        let err = carry_onto(&b, "a\nbb\nc\n", &[replace(2, "B")], &store, "k", false)
            .expect_err("stale");
        assert_eq!(err.stale, vec![0]);
        assert_eq!(err.nears, vec![2]);
        assert_eq!(err.line, 2);
        assert_eq!(basis(&store, "k", "a\nbb\nc\n"), Basis::Live);
    }

    #[test]
    fn only_the_edits_whose_lines_changed_are_refused_each_with_its_disk_line() {
        // Three edits on the recorded text; the disk gained a line on top and changed line 4.
        let recorded = "a\nb\nc\nd\ne\nf\n";
        let live = "top\na\nb\nc\nD\ne\nf\n";
        let edits = [replace(1, "A"), replace(4, "dd"), replace(6, "F")];
        let err = carry_between(recorded, live, &edits).expect_err("one is stale");
        assert_eq!(err.stale, vec![1]);
        assert_eq!(err.nears, vec![5]);
        // Without the stale one, the others carry onto the shifted lines.
        let out =
            carry_between(recorded, live, &[replace(1, "A"), replace(6, "F")]).expect("carried");
        assert_eq!(out[0].kind, EditKind::Replace { start: 2, end: 2 });
        assert_eq!(out[1].kind, EditKind::Replace { start: 7, end: 7 });
    }
}
