//! The replace autocorrections (semantics §7.4–§7.6 as restricted by DEVIATIONS §7 and §9).
//!
//! None of them loses or invents text (only whitespace and exact echoes of surviving lines):
//! * [`strip_boundary_echo`]: a range payload longer than its range that repeats the line before
//!   the range first, or the line after it last, loses that copy (exact comparison, §9).
//! * [`expand_merged`]: a one-line payload for a multi-line range that merges the lines *and
//!   changes text* is re-split at the original line boundaries; each piece keeps its original
//!   line's indentation. A payload that only re-wraps the original text is deliberate and kept
//!   (§7), as is one whose re-split would drop text.
//! * [`restore_indent`]: paired indentation (equal line counts) and first-line indentation.
//!
//! The insert echo (an append whose first row, or a prepend whose last row, repeats its anchor
//! line) is dropped in [`super::plan`], also only when the row equals the anchor exactly: a row
//! that differs in indentation (`}` appended after `  }`) is deliberate.
//!
//! The peer's wrapped-line restoration (§7.5b) is not done: it only ever undoes a deliberate
//! re-wrap (DEVIATIONS §7).

use hashline_anchor::lineid::is_js_whitespace;

use crate::guard::is_one_wrapped_unit;

/// Leading whitespace of `s` (JavaScript `\s`).
pub(crate) fn indent_of(s: &str) -> &str {
    &s[..s.len() - s.trim_start_matches(is_js_whitespace).len()]
}

fn trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

fn squash(s: &str) -> String {
    s.chars().filter(|&c| !is_js_whitespace(c)).collect()
}

/// Which echo rows were dropped: `(first_dropped, last_dropped)`.
pub(crate) fn strip_boundary_echo(
    payload: &mut Vec<String>,
    range_len: usize,
    before: Option<&str>,
    after: Option<&str>,
) -> (bool, bool) {
    if payload.len() < 2 || payload.len() <= range_len {
        return (false, false);
    }
    // A blank row beside a blank line is as often meant (a blank line kept between two
    // blocks) as echoed: it is applied as sent, never dropped.
    let echo =
        |row: Option<&String>, line: &str| row.is_some_and(|p| p == line && !p.trim().is_empty());
    let first = before.is_some_and(|b| echo(payload.first(), b));
    if first {
        payload.remove(0);
    }
    // As the peer: the last row is compared even when dropping the first left only one row.
    let last = after.is_some_and(|a| echo(payload.last(), a));
    if last {
        payload.pop();
    }
    (first, last)
}

const CONTINUATION_TOKENS: [&str; 13] = [
    "&&", "||", "??", "?", ":", "=", ",", "+", "-", "*", "/", ".", "(",
];

fn without_continuation(t: &str) -> Option<&str> {
    let t = t.trim_end_matches(is_js_whitespace);
    CONTINUATION_TOKENS
        .iter()
        .find_map(|tok| t.strip_suffix(tok))
        .map(|s| s.trim_end_matches(is_js_whitespace))
        .filter(|s| !s.is_empty())
}

/// `needle` in `hay[from..]` with `|`, `&`, `?` removed from both; the match as a byte range of
/// `hay`.
fn fuzzy_find(hay: &str, from: usize, needle: &str) -> Option<(usize, usize)> {
    let strip = |c: char| !matches!(c, '|' | '&' | '?');
    let needle: String = needle.chars().filter(|&c| strip(c)).collect();
    if needle.is_empty() {
        return None;
    }
    let mut map: Vec<(usize, usize)> = Vec::new(); // byte start and end in `hay` of each kept char
    let mut fuzzy = String::new();
    for (i, c) in hay[from..].char_indices() {
        if strip(c) {
            map.push((from + i, from + i + c.len_utf8()));
            fuzzy.push(c);
        }
    }
    let at = fuzzy.find(&needle)?;
    let first = fuzzy[..at].chars().count();
    let count = needle.chars().count();
    Some((map.get(first)?.0, map.get(first + count - 1)?.1))
}

fn locate(hay: &str, from: usize, line: &str) -> Option<(usize, usize)> {
    let t = trim(line);
    if t.is_empty() {
        return None;
    }
    if let Some(i) = hay[from..].find(t) {
        return Some((from + i, from + i + t.len()));
    }
    if let Some(short) = without_continuation(t) {
        if let Some(i) = hay[from..].find(short) {
            return Some((from + i, from + i + short.len()));
        }
    }
    fuzzy_find(hay, from, t)
}

fn split_at_matches(merged: &str, original: &[&str]) -> Option<Vec<String>> {
    let mut starts = Vec::with_capacity(original.len());
    let mut offset = 0;
    for line in original {
        let (start, end) = locate(merged, offset, line)?;
        starts.push(start);
        offset = end;
    }
    if !trim(&merged[..starts[0]]).is_empty() {
        return None; // would drop the text before the first match
    }
    let pieces: Vec<String> = (0..starts.len())
        .map(|i| {
            trim(&merged[starts[i]..starts.get(i + 1).copied().unwrap_or(merged.len())]).to_string()
        })
        .collect();
    pieces.iter().all(|p| !p.is_empty()).then_some(pieces)
}

fn split_on_semicolons(merged: &str, count: usize) -> Option<Vec<String>> {
    // Split after every `;` that is followed by whitespace; the `;` stays with its piece.
    // Never inside a string literal (`"text/plain; charset=utf-8"`).
    let mut pieces = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut chars = merged.chars().peekable();
    while let Some(c) = chars.next() {
        current.push(c);
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
            None => {
                if c == ';' && chars.peek().is_some_and(|&n| is_js_whitespace(n)) {
                    pieces.push(std::mem::take(&mut current));
                }
            }
        }
    }
    pieces.push(current);
    let pieces: Vec<String> = pieces
        .iter()
        .map(|p| trim(p).to_string())
        .filter(|p| !p.is_empty())
        .collect();
    (pieces.len() == count).then_some(pieces)
}

/// Re-split a one-line payload that merged the `original` lines (see the module doc); `None`
/// when it declines.
pub(crate) fn expand_merged(original: &[&str], payload: &[String]) -> Option<Vec<String>> {
    let [merged] = payload else { return None };
    if original.len() < 2
        || original.iter().any(|l| trim(l).is_empty())
        || is_one_wrapped_unit(original)
    {
        return None;
    }
    let pieces = split_at_matches(merged, original)
        .or_else(|| split_on_semicolons(merged, original.len()))?;
    let joined = squash(&pieces.concat());
    if joined != squash(merged) {
        return None; // would lose text
    }
    if joined == squash(&original.concat()) {
        return None; // only re-wraps the original: deliberate (DEVIATIONS §7)
    }
    // Each piece keeps its original line's indentation, and its terminator style: the `;` that
    // joined two lines of a language without them (Go, Python) is the join, not content.
    let last = pieces.len() - 1;
    Some(
        pieces
            .into_iter()
            .zip(original)
            .enumerate()
            .map(|(i, (p, o))| {
                let p = match p.strip_suffix(';') {
                    Some(bare) if i < last && !trim(o).ends_with(';') => bare.to_string(),
                    _ => p,
                };
                format!("{}{p}", indent_of(o))
            })
            .collect(),
    )
}

fn reindent(row: &mut String, template: &str) -> bool {
    let ind = indent_of(template);
    if row.is_empty() || !indent_of(row).is_empty() || ind.is_empty() || trim(row) == trim(template)
    {
        return false;
    }
    row.insert_str(0, ind);
    true
}

/// The lines that survive around a replaced range: the nearest non-blank line before it and
/// after it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Around<'a> {
    pub before: Option<&'a str>,
    pub after: Option<&'a str>,
}

impl Around<'_> {
    /// Whether a row at column 0 would leave the block it sits in: the line before opens a
    /// block whose body the row would leave empty, or the line before is indented or opens a
    /// bracket and the line after is indented or closes one.
    fn inside_block(&self) -> bool {
        let opens = |l: &str| {
            let t = trim(l);
            ["{", ":", "(", "["].iter().any(|k| t.ends_with(k))
        };
        let closes = |l: &str| trim(l).starts_with(['}', ')', ']']);
        let indented = |l: &str| !indent_of(l).is_empty();
        self.before.is_some_and(opens_body)
            || (self.before.is_some_and(|b| indented(b) || opens(b))
                && self.after.is_some_and(|a| indented(a) || closes(a)))
    }
}

/// Whether `line` opens a block that must have an indented body: it ends with `{`, or it is a
/// Python block header (a compound-statement keyword, ending with `:`). A prose line ending
/// with `:` (a label, a heading) opens nothing.
fn opens_body(line: &str) -> bool {
    const HEADERS: [&str; 14] = [
        "if", "elif", "else", "for", "while", "def", "class", "with", "try", "except", "finally",
        "async", "match", "case",
    ];
    let t = trim(line);
    let word: String = t.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    t.ends_with('{') || (t.ends_with(':') && HEADERS.contains(&word.as_str()))
}

/// Whether row `row` at column 0, replacing `orig`, lost its indentation: the original line
/// held only white space (the indentation typed for it), or the row would leave the block it
/// sits in and is no closer. A correct request is never changed otherwise.
fn lost_indent(row: &str, orig: &str, around: Around<'_>) -> bool {
    if trim(orig).is_empty() {
        return true;
    }
    // A closer ends the block; a `#` line (a comment, a preprocessor directive) may sit at
    // column 0 anywhere.
    !trim(row).starts_with(['}', ')', ']', '#']) && around.inside_block()
}

/// Paired indentation (equal counts) then first-line indentation, only where the evidence
/// says the indentation was lost ([`lost_indent`]); the 1-based rows changed.
pub(crate) fn restore_indent(
    original: &[&str],
    payload: &mut [String],
    around: Around<'_>,
) -> Vec<usize> {
    let mut changed = Vec::new();
    if payload.len() == original.len() {
        for (i, (row, orig)) in payload.iter_mut().zip(original).enumerate() {
            if lost_indent(row, orig, around) && reindent(row, orig) {
                changed.push(i + 1);
            }
        }
    }
    if let (Some(row), Some(first)) = (payload.first_mut(), original.first()) {
        if lost_indent(row, first, around) && reindent(row, first) {
            changed.push(1);
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(rows: &[&str]) -> Vec<String> {
        rows.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn merged_with_changes_is_resplit_with_indent() {
        assert_eq!(
            expand_merged(&["return a || b", "done"], &v(&["return a && b done"])),
            Some(v(&["return a && b", "done"]))
        );
        assert_eq!(
            expand_merged(
                &["const a = 1;", "const b = 2;"],
                &v(&["const a = 10; const b = 20;"])
            ),
            Some(v(&["const a = 10;", "const b = 20;"]))
        );
        // One condition wrapped over two lines, joined with a change: a deliberate reflow.
        assert_eq!(
            expand_merged(&["  if (x &&", "    y) {"], &v(&["if (x && z &&  y) {"])),
            None
        );
        assert_eq!(
            expand_merged(
                &["  let a = 1;", "  let b = 2;"],
                &v(&["let a = 3; let b = 4;"])
            ),
            Some(v(&["  let a = 3;", "  let b = 4;"]))
        );
    }

    #[test]
    fn merged_declines() {
        assert_eq!(
            expand_merged(&["foo(a,", "  b)"], &v(&["foo(a, b)"])),
            None,
            "pure re-join"
        );
        assert_eq!(
            expand_merged(&["a = 1;", "", "b = 2;"], &v(&["a = 10; b = 20; c = 30;"])),
            None
        );
        assert_eq!(
            expand_merged(&["  x = 1;", "  y = 2;"], &v(&["x = 5; y = 6; z = 7;"])),
            None
        );
        assert_eq!(
            expand_merged(&["b()", "c()"], &v(&["a() b() c() d"])),
            None,
            "would drop a()"
        );
    }

    #[test]
    fn wrapped_units_are_deliberate_joins() {
        // A closer joined with the next line as a cuddled `} else if`.
        let cuddle = ["  }", "  if (b) {"];
        assert_eq!(expand_merged(&cuddle, &v(&["  } else if (b) {"])), None);
        // A cuddled `else` joined onto its closer.
        assert_eq!(
            expand_merged(&["  }", "  else if (b) {"], &v(&["  } else if (c) {"])),
            None
        );
        // A call chain joined into one line.
        let chain = ["  return fetch(url)", "    .then((r) => r.json());"];
        assert_eq!(
            expand_merged(&chain, &v(&["  return fetch(u).then((r) => r.json());"])),
            None
        );
        // A bullet re-wrapped with a changed word.
        let bullet = ["- Adds the cache and", "  its eviction policy."];
        assert_eq!(
            expand_merged(&bullet, &v(&["- Adds the cache and the eviction policy."])),
            None
        );
        // A one-line `if x: return` join (Python) is deliberate.
        let py = ["    if not fresh:", "        return 0"];
        assert_eq!(
            expand_merged(&py, &v(&["    if not fresh: return 0  # none"])),
            None
        );
        // Two statements merged are still re-split.
        let two = ["    self.a = 1;", "    self"];
        assert!(expand_merged(&two, &v(&["    self.a = 2; self"])).is_some());
    }

    #[test]
    fn semicolons_inside_strings_do_not_split() {
        let orig = ["\tw.Header().Set(\"A\", \"x\")", "\tfmt.Fprint(w, \"b\")"];
        let merged =
            v(&["\tw.Header().Set(\"A\", \"text/plain; charset=utf-8\"); fmt.Fprint(w, \"c\")"]);
        let got = expand_merged(&orig, &merged);
        assert!(
            got.as_ref()
                .is_none_or(|rows| rows.iter().all(|r| !r.ends_with("text/plain;"))),
            "{got:?}"
        );
    }

    #[test]
    fn a_joining_semicolon_is_dropped_where_the_lines_had_none() {
        let go = ["\tx := 1", "\ty := 2"];
        assert_eq!(
            expand_merged(&go, &v(&["\tx := 3; y := 4"])),
            Some(v(&["\tx := 3", "\ty := 4"]))
        );
    }

    #[test]
    fn semicolons() {
        assert_eq!(
            split_on_semicolons("a; b;c; d", 3),
            Some(v(&["a;", "b;c;", "d"]))
        );
        assert_eq!(split_on_semicolons("a;b", 1), Some(v(&["a;b"])));
    }

    const BLOCK: Around<'static> = Around {
        before: Some("if (x) {"),
        after: Some("}"),
    };

    #[test]
    fn indentation() {
        let mut p = v(&["return 3", "return 4"]);
        assert_eq!(
            restore_indent(&["  return 1", "  return 2"], &mut p, BLOCK),
            vec![1, 2]
        );
        assert_eq!(p, v(&["  return 3", "  return 4"]));
        let mut p = v(&["indented"]);
        assert!(restore_indent(&["    indented"], &mut p, BLOCK).is_empty());
        let mut p = v(&["x() {}", "y() {}"]);
        restore_indent(&["    foo() {}"], &mut p, BLOCK);
        assert_eq!(p, v(&["    x() {}", "y() {}"]));
    }

    #[test]
    fn indentation_is_restored_only_where_it_was_lost() {
        // Inside a function body, a statement sent at column 0: restored.
        let body = Around {
            before: Some("    let a = 1;"),
            after: Some("}"),
        };
        let mut p = v(&["let b = 3;"]);
        assert_eq!(restore_indent(&["    let b = 2;"], &mut p, body), vec![1]);
        // A closer at column 0 ends the block: kept (`} & T;` closing a type literal).
        let mut p = v(&["} & TransformCommon;"]);
        assert!(restore_indent(&["\t} & Common;"], &mut p, BLOCK).is_empty());
        // Between lines at column 0 (prose quotes, a top-level call): kept.
        let top = Around {
            before: Some("text"),
            after: Some("more"),
        };
        let mut p = v(&[">    quoted"]);
        assert!(restore_indent(&["    >    quoted"], &mut p, top).is_empty());
        let after_body = Around {
            before: Some("    return 0"),
            after: None,
        };
        let mut p = v(&["sys.exit(main())"]);
        assert!(restore_indent(&["    exit(main())"], &mut p, after_body).is_empty());
        // Right under a Python block header, at the end of the file: the body would be empty.
        let header = Around {
            before: Some("    if not name:"),
            after: None,
        };
        let mut p = v(&["return \"hi\""]);
        assert_eq!(
            restore_indent(&["        return \"hello\""], &mut p, header),
            vec![1]
        );
        // Under a prose label ending with `:`: kept as sent.
        let label = Around {
            before: Some("Eagerness:"),
            after: None,
        };
        let mut p = v(&[">    quoted"]);
        assert!(restore_indent(&["    quoted"], &mut p, label).is_empty());
    }

    #[test]
    fn boundary_echo_is_exact() {
        let mut p = v(&["before", "n1", "n2", "after"]);
        assert_eq!(
            strip_boundary_echo(&mut p, 2, Some("before"), Some("after")),
            (true, true)
        );
        assert_eq!(p, v(&["n1", "n2"]));
        // Both copies go, even when that leaves nothing (the peer does so: the range is deleted).
        let mut p = v(&["before", "after"]);
        assert_eq!(
            strip_boundary_echo(&mut p, 1, Some("before"), Some("after")),
            (true, true)
        );
        assert!(p.is_empty());
        let mut p = v(&["n1", "n2", "      after"]);
        assert_eq!(
            strip_boundary_echo(&mut p, 2, None, Some("    after")),
            (false, false)
        );
    }
}
