//! Contamination checks on raw body lines (hashline.md §b table): other patch formats and
//! verb-less headers are refused with a targeted message instead of being auto-piped.
//!
//! Each check re-states one of the seed's regular expressions (`\s` is JavaScript white
//! space, `\d` ASCII digits); the order is the seed's.

use super::js_text::{is_js_space, js_trim_start};
use super::messages;

const SENTINELS: [&str; 5] = [
    "*** Update File:",
    "*** Add File:",
    "*** Delete File:",
    "*** Move to:",
    "*** End of File",
];

/// The message (without `line <L>: `) if `line` is contaminated.
pub(crate) fn contamination(line: &str) -> Option<String> {
    let text = js_trim_start(line);
    if text.is_empty() {
        return None;
    }
    if SENTINELS.iter().any(|s| text.starts_with(s)) {
        return Some(messages::v4a_sentinel(text));
    }
    if is_unified_diff_header(text) {
        return Some(messages::UNIFIED_DIFF_IN_BODY.to_string());
    }
    if text.starts_with("@@") {
        return Some(messages::at_bracketed_header(text));
    }
    if is_delete_with_colon(text) {
        return Some(messages::DELETE_WITH_COLON.to_string());
    }
    if let Some(rest) = line_number(text) {
        if rest.chars().all(is_js_space) {
            return Some(messages::bare_number_header(text));
        }
    }
    bare_range(text).map(|(start, end)| messages::bare_range_header(text, start, end))
}

/// `^@@\s+[-+]?\d+,\d+\s+[-+]?\d+,\d+\s+@@` (also the splitter's first-line check).
pub(crate) fn is_unified_diff_header(text: &str) -> bool {
    fn side(s: &str) -> Option<&str> {
        let s = s.strip_prefix(['-', '+']).unwrap_or(s);
        let s = digits1(s)?.strip_prefix(',')?;
        digits1(s)
    }
    let parse = || -> Option<()> {
        let s = spaces1(text.strip_prefix("@@")?)?;
        let s = spaces1(side(s)?)?;
        let s = spaces1(side(s)?)?;
        s.starts_with("@@").then_some(())
    };
    parse().is_some()
}

/// `^delete\s+[1-9]\d*(?:\s*(?:\.\.|-|…|\s)\s*[1-9]\d*)?\s*:`
fn is_delete_with_colon(text: &str) -> bool {
    let Some(after_verb) = text.strip_prefix("delete").and_then(spaces1) else {
        return false;
    };
    let Some(after_first) = line_number(after_verb) else {
        return false;
    };
    let colon_after = |s: &str| s.trim_start_matches(is_js_space).starts_with(':');
    let second = || -> Option<&str> {
        let spaced = after_first.trim_start_matches(is_js_space);
        let after_sep = match ["..", "-", "…"]
            .iter()
            .find_map(|sep| spaced.strip_prefix(sep))
        {
            Some(rest) => rest,
            None if spaced.len() < after_first.len() => spaced,
            None => return None,
        };
        line_number(after_sep.trim_start_matches(is_js_space))
    };
    second().is_some_and(colon_after) || colon_after(after_first)
}

/// `^([1-9]\d*)\s*[-. …]+\s*([1-9]\d*)\s*:?$` → the two numbers.
fn bare_range(text: &str) -> Option<(&str, &str)> {
    let after_first = line_number(text)?;
    let start = &text[..text.len() - after_first.len()];
    let is_sep = |c: char| matches!(c, '-' | '.' | ' ' | '…');
    let run_len = after_first
        .find(|c: char| !(is_js_space(c) || is_sep(c)))
        .unwrap_or(after_first.len());
    let (run, after_run) = after_first.split_at(run_len);
    if !separator_run_ok(run) {
        return None;
    }
    let rest = line_number(after_run)?;
    let end = &after_run[..after_run.len() - rest.len()];
    let rest = rest.trim_start_matches(is_js_space);
    matches!(rest, "" | ":").then_some((start, end))
}

/// Whether a run of white space and `-` `.` `…` matches `\s*[-. …]+\s*`: the non-space
/// separators and everything between them must be separator characters (space included),
/// and a run of white space only needs one plain space.
fn separator_run_ok(run: &str) -> bool {
    let hard = |c: char| matches!(c, '-' | '.' | '…');
    match (run.find(hard), run.rfind(hard)) {
        (Some(first), Some(last)) => run[first..last].chars().all(|c| hard(c) || c == ' '),
        _ => run.contains(' '),
    }
}

/// `[1-9]\d*` at the start of `s`; returns the rest.
fn line_number(s: &str) -> Option<&str> {
    let rest = s.strip_prefix(|c: char| matches!(c, '1'..='9'))?;
    Some(rest.trim_start_matches(|c: char| c.is_ascii_digit()))
}

/// `\d+` at the start of `s`; returns the rest.
fn digits1(s: &str) -> Option<&str> {
    let rest = s.trim_start_matches(|c: char| c.is_ascii_digit());
    (rest.len() < s.len()).then_some(rest)
}

/// `\s+` at the start of `s`; returns the rest.
fn spaces1(s: &str) -> Option<&str> {
    let rest = s.trim_start_matches(is_js_space);
    (rest.len() < s.len()).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(line: &str, expected: Option<&str>) {
        assert_eq!(contamination(line).as_deref(), expected, "line {line:?}");
    }

    #[test]
    fn sentinels_and_diff_headers() {
        check(
            "*** Update File: a.ts",
            Some("apply_patch sentinel \"*** Update File: a.ts\" is not valid in hashline. File sections start with `¶path#HASH` (no `Update File:` / `Add File:` keyword). Use `replace N..M:`, `delete N..M`, or `insert before|after|head|tail:` ops."),
        );
        assert!(contamination("  *** Delete File: x").is_some());
        assert!(contamination("*** Move to: x").is_some());
        assert!(contamination("*** Update file: x").is_none());
        check("@@ -1,3 +1,3 @@", Some(messages::UNIFIED_DIFF_IN_BODY));
        check("@@ 1,3 1,3 @@ fn x()", Some(messages::UNIFIED_DIFF_IN_BODY));
        check(
            "@@ 2..3 @@",
            Some("`@@`-bracketed hunk header \"@@ 2..3 @@\" is not valid in hashline. Drop the `@@ ... @@` brackets and write a verb header such as `replace N..M:`."),
        );
        assert!(contamination("@@ -1 +1 @@").is_some_and(|m| m.starts_with("`@@`-bracketed")));
    }

    #[test]
    fn delete_with_colon() {
        for line in [
            "delete 2:",
            "delete 2..3:",
            "delete 2 - 3 :",
            "delete 2 3:",
            "delete 2…3: x",
            "  delete 2:",
        ] {
            check(line, Some(messages::DELETE_WITH_COLON));
        }
        for line in [
            "delete block 2:",
            "delete 2.3:",
            "delete2:",
            "delete 0:",
            "delete 2 x:",
        ] {
            assert_ne!(
                contamination(line).as_deref(),
                Some(messages::DELETE_WITH_COLON),
                "{line:?}"
            );
        }
    }

    #[test]
    fn verbless_headers() {
        check("2", Some("hunk headers need a verb. Use `replace 2..2:` to replace, or `delete 2` to delete."));
        check("  12 ", Some("hunk headers need a verb. Use `replace 12 ..12 :` to replace, or `delete 12 ` to delete."));
        check(
            "2 3",
            Some("bare range hunk header \"2 3\" is not valid. Hunk headers need a verb: write `replace 2..3:` or `delete 2..3`."),
        );
        for line in ["2..3", "2-3:", "2 … 3", "2\t- 3", "2 .-. 3:", "10 - 20 :"] {
            assert!(
                contamination(line).is_some_and(|m| m.starts_with("bare range")),
                "{line:?}"
            );
        }
        for line in [
            "2..3:BBB", "2-3→", "2→", "2ab:", "2\t3", "2 -\t- 3", "2..3: ", "02", "0 3",
        ] {
            check(line, None);
        }
    }
}
