//! Splitting a large diff into small ones at resynchronisation points.
//!
//! imara-diff's Myers preprocessing rescans from a fixed index for every line that is very
//! common in both texts (its `should_prune_common_line`), so a long run of identical lines (a
//! data file, a padded table) costs quadratic time: one replaced line in the middle of a 100 MB
//! file of repeated rows took ten minutes. Edits touch few places, so a large middle is walked
//! here instead: equal lines are skipped in step, and at each difference the nearest point where
//! [`SYNC_RUN`] lines agree again is found with window hashes. Only the stretch between (plus
//! [`SYNC_RUN`] lines of agreed context on each side, for imara-diff's slider heuristics) is
//! diffed. Any alignment of equal lines is a valid diff, so the result always turns `old` into
//! `new`; small inputs never come here and keep imara-diff's exact output.

use std::collections::HashMap;

use super::DiffHunk;

/// How one window is diffed (imara-diff in production).
pub(super) type WindowDiff = fn(&[&str], &[&str]) -> Vec<DiffHunk>;

/// Lines that must agree, in step, for the two texts to count as back in sync.
pub(super) const SYNC_RUN: usize = 32;

/// The shorter agreement accepted when [`SYNC_RUN`] lines never agree nearby (edits every few
/// lines over a whole file: without it every difference searched [`SYNC_SEARCH`] lines and the
/// rest of the file went to imara-diff whole, quadratic for 100,000 hunks).
pub(super) const SHORT_RUN: usize = 4;

/// How far past a difference (in lines, on each side) a resynchronisation point is searched
/// before the rest of both texts is handed to imara-diff whole.
const SYNC_SEARCH: usize = 1 << 16;

/// Changed regions between `old` and `new` (no common prefix or suffix trimmed yet required),
/// computed as a sequence of small diffs, each by `diff_window`.
pub(super) fn hunks(old: &[&str], new: &[&str], diff_window: WindowDiff) -> Vec<DiffHunk> {
    let sides = Sides {
        old,
        new,
        old_hash: old.iter().map(|l| line_hash(l)).collect(),
        new_hash: new.iter().map(|l| line_hash(l)).collect(),
    };
    let mut out = Vec::new();
    // Both texts agree on every line before (i, j) that no emitted hunk covers.
    let (mut i, mut j) = (0usize, 0usize);
    // Where the last diffed window ended: context may not reach back before it.
    let (mut done_i, mut done_j) = (0usize, 0usize);
    loop {
        while i < old.len() && j < new.len() && old[i] == new[j] {
            i += 1;
            j += 1;
        }
        if i == old.len() && j == new.len() {
            return out;
        }
        let back = (i - done_i).min(j - done_j).min(SYNC_RUN);
        let (start_i, start_j) = (i - back, j - back);
        let Some((end_i, end_j)) = sides.resync(i, j) else {
            push(
                &mut out,
                diff_window,
                old,
                new,
                start_i..old.len(),
                start_j..new.len(),
            );
            return out;
        };
        push(
            &mut out,
            diff_window,
            old,
            new,
            start_i..end_i,
            start_j..end_j,
        );
        (i, j) = (end_i, end_j);
        (done_i, done_j) = (end_i, end_j);
    }
}

/// Diff `old[a]` against `new[b]` and append its hunks, shifted to whole-text positions.
fn push(
    out: &mut Vec<DiffHunk>,
    diff_window: WindowDiff,
    old: &[&str],
    new: &[&str],
    a: std::ops::Range<usize>,
    b: std::ops::Range<usize>,
) {
    for h in diff_window(&old[a.clone()], &new[b.clone()]) {
        out.push(DiffHunk {
            old: a.start + h.old.start..a.start + h.old.end,
            new: b.start + h.new.start..b.start + h.new.end,
        });
    }
}

/// Window hash → how many of its first starts are kept (at most four), and those starts.
type Firsts = HashMap<u64, (u8, [usize; 4]), foldhash::fast::RandomState>;

/// Both texts with the hash of every line.
struct Sides<'s, 'a> {
    old: &'s [&'a str],
    new: &'s [&'a str],
    old_hash: Vec<u64>,
    new_hash: Vec<u64>,
}

impl Sides<'_, '_> {
    /// The end of the nearest agreement after the difference at (`i`, `j`): positions
    /// (`i + di + run`, `j + dj + run`) such that the `run` lines before them agree, with
    /// `di + dj` smallest (`di == dj` first among equals: a replacement reads better than an
    /// insertion plus a deletion); `run` is [`SYNC_RUN`], or [`SHORT_RUN`] when no run that long
    /// agrees within the same reach. The search widens from 64 lines up to [`SYNC_SEARCH`];
    /// `None` when no such point exists within it.
    fn resync(&self, i: usize, j: usize) -> Option<(usize, usize)> {
        let mut reach = 64usize;
        loop {
            for run in [SYNC_RUN, SHORT_RUN] {
                if let Some((di, dj)) = self.resync_within(i, j, reach, run) {
                    return Some((i + di + run, j + dj + run));
                }
            }
            let exhausted = i + reach >= self.old.len() && j + reach >= self.new.len();
            if exhausted || reach >= SYNC_SEARCH {
                return None;
            }
            reach *= 4;
        }
    }

    /// [`Sides::resync`] with both offsets below `reach`, for agreements of `run` lines.
    fn resync_within(
        &self,
        i: usize,
        j: usize,
        reach: usize,
        run: usize,
    ) -> Option<(usize, usize)> {
        // Windows of `run` line hashes starting at i + di: the first (smallest) four di per
        // window, kept inline (no allocation per window: a search that finds nothing on a
        // 20,000-line file built some 80,000 of these lists).
        let old_windows = window_hashes(&self.old_hash, i, reach, run);
        let mut first: Firsts = HashMap::with_capacity_and_hasher(
            old_windows.len(),
            foldhash::fast::RandomState::default(),
        );
        for (di, w) in old_windows.iter().enumerate() {
            let (len, list) = first.entry(*w).or_insert((0, [0; 4]));
            if let Some(slot) = list.get_mut(usize::from(*len)) {
                *slot = di;
                *len += 1;
            }
        }
        let mut best: Option<(usize, usize)> = None;
        let cost = |(di, dj): (usize, usize)| (di + dj, di.abs_diff(dj));
        for (dj, w) in window_hashes(&self.new_hash, j, reach, run)
            .iter()
            .enumerate()
        {
            if best.is_some_and(|b| dj > cost(b).0) {
                break;
            }
            let Some((len, list)) = first.get(w) else {
                continue;
            };
            for &di in list.iter().take(usize::from(*len)) {
                let agree = self.old[i + di..i + di + run] == self.new[j + dj..j + dj + run];
                if agree && best.is_none_or(|b| cost((di, dj)) < cost(b)) {
                    best = Some((di, dj));
                }
            }
        }
        best
    }
}

/// Hashes of the windows of `run` lines starting at `from`, `from + 1`, … (at most `reach` of
/// them, fewer near the end).
fn window_hashes(line_hash: &[u64], from: usize, reach: usize, run: usize) -> Vec<u64> {
    let Some(last_start) = line_hash.len().checked_sub(run) else {
        return Vec::new();
    };
    if from > last_start {
        return Vec::new();
    }
    let count = (last_start - from + 1).min(reach);
    // A polynomial rolling hash (wrapping, odd base): each next window in O(1), not O(run).
    // Equal hashes are only candidates; the lines themselves are compared before use.
    const BASE: u64 = 0x9e37_79b9_7f4a_7c15;
    let top = (1..run).fold(1u64, |p, _| p.wrapping_mul(BASE));
    let mut out = Vec::with_capacity(count);
    let Some(first) = line_hash.get(from..from + run) else {
        return out;
    };
    let mut h = first
        .iter()
        .fold(0u64, |acc, x| acc.wrapping_mul(BASE).wrapping_add(*x));
    out.push(h);
    for s in from + 1..from + count {
        let (Some(gone), Some(new)) = (line_hash.get(s - 1), line_hash.get(s + run - 1)) else {
            break;
        };
        h = h
            .wrapping_sub(gone.wrapping_mul(top))
            .wrapping_mul(BASE)
            .wrapping_add(*new);
        out.push(h);
    }
    out
}

fn line_hash(line: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(line.as_bytes())
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A plain LCS-free reference: every differing stretch as one hunk (valid, not minimal).
    fn naive(old: &[&str], new: &[&str]) -> Vec<DiffHunk> {
        if old == new {
            Vec::new()
        } else {
            vec![DiffHunk {
                old: 0..old.len(),
                new: 0..new.len(),
            }]
        }
    }

    /// Apply `hunks` to `old`, checking that the hunks are in order and the lines between
    /// them agree (also the diff module's tests use it).
    pub(in crate::diff) fn rebuild<'a>(
        old: &[&'a str],
        new: &[&'a str],
        hunks: &[DiffHunk],
    ) -> Vec<&'a str> {
        let mut out = Vec::new();
        let (mut i, mut j) = (0, 0);
        for h in hunks {
            assert!(
                h.old.start >= i && h.new.start >= j,
                "hunks in order: {hunks:?}"
            );
            assert_eq!(h.old.start - i, h.new.start - j, "equal stretches pair up");
            out.extend_from_slice(&old[i..h.old.start]);
            assert_eq!(&old[i..h.old.start], &new[j..h.new.start]);
            out.extend_from_slice(&new[h.new.clone()]);
            (i, j) = (h.old.end, h.new.end);
        }
        assert_eq!(&old[i..], &new[j..]);
        out.extend_from_slice(&old[i..]);
        out
    }

    #[test]
    fn one_replaced_line_among_identical_lines_stays_local() {
        let old: Vec<&str> = vec!["row"; 200_000];
        let mut new = old.clone();
        new[100_000] = "changed";
        new.push("tail");
        let hunks = hunks(&old, &new, naive);
        assert_eq!(rebuild(&old, &new, &hunks), new);
        let touched: usize = hunks.iter().map(|h| h.old.len() + h.new.len()).sum();
        assert!(touched < 300, "{hunks:?}");
    }

    proptest::proptest! {
        /// Whatever the texts, the pieces compose to a diff that turns `old` into `new`.
        #[test]
        fn pieces_compose_to_a_valid_diff(
            old in proptest::collection::vec(0u8..4, 0..400),
            edits in proptest::collection::vec((0usize..400, 0usize..40, proptest::collection::vec(0u8..6, 0..40)), 0..6),
        ) {
            let mut new = old.clone();
            for (at, len, with) in edits {
                let at = at.min(new.len());
                let end = (at + len).min(new.len());
                new.splice(at..end, with);
            }
            let words = ["a", "b", "", "}", "x", "y"];
            let old: Vec<&str> = old.iter().map(|k| words[*k as usize]).collect();
            let new: Vec<&str> = new.iter().map(|k| words[*k as usize]).collect();
            let hunks = hunks(&old, &new, crate::diff::imara_hunks);
            proptest::prop_assert_eq!(rebuild(&old, &new, &hunks), new);
        }
    }

    #[test]
    fn rolling_window_hashes_equal_a_fresh_hash_of_each_window() {
        let hashes: Vec<u64> = (0..200u64)
            .map(|k| line_hash(&format!("l{}", k % 7)))
            .collect();
        for run in [1, 4, 32] {
            let rolled = window_hashes(&hashes, 10, 100, run);
            assert_eq!(rolled.len(), 100);
            for (k, h) in rolled.iter().enumerate() {
                let fresh = window_hashes(&hashes, 10 + k, 1, run);
                assert_eq!(fresh, vec![*h], "run {run}, window {k}");
            }
        }
        assert!(window_hashes(&hashes, 190, 64, 32).is_empty());
        assert_eq!(window_hashes(&hashes, 160, 64, 32).len(), 9);
    }

    #[test]
    fn a_rewrite_without_agreement_falls_back_to_one_window() {
        let old: Vec<String> = (0..500).map(|k| format!("old {k}")).collect();
        let new: Vec<String> = (0..700).map(|k| format!("new {k}")).collect();
        let old: Vec<&str> = old.iter().map(String::as_str).collect();
        let new: Vec<&str> = new.iter().map(String::as_str).collect();
        let hunks = hunks(&old, &new, naive);
        assert_eq!(rebuild(&old, &new, &hunks), new);
    }
}
