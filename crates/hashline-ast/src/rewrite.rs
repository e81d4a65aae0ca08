//! Rewriting one file's original tree with compiled rules.
//!
//! Every rule runs on the original tree; a match nested in an earlier match of the same rule
//! yields to it (reported as skipped); byte-identical edits of two rules count once; any other
//! overlap between rules refuses the call.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::AstGrep;
use ast_grep_language::SupportLang;

use crate::compile::CompiledRule;
use crate::error::AstError;
use crate::gaps::{self, GapNote};

/// One replacement staged in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Staged {
    pub rule: usize,
    /// Byte range in the file's original bytes (BOM included).
    pub range: Range<usize>,
    pub line: usize,
    pub column: usize,
    pub before: String,
    pub after: String,
}

/// A match that yielded to an enclosing match of the same rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Nested {
    pub rule: usize,
    pub line: usize,
    pub outer_line: usize,
}

/// What rewriting one file produced.
pub(crate) enum FileOutcome {
    /// The file cannot be rewritten: the issue to list.
    Issue(String),
    /// The staged edits (sorted, non-overlapping; possibly none), the skipped nested matches,
    /// for a file searched around known grammar gaps ([`gaps`]) where they are, and the parse of
    /// the original (BOM-free) text when it has no gap and no carriage return, for the syntax
    /// guard's incremental reparse.
    Rewrite {
        original: Vec<u8>,
        edits: Vec<Staged>,
        nested: Vec<Nested>,
        gap: Option<GapNote>,
        tree: Option<tree_sitter::Tree>,
    },
}

impl FileOutcome {
    /// The search's tree, taken out of the outcome (`None` for an issue or a file without one).
    pub(crate) fn take_tree(&mut self) -> Option<tree_sitter::Tree> {
        match self {
            FileOutcome::Rewrite { tree, .. } => tree.take(),
            FileOutcome::Issue(_) => None,
        }
    }

    /// A file searched (or not worth searching) without a match: nothing to rewrite.
    pub(crate) fn untouched(original: Vec<u8>) -> FileOutcome {
        FileOutcome::Rewrite {
            original,
            edits: Vec::new(),
            nested: Vec::new(),
            gap: None,
            tree: None,
        }
    }
}

const BOM: &str = "\u{feff}";

/// Byte offsets of line starts, for 1-based line/column lookups in O(log n).
struct LineIndex<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> LineIndex<'t> {
    fn new(text: &'t str) -> Self {
        let starts = std::iter::once(0)
            .chain(
                text.bytes()
                    .enumerate()
                    .filter(|(_, b)| *b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        Self { text, starts }
    }

    /// 1-based line and 1-based character column of byte `pos`.
    fn line_col(&self, pos: usize) -> (usize, usize) {
        let line = self.starts.partition_point(|&s| s <= pos);
        let start = self
            .starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(0);
        let column = self.text.get(start..pos).map_or(0, |s| s.chars().count());
        (line.max(1), column + 1)
    }
}

/// Rewrite `original` (the bytes of `display`) with `rules`, all compiled for `lang`.
/// `rules` are in application order; `patterns[i]` is the pattern text of request rule `i`.
pub(crate) fn rewrite_file(
    display: &str,
    original: Vec<u8>,
    lang: SupportLang,
    rules: &[&CompiledRule],
    patterns: &[String],
) -> Result<FileOutcome, AstError> {
    let Ok(text) = std::str::from_utf8(&original) else {
        return Ok(FileOutcome::Issue(format!(
            "{display}: not UTF-8 text; skipped"
        )));
    };
    let (offset, src) = match text.strip_prefix(BOM) {
        Some(rest) => (BOM.len(), rest),
        None => (0, text),
    };
    // The literal prefilter (`literal.rs`): a file that lacks a text every match of every rule
    // must contain is not parsed (nor listed when it would not parse): nothing in it can match.
    if !rules
        .iter()
        .any(|c| c.literals.iter().any(|l| l.may_match(src)))
    {
        return Ok(FileOutcome::untouched(original));
    }
    let crlf = text
        .find('\n')
        .is_some_and(|i| i > 0 && text.as_bytes()[i - 1] == b'\r');
    let Ok(ast) = AstGrep::<StrDoc<SupportLang>>::try_new(src, lang) else {
        return Ok(FileOutcome::Issue(format!(
            "{display}: parse error (the parser produced no tree)"
        )));
    };
    let root = ast.root();
    // Errors that only known grammar gaps cause do not make a valid file a parse error: it is
    // searched, and matches are kept where the masked tree agrees.
    let gaps = match root.get_inner_node().has_error() {
        false => None,
        true => match gaps::explain(lang, src) {
            Some(gaps) => Some(gaps),
            None => {
                return Ok(FileOutcome::Issue(format!(
                    "{display}: parse error (syntax tree contains error nodes)"
                )))
            }
        },
    };
    let lines = LineIndex::new(text);
    let mut edits: Vec<Staged> = Vec::new();
    let mut nested = Vec::new();
    let mut set_aside: Vec<usize> = Vec::new();
    for compiled in rules {
        // Every match of every variant of the rule, one per byte range. Only its range is kept,
        // with its replacement when it may be an outer match: a match inside an earlier match
        // of its own variant (the search visits the tree in pre-order, outer before inner) is
        // nested whatever the other variants found, so its replacement is never rendered, and
        // the match itself (a node and its captures, several KB) is dropped at once. So deeply
        // nested matches cost linear, not quadratic, time and memory (issue 11 §7: rendering
        // every nested `[$$$A]` of a 200 KB file took 9.8 GB), and a file of 100,000 matches
        // holds their ranges and replacements, not their matches (issue 28 §6).
        // Each range seen, and whether it was kept (not set aside by a grammar gap).
        let mut seen_ranges: HashMap<(usize, usize), bool> = HashMap::new();
        let mut found: Vec<(Range<usize>, Option<String>)> = Vec::new();
        let variants = compiled.patterns.iter().zip(&compiled.literals);
        for (pattern, _) in variants.filter(|(_, lit)| lit.may_match(src)) {
            // This variant's latest match not inside another of its kept matches.
            let mut outer: Option<Range<usize>> = None;
            for m in root.find_all(pattern) {
                let r = m.range();
                let inside = outer
                    .as_ref()
                    .is_some_and(|o| r.start >= o.start && r.start < o.end && r.end <= o.end);
                match seen_ranges.get(&(r.start, r.end)) {
                    Some(&kept) => {
                        if kept && !inside {
                            outer = Some(r);
                        }
                        continue;
                    }
                    None => {
                        let kept = gaps.as_ref().is_none_or(|g| g.trusts(&m));
                        seen_ranges.insert((r.start, r.end), kept);
                        if !kept {
                            set_aside.push(lines.line_col(r.start + offset).0);
                            continue;
                        }
                    }
                }
                let after = (!inside).then(|| {
                    let inserted = m.replace_by(&compiled.fix).inserted_text;
                    let after = String::from_utf8_lossy(&inserted).into_owned();
                    if crlf {
                        to_crlf(&after)
                    } else {
                        after
                    }
                });
                if !inside {
                    outer = Some(r.clone());
                }
                found.push((r, after));
            }
        }
        drop(seen_ranges);
        found.sort_by(|a, b| a.0.start.cmp(&b.0.start).then(b.0.end.cmp(&a.0.end)));
        let ranges: Vec<Range<usize>> = found.iter().map(|(r, _)| r.clone()).collect();
        let yields = enclosing_outer(&ranges);
        for ((r, after), outer) in found.into_iter().zip(yields) {
            let range = r.start + offset..r.end + offset;
            let (line, column) = lines.line_col(range.start);
            if let Some(o) = outer {
                nested.push(Nested {
                    rule: compiled.rule,
                    line,
                    outer_line: lines.line_col(ranges[o].start + offset).0,
                });
                continue;
            }
            // An outer match is inside no match of its own variant, so it was rendered.
            let Some(after) = after else {
                return Ok(FileOutcome::Issue(format!(
                    "{display}: internal matcher error (an outer match was not rendered); skipped"
                )));
            };
            let before = text[range.clone()].to_string();
            if before == after {
                continue;
            }
            edits.push(Staged {
                rule: compiled.rule,
                range,
                line,
                column,
                before,
                after,
            });
        }
    }
    // Byte-identical edits of different rules count once (the first rule in order wins).
    let firsts: Vec<bool> = {
        let mut seen: HashSet<(usize, usize, &str)> = HashSet::with_capacity(edits.len());
        edits
            .iter()
            .map(|e| seen.insert((e.range.start, e.range.end, e.after.as_str())))
            .collect()
    };
    let mut unique: Vec<Staged> = edits
        .into_iter()
        .zip(firsts)
        .filter_map(|(e, first)| first.then_some(e))
        .collect();
    unique.sort_by_key(|e| (e.range.start, e.range.end));
    for pair in unique.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if b.range.start < a.range.end || (b.range.start == a.range.start && a.range.is_empty()) {
            return Err(AstError::EditConflict {
                first_rule: patterns.get(a.rule).cloned().unwrap_or_default(),
                first_at: format!("{display}:{}:{}", a.line, a.column),
                second_rule: patterns.get(b.rule).cloned().unwrap_or_default(),
                second_at: format!("{display}:{}:{}", b.line, b.column),
            });
        }
    }
    let gap = gaps.map(|g| {
        let mut gap_lines: Vec<usize> = g
            .spans
            .iter()
            .map(|s| lines.line_col(s.start + offset).0)
            .collect();
        gap_lines.dedup();
        set_aside.sort_unstable();
        set_aside.dedup();
        GapNote {
            lines: gap_lines,
            set_aside,
        }
    });
    let tree = (gap.is_none() && !text.contains('\r')).then(|| root.get_doc().tree.clone());
    Ok(FileOutcome::Rewrite {
        original,
        edits: unique,
        nested,
        gap,
        tree,
    })
}

/// For each of `ranges` (sorted by start, then longest first), the index of the outer match it
/// yields to, or `None` when it is an outer match itself. A range yields to the latest outer
/// match that contains it; one pass, linear in the number of matches: the replacement text is
/// rendered for outer matches only.
fn enclosing_outer(ranges: &[Range<usize>]) -> Vec<Option<usize>> {
    let mut outer: Option<usize> = None;
    ranges
        .iter()
        .enumerate()
        .map(|(i, range)| {
            let inside =
                outer.filter(|&o| range.start < ranges[o].end && range.end <= ranges[o].end);
            if inside.is_none() {
                outer = Some(i);
            }
            inside
        })
        .collect()
}

/// `\n` not preceded by `\r` becomes `\r\n`.
fn to_crlf(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut prev = '\0';
    for c in s.chars() {
        if c == '\n' && prev != '\r' {
            out.push('\r');
        }
        out.push(c);
        prev = c;
    }
    out
}

/// `original` with each `(range, replacement)` (sorted, non-overlapping byte ranges) spliced in.
pub(crate) fn splice<'e>(
    original: &[u8],
    edits: impl IntoIterator<Item = (Range<usize>, &'e str)>,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(original.len());
    let mut at = 0;
    for (range, after) in edits {
        out.extend_from_slice(&original[at..range.start]);
        out.extend_from_slice(after.as_bytes());
        at = range.end;
    }
    out.extend_from_slice(&original[at..]);
    out
}

/// The `(range, replacement)` pairs of staged matches, for [`splice`].
pub(crate) fn staged_pairs(edits: &[Staged]) -> impl Iterator<Item = (Range<usize>, &str)> {
    edits.iter().map(|e| (e.range.clone(), e.after.as_str()))
}

#[cfg(all(test, feature = "lang-typescript"))]
mod tests {
    use super::*;
    use crate::compile::{compile_rule, Compiled};
    use crate::lang::{self, LangSpec};
    use crate::request::{Rule, Strictness};

    fn ts() -> &'static LangSpec {
        lang::spec_for_name("ts").expect("ts")
    }

    fn compiled(rules: &[(&str, &str)]) -> Vec<CompiledRule> {
        rules
            .iter()
            .enumerate()
            .map(
                |(i, (p, r))| match compile_rule(i, &Rule::new(*p, *r), ts(), Strictness::Smart) {
                    Ok(Compiled::Ok(c)) => c,
                    Ok(Compiled::Failed(e)) => panic!("{p}: {e}"),
                    Err(e) => panic!("{p}: {e}"),
                },
            )
            .collect()
    }

    fn run(rules: &[(&str, &str)], src: &str) -> Result<FileOutcome, AstError> {
        let c = compiled(rules);
        let refs: Vec<&CompiledRule> = c.iter().collect();
        let pats: Vec<String> = rules.iter().map(|r| r.0.to_string()).collect();
        rewrite_file(
            "a.ts",
            src.as_bytes().to_vec(),
            SupportLang::TypeScript,
            &refs,
            &pats,
        )
    }

    fn rewritten(outcome: FileOutcome) -> (String, Vec<Staged>, Vec<Nested>) {
        match outcome {
            FileOutcome::Rewrite {
                original,
                edits,
                nested,
                ..
            } => (
                String::from_utf8(splice(&original, staged_pairs(&edits))).expect("utf8"),
                edits,
                nested,
            ),
            FileOutcome::Issue(i) => panic!("issue: {i}"),
        }
    }

    #[test]
    fn prefilter_keeps_every_match_and_the_parse_errors_of_candidates() {
        let src = "foo(1);\nif (a == null) foo(2);\n";
        let (out, edits, _) =
            rewritten(run(&[("foo($A);", "bar($A);"), ("$A == null", "!$A")], src).expect("ok"));
        assert_eq!(edits.len(), 3, "{out}");
        assert_eq!(out, "bar(1);\nif (!a) bar(2);\n");
        // A broken file that holds the pattern's texts is listed as a parse issue; one that
        // lacks them cannot match and is not parsed (the literal prefilter, `literal.rs`).
        match run(&[("neverHere($A)", "x")], "neverHere(a);\nlet a = (\n").expect("ok") {
            FileOutcome::Issue(i) => assert!(i.contains("error nodes"), "{i}"),
            FileOutcome::Rewrite { .. } => panic!("should be an issue"),
        }
        let (_, edits, _) = rewritten(run(&[("neverHere($A)", "x")], "let a = (\n").expect("ok"));
        assert!(edits.is_empty(), "not parsed: no issue");
        let (_, edits, _) = rewritten(run(&[("neverHere($A)", "x")], "foo(1);\n").expect("ok"));
        assert!(edits.is_empty());
    }

    #[test]
    fn line_index_counts_lines_and_characters() {
        let idx = LineIndex::new("ab\néx\n\nz");
        assert_eq!(idx.line_col(0), (1, 1));
        assert_eq!(idx.line_col(2), (1, 3));
        assert_eq!(idx.line_col(3), (2, 1));
        assert_eq!(idx.line_col(5), (2, 2), "é is one character");
        assert_eq!(idx.line_col(7), (3, 1));
        assert_eq!(idx.line_col(8), (4, 1));
    }

    #[test]
    fn nested_match_yields_to_outer() {
        let (out, edits, nested) =
            rewritten(run(&[("foo($A)", "bar($A)")], "foo(foo(1));\n").expect("ok"));
        assert_eq!(out, "bar(foo(1));\n");
        assert_eq!(edits.len(), 1);
        assert_eq!(
            nested,
            [Nested {
                rule: 0,
                line: 1,
                outer_line: 1
            }]
        );
    }

    #[test]
    fn cross_rule_overlap_refuses() {
        let err = run(
            &[("$E.unwrap()", "$E!"), ("foo($$$A)", "bar($$$A)")],
            "foo(1, 2).unwrap();\n",
        )
        .err()
        .expect("conflict");
        assert!(matches!(err, AstError::EditConflict { .. }), "{err}");
        assert!(err.to_string().contains("a.ts:1:1"), "{err}");
    }

    #[test]
    fn identical_edits_of_two_rules_count_once() {
        let (out, edits, _) = rewritten(
            run(&[("foo($A)", "bar($A)"), ("foo(1)", "bar(1)")], "foo(1);\n").expect("ok"),
        );
        assert_eq!(out, "bar(1);\n");
        assert_eq!(edits.len(), 1);
        assert_eq!(edits[0].rule, 0);
    }

    #[test]
    fn syntax_error_file_is_an_issue_and_noop_is_dropped() {
        match run(&[("foo($A)", "bar($A)")], "foo(1\n").expect("ok") {
            FileOutcome::Issue(i) => assert!(i.contains("syntax tree contains error nodes"), "{i}"),
            FileOutcome::Rewrite { .. } => panic!("should be an issue"),
        }
        let (out, edits, _) = rewritten(run(&[("foo($A)", "foo($A)")], "foo(1);\n").expect("ok"));
        assert_eq!((out.as_str(), edits.len()), ("foo(1);\n", 0));
    }

    #[test]
    fn bom_and_crlf_are_kept() {
        let src = "\u{feff}if (x) {\r\n  foo(1);\r\n}\r\n";
        let (out, edits, _) = rewritten(run(&[("foo($A)", "bar(\n  $A\n)")], src).expect("ok"));
        assert_eq!(out, "\u{feff}if (x) {\r\n  bar(\r\n    1\r\n  );\r\n}\r\n");
        assert_eq!((edits[0].line, edits[0].column), (2, 3));
    }

    #[test]
    fn enclosing_outer_yields_nested_and_keeps_disjoint() {
        // [0,10) holds [1,9) holds [2,3); [10,12) is disjoint; [11,12) inside it.
        let ranges = [0..10, 1..9, 2..3, 10..12, 11..12];
        assert_eq!(
            enclosing_outer(&ranges),
            [None, Some(0), Some(0), None, Some(3)]
        );
    }

    #[test]
    fn deep_nesting_renders_only_the_outer_match() {
        // Issue 11 §7: 2,000 nested arrays; one rewrite of the outermost, 1,999 nested skipped,
        // and the staged text is that one replacement (nothing rendered per nested match).
        let depth = 2000;
        let src = format!("const a = {}1{};\n", "[".repeat(depth), "]".repeat(depth));
        let (out, edits, nested) = rewritten(run(&[("[$$$A]", "[$$$A, 0]")], &src).expect("ok"));
        assert_eq!(edits.len(), 1);
        assert_eq!(nested.len(), depth - 1);
        assert!(nested.iter().all(|n| n.line == 1 && n.outer_line == 1));
        let inner = format!("{}1{}", "[".repeat(depth - 1), "]".repeat(depth - 1));
        assert_eq!(out, format!("const a = [{inner}, 0];\n"));
        assert_eq!(edits[0].after.len(), inner.len() + 5);
    }
}
