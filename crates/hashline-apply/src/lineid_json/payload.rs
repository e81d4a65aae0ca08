//! Payload prefix stripping (semantics §7.1 as restricted by DEVIATIONS §6).
//!
//! * Pasted anchor prefixes (`N#ID|`, `#ID|`, also `>>> N#ID|` and `    N#ID|` rows copied from a
//!   mismatch report) are stripped only when **every** non-blank payload line carries one; a
//!   prefix on only some lines is refused, never written.
//! * `+` diff markers are stripped only when every non-blank line carries exactly one `+`, there
//!   are at least two such lines, and no line of the file itself starts with `+` (a file of `+`
//!   bullets or a diff file keeps its `+`, with a warning). A single `+ item` line stays.
//! * A payload made only of `-` and `+` rows (at least one of each) is a diff, not content:
//!   refused, unless the file itself has lines starting with `+` (then it is content).

use super::error::EngineError;

/// Byte length of a pasted anchor prefix at the start of `line`:
/// `\s* (>>>|>>)? \s* \d* \s* # \s* [ALPH]{2} |`.
pub(crate) fn anchor_prefix_len(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < b.len() && (b[*i] == b' ' || b[*i] == b'\t') {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    if line[i..].starts_with(">>>") {
        i += 3;
    } else if line[i..].starts_with(">>") {
        i += 2;
    }
    skip_ws(&mut i);
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    skip_ws(&mut i);
    if b.get(i) != Some(&b'#') {
        return None;
    }
    i += 1;
    skip_ws(&mut i);
    let id = b.get(i..i + 2)?;
    if !id.iter().all(|c| b"ZPMQVRWSNKTXJBYH".contains(c)) {
        return None;
    }
    i += 2;
    (b.get(i) == Some(&b'|')).then_some(i + 1)
}

fn single_plus(line: &str) -> bool {
    line.starts_with('+') && !line.starts_with("++")
}

fn single_minus(line: &str) -> bool {
    line.starts_with('-') && !line.starts_with("--")
}

/// The cleaned payload of `edits[index]` (0-based, as the peer numbers edits) and the
/// autocorrect warnings. `file` = the lines of the file being edited.
pub(crate) fn clean(
    index: usize,
    lines: Vec<String>,
    file: &[&str],
    warnings: &mut Vec<String>,
) -> Result<Vec<String>, EngineError> {
    let counted: Vec<&String> = lines.iter().filter(|l| !l.trim().is_empty()).collect();
    if counted.is_empty() {
        return Ok(lines);
    }
    let with_prefix = counted
        .iter()
        .filter(|l| anchor_prefix_len(l).is_some())
        .count();
    if with_prefix == counted.len() {
        let stripped = lines
            .into_iter()
            .map(|l| match anchor_prefix_len(&l) {
                Some(n) => l[n..].to_string(),
                None => l,
            })
            .collect();
        warnings.push(format!(
            "[W_AUTOCORRECT] autocorrect: stripped pasted `N#ID|` prefixes from {with_prefix} payload line{} of edits[{index}]",
            plural(with_prefix)
        ));
        return Ok(stripped);
    }
    if with_prefix > 0 {
        let (row, line) = lines
            .iter()
            .enumerate()
            .find(|(_, l)| anchor_prefix_len(l).is_some())
            .map(|(i, l)| (i + 1, l.as_str()))
            .unwrap_or((0, ""));
        return Err(EngineError::Pasted {
            message: format!(
                "Edit {index}: payload row {row} starts with a pasted LINE#ID prefix ({line:?}) but other rows do not. \
                 Send plain replacement text without `N#ID|` prefixes (or prefix every row if the prefixes are pasted)."
            ),
        });
    }
    let plus = counted.iter().filter(|l| single_plus(l)).count();
    let minus = counted.iter().filter(|l| single_minus(l)).count();
    // `+` rows are content in a file that has `+` lines of its own (bullets, a diff file).
    // Asked only when there are `+` rows: it reads the whole file.
    let file_has_plus = || file.iter().any(|l| single_plus(l.trim_start()));
    if plus > 0 && minus > 0 && plus + minus == counted.len() && !file_has_plus() {
        return Err(EngineError::Pasted {
            message: format!(
                "Edit {index}: lines look like a diff ({minus} row{} starting with '-', {plus} with '+'). \
                 Send only the new content, without diff markers.",
                plural(minus)
            ),
        });
    }
    if plus == counted.len() && plus >= 2 && file_has_plus() {
        warnings.push(format!(
            "[W_DIFF_MARKERS] kept the `+` at the start of {plus} payload lines of edits[{index}] as sent: the file has lines starting with `+` of its own. If they are diff markers, send the lines without them"
        ));
        return Ok(lines);
    }
    // `+ text` on every row is a Markdown `+` bullet list, not diff markers (those are glued
    // to the content or followed by its indentation): kept as sent.
    let bullets = counted.iter().all(|l| {
        l.strip_prefix("+ ")
            .is_some_and(|t| !t.starts_with([' ', '\t']) && !t.is_empty())
    });
    if plus == counted.len() && plus >= 2 && !bullets {
        let stripped = lines
            .into_iter()
            .map(|l| {
                if single_plus(&l) {
                    l[1..].to_string()
                } else {
                    l
                }
            })
            .collect();
        warnings.push(format!(
            "[W_AUTOCORRECT] autocorrect: stripped `+` diff markers from {plus} payload lines of edits[{index}]"
        ));
        return Ok(stripped);
    }
    Ok(lines)
}

pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(rows: &[&str]) -> Vec<String> {
        rows.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn prefix_forms() {
        assert_eq!(anchor_prefix_len("12#VK|x"), Some(6));
        assert_eq!(anchor_prefix_len(">>> 2#XH|B1"), Some(9));
        assert_eq!(anchor_prefix_len("    3#PX|B2"), Some(9));
        assert_eq!(anchor_prefix_len("#KW|'use client';"), Some(4));
        assert_eq!(anchor_prefix_len("anchor: 1#AB format"), None);
        assert_eq!(anchor_prefix_len("1#ab|x"), None);
    }

    #[test]
    fn strips_only_when_every_row_is_prefixed() {
        let mut w = Vec::new();
        assert_eq!(
            clean(1, v(&["1#ZZ|a", "", "2#PM|b"]), &[], &mut w),
            Ok(v(&["a", "", "b"]))
        );
        assert_eq!(w.len(), 1);
        assert!(matches!(
            clean(1, v(&["4#ZZ|one", "two"]), &[], &mut w),
            Err(EngineError::Pasted { .. })
        ));
    }

    #[test]
    fn plus_and_diff_rows() {
        let mut w = Vec::new();
        assert_eq!(clean(1, v(&["+ item"]), &[], &mut w), Ok(v(&["+ item"])));
        assert_eq!(
            clean(1, v(&["+a", "+b"]), &["x"], &mut w),
            Ok(v(&["a", "b"]))
        );
        assert_eq!(
            clean(1, v(&["+a", "+b"]), &["+ x"], &mut w),
            Ok(v(&["+a", "+b"]))
        );
        // A `+` line anywhere in the file makes `+` rows content, also a `-`/`+` payload.
        assert_eq!(
            clean(
                1,
                v(&["+ c", "+ d"]),
                &["# List", "+ a", "", "# Other"],
                &mut w
            ),
            Ok(v(&["+ c", "+ d"]))
        );
        assert_eq!(
            clean(1, v(&["- c", "+ d"]), &["- a", "  + b"], &mut w),
            Ok(v(&["- c", "+ d"]))
        );
        assert_eq!(
            clean(1, v(&["++i;", "++j;"]), &[], &mut w),
            Ok(v(&["++i;", "++j;"]))
        );
        assert!(matches!(
            clean(1, v(&["-b", "+B"]), &[], &mut w),
            Err(EngineError::Pasted { .. })
        ));
        assert_eq!(
            clean(1, v(&["- a", "- b"]), &[], &mut w),
            Ok(v(&["- a", "- b"]))
        );
    }
}
