//! The syntax errors of a parse tree as the check sees them ([`Found`]): outermost `ERROR`
//! nodes, `MISSING` nodes and, for Python, layout errors, each with the point to show the reader.

use std::ops::Range;

use ast_grep_language::SupportLang;
use hashline_core::SyntaxIssue;
use tree_sitter::{Node, Point, Tree};

use super::message::{describe, quote};
use super::python;

/// One syntax error: an `ERROR` or `MISSING` node, or a Python layout error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Found {
    /// The bytes of the node (of the outermost `ERROR` node when `point` names an inner one).
    pub(super) range: Range<usize>,
    /// Where to point the reader: the first unexpected token or missing node inside, else the
    /// start of the node.
    pub(super) point: Point,
    /// What the parser saw.
    pub(super) what: String,
}

impl Found {
    /// `node`, pointed at its start, described as `what`.
    pub(super) fn new(node: &Node<'_>, what: String) -> Found {
        Found {
            range: node.byte_range(),
            point: node.start_position(),
            what,
        }
    }

    /// An `ERROR` or `MISSING` node, described by its first error leaf or missing node; else,
    /// when the `ERROR` node starts above `region`, by its first direct child that starts in
    /// `region` (the parser keeps the complete constructs before an unexpected token as the
    /// first children of the `ERROR` node); else by itself.
    pub(super) fn of(node: &Node<'_>, text: &str, region: &Range<usize>) -> Found {
        if node.is_missing() {
            return Found::new(node, format!("missing {}", quote(node.kind())));
        }
        let inner = first_error_leaf(node).or_else(|| {
            let mut cursor = node.walk();
            let child = node
                .children(&mut cursor)
                .find(|c| region.contains(&c.start_byte()));
            child.filter(|_| node.start_byte() < region.start)
        });
        let inner = inner.unwrap_or(*node);
        let mut found = Found::new(node, describe(&inner, text));
        found.point = inner.start_position();
        found
    }

    /// The issue, with a 1-based line and a 1-based character column of `text`.
    pub(super) fn issue(&self, text: &str) -> SyntaxIssue {
        let line = text.split('\n').nth(self.point.row).unwrap_or("");
        let column = match line.get(..self.point.column) {
            Some(head) => head.chars().count(),
            None => self.point.column,
        };
        let end = self.range.end.min(text.len());
        let end_row = memchr::memchr_iter(b'\n', &text.as_bytes()[..end]).count();
        SyntaxIssue {
            line: self.point.row + 1,
            column: column + 1,
            what: self.what.clone(),
            end_line: end_row.max(self.point.row) + 1,
        }
    }
}

/// The first `MISSING` node or childless `ERROR` node (an unexpected token) inside `node`,
/// in document order.
fn first_error_leaf<'t>(node: &Node<'t>) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    if !cursor.goto_first_child() {
        return None;
    }
    loop {
        let n = cursor.node();
        if n.is_missing() || (n.is_error() && n.child_count() == 0) {
            return Some(n);
        }
        if n.has_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() || cursor.node().id() == node.id() {
                return None;
            }
        }
    }
}

/// Every syntax error of `tree` that the check considers, in document order: each outermost
/// `ERROR` node and each `MISSING` node anywhere, and for Python the layout errors of the
/// blocks that overlap `region` (tree-sitter-python accepts indentation that CPython refuses).
pub(super) fn errors(
    lang: SupportLang,
    text: &str,
    tree: &Tree,
    region: &Range<usize>,
) -> Vec<Found> {
    let mut out = parse_errors(text, tree, region);
    if lang == SupportLang::Python {
        out.extend(python::layout(text, tree, region));
        out.sort_by_key(|f| (f.range.start, f.range.end));
    }
    out
}

/// Every outermost `ERROR` node and every `MISSING` node of `tree`, in document order.
fn parse_errors(text: &str, tree: &Tree, region: &Range<usize>) -> Vec<Found> {
    let mut out = Vec::new();
    let root = tree.root_node();
    if !root.has_error() {
        return out;
    }
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let descend = if node.is_error() || node.is_missing() {
            out.push(Found::of(&node, text, region));
            false
        } else {
            node.has_error()
        };
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}
