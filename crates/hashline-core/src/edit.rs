//! The edit IR and the splice engine.
//!
//! Every dialect lowers its request to a list of [`Edit`]s addressed in **original** line numbers
//! (1-based, in the line model of [`crate::text`]); numbers never shift while one batch applies.
//! [`splice`] then builds the output as a list of [`OutLine`]s, so untouched lines keep their
//! exact bytes when encoded.
//!
//! Ordering (the hashline seed's rule, which the JSON dialects share — DEVIATIONS §3): each
//! original line `L` contributes, in request order within each group,
//! `[insert-before L] [rows of the replace starting at L] [L itself unless replaced] [insert-after L]`.
//! Head rows go before everything; tail rows go after everything, before the final empty line of
//! a newline-terminated file. A file that is exactly one empty line is replaced by head/tail rows.

use std::collections::BTreeMap;

use crate::text::OutLine;

/// Where an [`Edit`] lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EditKind {
    /// Replace original lines `start..=end` with the rows; no rows deletes them.
    Replace {
        /// First line, 1-based.
        start: usize,
        /// Last line, inclusive.
        end: usize,
    },
    /// Insert the rows before the original line.
    InsertBefore(usize),
    /// Insert the rows after the original line.
    InsertAfter(usize),
    /// Insert the rows at the start of the file.
    Head,
    /// Insert the rows at the end of the file (before its final newline).
    Tail,
}

/// One edit of the IR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// Where it lands.
    pub kind: EditKind,
    /// The new lines, without terminators.
    pub rows: Vec<String>,
    /// Index of the request item (hunk, op) this came from, for messages.
    pub origin: usize,
}

impl Edit {
    /// A replace (or, with no rows, a delete) of `start..=end`.
    pub fn replace(start: usize, end: usize, rows: Vec<String>, origin: usize) -> Edit {
        Edit {
            kind: EditKind::Replace { start, end },
            rows,
            origin,
        }
    }

    /// The original lines this edit needs to exist (its anchors), in order.
    pub fn anchor_lines(&self) -> Vec<usize> {
        match self.kind {
            EditKind::Replace { start, end } => (start..=end.max(start)).collect(),
            EditKind::InsertBefore(l) | EditKind::InsertAfter(l) => vec![l],
            EditKind::Head | EditKind::Tail => Vec::new(),
        }
    }
}

/// Why a batch cannot be spliced. Dialects validate first and report in their own words; this is
/// the engine's last line of defence, never a panic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpliceError {
    /// An anchor outside `1..=line_count`.
    #[error("Line {line} does not exist (file has {line_count} lines)")]
    LineOutOfRange {
        /// The offending line.
        line: usize,
        /// Lines in the file.
        line_count: usize,
    },
    /// A range whose end is before its start.
    #[error("range {start}..{end} ends before it starts.")]
    Reversed {
        /// Range start.
        start: usize,
        /// Range end.
        end: usize,
    },
}

#[derive(Default)]
struct Slot<'e> {
    before: Vec<&'e str>,
    replacement: Vec<&'e str>,
    after: Vec<&'e str>,
}

/// A stretch of a splice's output ([`splice_runs`]): original lines kept as they are, or one
/// new line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Run<'e> {
    /// Original lines `range` (0-based, end exclusive), in order.
    Kept(std::ops::Range<usize>),
    /// A new line; `like` as in [`OutLine::New`].
    New {
        /// The line's text, without terminator.
        text: &'e str,
        /// The original line whose ending (and code page) it takes, if any.
        like: Option<usize>,
    },
}

/// Apply `edits` to a file of `lines` (its LF lines, final empty piece included).
///
/// Returns the output lines in order. Bounds are checked for every anchor before anything is
/// built. Overlap policy is the dialect's: a line replaced twice is simply gone, and both
/// replacements start where their ranges start.
pub fn splice(lines: &[&str], edits: &[Edit]) -> Result<Vec<OutLine>, SpliceError> {
    Ok(out_lines(&splice_runs(lines, edits)?))
}

/// The output lines of `runs`, one per line.
pub(crate) fn out_lines(runs: &[Run<'_>]) -> Vec<OutLine> {
    let count = runs
        .iter()
        .map(|r| match r {
            Run::Kept(range) => range.len(),
            Run::New { .. } => 1,
        })
        .sum();
    let mut out = Vec::with_capacity(count);
    for run in runs {
        match run {
            Run::Kept(range) => out.extend(range.clone().map(OutLine::Kept)),
            Run::New { text, like } => out.push(OutLine::New {
                text: (*text).to_owned(),
                like: *like,
            }),
        }
    }
    out
}

/// [`splice`] as runs: consecutive kept lines are one [`Run::Kept`], new lines borrow the
/// edits' rows. A 100,000-line file with a few edits gives a few runs, not 100,000 lines.
pub fn splice_runs<'e>(lines: &[&str], edits: &'e [Edit]) -> Result<Vec<Run<'e>>, SpliceError> {
    let line_count = lines.len();
    for e in edits {
        if let EditKind::Replace { start, end } = e.kind {
            if end < start {
                return Err(SpliceError::Reversed { start, end });
            }
        }
        let (lo, hi) = match e.kind {
            EditKind::Replace { start, end } => (start, end),
            EditKind::InsertBefore(l) | EditKind::InsertAfter(l) => (l, l),
            EditKind::Head | EditKind::Tail => continue,
        };
        for line in [lo, hi] {
            if line == 0 || line > line_count {
                return Err(SpliceError::LineOutOfRange { line, line_count });
            }
        }
    }

    let mut slots: BTreeMap<usize, Slot<'e>> = BTreeMap::new();
    // Deleted ranges as (start, end) sorted; merged lazily while walking.
    let mut deleted: Vec<(usize, usize)> = Vec::new();
    let mut head: Vec<&'e str> = Vec::new();
    let mut tail: Vec<&'e str> = Vec::new();
    for e in edits {
        let rows = e.rows.iter().map(String::as_str);
        match e.kind {
            EditKind::Replace { start, end } => {
                slots.entry(start).or_default().replacement.extend(rows);
                deleted.push((start, end));
            }
            EditKind::InsertBefore(l) => slots.entry(l).or_default().before.extend(rows),
            EditKind::InsertAfter(l) => slots.entry(l).or_default().after.extend(rows),
            EditKind::Head => head.extend(rows),
            EditKind::Tail => tail.extend(rows),
        }
    }
    deleted.sort_unstable();

    let mut out = Runs {
        runs: Vec::with_capacity(2 * slots.len() + 2),
        dels: deleted.iter().peekable(),
        del_until: 0,
    };
    let new = |text: &'e str, like: Option<usize>| Run::New { text, like };
    let mut next_line = 1usize;
    for (&l, slot) in &slots {
        // Copy untouched lines before this slot.
        out.kept(next_line, l);
        out.runs.extend(slot.before.iter().map(|t| new(t, None)));
        out.runs
            .extend(slot.replacement.iter().map(|t| new(t, Some(l - 1))));
        out.kept(l, l + 1);
        out.runs.extend(slot.after.iter().map(|t| new(t, None)));
        next_line = l + 1;
    }
    out.kept(next_line, line_count + 1);
    let mut out = out.runs;

    if !head.is_empty() {
        if is_single_empty(&out, lines) {
            out.clear();
        }
        let mut with_head: Vec<Run<'e>> = head.iter().map(|t| new(t, None)).collect();
        with_head.append(&mut out);
        out = with_head;
    }
    if !tail.is_empty() {
        let rows = tail.iter().map(|t| new(t, None));
        if is_single_empty(&out, lines) {
            out.clear();
            out.extend(rows);
        } else if let Some(last) = pop_empty_last(&mut out, lines) {
            out.extend(rows);
            out.push(last);
        } else {
            out.extend(rows);
        }
    }
    Ok(out)
}

/// The runs being built, and the deleted ranges not yet passed.
struct Runs<'e, 'd> {
    runs: Vec<Run<'e>>,
    dels: std::iter::Peekable<std::slice::Iter<'d, (usize, usize)>>,
    /// Lines up to here (1-based) are deleted.
    del_until: usize,
}

impl Runs<'_, '_> {
    /// Keep the lines `from..to` (1-based) that no deleted range covers.
    fn kept(&mut self, from: usize, to: usize) {
        let mut line = from;
        while line < to {
            while let Some(&&(s, e)) = self.dels.peek() {
                if s <= line {
                    self.del_until = self.del_until.max(e);
                    self.dels.next();
                } else {
                    break;
                }
            }
            if line <= self.del_until {
                line = (self.del_until + 1).min(to);
                continue;
            }
            // Kept up to the next deleted range's start (or `to`).
            let stop = self.dels.peek().map_or(to, |&&(s, _)| s.min(to));
            let range = line - 1..stop - 1;
            match self.runs.last_mut() {
                Some(Run::Kept(last)) if last.end == range.start => last.end = range.end,
                _ => self.runs.push(Run::Kept(range)),
            }
            line = stop;
        }
    }
}

/// The text of a run that is one line.
fn one_line<'a>(run: &'a Run<'_>, lines: &[&'a str]) -> Option<&'a str> {
    match run {
        Run::Kept(r) if r.len() == 1 => Some(lines.get(r.start).copied().unwrap_or("")),
        Run::Kept(_) => None,
        Run::New { text, .. } => Some(text),
    }
}

fn is_single_empty(out: &[Run<'_>], lines: &[&str]) -> bool {
    matches!(out, [only] if one_line(only, lines).is_some_and(str::is_empty))
}

/// Take the last output line off `out` when it is empty (the piece after a final newline).
fn pop_empty_last<'e>(out: &mut Vec<Run<'e>>, lines: &[&str]) -> Option<Run<'e>> {
    match out.last_mut()? {
        Run::Kept(r) if r.start < r.end => {
            let last = r.end - 1;
            if !lines.get(last).copied().unwrap_or("").is_empty() {
                return None;
            }
            r.end = last;
            if r.start == r.end {
                out.pop();
            }
            Some(Run::Kept(last..last + 1))
        }
        Run::Kept(_) => None,
        Run::New { text: "", .. } => out.pop(),
        Run::New { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::TextFile;

    fn run(text: &str, edits: &[Edit]) -> String {
        let f = TextFile::from_text(text);
        let lines: Vec<&str> = f.lines().collect();
        let out = splice(&lines, edits).expect("splice");
        String::from_utf8(f.encode(&out)).expect("utf8")
    }

    fn rows(r: &[&str]) -> Vec<String> {
        r.iter().map(|s| s.to_string()).collect()
    }

    fn e(kind: EditKind, r: &[&str]) -> Edit {
        Edit {
            kind,
            rows: rows(r),
            origin: 0,
        }
    }

    #[test]
    fn seed_line_model_examples() {
        assert_eq!(
            run("a\nb\n", &[Edit::replace(3, 3, rows(&["c"]), 0)]),
            "a\nb\nc"
        );
        assert_eq!(run("a\nb\n", &[Edit::replace(3, 3, vec![], 0)]), "a\nb");
        assert_eq!(
            run("a\nb\n", &[e(EditKind::InsertAfter(3), &["X"])]),
            "a\nb\n\nX"
        );
        assert_eq!(
            run("a\nb\n", &[e(EditKind::InsertBefore(3), &["X"])]),
            "a\nb\nX\n"
        );
        assert_eq!(
            run("a\nb\n", &[e(EditKind::InsertAfter(2), &["X"])]),
            "a\nb\nX\n"
        );
        assert_eq!(run("a\nb\n", &[e(EditKind::Tail, &["X"])]), "a\nb\nX\n");
        assert_eq!(
            run("", &[e(EditKind::Head, &["X"]), e(EditKind::Tail, &["Y"])]),
            "X\nY"
        );
    }

    #[test]
    fn ordering_within_a_line() {
        let t = "a\nb\nc\nd\ne";
        assert_eq!(
            run(
                t,
                &[
                    Edit::replace(2, 2, rows(&["R"]), 0),
                    e(EditKind::InsertBefore(2), &["B"])
                ]
            ),
            "a\nB\nR\nc\nd\ne"
        );
        assert_eq!(
            run(
                t,
                &[
                    e(EditKind::InsertAfter(2), &["A"]),
                    e(EditKind::InsertBefore(3), &["B"])
                ]
            ),
            "a\nb\nA\nB\nc\nd\ne"
        );
        assert_eq!(
            run(
                t,
                &[
                    Edit::replace(2, 4, rows(&["X"]), 0),
                    e(EditKind::InsertAfter(3), &["Y"])
                ]
            ),
            "a\nX\nY\ne"
        );
    }

    #[test]
    fn bounds_are_checked() {
        let lines = ["a", ""];
        assert_eq!(
            splice(&lines, &[e(EditKind::InsertAfter(3), &["x"])]),
            Err(SpliceError::LineOutOfRange {
                line: 3,
                line_count: 2
            })
        );
        assert_eq!(
            splice(&lines, &[Edit::replace(2, 1, vec![], 0)]),
            Err(SpliceError::Reversed { start: 2, end: 1 })
        );
    }

    #[test]
    fn crlf_and_bom_survive() {
        let f = TextFile::decode(b"\xEF\xBB\xBFa\r\nb\r\n".to_vec());
        let lines: Vec<&str> = f.lines().collect();
        let out = splice(&lines, &[Edit::replace(1, 1, rows(&["A", "A2"]), 0)]).expect("splice");
        assert_eq!(f.encode(&out), b"\xEF\xBB\xBFA\r\nA2\r\nb\r\n");
    }

    proptest::proptest! {
        #[test]
        fn no_edits_is_identity(text in "[ab\\n\\r]{0,40}") {
            let f = TextFile::from_text(&text);
            let lines: Vec<&str> = f.lines().collect();
            let out = splice(&lines, &[]).expect("splice");
            proptest::prop_assert_eq!(f.encode(&out), text.as_bytes());
        }

        #[test]
        fn splice_never_panics(text in "[ab\\n]{0,20}", s in 0usize..8, len in 0usize..4, kind in 0u8..5) {
            let f = TextFile::from_text(&text);
            let lines: Vec<&str> = f.lines().collect();
            let k = match kind {
                0 => EditKind::Replace { start: s, end: s + len },
                1 => EditKind::InsertBefore(s),
                2 => EditKind::InsertAfter(s),
                3 => EditKind::Head,
                _ => EditKind::Tail,
            };
            let _ = splice(&lines, &[Edit { kind: k, rows: vec!["x".into()], origin: 0 }]);
        }
    }
}
