//! [`hash_lines_at`]: the hashes of a few entries of a text, as [`super::hash_lines`] gives
//! them, without a counter for every distinct line of the file.

use std::borrow::Cow;
use std::collections::HashMap;

use super::{canonical, is_symbol_only, line_hash, LineHash};

/// The hashes of entries `wanted` (1-based, ascending) of a text whose entries (its
/// `split('\n')`, sentinel included) `entries` walks, each exactly as in [`super::hash_lines`];
/// wanted entries past the end are left out. A content line's hash numbers its occurrence among
/// the earlier identical lines, so the walk runs up to the last wanted entry, but it counts only
/// the canonical forms of the wanted entries: a reply showing a few rows of a 100 MB file holds
/// a few counters, not one per distinct line.
pub fn hash_lines_at<'a, I>(entries: I, wanted: &[usize]) -> Vec<LineHash>
where
    I: Iterator<Item = &'a str> + Clone,
{
    let Some(&last) = wanted.last() else {
        return Vec::new();
    };
    // The counters of the wanted entries' canonical forms (symbol-only lines are not counted).
    let mut counts: HashMap<Cow<'a, str>, usize, foldhash::fast::RandomState> = HashMap::default();
    let mut next = wanted.iter().copied().peekable();
    for (n, line) in (1..=last).zip(entries.clone()) {
        if next.peek() == Some(&n) {
            while next.peek() == Some(&n) {
                next.next();
            }
            let canon = canonical(line);
            if !is_symbol_only(&canon) {
                counts.insert(canon, 0);
            }
        }
    }
    let mut out = Vec::with_capacity(wanted.len());
    let mut next = wanted.iter().copied().peekable();
    for (n, line) in (1..=last).zip(entries) {
        let canon = canonical(line);
        let occurrence = match counts.get_mut(canon.as_ref()) {
            Some(count) if !is_symbol_only(&canon) => {
                *count += 1;
                *count
            }
            _ => 1,
        };
        while next.peek() == Some(&n) {
            next.next();
            out.push(line_hash(line, n, occurrence));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::hash_lines;
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any entries of any text hash as the whole text's hashes say.
        #[test]
        fn wanted_entries_hash_as_in_the_whole_text(
            text in super::super::test_text(40),
            picks in proptest::collection::vec(0usize..45, 0..8),
        ) {
            let all = hash_lines(&text);
            let mut wanted: Vec<usize> = picks.iter().map(|p| p + 1).collect();
            wanted.sort_unstable();
            let expected: Vec<LineHash> =
                wanted.iter().filter_map(|&k| all.get(k - 1).copied()).collect();
            prop_assert_eq!(hash_lines_at(text.split('\n'), &wanted), expected);
        }
    }
}
