//! A structural rewrite's syntax check from the tree the search already built: the old tree is
//! edited with one [`InputEdit`] per replaced range and the new text reparsed from it, which
//! reuses every untouched subtree instead of parsing the file again.

use std::ops::Range;
use std::time::Instant;

use ast_grep_language::SupportLang;
use tree_sitter::{InputEdit, Point, Tree};

use super::check::Check;
use super::PARSE_BUDGET;

/// Whether `after` — `before` (whose parse is `tree`, without an error) with `edits` (sorted,
/// disjoint byte ranges of `before` and their replacements) applied — parses without an error,
/// found by an incremental reparse from `tree`. `None` when this cannot tell: Python (its
/// layout rules need the whole check), ranges that do not fit `before`, a timeout.
///
/// `tree` is taken, not borrowed: tree-sitter edits a tree nobody else holds in place, but
/// copies every node an edit passes through in a shared one, which with a match on every line
/// is a second copy of the whole tree (1.4 KB a line of JavaScript; issue 28 §6). Both trees
/// are dropped before this returns.
pub fn clean_after_edits(
    lang: SupportLang,
    tree: Tree,
    before: &str,
    after: &str,
    edits: &[(Range<usize>, &str)],
) -> Option<bool> {
    if matches!(lang, SupportLang::Python) || tree.root_node().has_error() {
        return None;
    }
    let mut input = input_edits(before, edits)?;
    let mut old = tree;
    // Last first: every edit's positions are then those of `before`.
    input.reverse();
    for e in &input {
        old.edit(e);
    }
    drop(input);
    let mut check = Check::new(lang, Instant::now() + PARSE_BUDGET)?;
    let new = check.parse(after, None, Some(&old)).ok()?;
    Some(!new.root_node().has_error())
}

/// The tree-sitter edits of `edits`, in order, each in the coordinates of `before`; `None` when
/// a range is out of order or not on character boundaries of `before`.
fn input_edits(before: &str, edits: &[(Range<usize>, &str)]) -> Option<Vec<InputEdit>> {
    let b = before.as_bytes();
    // A forward cursor: byte `at` is at `point`.
    let (mut at, mut point) = (0usize, Point::new(0, 0));
    let advance = |to: usize, at: &mut usize, point: &mut Point| -> Option<Point> {
        let gap = b.get(*at..to)?;
        *point = moved(*point, gap);
        *at = to;
        Some(*point)
    };
    let mut out = Vec::with_capacity(edits.len());
    for (range, text) in edits {
        if range.start < at
            || !before.is_char_boundary(range.start)
            || !before.is_char_boundary(range.end)
        {
            return None;
        }
        let start_position = advance(range.start, &mut at, &mut point)?;
        let old_end_position = advance(range.end, &mut at, &mut point)?;
        out.push(InputEdit {
            start_byte: range.start,
            old_end_byte: range.end,
            new_end_byte: range.start + text.len(),
            start_position,
            old_end_position,
            new_end_position: moved(start_position, text.as_bytes()),
        });
    }
    Some(out)
}

/// `point` moved over `bytes` (rows at newlines, byte columns).
fn moved(point: Point, bytes: &[u8]) -> Point {
    match memchr::memrchr(b'\n', bytes) {
        Some(last) => Point::new(
            point.row + memchr::memchr_iter(b'\n', bytes).count(),
            bytes.len() - last - 1,
        ),
        None => Point::new(point.row, point.column + bytes.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ast_grep_core::tree_sitter::LanguageExt;

    fn parse(lang: SupportLang, text: &str) -> Tree {
        let mut p = tree_sitter::Parser::new();
        p.set_language(&lang.get_ts_language()).expect("language");
        p.parse(text, None).expect("tree")
    }

    fn apply(before: &str, edits: &[(Range<usize>, &str)]) -> String {
        let mut out = String::new();
        let mut at = 0;
        for (r, t) in edits {
            out.push_str(&before[at..r.start]);
            out.push_str(t);
            at = r.end;
        }
        out + &before[at..]
    }

    #[test]
    fn edits_that_keep_or_break_the_syntax() {
        let lang = SupportLang::TypeScript;
        let before =
            "function f(a: number) {\n  throw new Error(\"x\");\n}\nconst b = [1,\n  2];\n";
        let tree = parse(lang, before);
        let at = |s: &str| before.find(s).expect("in text");
        let e = at("Error");
        let good = [(e..e + 5, "TypeError"), (at("2]")..at("2]") + 1, "3,\n  4")];
        let after = apply(before, &good);
        assert_eq!(
            clean_after_edits(lang, tree.clone(), before, &after, &good),
            Some(true)
        );
        let bad = [(e..e + 5, "TypeError"), (at("2]")..at("2]") + 2, "2")];
        let after = apply(before, &bad);
        assert_eq!(
            clean_after_edits(lang, tree.clone(), before, &after, &bad),
            Some(false)
        );
        // Out of order: no answer.
        let swapped = [good[1].clone(), good[0].clone()];
        assert_eq!(
            clean_after_edits(lang, tree, before, &after, &swapped),
            None
        );
    }

    #[test]
    fn python_is_left_to_the_whole_check() {
        let lang = SupportLang::Python;
        let before = "def f():\n    return 1\n";
        let tree = parse(lang, before);
        let edits = [(13..19, "yield")];
        let after = apply(before, &edits);
        assert_eq!(clean_after_edits(lang, tree, before, &after, &edits), None);
    }
}
