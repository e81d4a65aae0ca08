//! Finding `old_str` (non-overlapping occurrences, as the oracle's `re.finditer` of the escaped
//! text) and lowering a text change to core edits in the shared line model.

use hashline_core::{Edit, EditKind};

/// Where `old_str` was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Found {
    /// Exactly once, at this byte offset.
    Once(usize),
    /// Not at all.
    None,
    /// More than once, on these lines (1-based, sorted, deduplicated).
    Many(Vec<usize>),
}

/// The non-overlapping occurrences of `needle` in `text` (an empty needle matches at every
/// character boundary and at the end, as Python's regex does).
pub(crate) fn find(text: &str, needle: &str) -> Found {
    let mut starts: Box<dyn Iterator<Item = usize>> = if needle.is_empty() {
        Box::new(
            text.char_indices()
                .map(|(i, _)| i)
                .chain(std::iter::once(text.len())),
        )
    } else {
        Box::new(text.match_indices(needle).map(|(i, _)| i))
    };
    let Some(first) = starts.next() else {
        return Found::None;
    };
    let Some(second) = starts.next() else {
        return Found::Once(first);
    };
    // Offsets come in order: one running line count over the text, each byte looked at once.
    let bytes = text.as_bytes();
    let (mut at, mut line) = (0, 1);
    let mut lines: Vec<usize> = Vec::new();
    for start in [first, second].into_iter().chain(starts) {
        line += bytes[at..start].iter().filter(|&&c| c == b'\n').count();
        at = start;
        if lines.last() != Some(&line) {
            lines.push(line);
        }
    }
    Found::Many(lines)
}

/// The 1-based line of byte offset `at`.
pub(crate) fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()
        .get(..at)
        .map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
        + 1
}

/// The edit turning `old` into `new`, where only bytes `start..` of `old` may differ: the
/// smallest run of whole lines, never starting before the line of `start`. `None` when the
/// texts are equal.
pub(crate) fn lower(old: &str, new: &str, start: usize, origin: usize) -> Option<Edit> {
    if old == new {
        return None;
    }
    let a: Vec<&str> = old.split('\n').collect();
    let b: Vec<&str> = new.split('\n').collect();
    let first = line_of(old, start) - 1;
    let mut pre = 0;
    while pre < first && pre < a.len() && pre < b.len() && a[pre] == b[pre] {
        pre += 1;
    }
    let mut suf = 0;
    while suf < a.len() - pre && suf < b.len() - pre && a[a.len() - 1 - suf] == b[b.len() - 1 - suf]
    {
        suf += 1;
    }
    let rows: Vec<String> = b[pre..b.len() - suf]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let (lo, hi) = (pre + 1, a.len() - suf);
    let kind = if lo <= hi {
        EditKind::Replace { start: lo, end: hi }
    } else if pre == 0 {
        EditKind::InsertBefore(1)
    } else {
        EditKind::InsertAfter(pre)
    };
    Some(Edit { kind, rows, origin })
}

/// The first line (1-based) an edit touches or inserts before.
pub(crate) fn edit_line(edit: &Edit) -> usize {
    match edit.kind {
        EditKind::Replace { start, .. } | EditKind::InsertBefore(start) => start,
        EditKind::InsertAfter(l) => l + 1,
        EditKind::Head => 1,
        EditKind::Tail => usize::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occurrences_are_non_overlapping_and_lines_deduplicated() {
        assert_eq!(find("aaa\n", "aa"), Found::Once(0));
        assert_eq!(find("x x\ny\n", "x"), Found::Many(vec![1]));
        assert_eq!(find("", ""), Found::Once(0));
        assert_eq!(find("a\nb", ""), Found::Many(vec![1, 2]));
        assert_eq!(find("abc", "d"), Found::None);
    }

    #[test]
    fn a_change_lowers_to_whole_lines() {
        let e = lower("a\nb\nc\n", "a\nB\nc\n", 2, 0).expect("edit");
        assert_eq!(e.kind, EditKind::Replace { start: 2, end: 2 });
        assert_eq!(e.rows, vec!["B".to_owned()]);
        let e = lower("a\nb\n", "a\nx\nb\n", 2, 0).expect("edit");
        assert_eq!(e.kind, EditKind::InsertAfter(1));
        let e = lower("a\nx\nb\n", "a\nb\n", 2, 0).expect("edit");
        assert_eq!(e.kind, EditKind::Replace { start: 2, end: 2 });
        assert!(e.rows.is_empty());
    }
}
