//! Finding a chunk's lines in a file as Codex does: exactly, then ignoring trailing white
//! space, then ignoring surrounding white space, then with Unicode punctuation and spaces
//! normalised (the first level that finds the lines wins). Unlike Codex, a level where the
//! lines occur more than once answers [`Seek::Ambiguous`] instead of taking the first
//! (DEVIATIONS §19).

use super::index::LineIndex;

/// How loosely a match was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    /// Byte for byte.
    Exact,
    /// Trailing white space ignored.
    TrailingSpace,
    /// Leading and trailing white space ignored.
    Trimmed,
    /// White space trimmed, Unicode dashes, quotes and spaces read as their ASCII forms.
    Unicode,
}

impl Level {
    /// What was relaxed, for the warning.
    pub(crate) fn relaxed(self) -> &'static str {
        match self {
            Level::Exact => "nothing",
            Level::TrailingSpace => "trailing white space",
            Level::Trimmed => "leading and trailing white space",
            Level::Unicode => "white space and Unicode punctuation",
        }
    }

    /// Every level, strictest first.
    pub(crate) const ALL: [Level; 4] = [
        Level::Exact,
        Level::TrailingSpace,
        Level::Trimmed,
        Level::Unicode,
    ];

    /// Whether file line `a` is pattern line `b` at this level. A file line starting with
    /// U+FEFF (line 1 of a file with a byte-order mark, as Codex reads it) also matches without
    /// it: `read` never shows the mark, so a model's context cannot hold it (Codex's own
    /// levels never find such a line 1; docs/DEVIATIONS.md "A BOM is no context").
    pub(crate) fn same(self, a: &str, b: &str) -> bool {
        self.same_text(a, b)
            || a.strip_prefix('\u{feff}')
                .is_some_and(|a| self.same_text(a, b))
    }

    fn same_text(self, a: &str, b: &str) -> bool {
        match self {
            Level::Exact => a == b,
            Level::TrailingSpace => a.trim_end() == b.trim_end(),
            Level::Trimmed => a.trim() == b.trim(),
            Level::Unicode => normalised(a).eq(normalised(b)),
        }
    }
}

/// `s` trimmed, with Unicode dashes, quotes and spaces read as their ASCII forms.
pub(crate) fn normalised(s: &str) -> impl Iterator<Item = char> + '_ {
    s.trim().chars().map(|c| match c {
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        '\u{2018}'..='\u{201B}' => '\'',
        '\u{201C}'..='\u{201F}' => '"',
        '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
        other => other,
    })
}

/// The answer of [`seek`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seek {
    /// Found once, at this 0-based index, at this level.
    Found(usize, Level),
    /// Found more than once at the first level that finds it: the 0-based indices.
    Ambiguous(Vec<usize>, Level),
    /// Not found at any level.
    Missing,
}

/// Find `pattern` in the indexed lines at or after `start`; with `eof`, only where it ends
/// the file. An empty pattern is found at `start`.
pub(crate) fn seek(index: &LineIndex<'_>, pattern: &[&str], start: usize, eof: bool) -> Seek {
    let lines = index.lines();
    if pattern.is_empty() {
        return Seek::Found(start, Level::Exact);
    }
    let Some(last) = lines.len().checked_sub(pattern.len()) else {
        return Seek::Missing;
    };
    let from = if eof { last } else { start };
    for level in Level::ALL {
        let hits = index.occurrences(pattern, from, level, 3);
        match hits.len() {
            0 => continue,
            1 => return Seek::Found(hits[0], level),
            _ => return Seek::Ambiguous(hits, level),
        }
    }
    Seek::Missing
}

/// The first `max` 0-based starts at or after `from` where `pattern` occurs in `lines` at
/// `level`, in order (overlapping ones included), by one scan of the lines from `from`.
///
/// Knuth–Morris–Pratt over lines, so the work is linear in the lines searched plus the
/// pattern, whatever they repeat (a window compared line by line from every start costs
/// lines × pattern on repeated lines: a chunk of 8,000 rows in a file of 80,000 lines). It
/// finds what the window comparison finds: whether a file line matches a pattern line depends
/// only on the pattern line's text at this level (`same_text` between pattern lines is that
/// text's equality), which is all the failure function needs.
pub(crate) fn scan(
    lines: &[&str],
    pattern: &[&str],
    from: usize,
    level: Level,
    max: usize,
) -> Vec<usize> {
    let bom = |l: &str| l.starts_with('\u{feff}');
    // A line starting with U+FEFF matches two texts (with and without it), which the failure
    // function cannot follow: windows holding one are compared line by line (in a real file,
    // only line 1 has a BOM, so one window), every other window by the linear search.
    let mut hits = occurrences_by(
        lines,
        pattern,
        from,
        max,
        |a, b| level.same_text(a, b),
        |line, p| !bom(line) && level.same(line, p),
    );
    let marked: Vec<usize> = (from..lines.len()).filter(|&i| bom(lines[i])).collect();
    if marked.is_empty() {
        return hits;
    }
    let m = pattern.len();
    let mut starts: Vec<usize> = marked
        .iter()
        .flat_map(|&b| b.saturating_sub(m - 1).max(from)..=b)
        .filter(|&i| i + m <= lines.len())
        .collect();
    starts.sort_unstable();
    starts.dedup();
    let windowed = starts.into_iter().filter(|&i| {
        lines[i..i + m]
            .iter()
            .zip(pattern)
            .all(|(a, b)| level.same(a, b))
    });
    hits.extend(windowed.take(max));
    hits.sort_unstable();
    hits.dedup();
    hits.truncate(max);
    hits
}

/// [`scan`] with its two comparisons given: `pattern_same` between two pattern lines
/// (an equivalence), `line_same` between a file line and a pattern line. Each is called at
/// most twice per line of `lines` and of `pattern`.
fn occurrences_by(
    lines: &[&str],
    pattern: &[&str],
    from: usize,
    max: usize,
    mut pattern_same: impl FnMut(&str, &str) -> bool,
    mut line_same: impl FnMut(&str, &str) -> bool,
) -> Vec<usize> {
    let m = pattern.len();
    let mut hits = Vec::new();
    if m == 0 || lines.len() < m || max == 0 {
        return hits;
    }
    // fail[q]: the longest proper border of pattern[..=q] at this level.
    let mut fail = vec![0usize; m];
    let mut k = 0;
    for q in 1..m {
        loop {
            if pattern_same(pattern[q], pattern[k]) {
                k += 1;
                break;
            }
            if k == 0 {
                break;
            }
            k = fail[k - 1];
        }
        fail[q] = k;
    }
    let mut q = 0;
    for (i, line) in lines.iter().enumerate().skip(from) {
        loop {
            if line_same(line, pattern[q]) {
                q += 1;
                break;
            }
            if q == 0 {
                break;
            }
            q = fail[q - 1];
        }
        if q == m {
            hits.push(i + 1 - m);
            if hits.len() == max {
                break;
            }
            q = fail[q - 1];
        }
    }
    hits
}

/// The window comparison both searches replace (tests compare them with it): the first three
/// starts from `from` where every line of `pattern` is the same at `level`.
#[cfg(test)]
pub(crate) fn naive(lines: &[&str], pattern: &[&str], from: usize, level: Level) -> Vec<usize> {
    let Some(last) = lines.len().checked_sub(pattern.len()) else {
        return Vec::new();
    };
    (from..=last)
        .filter(|&i| {
            lines[i..i + pattern.len()]
                .iter()
                .zip(pattern)
                .all(|(a, b)| level.same(a, b))
        })
        .take(3)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_in_order() {
        let lines = ["a", "b  ", "  c\t", "“q” – x"];
        assert_eq!(
            seek(&LineIndex::new(&lines), &["a", "b  "], 0, false),
            Seek::Found(0, Level::Exact)
        );
        assert_eq!(
            seek(&LineIndex::new(&lines), &["b"], 0, false),
            Seek::Found(1, Level::TrailingSpace)
        );
        assert_eq!(
            seek(&LineIndex::new(&lines), &["c"], 0, false),
            Seek::Found(2, Level::Trimmed)
        );
        assert_eq!(
            seek(&LineIndex::new(&lines), &["\"q\" - x"], 0, false),
            Seek::Found(3, Level::Unicode)
        );
        assert_eq!(
            seek(&LineIndex::new(&lines), &["z"], 0, false),
            Seek::Missing
        );
        assert_eq!(
            seek(
                &LineIndex::new(&lines),
                &["a", "b", "c", "d", "e"],
                0,
                false
            ),
            Seek::Missing
        );
    }

    proptest::proptest! {
        /// The linear search finds exactly the starts the window comparison finds, at every
        /// level, on texts of few distinct lines (many overlaps and near misses).
        #[test]
        fn linear_search_finds_what_windows_find(
            lines in proptest::collection::vec(0usize..6, 0..60),
            pattern in proptest::collection::vec(0usize..6, 1..6),
            from in 0usize..60,
        ) {
            let words = ["a", "a ", " a", "b", "\u{feff}a", "“q”"];
            let lines: Vec<&str> = lines.iter().map(|&k| words[k]).collect();
            let pattern: Vec<&str> = pattern.iter().map(|&k| words[k]).collect();
            for level in Level::ALL {
                proptest::prop_assert_eq!(
                    scan(&lines, &pattern, from, level, 3),
                    naive(&lines, &pattern, from, level)
                );
            }
        }
    }

    #[test]
    fn a_long_chunk_of_repeated_lines_costs_linear_comparisons() {
        // 80,000 identical lines with a different one near the end; the chunk is 8,000 of the
        // repeated lines and the different one: every window start matched 7,999 lines before.
        let mut lines = vec!["    }"; 80_000];
        lines[79_990] = "    } // end";
        let mut pattern = vec!["    }"; 7_999];
        pattern.push("    } // end");
        let (mut on_pattern, mut on_lines) = (0usize, 0usize);
        let hits = occurrences_by(
            &lines,
            &pattern,
            0,
            3,
            |a, b| {
                on_pattern += 1;
                a == b
            },
            |a, b| {
                on_lines += 1;
                a == b
            },
        );
        assert_eq!(hits, vec![79_991 - 8_000]);
        assert!(on_pattern <= 2 * pattern.len(), "{on_pattern}");
        assert!(on_lines <= 2 * lines.len(), "{on_lines}");
    }

    #[test]
    fn start_eof_and_ambiguity() {
        let lines = ["x", "y", "x", "y"];
        assert_eq!(
            seek(&LineIndex::new(&lines), &["x", "y"], 0, false),
            Seek::Ambiguous(vec![0, 2], Level::Exact)
        );
        assert_eq!(
            seek(&LineIndex::new(&lines), &["x", "y"], 1, false),
            Seek::Found(2, Level::Exact)
        );
        assert_eq!(
            seek(&LineIndex::new(&lines), &["x", "y"], 0, true),
            Seek::Found(2, Level::Exact)
        );
        assert_eq!(
            seek(&LineIndex::new(&lines), &["x"], 0, true),
            Seek::Missing
        );
        assert_eq!(
            seek(&LineIndex::new(&lines), &[], 3, false),
            Seek::Found(3, Level::Exact)
        );
    }
}
