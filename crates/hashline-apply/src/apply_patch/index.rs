//! The lines of one file indexed by their text at each [`Level`], so that an update of many
//! chunks finds each chunk's candidate starts without scanning the file once per chunk (a
//! patch of k chunks on n lines cost k × n comparisons before).
//!
//! A level's index is a list of (hash of the line's text at that level, line number) sorted by
//! hash, built the second time that level is searched (one search is one scan, cheaper than a
//! sort; a big file patched by one chunk never pays for an index). A search looks up the
//! pattern line with the fewest occurrences and compares the window around each of them; when
//! those windows would cost more than one scan of the rest of the file, it scans instead, so a
//! search never costs more than a scan.

use std::cell::{Cell, OnceCell};

use xxhash_rust::xxh3::xxh3_64;

use super::seek::{self, Level};

/// A file's lines, with an index per level built on demand.
pub(crate) struct LineIndex<'a> {
    lines: &'a [&'a str],
    searches: [Cell<u32>; 4],
    by_level: [OnceCell<Vec<(u64, usize)>>; 4],
}

impl<'a> LineIndex<'a> {
    /// An index over `lines` (nothing is built yet).
    pub(crate) fn new(lines: &'a [&'a str]) -> Self {
        LineIndex {
            lines,
            searches: Default::default(),
            by_level: Default::default(),
        }
    }

    /// The lines indexed.
    pub(crate) fn lines(&self) -> &'a [&'a str] {
        self.lines
    }

    /// The first `max` 0-based starts at or after `from` where `pattern` occurs at `level`, in
    /// order (overlapping ones included): what [`seek::scan`] finds.
    pub(crate) fn occurrences(
        &self,
        pattern: &[&str],
        from: usize,
        level: Level,
        max: usize,
    ) -> Vec<usize> {
        let (m, n) = (pattern.len(), self.lines.len());
        if m == 0 || n < m || max == 0 || from > n - m {
            return Vec::new();
        }
        let slot = level as usize;
        let searched = self.searches[slot].get();
        self.searches[slot].set(searched.saturating_add(1));
        if searched == 0 {
            return seek::scan(self.lines, pattern, from, level, max);
        }
        let index = self.by_level[slot].get_or_init(|| build(self.lines, level));
        // The pattern line with the fewest occurrences at or after its place in a window that
        // starts at `from`.
        let mut rarest: Option<(usize, &[(u64, usize)])> = None;
        for (j, line) in pattern.iter().enumerate() {
            let hits = occurrences_of(index, hash(level, line), from + j);
            if hits.is_empty() {
                return Vec::new();
            }
            if rarest.is_none_or(|(_, best)| hits.len() < best.len()) {
                rarest = Some((j, hits));
            }
        }
        let Some((j, candidates)) = rarest else {
            return Vec::new();
        };
        if candidates.len().saturating_mul(m) > n - from + m {
            return seek::scan(self.lines, pattern, from, level, max);
        }
        let mut starts: Vec<usize> = candidates
            .iter()
            .map(|&(_, at)| at - j)
            .filter(|&start| start + m <= n)
            .collect();
        // Equal hashes of different texts (a collision) are weeded out by the comparison; the
        // candidates of one hash come sorted by line, but a collision can interleave two.
        starts.sort_unstable();
        starts
            .into_iter()
            .filter(|&start| {
                self.lines[start..start + m]
                    .iter()
                    .zip(pattern)
                    .all(|(a, b)| level.same(a, b))
            })
            .take(max)
            .collect()
    }
}

/// Every line's hash at `level`, sorted by (hash, line). A line starting with U+FEFF is listed
/// under its text with and without the mark, as [`Level::same`] matches it both ways.
fn build(lines: &[&str], level: Level) -> Vec<(u64, usize)> {
    let mut index = Vec::with_capacity(lines.len());
    for (at, line) in lines.iter().enumerate() {
        let h = hash(level, line);
        index.push((h, at));
        if let Some(rest) = line.strip_prefix('\u{feff}') {
            let h2 = hash(level, rest);
            if h2 != h {
                index.push((h2, at));
            }
        }
    }
    index.sort_unstable();
    index
}

/// The entries of `index` with hash `h` at lines `from` and later.
fn occurrences_of(index: &[(u64, usize)], h: u64, from: usize) -> &[(u64, usize)] {
    let start = index.partition_point(|&e| e < (h, from));
    let end = index.partition_point(|&(k, _)| k <= h);
    &index[start..end.max(start)]
}

/// The hash of `line`'s text at `level`: two lines are the same at a level exactly when their
/// texts at that level are equal (`Level::same_text`).
fn hash(level: Level, line: &str) -> u64 {
    match level {
        Level::Exact => xxh3_64(line.as_bytes()),
        Level::TrailingSpace => xxh3_64(line.trim_end().as_bytes()),
        Level::Trimmed => xxh3_64(line.trim().as_bytes()),
        Level::Unicode => xxh3_64(seek::normalised(line).collect::<String>().as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::seek::naive;
    use super::*;

    proptest::proptest! {
        /// Searched again and again (so the index answers, not the first scan), the index
        /// finds exactly the starts the window comparison finds, at every level.
        #[test]
        fn the_index_finds_what_windows_find(
            lines in proptest::collection::vec(0usize..6, 0..60),
            patterns in proptest::collection::vec(
                (proptest::collection::vec(0usize..6, 1..6), 0usize..60), 1..6),
        ) {
            let words = ["a", "a ", " a", "b", "\u{feff}a", "“q”"];
            let lines: Vec<&str> = lines.iter().map(|&k| words[k]).collect();
            let index = LineIndex::new(&lines);
            for (pattern, from) in &patterns {
                let pattern: Vec<&str> = pattern.iter().map(|&k| words[k]).collect();
                for level in Level::ALL {
                    for _ in 0..2 {
                        proptest::prop_assert_eq!(
                            index.occurrences(&pattern, *from, level, 3),
                            naive(&lines, &pattern, *from, level)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn many_chunks_are_found_through_the_index() {
        // 100,000 distinct lines, 1,000 chunks of 3 lines spread over them: after the first
        // search, each chunk is looked up in the index instead of scanning the file.
        let owned: Vec<String> = (0..100_000).map(|i| format!("line {i}")).collect();
        let lines: Vec<&str> = owned.iter().map(String::as_str).collect();
        let index = LineIndex::new(&lines);
        let mut from = 0;
        for k in 0..1_000 {
            let at = k * 100 + 50;
            let pattern = [lines[at], lines[at + 1], lines[at + 2]];
            assert_eq!(index.occurrences(&pattern, from, Level::Exact, 3), vec![at]);
            from = at + 3;
        }
        assert!(index.by_level[Level::Exact as usize].get().is_some());
        assert!(index.by_level[Level::Trimmed as usize].get().is_none());
    }
}
