//! A big file's diff found from the stretches its edits changed instead of from its lines.
//!
//! The pipeline knows where a file's edits landed ([`LineChange`]s: a 1,000-hunk patch names
//! 1,000 places). Hashing, walking and resynchronising every line of both texts to rediscover
//! them ([`super::chunked`]) cost more than the rest of such an edit. Here only a window of
//! [`MARGIN`] lines around each stretch is diffed (as any middle is: `hunks_of`); the claim that
//! everything between the windows is the same in both texts is checked first, one byte
//! comparison per gap, and anything that does not hold (a stretch list that does not describe
//! these texts) falls back to the diff of the whole texts. Any alignment of equal lines is a
//! valid diff, so the result always turns `old` into `new`.

use std::ops::Range;

use hashline_core::LineChange;

use super::{hunks_of, same, DiffHunk};

/// Lines of agreed context diffed on each side of a stretch (for imara-diff's slider
/// heuristics, and to cover a last line whose `\n` the line models count differently).
const MARGIN: usize = 32;

/// The hunks between `old` and `new` (the texts' lines, each keeping its `\n`), diffing only
/// around `changes` (in the `\n`-split model of the same texts: the same line numbers); `None`
/// when the texts between the windows differ, the caller then diffs the whole texts.
pub(super) fn hunks(old: &[&str], new: &[&str], changes: &[LineChange]) -> Option<Vec<DiffHunk>> {
    let windows = windows(old.len(), new.len(), changes)?;
    // Everything outside the windows must agree: the gap before each window, and the tail.
    let mut at = (0usize, 0usize);
    for (o, n) in windows.iter().cloned().chain(std::iter::once((
        old.len()..old.len(),
        new.len()..new.len(),
    ))) {
        let agree = o.start - at.0 == n.start - at.1
            && old
                .get(at.0..o.start)
                .zip(new.get(at.1..n.start))
                .is_some_and(|(a, b)| a.iter().zip(b).all(|(a, b)| same(a, b)));
        if !agree {
            return None;
        }
        at = (o.end, n.end);
    }
    let mut out = Vec::new();
    for (o, n) in windows {
        // A window is diffed as any middle is: stretches packed closer than the margin merge
        // into one window as long as they go, which `hunks_of` cuts at points of agreement
        // (imara-diff on a window of a million lines is quadratic).
        for h in hunks_of(old.get(o.clone())?, new.get(n.clone())?) {
            out.push(DiffHunk {
                old: o.start + h.old.start..o.start + h.old.end,
                new: n.start + h.new.start..n.start + h.new.end,
            });
        }
    }
    Some(out)
}

/// `changes` in the numbering of lines from `skip` on (the common prefix cut off, where both
/// texts agree line for line): stretches before it go, one across it starts there.
pub(super) fn shifted(changes: &[LineChange], skip: usize) -> Vec<LineChange> {
    changes
        .iter()
        .filter(|c| c.old.end > skip && c.new.end > skip)
        .map(|c| LineChange {
            old: c.old.start.max(skip) - skip..c.old.end - skip,
            new: c.new.start.max(skip) - skip..c.new.end - skip,
        })
        .collect()
}

/// The windows around `changes`, widened by [`MARGIN`] and clamped to both texts, merged where
/// they touch on either side; `None` when the stretches are out of order. A stretch past the
/// end of the lines (one inside the common suffix the caller cut off: a no-op replace, an
/// insertion among equal lines) is clamped to the end: the gaps' check judges the claim.
fn windows(
    old_len: usize,
    new_len: usize,
    changes: &[LineChange],
) -> Option<Vec<(Range<usize>, Range<usize>)>> {
    let mut out: Vec<(Range<usize>, Range<usize>)> = Vec::with_capacity(changes.len());
    for c in changes {
        if c.old.start > c.old.end || c.new.start > c.new.end {
            return None;
        }
        let c = LineChange {
            old: c.old.start.min(old_len)..c.old.end.min(old_len),
            new: c.new.start.min(new_len)..c.new.end.min(new_len),
        };
        // The same number of lines before both stretches (they agree there).
        let back = MARGIN.min(c.old.start).min(c.new.start);
        let fore = MARGIN
            .min(old_len.saturating_sub(c.old.end))
            .min(new_len.saturating_sub(c.new.end));
        let o = c.old.start - back..(c.old.end + fore).min(old_len);
        let n = c.new.start - back..(c.new.end + fore).min(new_len);
        match out.last_mut() {
            Some((po, pn)) if o.start <= po.end || n.start <= pn.end => {
                if o.start < po.start || n.start < pn.start {
                    return None;
                }
                po.end = po.end.max(o.end);
                pn.end = pn.end.max(n.end);
            }
            _ => out.push((o, n)),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashline_core::{splice, Edit, EditKind, TextFile};

    fn edit(kind: EditKind, rows: Vec<String>) -> Edit {
        Edit {
            kind,
            rows,
            origin: 0,
        }
    }

    fn lines(t: &str) -> Vec<&str> {
        t.split_inclusive('\n').collect()
    }

    /// Apply `hunks` to `old`, checking that the lines between hunks agree.
    fn rebuild<'a>(old: &[&'a str], new: &[&'a str], hunks: &[DiffHunk]) -> Vec<&'a str> {
        let mut out = Vec::new();
        let (mut i, mut j) = (0, 0);
        for h in hunks {
            assert_eq!(h.old.start - i, h.new.start - j, "equal stretches pair up");
            assert_eq!(&old[i..h.old.start], &new[j..h.new.start]);
            out.extend_from_slice(&old[i..h.old.start]);
            out.extend_from_slice(&new[h.new.clone()]);
            (i, j) = (h.old.end, h.new.end);
        }
        assert_eq!(&old[i..], &new[j..]);
        out.extend_from_slice(&old[i..]);
        out
    }

    fn text(n: usize) -> String {
        (0..n).map(|i| format!("line {i}\n")).collect()
    }

    fn edited(old: &str, edits: &[Edit]) -> (String, Vec<LineChange>) {
        let file = TextFile::from_text(old);
        let ls = file.line_slices();
        let new = file.render_text(&splice(&ls, edits).expect("splice"));
        let count = ls.len() - usize::from(old.ends_with('\n'));
        (new, LineChange::of_edits(edits, count))
    }

    #[test]
    fn spread_edits_are_found_around_their_stretches() {
        let old = text(5_000);
        let edits: Vec<Edit> = (0..40)
            .map(|k| Edit::replace(k * 120 + 7, k * 120 + 8, vec![format!("new {k}")], 0))
            .chain([edit(EditKind::InsertAfter(4_000), vec!["added".into()])])
            .collect();
        let (new, changes) = edited(&old, &edits);
        let (o, n) = (lines(&old), lines(&new));
        let found = hunks(&o, &n, &changes).expect("the stretches hold");
        assert_eq!(rebuild(&o, &n, &found), n);
        assert_eq!(found, super::super::hunks_of(&o, &n));
    }

    #[test]
    fn a_claim_that_does_not_hold_is_refused() {
        let old = text(300);
        let (new, mut changes) = edited(&old, &[Edit::replace(100, 100, vec!["x".into()], 0)]);
        let (o, n) = (lines(&old), lines(&new));
        // Claimed elsewhere: the gap around line 100 differs.
        changes[0] = LineChange {
            old: 200..201,
            new: 200..201,
        };
        assert_eq!(hunks(&o, &n, &changes), None);
        // Reversed.
        #[allow(clippy::reversed_empty_ranges)]
        let wild = [LineChange {
            old: 5..2,
            new: 0..1,
        }];
        assert_eq!(hunks(&o, &n, &wild), None);
    }

    #[test]
    fn a_change_at_the_end_without_a_final_newline() {
        let old = "a\nb\nc".to_string();
        let (new, changes) = edited(&old, &[edit(EditKind::Tail, vec!["d".into()])]);
        let (o, n) = (lines(&old), lines(&new));
        let found = hunks(&o, &n, &changes).expect("holds");
        assert_eq!(rebuild(&o, &n, &found), n);
    }

    #[test]
    fn a_stretch_inside_the_cut_common_suffix_is_no_panic() {
        // Edits near the top and at 30,000 make a long middle; a no-op replace far inside the
        // common suffix (cut off before the hints are used) lies past the trimmed lines.
        let old = text(100_000);
        let edits = vec![
            Edit::replace(10, 10, vec!["changed 10".into()], 0),
            Edit::replace(30_000, 30_000, vec!["changed 30000".into()], 0),
            Edit::replace(90_000, 90_000, vec!["line 89999".into()], 0),
        ];
        let (new, changes) = edited(&old, &edits);
        let told = super::super::LineDiff::of_changed(&old, &new, Some(&changes));
        let whole = super::super::LineDiff::of(&old, &new);
        assert_eq!(told.numbered(), whole.numbered());
        assert_eq!(told.first_changed_line(), Some(10));
    }

    /// Disjoint edits of a file of `count` lines from sorted-on-use `spots` (line, lines
    /// replaced, rows, kind: replace, insert after, insert before); row `r` of the edit at
    /// `at` is `row(at, r)`. Spots overlapping an earlier edit are skipped.
    fn edits_at(
        mut spots: Vec<(usize, usize, usize, u8)>,
        count: usize,
        row: impl Fn(usize, usize) -> String,
    ) -> Vec<Edit> {
        let (mut edits, mut taken) = (Vec::new(), 0usize);
        spots.sort_unstable();
        for (at, len, rows, kind) in spots {
            let start = at.min(count);
            if start <= taken {
                continue;
            }
            let rows: Vec<String> = (0..rows).map(|r| row(at, r)).collect();
            edits.push(match kind {
                0 => {
                    taken = (start + len).min(count);
                    Edit::replace(start, taken, rows, 0)
                }
                1 => {
                    taken = start;
                    edit(EditKind::InsertAfter(start), rows)
                }
                _ => {
                    taken = start;
                    edit(EditKind::InsertBefore(start), rows)
                }
            });
        }
        edits
    }

    proptest::proptest! {
        /// Whatever the edits, the windows' hunks turn `old` into `new`.
        #[test]
        fn windows_compose_to_a_valid_diff(
            n in 1usize..300,
            spots in proptest::collection::vec((1usize..300, 0usize..4, 0usize..4, 0u8..3), 0..12),
            final_newline: bool,
        ) {
            let mut old = text(n);
            if !final_newline {
                old.pop();
            }
            let count = n;
            let edits = edits_at(spots, count, |at, r| format!("r{at}.{r}"));
            let (new, changes) = edited(&old, &edits);
            let (o, nl) = (lines(&old), lines(&new));
            let found = hunks(&o, &nl, &changes);
            let found = found.expect("the stretches of real edits hold");
            proptest::prop_assert_eq!(rebuild(&o, &nl, &found), nl);
        }
        /// The hints of a middle cut out of the texts (a common prefix and suffix cut off, as
        /// [`super::super::LineDiff::of_changed`] does): stretches inside either cut, no-op
        /// rows and rows equal to their neighbours never panic, and what is found is valid.
        #[test]
        fn windows_of_a_cut_middle_compose_to_a_valid_diff(
            words in proptest::collection::vec(0u8..3, 1..200),
            spots in proptest::collection::vec((1usize..200, 0usize..3, 0usize..3, 0u8..3), 0..10),
            cut in (0usize..200, 0usize..200),
        ) {
            let old: String = words.iter().map(|w| format!("w{w}\n")).collect();
            let count = words.len();
            let edits = edits_at(spots, count, |at, r| format!("w{}", (at + r) % 3));
            let (new, changes) = edited(&old, &edits);
            let (o, nl) = (lines(&old), lines(&new));
            let prefix = o.iter().zip(&nl).take_while(|(a, b)| a == b).count();
            let room = o.len().min(nl.len()) - prefix;
            let suffix = o.iter().rev().zip(nl.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
            let (skip, tail) = (cut.0.min(prefix), cut.1.min(suffix));
            let (om, nm) = (&o[skip..o.len() - tail], &nl[skip..nl.len() - tail]);
            let within = shifted(&changes, skip);
            if let Some(found) = hunks(om, nm, &within) {
                proptest::prop_assert_eq!(rebuild(om, nm, &found), nm.to_vec());
            }
        }
    }
}
