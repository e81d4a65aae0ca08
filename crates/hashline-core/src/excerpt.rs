//! Numbered excerpts of a text, as refusals show them: `NN|text`, the line in question marked
//! `>NN|text`.

/// The lines of `text`, without the empty piece after a final newline.
pub fn real_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if text.ends_with('\n') {
        lines.pop();
    }
    lines
}

/// Lines `lo..=hi` (1-based; a line past the end shows empty) as `NN|text`, one per line, the
/// line `mark` as `>NN|text`; numbers are right-aligned to the width of `hi`.
pub fn numbered(lines: &[&str], lo: usize, hi: usize, mark: Option<usize>) -> String {
    let lo = lo.max(1);
    let hi = hi.max(lo);
    let width = hi.to_string().len();
    (lo..=hi)
        .map(|n| {
            let m = if Some(n) == mark { '>' } else { ' ' };
            let text = lines.get(n - 1).copied().unwrap_or("");
            format!("{m}{n:>width$}|{text}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Line `n` as `cat -n` numbers it: the number right-aligned in six columns, a tab, the text
/// (the numbered views of the text-editor tool and of the V4A patch refusals).
pub fn cat_n(n: usize, text: &str) -> String {
    format!("{n:6}\t{text}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_and_aligns() {
        let lines = real_lines("a\nb\nc\n");
        assert_eq!(lines, ["a", "b", "c"]);
        assert_eq!(numbered(&lines, 2, 3, Some(3)), " 2|b\n>3|c");
        assert_eq!(numbered(&lines, 9, 10, None), "  9|\n 10|");
        assert_eq!(cat_n(7, "x"), "     7\tx");
    }
}
