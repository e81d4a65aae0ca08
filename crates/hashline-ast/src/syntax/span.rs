//! The changed span of an edit and the byte-range arithmetic around it: tree-sitter points,
//! whole-line regions, overlaps.

use std::ops::Range;

use hashline_core::affix::{common_prefix, common_suffix};
use tree_sitter::{InputEdit, Point};

/// The changed span: bytes `start..old_end` of the old text became `start..new_end` of the new.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Span {
    /// Where the change starts, in both texts.
    pub(super) start: usize,
    /// Where it ends in the old text.
    pub(super) old_end: usize,
    /// Where it ends in the new text.
    pub(super) new_end: usize,
}

impl Span {
    /// The span between the common prefix and suffix, on character boundaries; `None` when the
    /// texts are equal.
    pub(super) fn of(before: &str, after: &str) -> Option<Span> {
        if before == after {
            return None;
        }
        let (b, a) = (before.as_bytes(), after.as_bytes());
        let mut start = common_prefix(b, a);
        while !before.is_char_boundary(start) {
            start -= 1;
        }
        let mut suffix = common_suffix(b, a, start);
        while !before.is_char_boundary(b.len() - suffix) {
            suffix -= 1;
        }
        Some(Span {
            start,
            old_end: b.len() - suffix,
            new_end: a.len() - suffix,
        })
    }

    /// The tree-sitter edit that turns the old text's tree into one for the new text.
    pub(super) fn input_edit(&self, before: &str, after: &str) -> InputEdit {
        InputEdit {
            start_byte: self.start,
            old_end_byte: self.old_end,
            new_end_byte: self.new_end,
            start_position: point(before, self.start),
            old_end_position: point(before, self.old_end),
            new_end_position: point(after, self.new_end),
        }
    }

    /// An old text's byte range in the new text's bytes; `None` when it overlaps the span.
    pub(super) fn map_old(&self, r: Range<usize>) -> Option<Range<usize>> {
        if r.end <= self.start {
            Some(r)
        } else if r.start >= self.old_end {
            let shift = |x: usize| x - self.old_end + self.new_end;
            Some(shift(r.start)..shift(r.end))
        } else {
            None
        }
    }
}

/// The tree-sitter point (row, byte column) of byte `at` of `text`.
pub(super) fn point(text: &str, at: usize) -> Point {
    let head = &text.as_bytes()[..at.min(text.len())];
    let row = head.iter().filter(|&&b| b == b'\n').count();
    let line_start = head.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    Point::new(row, head.len() - line_start)
}

/// `r` widened to whole lines of `text` (from the start of its first line to the end of its
/// last, the newline excluded).
pub(super) fn whole_lines(text: &str, r: Range<usize>) -> Range<usize> {
    let b = text.as_bytes();
    let start = r.start.min(b.len());
    let end = r.end.clamp(start, b.len());
    let lo = b[..start]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    let hi = b[end..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |i| end + i);
    lo..hi
}

/// Whether byte ranges `a` and `b` touch (ends included, so an empty range at a line's end
/// overlaps that line).
pub(super) fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start <= b.end && b.start <= a.end
}
