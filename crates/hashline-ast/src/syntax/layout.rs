//! Rows the edits wrote in a layout the rest of the file never uses ([`LayoutNote`]): the sign
//! of two lines joined into one row (`foo(); bar();`, `def f(): return x`, `{ match x {`,
//! `return; }`), which parses as well as the two lines did.
//!
//! A file keeps its layout: a formatter, or one person's habit, puts each statement, list
//! element or body on a row of its own, or never does. So the check learns the layout from the
//! parse of the new text itself, from the rows the edits did not change, per kind of construct,
//! and judges only the rows the edits wrote. Three layouts are compared, each keyed by the kinds
//! of the nodes involved:
//! * *siblings*: a child of a node starts on the row where the child before it ends, while
//!   that child begins its row (or began on an earlier one);
//! * *opener*: a child starts on the first row of its parent (not at the parent's own start),
//!   keyed by parent and child kind (`def f(): return x`, `{ match x {`);
//! * *closer*: a parent that spans rows and ends with a closing bracket has its last child end
//!   on the closer's row (`return Ok(()); }`).
//!
//! Only bodies are judged: the statements of a block, the items of a module, the members of a
//! class or `impl` ([`BODY_KINDS`]); argument and parameter lists, literals and expressions are
//! wrapped in too many ways a formatter allows.
//!
//! A layout on a written row is noted only when the unchanged rows show the other layout at
//! least [`MIN_EVIDENCE`] times and this one never. Strings and comments are text, not layout:
//! their nodes are skipped, comments are never children here. One walk of the tree: linear.

use std::collections::HashMap;
use std::ops::Range;

use hashline_core::LayoutNote;
use tree_sitter::{Node, Tree};

/// How often the unchanged rows must show the usual layout before the other one is noted.
pub(super) const MIN_EVIDENCE: u32 = 4;

/// At most this many notes per check (one per row).
const MAX_NOTES: usize = 3;

/// Node kinds that hold statements, items or members, one per row in most code (matched as
/// parts of the kind's name): the only layouts judged. Lists, arguments and parameters are
/// wrapped and hugged in many ways a formatter allows, so they are left alone.
const BODY_KINDS: [&str; 8] = [
    "block",
    "body",
    "program",
    "module",
    "source_file",
    "declaration_list",
    "statement_list",
    "compound_statement",
];

/// Node kinds whose children are text, not layout (matched as parts of the kind's name).
const TEXT_KINDS: [&str; 7] = [
    "string", "comment", "template", "heredoc", "text", "content", "doc",
];

/// Which layout, of which kinds of node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    /// Consecutive children of a node of this kind.
    Siblings(u16),
    /// A child of this kind under a parent of that kind.
    Opener(u16, u16),
    /// The last child of a bracketed node of this kind.
    Closer(u16),
}

/// One layout seen in the unchanged rows, or written by the edits.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    /// Times the unchanged rows put the two on rows of their own.
    apart: u32,
    /// Times the unchanged rows put them on one row.
    joined: u32,
}

/// A joined layout on a written row, waiting for the tally of its key.
struct Candidate {
    key: Key,
    /// 0-based row of the new text.
    row: usize,
    /// The node whose start (or end) shares the row, and the one it shares it with.
    first: Range<usize>,
    second: Range<usize>,
}

/// The rows of `text` (parsed as `tree`) in `written` (0-based new rows, sorted, disjoint)
/// that join what the rest of the file keeps apart.
pub(super) fn notes(tree: &Tree, text: &str, written: &[Range<usize>]) -> Vec<LayoutNote> {
    if written.is_empty() || tree.root_node().has_error() {
        return Vec::new();
    }
    let is_written = |row: usize| {
        let at = written.partition_point(|r| r.end <= row);
        written.get(at).is_some_and(|r| r.contains(&row))
    };
    let mut tally: HashMap<Key, Tally> = HashMap::new();
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut see = |key: Key, rows: (usize, usize), joined: bool, nodes: (&Node, &Node)| {
        if !is_written(rows.0) && !is_written(rows.1) {
            let t = tally.entry(key).or_default();
            if joined {
                t.joined += 1;
            } else {
                t.apart += 1;
            }
        } else if joined && is_written(rows.1) {
            candidates.push(Candidate {
                key,
                row: rows.1,
                first: nodes.0.byte_range(),
                second: nodes.1.byte_range(),
            });
        }
    };
    let mut kids: Vec<Node> = Vec::new();
    let mut cursor = tree.walk();
    let mut stack = vec![tree.root_node()];
    while let Some(parent) = stack.pop() {
        kids.clear();
        kids.extend(
            parent
                .named_children(&mut cursor)
                .filter(|c| !c.is_extra() && !c.is_missing()),
        );
        if is_text(&parent) {
            continue;
        }
        stack.extend(kids.iter().rev().copied());
        let body = is_body(&parent);
        let (p_start, p_end) = (parent.start_position().row, parent.end_position().row);
        for pair in kids.windows(2).filter(|_| body) {
            let (a, b) = (&pair[0], &pair[1]);
            let (a_end, b_start) = (a.end_position().row, b.start_position().row);
            // An attribute or decorator joined onto what it marks is a form of its own.
            let marks = ["attribute", "decorator", "annotation"]
                .iter()
                .any(|k| a.kind().contains(k));
            if (b_start == a_end && !begins_row(a, text)) || marks {
                continue;
            }
            let key = Key::Siblings(parent.kind_id());
            see(key, (a_end, b_start), b_start == a_end, (a, b));
        }
        let closed = parent
            .child(parent.child_count().saturating_sub(1))
            .is_some_and(|l| !l.is_named() && matches!(l.kind(), "}" | ")" | "]"));
        // A statement on its block's opening row, or a body on its header's row.
        // A body's own first row says nothing when the body is all on one row (`{ x }`, a
        // Go closure `func() { f() }`): bracketed and closed on the row it opens.
        let one_row = p_end == p_start && closed;
        let opens = |c: &&Node| {
            c.start_byte() > parent.start_byte()
                && !one_row
                && ((body && p_end > p_start) || is_body(c))
        };
        for c in kids.iter().filter(opens) {
            let c_start = c.start_position().row;
            let key = Key::Opener(parent.kind_id(), c.kind_id());
            see(key, (p_start, c_start), c_start == p_start, (&parent, c));
        }
        if let (true, true, Some(last)) = (closed && body, p_end > p_start, kids.last()) {
            let l_end = last.end_position().row;
            let key = Key::Closer(parent.kind_id());
            see(key, (l_end, p_end), l_end == p_end, (last, &parent));
        }
    }
    let mut out: Vec<LayoutNote> = Vec::new();
    for c in candidates {
        let Some(t) = tally.get(&c.key) else { continue };
        let noted = out.iter().any(|n| n.line == c.row + 1);
        if t.joined > 0 || t.apart < MIN_EVIDENCE || noted {
            continue;
        }
        out.push(LayoutNote {
            line: c.row + 1,
            what: describe(&c, text, t.apart),
        });
        if out.len() == MAX_NOTES {
            break;
        }
    }
    out.sort_by_key(|n| n.line);
    out
}

/// Whether `node` holds statements, items or members ([`BODY_KINDS`]).
fn is_body(node: &Node) -> bool {
    let kind = node.kind();
    BODY_KINDS.iter().any(|t| kind.contains(t))
}

/// Whether `node` holds text rather than layout (a string, a comment, a doc block).
fn is_text(node: &Node) -> bool {
    let kind = node.kind();
    TEXT_KINDS.iter().any(|t| kind.contains(t))
}

/// Whether `node` begins its row (only white space before it) or began on an earlier one.
fn begins_row(node: &Node, text: &str) -> bool {
    let start = node.start_byte();
    let line_start = text[..start.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    text.get(line_start..start)
        .is_some_and(|head| head.trim().is_empty())
}

/// A node's text, first line only, cut to a few dozen characters.
fn snippet(text: &str, bytes: &Range<usize>) -> String {
    let whole = text.get(bytes.clone()).unwrap_or("");
    let line = whole.lines().next().unwrap_or("").trim();
    let cut: String = line.chars().take(40).collect();
    if cut.len() < line.len() || whole.trim_end().contains('\n') {
        format!("{cut}…")
    } else {
        cut
    }
}

/// The note's sentence for candidate `c`, the usual layout seen `apart` times.
fn describe(c: &Candidate, text: &str, apart: u32) -> String {
    let (first, second) = (snippet(text, &c.first), snippet(text, &c.second));
    match c.key {
        Key::Siblings(_) => format!(
            "`{second}` starts on the row where `{first}` ends, while the rest of this file \
             puts such items on rows of their own ({apart} times)"
        ),
        Key::Opener(..) => format!(
            "`{second}` starts on the first row of `{first}`, while the rest of this file \
             starts it on a row of its own ({apart} times)"
        ),
        Key::Closer(_) => {
            let closer = text
                .get(c.second.end.saturating_sub(1)..c.second.end)
                .unwrap_or("}");
            format!(
                "`{closer}` closes on the row of `{first}`, while the rest of this file gives \
                 such a closer a row of its own ({apart} times)"
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ast_grep_core::tree_sitter::LanguageExt;
    use ast_grep_language::SupportLang;

    fn notes_of(lang: SupportLang, text: &str, written: Range<usize>) -> Vec<LayoutNote> {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&lang.get_ts_language())
            .expect("grammar");
        let tree = parser.parse(text, None).expect("parse");
        notes(&tree, text, &[written])
    }

    /// Four functions of two statements each: every layout seen apart four times or more.
    const RUST: &str = "fn a() {\n    let x = 1;\n    f(x);\n}\n\nfn b() {\n    let y = 2;\n    g(y);\n}\n\nfn c() {\n    let z = 3;\n    h(z);\n}\n\nfn d() {\n    let v = 4;\n    k(v);\n}\n";

    /// Rows of [`RUST`]: the text appended to it starts on this 0-based row.
    const NEXT: usize = 20;

    #[test]
    fn two_statements_on_a_written_row_are_noted() {
        let text = format!("{RUST}\nfn e() {{\n    let w = 4; g(w);\n    h(w);\n}}\n");
        let notes = notes_of(SupportLang::Rust, &text, NEXT + 1..NEXT + 2);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(notes[0].line, NEXT + 2);
        assert!(notes[0].what.contains("`g(w);`"), "{}", notes[0].what);
    }

    #[test]
    fn a_body_on_its_opener_row_and_a_closer_on_the_last_row_are_noted() {
        let text = format!("{RUST}\nfn e() {{ let w = 4;\n    g(w);\n    h(w); }}\n");
        let notes = notes_of(SupportLang::Rust, &text, NEXT..NEXT + 3);
        let lines: Vec<usize> = notes.iter().map(|n| n.line).collect();
        assert_eq!(lines, vec![NEXT + 1, NEXT + 3], "{notes:?}");
    }

    #[test]
    fn a_file_that_joins_such_rows_elsewhere_is_left_alone() {
        let text = format!(
            "{RUST}\nfn e() {{\n    let u = 5; g(u);\n}}\n\nfn f() {{\n    let w = 4; g(w);\n    h(w);\n}}\n"
        );
        assert!(notes_of(SupportLang::Rust, &text, NEXT + 5..NEXT + 6).is_empty());
    }

    #[test]
    fn unwritten_rows_and_layouts_with_little_evidence_are_left_alone() {
        let text = format!("{RUST}\nfn e() {{\n    let w = 4; g(w);\n}}\n");
        assert!(notes_of(SupportLang::Rust, &text, 0..1).is_empty());
        let short = "fn a() {\n    let x = 1;\n    f(x);\n}\n\nfn b() {\n    let y = 2; g(y);\n}\n";
        assert!(notes_of(SupportLang::Rust, short, 6..7).is_empty());
    }

    #[test]
    fn python_one_line_bodies_are_noted_where_the_file_has_none() {
        let head = "def a(x):\n    if x:\n        return 1\n    if x > 1:\n        return 2\n    if x > 2:\n        return 3\n    if x > 3:\n        return 4\n    return 5\n";
        let text = format!("{head}\n\ndef d(z):\n    if z: return z\n    return 0\n");
        let notes = notes_of(SupportLang::Python, &text, 13..14);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].what.contains("`return z`"), "{}", notes[0].what);
    }

    #[test]
    fn strings_and_comments_are_text() {
        let text = format!("{RUST}\nfn e() {{\n    let s = \"a; b\"; // x; y\n    h(s);\n}}\n");
        assert!(notes_of(SupportLang::Rust, &text, NEXT + 1..NEXT + 2).is_empty());
    }
}
