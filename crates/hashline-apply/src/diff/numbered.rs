//! The hashline seed's numbered diff (`generateDiffString`, 2 lines of context) and its compact
//! preview (`buildCompactDiffPreview`), seed `000` §f.
//!
//! Lines are tokenized as the seed's line differ does: each line keeps its `\n`, so a last line
//! without a newline differs from the same text with one, and the empty piece after a final
//! newline is not a line.

use super::{DiffHunk, LineDiff};

/// Context lines shown around a change.
const CONTEXT: usize = 2;

enum Part<'a> {
    Same(&'a [&'a str]),
    Removed(&'a [&'a str]),
    Added(&'a [&'a str]),
}

impl Part<'_> {
    fn is_change(&self) -> bool {
        !matches!(self, Part::Same(_))
    }
}

fn parts<'a>(old: &'a [&'a str], new: &'a [&'a str], hunks: &[DiffHunk]) -> Vec<Part<'a>> {
    let mut out = Vec::new();
    let mut old_pos = 0;
    for h in hunks {
        if h.old.start > old_pos {
            out.push(Part::Same(&old[old_pos..h.old.start]));
        }
        if !h.old.is_empty() {
            out.push(Part::Removed(&old[h.old.clone()]));
        }
        if !h.new.is_empty() {
            out.push(Part::Added(&new[h.new.clone()]));
        }
        old_pos = h.old.end;
    }
    if old_pos < old.len() {
        out.push(Part::Same(&old[old_pos..]));
    }
    out
}

fn display(token: &str) -> &str {
    token.strip_suffix('\n').unwrap_or(token)
}

/// The numbered diff of `old` → `new`: `-N|TEXT` (old number), `+N|TEXT` (new number),
/// context ` N|TEXT` (old number), and one ` N|...` row where a long unchanged run between two
/// changes is elided. Rows are joined with `\n`; an unchanged pair gives the empty string.
pub fn numbered(old: &str, new: &str) -> String {
    LineDiff::of(old, new).numbered()
}

/// [`numbered`] of a diff already computed.
pub(super) fn render(diff: &LineDiff<'_>) -> String {
    // The common lines cut off at the start are never shown (they are more than the context
    // away from any change): numbering starts after them.
    let trimmed = &diff.trimmed;
    let parts = parts(&trimmed.old, &trimmed.new, &diff.hunks);
    let mut rows: Vec<String> = Vec::new();
    let mut old_no = trimmed.skip + 1;
    let mut new_no = trimmed.skip + 1;
    for (i, part) in parts.iter().enumerate() {
        match part {
            Part::Removed(lines) => {
                for l in *lines {
                    rows.push(format!("-{old_no}|{}", display(l)));
                    old_no += 1;
                }
            }
            Part::Added(lines) => {
                for l in *lines {
                    rows.push(format!("+{new_no}|{}", display(l)));
                    new_no += 1;
                }
            }
            Part::Same(lines) => {
                let after_change = i > 0 && parts[i - 1].is_change();
                let before_change = parts.get(i + 1).is_some_and(Part::is_change);
                let n = lines.len();
                let context = |rows: &mut Vec<String>, from: usize, to: usize| {
                    for (k, l) in lines[from..to].iter().enumerate() {
                        rows.push(format!(" {}|{}", old_no + from + k, display(l)));
                    }
                };
                match (after_change, before_change) {
                    (true, true) if n > 2 * CONTEXT => {
                        context(&mut rows, 0, CONTEXT);
                        rows.push(format!(" {}|...", old_no + CONTEXT));
                        context(&mut rows, n - CONTEXT, n);
                    }
                    (true, true) => context(&mut rows, 0, n),
                    (false, true) => context(&mut rows, n.saturating_sub(CONTEXT), n),
                    (true, false) => context(&mut rows, 0, n.min(CONTEXT)),
                    (false, false) => {}
                }
                old_no += n;
                new_no += n;
            }
        }
    }
    rows.join("\n")
}

/// The first changed line of `new` (1-based, the seed's `firstChangedLine`), `None` when the
/// texts are equal.
pub fn first_changed_line(old: &str, new: &str) -> Option<usize> {
    LineDiff::of(old, new).first_changed_line()
}

/// [`first_changed_line`] read off a [`numbered`] diff of the same texts (its first `+N|` or
/// `-N|` row: before the first change both sides number alike), without diffing again.
pub fn first_change_in(numbered: &str) -> Option<usize> {
    numbered.split('\n').find_map(|row| {
        let rest = row.strip_prefix('+').or_else(|| row.strip_prefix('-'))?;
        rest.split_once('|')?.0.parse().ok()
    })
}

/// The compact preview of a [`numbered`] diff: `+N|T` → `+N:T`, `-N|T` → `-N:T`, and a context
/// row ` N|T` → ` K:T` where `K` is the post-edit line number (`N` + added − removed so far).
/// Rows of any other shape pass unchanged.
pub fn compact_preview(numbered: &str) -> String {
    if numbered.is_empty() {
        return String::new();
    }
    let mut added = 0usize;
    let mut removed = 0usize;
    let mut out: Vec<String> = Vec::new();
    for row in numbered.split('\n') {
        let Some((sign, rest)) = row
            .char_indices()
            .next()
            .map(|(_, c)| (c, &row[c.len_utf8()..]))
        else {
            out.push(String::new());
            continue;
        };
        let parsed = rest.split_once('|').and_then(|(n, t)| {
            (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                .then(|| n.parse::<usize>().ok().map(|n| (n, t)))
                .flatten()
        });
        match (sign, parsed) {
            ('+', Some((n, t))) => {
                added += 1;
                out.push(format!("+{n}:{t}"));
            }
            ('-', Some((n, t))) => {
                removed += 1;
                out.push(format!("-{n}:{t}"));
            }
            (' ', Some((n, t))) => {
                let k = (n + added).saturating_sub(removed);
                out.push(format!(" {k}:{t}"));
            }
            _ => out.push(row.to_string()),
        }
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_example() {
        let d = numbered("alpha\nbeta\ngamma\n", "alpha\nDELTA\nEPSILON\ngamma\n");
        assert_eq!(d, " 1|alpha\n-2|beta\n+2|DELTA\n+3|EPSILON\n 3|gamma");
        assert_eq!(
            compact_preview(&d),
            " 1:alpha\n-2:beta\n+2:DELTA\n+3:EPSILON\n 4:gamma"
        );
    }

    #[test]
    fn long_files_are_numbered_as_a_whole() {
        let old: String = (1..=3_000).map(|i| format!("{i}\n")).collect();
        let new = old
            .replacen("\n700\n", "\nseven\n", 1)
            .replacen("\n2500\n", "\n", 1);
        assert_eq!(
            numbered(&old, &new),
            " 698|698\n 699|699\n-700|700\n+700|seven\n 701|701\n 702|702\n 703|...\n 2498|2498\n 2499|2499\n-2500|2500\n 2501|2501\n 2502|2502"
        );
        assert_eq!(first_changed_line(&old, &new), Some(700));
        assert_eq!(first_changed_line(&old, &old), None);
    }

    #[test]
    fn insert_tail_preview_case_171() {
        assert_eq!(
            numbered("first\n", "first\nsecond\n"),
            " 1|first\n+2|second"
        );
    }

    #[test]
    fn context_is_two_lines_and_long_runs_elide() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";
        let new = "1\n2\n3\nX\n5\n6\n7\n8\n9\nY\n";
        assert_eq!(
            numbered(old, new),
            " 2|2\n 3|3\n-4|4\n+4|X\n 5|5\n 6|6\n 7|...\n 8|8\n 9|9\n-10|10\n+10|Y"
        );
        // A run of exactly four between changes is printed whole.
        let new2 = "1\nA\n3\n4\n5\n6\nB\n8\n9\n10\n";
        assert_eq!(
            numbered(old, new2),
            " 1|1\n-2|2\n+2|A\n 3|3\n 4|4\n 5|5\n 6|6\n-7|7\n+7|B\n 8|8\n 9|9"
        );
    }

    #[test]
    fn missing_final_newline_is_a_change() {
        assert_eq!(numbered("a\nb", "a\nb\n"), " 1|a\n-2|b\n+2|b");
        assert_eq!(numbered("same", "same"), "");
        assert_eq!(compact_preview(""), "");
    }

    #[test]
    fn compact_numbers_follow_the_new_file() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let new = "a\nX\nY\nc\nd\ne\nf\ng\n";
        let d = numbered(old, new);
        let c = compact_preview(&d);
        let new_lines: Vec<&str> = new.lines().collect();
        for row in c.split('\n') {
            if let Some(rest) = row.strip_prefix(' ') {
                let (n, t) = rest.split_once(':').expect("context row");
                if t != "..." {
                    let n: usize = n.parse().expect("number");
                    assert_eq!(new_lines[n - 1], t, "{c}");
                }
            }
        }
        assert_eq!(first_changed_line(old, new), Some(2));
        assert_eq!(first_changed_line(old, old), None);
        for (a, b) in [
            (old, new),
            (old, old),
            ("a\nb\nc\n", "a\nc\n"),
            ("a\nb", "a\nb\n"),
            ("", "x\n"),
            ("x\n", ""),
            ("1\n2\n3\n4\n5\n6\n7\n", "1\n2\n3\nX\n5\n6\nY\n"),
        ] {
            assert_eq!(
                first_change_in(&numbered(a, b)),
                first_changed_line(a, b),
                "{a:?} {b:?}"
            );
        }
    }
}
