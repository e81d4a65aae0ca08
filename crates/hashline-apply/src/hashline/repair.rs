//! Boundary-balance repair (seed `000` §c): when a replacement's delimiter balance differs from
//! the lines it replaces, drop payload rows that duplicate the lines bordering the range, or keep
//! closing lines the range deleted without restating. One warning per repaired hunk.

use std::ops::RangeInclusive;

use super::messages;

/// Net count of `()`, `[]`, `{}` (opener +1, closer −1).
pub(crate) type Balance = [i64; 3];

/// Delimiter balance of `lines`, skipping `//` and `/* */` comments and quoted text
/// (`"`/`'` close at end of line; a backtick string and a block comment carry across lines).
pub(crate) fn balance<'a>(lines: impl IntoIterator<Item = &'a str>) -> Balance {
    let mut total = [0i64; 3];
    let mut in_comment = false;
    let mut in_backtick = false;
    for line in lines {
        let mut quote: Option<char> = in_backtick.then_some('`');
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if in_comment {
                if c == '*' && chars.peek() == Some(&'/') {
                    chars.next();
                    in_comment = false;
                }
                continue;
            }
            if let Some(q) = quote {
                if c == '\\' {
                    chars.next();
                } else if c == q {
                    quote = None;
                }
                continue;
            }
            match c {
                '/' if chars.peek() == Some(&'/') => break,
                '/' if chars.peek() == Some(&'*') => {
                    chars.next();
                    in_comment = true;
                }
                '"' | '\'' | '`' => quote = Some(c),
                '(' => total[0] += 1,
                ')' => total[0] -= 1,
                '[' => total[1] += 1,
                ']' => total[1] -= 1,
                '{' => total[2] += 1,
                '}' => total[2] -= 1,
                _ => {}
            }
        }
        in_backtick = quote == Some('`');
    }
    total
}

/// Optional whitespace, one or more of `)]}`, optional `;` or `,`, optional whitespace.
pub(crate) fn is_pure_closer(line: &str) -> bool {
    let t = line.trim();
    let body = t.strip_suffix([';', ',']).unwrap_or(t);
    !body.is_empty() && body.chars().all(|c| matches!(c, ')' | ']' | '}'))
}

fn sub(a: Balance, b: Balance) -> Balance {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn neg(a: Balance) -> Balance {
    [-a[0], -a[1], -a[2]]
}

/// A replace hunk after repair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Repaired {
    /// The payload rows to write.
    pub rows: Vec<String>,
    /// Last original line to delete; `start - 1` when every line of the range is kept.
    pub end: usize,
    /// The warning, when a repair happened.
    pub warning: Option<String>,
    /// Original lines the repair compared against (they must survive a recovery unchanged).
    pub consulted: Option<RangeInclusive<usize>>,
}

impl Repaired {
    /// The replace of a range ending at `end` by `rows`, as sent.
    pub(crate) fn unchanged(end: usize, rows: &[String]) -> Repaired {
        Repaired {
            rows: rows.to_vec(),
            end,
            warning: None,
            consulted: None,
        }
    }
}

/// Repair the replace of original lines `start..=end` (1-based, within `lines`) by `rows`.
pub(crate) fn repair(lines: &[&str], start: usize, end: usize, rows: &[String]) -> Repaired {
    let unchanged = Repaired::unchanged(end, rows);
    if start == 0 || end < start || end > lines.len() {
        return unchanged;
    }
    let original = &lines[start - 1..end];
    let delta = sub(
        balance(rows.iter().map(String::as_str)),
        balance(original.iter().copied()),
    );
    if delta == [0, 0, 0] {
        return unchanged;
    }
    let single_ok = |k: usize, row: &str| k != 1 || is_pure_closer(row);

    // Duplicate suffix: the last k rows equal the k lines after the range.
    let after = lines.len() - end;
    for k in (1..=rows.len().min(after)).rev() {
        let tail = &rows[rows.len() - k..];
        let below = &lines[end..end + k];
        if tail.iter().zip(below).all(|(r, l)| r == l)
            && single_ok(k, &tail[0])
            && balance(tail.iter().map(String::as_str)) == delta
        {
            return Repaired {
                rows: rows[..rows.len() - k].to_vec(),
                end,
                warning: Some(messages::repaired(
                    start,
                    &format!("dropped {k} duplicated trailing payload line(s) already present below the range"),
                )),
                consulted: Some(end + 1..=end + k),
            };
        }
    }

    // Duplicate prefix: the first j rows equal the j lines above the range.
    for j in (1..=rows.len().min(start - 1)).rev() {
        let head = &rows[..j];
        let above = &lines[start - 1 - j..start - 1];
        if head.iter().zip(above).all(|(r, l)| r == l)
            && single_ok(j, &head[0])
            && balance(head.iter().map(String::as_str)) == delta
        {
            return Repaired {
                rows: rows[j..].to_vec(),
                end,
                warning: Some(messages::repaired(
                    start,
                    &format!("dropped {j} duplicated leading payload line(s) already present above the range"),
                )),
                consulted: Some(start - j..=start - 1),
            };
        }
    }

    // Dropped closers: the range's last m lines are closers the payload did not restate.
    let want = neg(delta);
    for m in 1..=original.len() {
        let kept = &original[original.len() - m..];
        if !is_pure_closer(kept[0]) {
            break;
        }
        if balance(kept.iter().copied()) == want {
            return Repaired {
                rows: rows.to_vec(),
                end: end - m,
                warning: Some(messages::repaired(
                    start,
                    &format!(
                        "kept {m} structural closing line(s) the range deleted without restating"
                    ),
                )),
                consulted: None,
            };
        }
    }
    unchanged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(r: &[&str]) -> Vec<String> {
        r.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn balance_skips_comments_and_strings() {
        assert_eq!(balance(["f(a, [b]) {"]), [0, 0, 1]);
        assert_eq!(balance(["x = \"(\" + '[' // {"]), [0, 0, 0]);
        assert_eq!(balance(["/* ( ", " ) */ }"]), [0, 0, -1]);
        assert_eq!(balance(["`(", "`)"]), [-1, 0, 0]);
        assert_eq!(balance(["\"(\\\")\" )"]), [-1, 0, 0]);
        assert_eq!(
            balance(["'(", ")"]),
            [-1, 0, 0],
            "single quotes close at end of line"
        );
    }

    #[test]
    fn closers() {
        for l in ["}", "  });", "]],", ")"] {
            assert!(is_pure_closer(l), "{l}");
        }
        for l in ["", ";", "} else {", "x}", "};;"] {
            assert!(!is_pure_closer(l), "{l}");
        }
    }

    #[test]
    fn drops_duplicated_suffix() {
        let lines = [
            "it('a', () => {",
            "\tsetup();",
            "\trun();",
            "});",
            "after();",
        ];
        let r = repair(&lines, 2, 3, &rows(&["\tsetup2();", "\trun2();", "});"]));
        assert_eq!(r.rows, rows(&["\tsetup2();", "\trun2();"]));
        assert_eq!(r.end, 3);
        assert!(r
            .warning
            .expect("warning")
            .contains("at line 2: dropped 1 duplicated trailing"));
        assert_eq!(r.consulted, Some(4..=4));
    }

    #[test]
    fn drops_duplicated_prefix_and_keeps_closers() {
        let lines = ["};", "old();"];
        let r = repair(&lines, 2, 2, &rows(&["};", "new();"]));
        assert_eq!(r.rows, rows(&["new();"]));
        assert!(r
            .warning
            .expect("warning")
            .contains("dropped 1 duplicated leading"));

        let lines = [
            "const handlers = {",
            "\ta() {",
            "\t\treturn 1;",
            "\t},",
            "};",
        ];
        let r = repair(&lines, 5, 5, &rows(&["\tb() {", "\t\treturn 2;", "\t},"]));
        assert_eq!(r.end, 4, "the closer is kept");
        assert!(r
            .warning
            .expect("warning")
            .contains("kept 1 structural closing line(s)"));
    }

    #[test]
    fn balanced_or_unmatched_is_left_alone() {
        let lines = ["a", "b", "c"];
        assert_eq!(repair(&lines, 2, 2, &rows(&["B"])).warning, None);
        // Unbalanced, but nothing to drop or keep.
        let r = repair(&lines, 2, 2, &rows(&["B {"]));
        assert_eq!((r.rows.len(), r.end, r.warning), (1, 2, None));
    }
}
