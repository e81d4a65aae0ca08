//! The splice as it was before it built runs ([`crate::edit::splice_runs`]): one output line
//! at a time. Kept for the tests, which check that both give the same output on any edits.

use std::collections::BTreeMap;

use crate::edit::{Edit, EditKind, SpliceError};
use crate::text::OutLine;

#[derive(Default)]
struct Slot {
    before: Vec<String>,
    replacement: Vec<String>,
    after: Vec<String>,
}

/// The old `splice`: apply `edits` to a file of `lines` (its LF lines, final empty piece included).
///
/// Returns the output lines in order. Bounds are checked for every anchor before anything is
/// built. Overlap policy is the dialect's: a line replaced twice is simply gone, and both
/// replacements start where their ranges start.
pub(crate) fn reference_splice(
    lines: &[&str],
    edits: &[Edit],
) -> Result<Vec<OutLine>, SpliceError> {
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
    use crate::edit::splice;

    fn kind(k: u8, line: usize, end: usize) -> EditKind {
        match k {
            // Mostly short ranges; a seventh of them reversed.
            0 if end.is_multiple_of(7) => EditKind::Replace {
                start: line,
                end: line.saturating_sub(1),
            },
            0 => EditKind::Replace {
                start: line,
                end: line + end % 4,
            },
            1 => EditKind::InsertBefore(line),
            2 => EditKind::InsertAfter(line),
            3 => EditKind::Head,
            _ => EditKind::Tail,
        }
    }

    proptest::proptest! {
        /// Any edits (overlapping, out of range, reversed, on empty lines) give what the
        /// line-at-a-time splice gave.
        #[test]
        fn runs_give_the_old_output(
            words in proptest::collection::vec(0u8..3, 0..30),
            edits in proptest::collection::vec((0u8..5, 0usize..32, 0usize..32, proptest::collection::vec(0u8..3, 0..4)), 0..8),
        ) {
            let names = ["", "a", "b"];
            let lines: Vec<&str> = words.iter().map(|w| names[*w as usize]).collect();
            let lines = if lines.is_empty() { vec![""] } else { lines };
            let edits: Vec<Edit> = edits
                .into_iter()
                .map(|(k, line, end, rows)| Edit {
                    kind: kind(k, line % (lines.len() + 2), end),
                    rows: rows.iter().map(|r| names[*r as usize].to_string()).collect(),
                    origin: 0,
                })
                .collect();
            proptest::prop_assert_eq!(splice(&lines, &edits), reference_splice(&lines, &edits));
            // Rendered from runs, a plain file and a CRLF one give the text of the lines.
            for eol in ["\n", "\r\n"] {
                let file = crate::TextFile::decode(lines.join(eol).into_bytes());
                let own = file.line_slices();
                if let Ok(out) = reference_splice(&own, &edits) {
                    let runs = crate::splice_runs(&own, &edits).expect("same bounds");
                    let rendered = file.render_runs(&own, &runs);
                    proptest::prop_assert_eq!(&rendered, &file.render_text(&out));
                    // A plain file's new text as pieces of its text reads the same, a line
                    // never split over two pieces.
                    if let Some(spliced) = file.splice_pieces(&own, &runs) {
                        let pieces = spliced.pieces(file.text());
                        proptest::prop_assert!(pieces.is_line_aligned(), "{:?}", pieces);
                        proptest::prop_assert_eq!(pieces.to_text(), rendered.as_str());
                        proptest::prop_assert_eq!(spliced.len(), rendered.len());
                    }
                }
            }
        }
    }
}
