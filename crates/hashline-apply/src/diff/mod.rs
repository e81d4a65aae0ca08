//! Line diffs and what is built on them.
//!
//! * [`line_hunks`]: the changed regions between two texts in the shared line model (split on
//!   `\n`, final empty piece included), computed with imara-diff's histogram algorithm.
//! * [`provenance`]: the output of a whole-text rewrite as [`OutLine`]s, so untouched lines keep
//!   their bytes and endings (used by dialects that compute a new text rather than line edits).
//! * [`unified`]: a standard unified diff (3 lines of context) for reports and `--dry-run`.
//! * [`numbered`] / [`compact_preview`]: the hashline seed's numbered diff (`generateDiffString`)
//!   and the compact preview built from it (`buildCompactDiffPreview`).

mod chunked;
mod hinted;
mod numbered;
mod unified;

use std::ops::Range;

use hashline_core::{LineChange, OutLine, Pieces, TextFile};
use imara_diff::{Algorithm, Diff, InternedInput};

pub use numbered::{compact_preview, first_change_in, first_changed_line, numbered};
pub use unified::unified;

/// One changed region of a line diff: `old` lines were replaced by `new` lines (0-based,
/// half-open). A pure insertion has an empty `old` range positioned where the lines go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffHunk {
    /// Lines of the old text, 0-based, half-open.
    pub old: Range<usize>,
    /// Lines of the new text, 0-based, half-open.
    pub new: Range<usize>,
}

/// One diff of two texts in the seed's line model (each line keeps its `\n`; the empty piece
/// after a final newline is no line), computed once and rendered as the [`numbered`] diff, the
/// [`unified`] diff and the [`first_changed_line`]: a report that shows more than one of them
/// diffs the texts once.
pub struct LineDiff<'a> {
    /// The lines around the changes (the common prefix and suffix cut off).
    trimmed: Trimmed<'a>,
    /// The changed regions, relative to `trimmed`.
    hunks: Vec<DiffHunk>,
}

impl<'a> LineDiff<'a> {
    /// The diff of `old` → `new`.
    pub fn of(old: &'a str, new: &'a str) -> LineDiff<'a> {
        LineDiff::of_changed(old, new, None)
    }

    /// The diff of `old` → `new` whose edits changed the stretches `changes` (in the
    /// `\n`-split model of the texts): when the lines between the common prefix and suffix are
    /// many (a patch of hunks all over a big file), only the windows around the stretches are
    /// diffed, once the texts are found to agree everywhere else (else, or for a short middle,
    /// as [`LineDiff::of`]).
    pub fn of_changed(old: &'a str, new: &'a str, changes: Option<&[LineChange]>) -> LineDiff<'a> {
        LineDiff::of_pieces(&Pieces::whole(old), &Pieces::whole(new), changes)
    }

    /// [`LineDiff::of_changed`] of texts held in pieces (a spliced new text is never joined:
    /// its lines are slices of its parts).
    pub fn of_pieces(
        old: &Pieces<'a>,
        new: &Pieces<'a>,
        changes: Option<&[LineChange]>,
    ) -> LineDiff<'a> {
        let trimmed = Trimmed::of(|| old.lines(), || new.lines());
        let long = trimmed.old.len().max(trimmed.new.len()) > CHUNK_THRESHOLD;
        if let Some(changes) = changes.filter(|_| long) {
            let (o, n) = (&trimmed.old, &trimmed.new);
            let within = hinted::shifted(changes, trimmed.skip);
            if let Some(hunks) = hinted::hunks(o, n, &within) {
                return LineDiff { trimmed, hunks };
            }
        }
        let hunks = hunks_of(&trimmed.old, &trimmed.new);
        LineDiff { trimmed, hunks }
    }

    /// The seed's numbered diff ([`numbered`]).
    pub fn numbered(&self) -> String {
        numbered::render(self)
    }

    /// The unified diff for `path` ([`unified`]); empty when the texts are equal.
    pub fn unified(&self, path: &str) -> String {
        unified::render(self, path)
    }

    /// The first changed line of the new text, 1-based ([`first_changed_line`]); `None` when
    /// the texts are equal.
    pub fn first_changed_line(&self) -> Option<usize> {
        self.hunks
            .first()
            .map(|h| self.trimmed.skip + h.new.start + 1)
    }
}

/// Changed regions between `old` and `new`, both split on `\n` with the final empty piece kept
/// (the line model of [`hashline_core::text`]). Hunks are in increasing order.
pub fn line_hunks(old: &str, new: &str) -> Vec<DiffHunk> {
    line_hunks_of(&Pieces::whole(old), &Pieces::whole(new))
}

/// [`line_hunks`] of texts held in pieces.
pub fn line_hunks_of(old: &Pieces<'_>, new: &Pieces<'_>) -> Vec<DiffHunk> {
    let t = Trimmed::of(|| old.lf_lines(), || new.lf_lines());
    t.shift(hunks_of(&t.old, &t.new))
}

/// The lines of two texts between their common prefix and suffix (each less [`TRIM_MARGIN`]
/// lines), as [`hunks_of`] would diff them, found without collecting the rest: a one-line edit
/// of a 100 MB file collects a few hundred lines, not millions.
pub(crate) struct Trimmed<'a> {
    /// Common lines cut off at the start.
    pub skip: usize,
    /// The old text's lines from `skip` on, up to the common suffix's cut.
    pub old: Vec<&'a str>,
    /// The new text's lines from `skip` on, up to the common suffix's cut.
    pub new: Vec<&'a str>,
}

impl<'a> Trimmed<'a> {
    /// The lines `old()` and `new()` walk (each call a fresh walk of one text in a line
    /// model), trimmed.
    pub fn of<I, J>(old: impl Fn() -> I, new: impl Fn() -> J) -> Trimmed<'a>
    where
        I: DoubleEndedIterator<Item = &'a str>,
        J: DoubleEndedIterator<Item = &'a str>,
    {
        let (n_old, n_new) = (old().count(), new().count());
        let prefix = old().zip(new()).take_while(|(a, b)| same(a, b)).count();
        let room = n_old.min(n_new) - prefix;
        let suffix = old()
            .rev()
            .zip(new().rev())
            .take(room)
            .take_while(|(a, b)| same(a, b))
            .count();
        let skip = prefix.saturating_sub(TRIM_MARGIN);
        let tail = suffix.saturating_sub(TRIM_MARGIN);
        // Sized up front: a collect of a skipped walk would grow by reallocation.
        let mut old_mid = Vec::with_capacity(n_old - skip - tail);
        old_mid.extend(old().skip(skip).take(n_old - skip - tail));
        let mut new_mid = Vec::with_capacity(n_new - skip - tail);
        new_mid.extend(new().skip(skip).take(n_new - skip - tail));
        Trimmed {
            skip,
            old: old_mid,
            new: new_mid,
        }
    }

    /// `hunks` of the trimmed lines in the whole texts' numbering.
    pub fn shift(&self, hunks: Vec<DiffHunk>) -> Vec<DiffHunk> {
        shifted(hunks, self.skip)
    }
}

/// Whether two lines are equal: the same slice (a kept line of a spliced text is the old
/// text's own) without comparing bytes, else by their bytes.
pub(crate) fn same(a: &str, b: &str) -> bool {
    std::ptr::eq(a, b) || a == b
}

/// `hunks` moved down by `skip` lines on both sides.
fn shifted(hunks: Vec<DiffHunk>, skip: usize) -> Vec<DiffHunk> {
    hunks
        .into_iter()
        .map(|h| DiffHunk {
            old: skip + h.old.start..skip + h.old.end,
            new: skip + h.new.start..skip + h.new.end,
        })
        .collect()
}

/// Lines of unchanged context kept on each side of the changed middle when a long common
/// prefix and suffix are cut off before diffing, so the slider heuristics of
/// `postprocess_lines` see the same neighbourhood they would in the whole file.
const TRIM_MARGIN: usize = 256;

/// Changed regions between two line lists (any tokenization the caller chose).
///
/// The common prefix and suffix (less [`TRIM_MARGIN`] lines) are cut off first: interning
/// every line of a 100 MB file costs far more than diffing the few lines an edit touched. A
/// middle still longer than [`CHUNK_THRESHOLD`] lines is diffed piecewise between points where
/// the texts agree again ([`chunked`]), which keeps runs of identical lines linear.
pub(crate) fn hunks_of(old: &[&str], new: &[&str]) -> Vec<DiffHunk> {
    let common_prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let max_suffix = old.len().min(new.len()) - common_prefix;
    let common_suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    let skip = common_prefix.saturating_sub(TRIM_MARGIN);
    let tail = common_suffix.saturating_sub(TRIM_MARGIN);
    let old_mid = &old[skip..old.len() - tail];
    let new_mid = &new[skip..new.len() - tail];
    let hunks = if old_mid.len().max(new_mid.len()) > CHUNK_THRESHOLD {
        chunked::hunks(old_mid, new_mid, imara_hunks)
    } else {
        imara_hunks(old_mid, new_mid)
    };
    shifted(hunks, skip)
}

/// Lines (on either side, after trimming) above which a middle is diffed piecewise.
const CHUNK_THRESHOLD: usize = 20_000;

/// Lines (on either side) above which a window is cut at lines unique in both texts before
/// imara-diff sees it; the pieces it is cut into are at least [`PIECE`] lines long.
const CUT_ABOVE: usize = 4096;

/// Lines of a piece of a cut window (on either side), at least. The histogram diff of a piece
/// whose common runs are all one line long costs the piece's length per line, so this bounds
/// the work per line: 1,024 made it 27,000 instructions a line of `find_lcs` alone (a stale
/// edit over 80,000 lines changed every other line: 4.8 billion instructions in all).
const PIECE: usize = 64;

/// imara-diff's histogram diff of two line lists, with its line post-processing; a window
/// over [`CUT_ABOVE`] lines is first cut into pieces at lines that occur once in each text
/// and pair up in order (patience anchors), each piece diffed on its own.
///
/// The histogram diff splits a region at its longest common run and recurses on both sides,
/// scanning the region each time: when every common run is one line long (an outside change
/// on every other line of a file) each step splits off one line, quadratic in the window (a
/// stale edit over 40,000 such lines took 7.5 s, x4.9 per doubling). A line unique in both
/// texts on the longest chain of such pairs is what the histogram diff itself anchors on
/// first; cutting there bounds each piece, so the work is linear in the window (times
/// [`PIECE`], a small constant). A unique line cannot be slid over (a slider needs its copy
/// next to the hunk), so the cuts leave the slider heuristics' choices alone. Any alignment of equal lines is a valid diff, so the result still turns `old`
/// into `new`; windows up to [`CUT_ABOVE`] lines (every everyday edit) are diffed whole, as
/// before.
fn imara_hunks(old: &[&str], new: &[&str]) -> Vec<DiffHunk> {
    cut_hunks(old, new, &mut imara_whole)
}

/// How one piece of a cut window is diffed ([`imara_whole`] in production).
type PieceDiff<'f> = dyn FnMut(&[&str], &[&str]) -> Vec<DiffHunk> + 'f;

/// [`imara_hunks`] with the diff of each piece given.
fn cut_hunks(old: &[&str], new: &[&str], imara_whole: &mut PieceDiff<'_>) -> Vec<DiffHunk> {
    if old.len().max(new.len()) <= CUT_ABOVE {
        return imara_whole(old, new);
    }
    let mut out = Vec::new();
    // The hunks of the piece starting at `a` in old and `b` in new, in whole-text lines.
    let mut piece = |out: &mut Vec<DiffHunk>, a: usize, b: usize, old: &[&str], new: &[&str]| {
        out.extend(imara_whole(old, new).into_iter().map(|h| DiffHunk {
            old: a + h.old.start..a + h.old.end,
            new: b + h.new.start..b + h.new.end,
        }));
    };
    let (mut a, mut b) = (0usize, 0usize);
    for (i, j) in unique_chain(old, new) {
        if (i - a).max(j - b) < PIECE {
            continue;
        }
        piece(&mut out, a, b, &old[a..i], &new[b..j]);
        // The anchor itself is equal on both sides.
        (a, b) = (i + 1, j + 1);
    }
    piece(&mut out, a, b, &old[a..], &new[b..]);
    out
}

/// The longest chain of pairs (old index, new index), increasing on both sides, of lines
/// that occur exactly once in `old` and once in `new` (patience sorting: O(k log k) for k such
/// lines).
fn unique_chain(old: &[&str], new: &[&str]) -> Vec<(usize, usize)> {
    // Per line text: copies in old, copies in new, its index in old and in new.
    let mut seen: std::collections::HashMap<
        &str,
        (u32, u32, usize, usize),
        foldhash::fast::RandomState,
    > = std::collections::HashMap::with_capacity_and_hasher(
        old.len().max(new.len()),
        foldhash::fast::RandomState::default(),
    );
    for (i, l) in old.iter().enumerate() {
        let e = seen.entry(l).or_insert((0, 0, i, 0));
        e.0 = e.0.saturating_add(1);
    }
    for (j, l) in new.iter().enumerate() {
        if let Some(e) = seen.get_mut(l) {
            e.1 = e.1.saturating_add(1);
            e.3 = j;
        }
    }
    // In old order: the new index of each unique pair.
    let pairs: Vec<(usize, usize)> = old
        .iter()
        .filter_map(|l| match seen.get(l) {
            Some(&(1, 1, i, j)) => Some((i, j)),
            _ => None,
        })
        .collect();
    // tails[k]: the index in `pairs` ending the best chain of length k + 1 found so far.
    let mut tails: Vec<usize> = Vec::new();
    let mut before: Vec<Option<usize>> = vec![None; pairs.len()];
    for (p, &(_, j)) in pairs.iter().enumerate() {
        let k = tails.partition_point(|&t| pairs[t].1 < j);
        before[p] = k.checked_sub(1).map(|k| tails[k]);
        if k == tails.len() {
            tails.push(p);
        } else {
            tails[k] = p;
        }
    }
    let mut chain = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied();
    while let Some(p) = at {
        chain.push(pairs[p]);
        at = before[p];
    }
    chain.reverse();
    chain
}

/// imara-diff's histogram diff of two line lists, with its line post-processing.
fn imara_whole(old: &[&str], new: &[&str]) -> Vec<DiffHunk> {
    let mut input: InternedInput<&str> = InternedInput::default();
    input.update_before(old.iter().copied());
    input.update_after(new.iter().copied());
    let mut diff = Diff::compute(Algorithm::Histogram, &input);
    diff.postprocess_lines(&input);
    diff.hunks()
        .map(|h| DiffHunk {
            old: h.before.start as usize..h.before.end as usize,
            new: h.after.start as usize..h.after.end as usize,
        })
        .collect()
}

/// Describe `new_text` (LF-normalized) as lines of `file`: lines the diff leaves unchanged are
/// [`OutLine::Kept`] (their bytes and endings survive), changed or added lines are
/// [`OutLine::New`], taking the ending of the old line at the same position of the replaced
/// region when there is one.
pub fn provenance(file: &TextFile, new_text: &str) -> Vec<OutLine> {
    let old_lines: Vec<&str> = file.line_slices();
    let new_lines: Vec<&str> = new_text.split('\n').collect();
    let hunks = hunks_of(&old_lines, &new_lines);
    let mut out = Vec::with_capacity(new_lines.len());
    let mut old_pos = 0usize;
    let mut new_pos = 0usize;
    for h in hunks.iter().chain(std::iter::once(&DiffHunk {
        old: old_lines.len()..old_lines.len(),
        new: new_lines.len()..new_lines.len(),
    })) {
        // Unchanged run before this hunk: same length on both sides.
        while new_pos < h.new.start && old_pos < h.old.start {
            out.push(OutLine::Kept(old_pos));
            old_pos += 1;
            new_pos += 1;
        }
        for (k, text) in new_lines[h.new.clone()].iter().enumerate() {
            let like = (k < h.old.len()).then_some(h.old.start + k);
            out.push(OutLine::New {
                text: (*text).to_string(),
                like,
            });
        }
        old_pos = h.old.end;
        new_pos = h.new.end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::chunked::tests::rebuild;

    #[test]
    fn a_change_on_every_other_line_is_diffed_in_bounded_pieces() {
        // 50,000 distinct lines, every second one changed: one-line common runs only, which
        // the histogram diff takes quadratically as one window.
        let old: Vec<String> = (0..50_000).map(|k| format!("line {k}")).collect();
        let new: Vec<String> = old
            .iter()
            .enumerate()
            .map(|(k, l)| {
                if k % 2 == 1 {
                    format!("{l} changed")
                } else {
                    l.clone()
                }
            })
            .collect();
        let old: Vec<&str> = old.iter().map(String::as_str).collect();
        let new: Vec<&str> = new.iter().map(String::as_str).collect();
        let (mut widest, mut total) = (0usize, 0usize);
        let hunks = cut_hunks(&old, &new, &mut |a, b| {
            widest = widest.max(a.len().max(b.len()));
            total += a.len() + b.len();
            imara_whole(a, b)
        });
        // The histogram diff costs a piece's length per line on this input: a wide piece is
        // a large constant per line (1,024-line pieces: 27,000 instructions a line).
        assert!(widest <= 2 * 64 + 2, "a piece of {widest} lines");
        assert!(widest <= PIECE + 2, "a piece of {widest} lines");
        assert!(total <= old.len() + new.len(), "{total} lines diffed");
        assert_eq!(rebuild(&old, &new, &hunks), new);
        assert_eq!(hunks.len(), 25_000);
        assert!(hunks.iter().all(|h| h.old.len() == 1 && h.new.len() == 1));
    }

    #[test]
    fn hunks_in_line_model() {
        assert_eq!(
            line_hunks("a\nb\nc", "a\nB\nc"),
            vec![DiffHunk {
                old: 1..2,
                new: 1..2
            }]
        );
        assert_eq!(
            line_hunks("a\nb", "a\nb\n"),
            vec![DiffHunk {
                old: 2..2,
                new: 2..3
            }]
        );
        assert!(line_hunks("same\n", "same\n").is_empty());
        assert_eq!(
            line_hunks("", "x"),
            vec![DiffHunk {
                old: 0..1,
                new: 0..1
            }]
        );
    }

    #[test]
    fn long_common_prefix_and_suffix_are_cut_without_moving_hunks() {
        let old: Vec<String> = (0..2000).map(|i| format!("line {i}")).collect();
        let mut new = old.clone();
        new[700] = "changed".to_string();
        new.insert(1500, "inserted".to_string());
        let (old, new) = (old.join("\n"), new.join("\n"));
        assert_eq!(
            line_hunks(&old, &new),
            vec![
                DiffHunk {
                    old: 700..701,
                    new: 700..701
                },
                DiffHunk {
                    old: 1500..1500,
                    new: 1500..1501
                }
            ]
        );
        // A run of identical lines next to the change: the slider sees it within the margin.
        let old = format!("{}\n{}", "same\n".repeat(1000), "tail");
        let new = format!("{}\n{}", "same\n".repeat(1001), "tail");
        let hunks = line_hunks(&old, &new);
        assert_eq!(hunks.len(), 1);
        assert_eq!(hunks[0].new.len(), 1);
        assert!(hunks[0].old.is_empty());
    }

    #[test]
    fn a_big_file_is_diffed_around_the_stretches_it_is_told() {
        let old: String = (0..100_000).map(|i| format!("line {i}\n")).collect();
        let file = TextFile::from_text(&old);
        let lines = file.line_slices();
        let edits: Vec<hashline_core::Edit> = (0..300)
            .map(|k| {
                hashline_core::Edit::replace(k * 200 + 5, k * 200 + 5, vec![format!("new {k}")], 0)
            })
            .collect();
        let new = file.render_text(&hashline_core::splice(&lines, &edits).expect("splice"));
        let changes = LineChange::of_edits(&edits, 100_000);
        let told = LineDiff::of_changed(&old, &new, Some(&changes));
        let whole = LineDiff::of(&old, &new);
        assert_eq!(told.hunks.len(), 300);
        assert_eq!(told.numbered(), whole.numbered());
        assert_eq!(told.unified("p"), whole.unified("p"));
        assert_eq!(told.first_changed_line(), Some(5));
        // A claim that does not hold is not trusted: the whole texts are diffed.
        let wrong = LineChange::of_edits(&edits[1..], 100_000);
        let fallback = LineDiff::of_changed(&old, &new, Some(&wrong));
        assert_eq!(fallback.numbered(), whole.numbered());
    }

    #[test]
    fn provenance_keeps_untouched_bytes() {
        let f = TextFile::decode(b"a\r\nb\nc\r\nd\n".to_vec());
        let out = provenance(&f, "a\nB\nX\nc\nd\n");
        assert_eq!(f.encode(&out), b"a\r\nB\nX\r\nc\r\nd\n");
        assert_eq!(out[0], OutLine::Kept(0));
        assert_eq!(
            out[1],
            OutLine::New {
                text: "B".into(),
                like: Some(1)
            }
        );
        assert_eq!(
            out[2],
            OutLine::New {
                text: "X".into(),
                like: None
            }
        );
    }

    #[test]
    fn provenance_identity_and_empty() {
        let f = TextFile::decode(b"x\ry\r".to_vec());
        assert_eq!(provenance(&f, f.text()), f.identity());
        let e = TextFile::from_text("");
        assert_eq!(e.encode(&provenance(&e, "q\n")), b"q\n");
    }

    proptest::proptest! {
        #[test]
        fn provenance_renders_the_new_text(old in "[abc\\n]{0,24}", new in "[abcd\\n]{0,24}") {
            let f = TextFile::from_text(&old);
            let out = provenance(&f, &new);
            proptest::prop_assert_eq!(f.render_text(&out), new.clone());
            proptest::prop_assert_eq!(f.encode(&out), new.into_bytes());
        }
    }
}
