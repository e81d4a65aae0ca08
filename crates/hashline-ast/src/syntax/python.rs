//! Python's layout rules, which tree-sitter-python does not enforce: the statements of a block
//! (or of the module) start at one column, deeper than the line that opens the block; a block
//! is not empty; `else`/`elif`/`except`/`finally` line up with their statement; two statements
//! on one line are separated by `;` (the grammar accepts `f(a) g(b)` as two statements).

use std::ops::Range;

use tree_sitter::{Node, Tree};

use super::errors::Found;
use super::span::overlaps;

/// The clauses that must line up with the statement they belong to.
const CLAUSES: &[&str] = &[
    "else_clause",
    "elif_clause",
    "except_clause",
    "except_group_clause",
    "finally_clause",
];

/// Byte column of the first byte of `at`'s line that is not a space or tab.
fn indent_at(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    let at = at.min(b.len());
    let start = b[..at]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    b[start..]
        .iter()
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count()
}

/// Whether `node` is the first thing on its line.
fn starts_line(text: &str, node: &Node<'_>) -> bool {
    node.start_position().column == indent_at(text, node.start_byte())
}

/// The layout errors of every block overlapping `region`, the line above it (where an emptied
/// block ends) or the first line below it that holds code (a line the edit left at its old
/// column, now deeper or shallower than the rows before it: a range one line short).
pub(super) fn layout(text: &str, tree: &Tree, region: &Range<usize>) -> Vec<Found> {
    let above = text
        .as_bytes()
        .get(..region.start.saturating_sub(1))
        .and_then(|b| b.iter().rposition(|&c| c == b'\n'))
        .map_or(0, |i| i + 1);
    let region = &(above.min(region.start)..below(text, region.end).max(region.end));
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "module" | "block" => container(text, &node, region, &mut out),
            kind if CLAUSES.contains(&kind) => clause(text, &node, &mut out),
            _ => {}
        }
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if !child.is_error() && overlaps(&child.byte_range(), region) {
                stack.push(child);
            }
        }
    }
    out
}

/// The end of the first line at or after byte `from` (from the next line on when `from` is
/// mid-line) that holds more than white space; the text's end when there is none.
fn below(text: &str, from: usize) -> usize {
    let b = text.as_bytes();
    let mut at = from.min(b.len());
    if at > 0 && b[at - 1] != b'\n' {
        at = b[at..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |i| at + i + 1);
    }
    while at < b.len() {
        let end = b[at..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |i| at + i);
        if b[at..end].iter().any(|c| !c.is_ascii_whitespace()) {
            return end;
        }
        at = end + 1;
    }
    b.len()
}

/// The layout errors of a `module` or `block`: empty, not deeper than its owner, or a
/// statement in `region` at another column than the first.
fn container(text: &str, node: &Node<'_>, region: &Range<usize>, out: &mut Vec<Found>) {
    let is_module = node.kind() == "module";
    let mut cursor = node.walk();
    let statements: Vec<Node<'_>> = node
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment" && !c.is_error() && !c.is_missing())
        .collect();
    let owner = node.parent().map(|p| indent_at(text, p.start_byte()));
    if statements.is_empty() {
        if !is_module {
            out.push(Found::new(node, "expected an indented block".to_string()));
        }
        return;
    }
    for pair in statements.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let between = text.get(a.end_byte()..b.start_byte()).unwrap_or(";");
        let joined = a.end_position().row == b.start_position().row;
        if joined && !between.contains(';') && overlaps(&b.byte_range(), region) {
            let what = "two statements on one line without \";\" between them".to_string();
            out.push(Found::new(b, what));
        }
    }
    let mut expected = if is_module { Some(0) } else { None };
    for statement in statements.iter().filter(|s| starts_line(text, s)) {
        let column = statement.start_position().column;
        let Some(want) = expected else {
            if owner.is_some_and(|o| column <= o) {
                let what = format!(
                    "expected an indented block (deeper than column {})",
                    o_col(owner)
                );
                out.push(Found::new(statement, what));
                return;
            }
            expected = Some(column);
            continue;
        };
        if column != want && overlaps(&statement.byte_range(), region) {
            let what = format!(
                "indentation does not match the block: this statement starts at column {}, \
                 the block's first one at column {}",
                column + 1,
                want + 1
            );
            out.push(Found::new(statement, what));
        }
    }
}

/// The 1-based column of an owner's indentation.
fn o_col(owner: Option<usize>) -> usize {
    owner.unwrap_or(0) + 1
}

/// A clause that starts its line at another column than its statement.
fn clause(text: &str, node: &Node<'_>, out: &mut Vec<Found>) {
    let Some(parent) = node.parent() else { return };
    if starts_line(text, node)
        && node.start_position().column != indent_at(text, parent.start_byte())
    {
        let what = format!(
            "\"{}\" does not line up with its statement",
            node.kind().trim_end_matches("_clause")
        );
        out.push(Found::new(node, what));
    }
}
