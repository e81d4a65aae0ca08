//! The stretches of lines a file's structural rewrite changes ([`LineChange`]s), so that its
//! syntax check parses only around them (see `syntax::hunks`).

use std::ops::Range;

use hashline_core::LineChange;

use crate::rewrite::Staged;

/// The stretches of lines `edits` (sorted byte ranges of `original`) change, for a syntax
/// check that parses only around them (checked there against both texts). None for a file
/// with carriage returns (its text's lines are counted after they become newlines) or edits
/// out of order.
pub(crate) fn line_changes(original: &[u8], edits: &[Staged]) -> Vec<LineChange> {
    if original.contains(&b'\r') {
        return Vec::new();
    }
    let newlines = |b: &[u8]| memchr::memchr_iter(b'\n', b).count();
    let mut spots: Vec<(Range<usize>, isize)> = Vec::with_capacity(edits.len());
    let (mut at, mut line) = (0usize, 0usize);
    for e in edits {
        let (Some(gap), Some(cut)) = (
            original.get(at..e.range.start),
            original.get(e.range.clone()),
        ) else {
            return Vec::new();
        };
        line += newlines(gap);
        let first = line;
        line += newlines(cut);
        at = e.range.end;
        let grown = newlines(e.after.as_bytes()) as isize - newlines(cut) as isize;
        spots.push((first..line + 1, grown));
    }
    // Edits on one line are one stretch; edits on neighbouring lines stay apart.
    LineChange::stretches(spots, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn staged(range: Range<usize>, after: &str) -> Staged {
        Staged {
            rule: 0,
            range,
            line: 0,
            column: 0,
            before: String::new(),
            after: after.to_string(),
        }
    }

    fn pairs(changes: &[LineChange]) -> Vec<(Range<usize>, Range<usize>)> {
        changes
            .iter()
            .map(|c| (c.old.clone(), c.new.clone()))
            .collect()
    }

    #[test]
    fn each_edit_is_its_lines_and_edits_on_one_line_are_one_stretch() {
        let text = b"a\nb\nc c\nd\n";
        // `b` -> two lines, both `c`s on line 3 -> `x`, `d\n` removed.
        let edits = [
            staged(2..3, "x\ny"),
            staged(4..5, "x"),
            staged(6..7, "x"),
            staged(8..10, ""),
        ];
        let changes = line_changes(text, &edits);
        assert_eq!(pairs(&changes), [(1..2, 1..3), (2..3, 3..4), (3..5, 4..5)]);
        assert_eq!(pairs(&line_changes(text, &edits[1..3])), [(2..3, 2..3)]);
    }

    #[test]
    fn carriage_returns_or_disorder_give_no_stretches() {
        assert!(line_changes(b"a\r\nb\r\n", &[staged(0..1, "x")]).is_empty());
        let edits = [staged(4..5, "x"), staged(0..1, "y")];
        assert!(line_changes(b"a\nb\nc\n", &edits).is_empty());
    }
}
