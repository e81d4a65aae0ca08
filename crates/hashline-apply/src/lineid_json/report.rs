//! The `>>>` context report of the LINE#ID dialect (semantics §6): fresh `N#ID|content` rows
//! around the named lines, `>>> ` on the named ones, `    ...` across gaps.

use std::collections::BTreeSet;

use hashline_anchor::lineid::render_row;

/// Rows `n−2..=n+2` around every line of `marked` (1-based), clipped to `lines`, each followed
/// by `\n`.
pub(crate) fn context_rows(lines: &[&str], marked: &BTreeSet<usize>) -> String {
    rows_around(lines, marked, marked)
}

/// Rows `n−2..=n+2` around every line of `around`, `>>> ` on the lines of `marked`.
pub(crate) fn rows_around(
    lines: &[&str],
    around: &BTreeSet<usize>,
    marked: &BTreeSet<usize>,
) -> String {
    let mut shown = BTreeSet::new();
    for &m in around {
        for n in m.saturating_sub(2).max(1)..=m.saturating_add(2).min(lines.len()) {
            shown.insert(n);
        }
    }
    let mut out = String::new();
    let mut prev: Option<usize> = None;
    for n in shown {
        if prev.is_some_and(|p| n > p + 1) {
            out.push_str("    ...\n");
        }
        out.push_str(if marked.contains(&n) { ">>> " } else { "    " });
        out.push_str(&render_row(n, lines[n - 1]));
        out.push('\n');
        prev = Some(n);
    }
    out
}

/// The peer's mismatch report (the text after `Error: `): `count` mismatched references, the
/// distinct `marked` lines.
pub(crate) fn mismatch_report(lines: &[&str], count: usize, marked: &BTreeSet<usize>) -> String {
    let (s, verb) = if count == 1 {
        ("", "has")
    } else {
        ("s", "have")
    };
    format!(
        "hash mismatch - {count} line{s} {verb} changed since last read. Use updated {{line_number}}#{{hash_id}} references below (>>> marks changed lines).\n\n{}Tip: reuse LINE#ID entries from the latest read/edit output, or batch related edits in one call.",
        context_rows(lines, marked)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_and_markers() {
        let lines: Vec<String> = (1..=12).map(|i| format!("line {i}")).collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let rows = context_rows(&lines, &[2, 10].into_iter().collect());
        let expected = "    1#NJ|line 1\n>>> 2#TW|line 2\n    3#YX|line 3\n    4#WK|line 4\n    ...\n    8#KM|line 8\n    9#VK|line 9\n>>> 10#JR|line 10\n    11#TR|line 11\n    12#SZ|line 12\n";
        assert_eq!(rows, expected);
        assert!(rows.starts_with("    1#"));
        assert!(rows.contains(">>> 2#"));
        assert!(rows.contains("    ...\n    8#"));
        assert!(rows.ends_with("12#SZ|line 12\n"));
    }
}
