//! Finding a chunk's lines in a file as Codex does: exactly, then ignoring trailing white
//! space, then ignoring surrounding white space, then with Unicode punctuation and spaces
//! normalised (the first level that finds the lines wins). Unlike Codex, a level where the
//! lines occur more than once answers [`Seek::Ambiguous`] instead of taking the first
//! (DEVIATIONS §19).

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

    const ALL: [Level; 4] = [
        Level::Exact,
        Level::TrailingSpace,
        Level::Trimmed,
        Level::Unicode,
    ];

    /// Whether file line `a` is pattern line `b` at this level. A file line starting with
    /// U+FEFF (line 1 of a file with a byte-order mark, as Codex reads it) also matches without
    /// it: `read` never shows the mark, so a model's context cannot hold it (Codex's own
    /// levels never find such a line 1; docs/DEVIATIONS.md "A BOM is no context").
    fn same(self, a: &str, b: &str) -> bool {
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

fn normalised(s: &str) -> impl Iterator<Item = char> + '_ {
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

/// Find `pattern` in `lines` at or after `start`; with `eof`, only where it ends the file.
/// An empty pattern is found at `start`.
pub(crate) fn seek(lines: &[&str], pattern: &[&str], start: usize, eof: bool) -> Seek {
    if pattern.is_empty() {
        return Seek::Found(start, Level::Exact);
    }
    let Some(last) = lines.len().checked_sub(pattern.len()) else {
        return Seek::Missing;
    };
    let from = if eof { last } else { start };
    for level in Level::ALL {
        let hits: Vec<usize> = (from..=last)
            .filter(|&i| {
                lines[i..i + pattern.len()]
                    .iter()
                    .zip(pattern)
                    .all(|(a, b)| level.same(a, b))
            })
            .take(3)
            .collect();
        match hits.len() {
            0 => continue,
            1 => return Seek::Found(hits[0], level),
            _ => return Seek::Ambiguous(hits, level),
        }
    }
    Seek::Missing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_in_order() {
        let lines = ["a", "b  ", "  c\t", "“q” – x"];
        assert_eq!(
            seek(&lines, &["a", "b  "], 0, false),
            Seek::Found(0, Level::Exact)
        );
        assert_eq!(
            seek(&lines, &["b"], 0, false),
            Seek::Found(1, Level::TrailingSpace)
        );
        assert_eq!(
            seek(&lines, &["c"], 0, false),
            Seek::Found(2, Level::Trimmed)
        );
        assert_eq!(
            seek(&lines, &["\"q\" - x"], 0, false),
            Seek::Found(3, Level::Unicode)
        );
        assert_eq!(seek(&lines, &["z"], 0, false), Seek::Missing);
        assert_eq!(
            seek(&lines, &["a", "b", "c", "d", "e"], 0, false),
            Seek::Missing
        );
    }

    #[test]
    fn start_eof_and_ambiguity() {
        let lines = ["x", "y", "x", "y"];
        assert_eq!(
            seek(&lines, &["x", "y"], 0, false),
            Seek::Ambiguous(vec![0, 2], Level::Exact)
        );
        assert_eq!(
            seek(&lines, &["x", "y"], 1, false),
            Seek::Found(2, Level::Exact)
        );
        assert_eq!(
            seek(&lines, &["x", "y"], 0, true),
            Seek::Found(2, Level::Exact)
        );
        assert_eq!(seek(&lines, &["x"], 0, true), Seek::Missing);
        assert_eq!(seek(&lines, &[], 3, false), Seek::Found(3, Level::Exact));
    }
}
