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
struct Slot {
    before: Vec<String>,
    replacement: Vec<String>,
    after: Vec<String>,
}

/// Apply `edits` to a file of `lines` (its LF lines, final empty piece included).
///
/// Returns the output lines in order. Bounds are checked for every anchor before anything is
/// built. Overlap policy is the dialect's: a line replaced twice is simply gone, and both
/// replacements start where their ranges start.
pub fn splice(lines: &[&str], edits: &[Edit]) -> Result<Vec<OutLine>, SpliceError> {
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

    let mut slots: BTreeMap<usize, Slot> = BTreeMap::new();
    // Deleted ranges as (start, end) sorted; merged lazily while walking.
    let mut deleted: Vec<(usize, usize)> = Vec::new();
    let mut head: Vec<String> = Vec::new();
    let mut tail: Vec<String> = Vec::new();
    for e in edits {
        match e.kind {
            EditKind::Replace { start, end } => {
                slots
                    .entry(start)
                    .or_default()
                    .replacement
                    .extend(e.rows.iter().cloned());
                deleted.push((start, end));
            }
            EditKind::InsertBefore(l) => slots
                .entry(l)
                .or_default()
                .before
                .extend(e.rows.iter().cloned()),
            EditKind::InsertAfter(l) => slots
                .entry(l)
                .or_default()
                .after
                .extend(e.rows.iter().cloned()),
            EditKind::Head => head.extend(e.rows.iter().cloned()),
            EditKind::Tail => tail.extend(e.rows.iter().cloned()),
        }
    }
    deleted.sort_unstable();

    let mut out: Vec<OutLine> = Vec::with_capacity(line_count + 16);
    let new = |text: &String, like: Option<usize>| OutLine::New {
        text: text.clone(),
        like,
    };
    let mut del_iter = deleted.iter().peekable();
    let mut del_until = 0usize; // lines <= del_until are deleted
    let mut next_line = 1usize;
    for (&l, slot) in &slots {
        // Copy untouched lines before this slot.
        push_kept(&mut out, next_line, l, &mut del_iter, &mut del_until);
        out.extend(slot.before.iter().map(|t| new(t, None)));
        out.extend(slot.replacement.iter().map(|t| new(t, Some(l - 1))));
        push_kept(&mut out, l, l + 1, &mut del_iter, &mut del_until);
        out.extend(slot.after.iter().map(|t| new(t, None)));
        next_line = l + 1;
    }
    push_kept(
        &mut out,
        next_line,
        line_count + 1,
        &mut del_iter,
        &mut del_until,
    );

    if !head.is_empty() {
        if is_single_empty(&out, lines) {
            out.clear();
        }
        let mut with_head: Vec<OutLine> = head.iter().map(|t| new(t, None)).collect();
        with_head.append(&mut out);
        out = with_head;
    }
    if !tail.is_empty() {
        let rows = tail.iter().map(|t| new(t, None));
        if is_single_empty(&out, lines) {
            out.clear();
            out.extend(rows);
        } else if out.last().is_some_and(|l| line_text(l, lines).is_empty()) {
            let last = out.pop();
            out.extend(rows);
            out.extend(last);
        } else {
            out.extend(rows);
        }
    }
    Ok(out)
}

fn push_kept<'a>(
    out: &mut Vec<OutLine>,
    from: usize,
    to: usize,
    dels: &mut std::iter::Peekable<std::slice::Iter<'a, (usize, usize)>>,
    del_until: &mut usize,
) {
    for line in from..to {
        while let Some(&&(s, e)) = dels.peek() {
            if s <= line {
                *del_until = (*del_until).max(e);
                dels.next();
            } else {
                break;
            }
        }
        if line > *del_until {
            out.push(OutLine::Kept(line - 1));
        }
    }
}

fn line_text<'a>(line: &'a OutLine, lines: &[&'a str]) -> &'a str {
    match line {
        OutLine::Kept(i) => lines.get(*i).copied().unwrap_or(""),
        OutLine::New { text, .. } => text,
    }
}

fn is_single_empty(out: &[OutLine], lines: &[&str]) -> bool {
    out.len() == 1 && line_text(&out[0], lines).is_empty()
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
