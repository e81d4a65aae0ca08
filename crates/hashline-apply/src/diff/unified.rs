//! Standard unified diffs (`--- a/…`, `+++ b/…`, `@@ -l,s +l,s @@`, 3 lines of context,
//! `\ No newline at end of file`), for file reports and `--dry-run`.

use std::fmt::Write as _;

use super::LineDiff;

/// Context lines around each change.
const CONTEXT: usize = 3;

/// The unified diff of `old` → `new` for `path`; empty when the texts are equal.
pub fn unified(old: &str, new: &str, path: &str) -> String {
    LineDiff::of(old, new).unified(path)
}

/// [`unified`] of a diff already computed.
pub(super) fn render(diff: &LineDiff<'_>, path: &str) -> String {
    // Only the lines around the changes are collected; positions below are relative to
    // `skip`, the common lines cut off at the start.
    let trimmed = &diff.trimmed;
    let (skip, old_t, new_t) = (trimmed.skip, &trimmed.old, &trimmed.new);
    let hunks = &diff.hunks;
    if hunks.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = writeln!(out, "--- a/{path}\n+++ b/{path}");
    // Group hunks whose context windows touch.
    let mut groups: Vec<Vec<&super::DiffHunk>> = Vec::new();
    for h in hunks {
        match groups.last_mut() {
            Some(g)
                if g.last()
                    .is_some_and(|p| h.old.start - p.old.end <= 2 * CONTEXT) =>
            {
                g.push(h)
            }
            _ => groups.push(vec![h]),
        }
    }
    for g in groups {
        let (Some(first), Some(last)) = (g.first(), g.last()) else {
            continue;
        };
        let old_start = first.old.start.saturating_sub(CONTEXT);
        let new_start = first.new.start - (first.old.start - old_start);
        let old_end = (last.old.end + CONTEXT).min(old_t.len());
        let new_end = last.new.end + (old_end - last.old.end);
        let _ = writeln!(
            out,
            "@@ -{} +{} @@",
            range(skip + old_start, old_end - old_start),
            range(skip + new_start, new_end - new_start)
        );
        let mut pos = old_start;
        for h in &g {
            for l in &old_t[pos..h.old.start] {
                line(&mut out, ' ', l);
            }
            for l in &old_t[h.old.clone()] {
                line(&mut out, '-', l);
            }
            for l in &new_t[h.new.clone()] {
                line(&mut out, '+', l);
            }
            pos = h.old.end;
        }
        for l in &old_t[pos..old_end] {
            line(&mut out, ' ', l);
        }
    }
    out
}

fn range(start: usize, len: usize) -> String {
    match len {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        n => format!("{},{n}", start + 1),
    }
}

fn line(out: &mut String, sign: char, token: &str) {
    out.push(sign);
    out.push_str(token);
    if !token.ends_with('\n') {
        out.push_str("\n\\ No newline at end of file\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_change() {
        let d = unified("a\nb\nc\n", "a\nB\nc\n", "x.txt");
        assert_eq!(
            d,
            "--- a/x.txt\n+++ b/x.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
        );
    }

    #[test]
    fn equal_is_empty_and_newline_marker() {
        assert_eq!(unified("a\n", "a\n", "p"), "");
        assert_eq!(
            unified("a", "a\n", "p"),
            "--- a/p\n+++ b/p\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"
        );
        assert_eq!(
            unified("", "x\n", "p"),
            "--- a/p\n+++ b/p\n@@ -0,0 +1 @@\n+x\n"
        );
    }

    #[test]
    fn a_change_deep_in_a_long_file_is_numbered_in_the_whole_file() {
        let old: String = (1..=2_000).map(|i| format!("{i}\n")).collect();
        let new = old.replacen("\n1500\n", "\nfifteen hundred\n", 1);
        let d = unified(&old, &new, "n");
        assert!(
            d.ends_with("@@ -1497,7 +1497,7 @@\n 1497\n 1498\n 1499\n-1500\n+fifteen hundred\n 1501\n 1502\n 1503\n"),
            "{d}"
        );
        assert_eq!(
            unified(&old, &format!("{old}x"), "n").lines().nth(2),
            Some("@@ -1998,3 +1998,4 @@")
        );
    }

    #[test]
    fn distant_changes_make_two_hunks() {
        let old: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let new = old
            .replace("2\n", "two\n")
            .replacen("18\n", "eighteen\n", 1);
        let d = unified(&old, &new, "n");
        assert_eq!(d.matches("@@ -").count(), 2, "{d}");
        assert!(
            d.contains("@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n"),
            "{d}"
        );
    }
}
