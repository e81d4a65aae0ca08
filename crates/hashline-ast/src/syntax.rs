//! [`TreeSitterSyntax`]: the [`SyntaxCheck`] behind the edit guard's `E_SYNTAX_INTRODUCED`.
//!
//! Algorithm, for a file whose grammar is compiled in (see [`crate::lang`]):
//! 1. the changed span is what lies between the common prefix and the common suffix of the two
//!    texts' bytes (kept on character boundaries); the *region* is that span widened to whole
//!    lines, in each text;
//! 2. parse `before` (a text over [`WINDOW_ABOVE`] bytes: only a `window` of whole top-level
//!    items around the span, through tree-sitter's included ranges, so positions stay those of
//!    the file; when that window's parse shows signs of a wrong cut (`cut_cleanly`), the whole
//!    text is parsed instead); if an `ERROR` or `MISSING` node (for Python also a layout error, see
//!    `python`) overlaps the old region, the edit touched code that was already broken: report
//!    nothing;
//! 3. edit the old tree with one [`InputEdit`] for the span and reparse `after` from it
//!    (tree-sitter reuses every untouched subtree: the second parse costs a fraction of the
//!    first);
//! 4. an error of the new tree is *old* when it starts within the lines of an error of `before`
//!    (moved by the edit's line delta when it lay below the span); report the first new error
//!    that overlaps the new region, else the first new error anywhere (a removed closer often
//!    shows up far below the edit, at the end of the enclosing block, window or file).
//!
//! Cost: a one-line edit of a 10,000-line TypeScript file adds about 2 ms to an edit call
//! (window parse plus incremental reparse); a whole-text parse of it takes about 20 ms.
//!
//! Never panics. Gives up quietly (reports nothing) on texts over [`MAX_BYTES`], when the parses
//! of one check take longer than [`PARSE_BUDGET`], for files the guard should not judge by their
//! extension ([`UNCHECKED_EXTENSIONS`]), and for grammars that are not compiled in. A file that
//! the grammar already fails to parse around the edit is not judged there (step 2).

use std::ops::{ControlFlow, Range};
use std::path::Path;
use std::time::{Duration, Instant};

use ast_grep_core::tree_sitter::LanguageExt;
use ast_grep_language::SupportLang;
use hashline_core::{SyntaxCheck, SyntaxIssue};
use tree_sitter::{InputEdit, Node, ParseOptions, ParseState, Parser, Point, Tree};

use crate::lang;

/// Texts longer than this (either side, in bytes) are not checked: 4 MiB, about 100,000 lines of
/// code, where one parse already takes a few hundred milliseconds.
pub const MAX_BYTES: usize = 4 << 20;

/// Both parses of one check together may take this long; past it the check reports nothing.
pub const PARSE_BUDGET: Duration = Duration::from_secs(2);

/// Texts up to this many bytes are parsed whole; a longer one only in a `window` around the
/// edit (a whole parse of 64 KiB of TypeScript takes about 6 ms).
pub const WINDOW_ABOVE: usize = 64 << 10;

/// Lines of context a `window` keeps at least on each side of the edit.
const CONTEXT_LINES: usize = 200;

/// How many more lines a `window` looks through for a top-level boundary.
const SEARCH_LINES: usize = 2000;

/// Extensions whose catalog grammar is a near miss for what such files often hold (`.h` may be
/// C++, `.scss` is not CSS): a syntax error there says little, so the guard falls back to its
/// grammar-free checks.
pub const UNCHECKED_EXTENSIONS: &[&str] = &["h", "scss"];

/// Longest excerpt of the source quoted in [`SyntaxIssue::what`], in characters.
const QUOTE_CHARS: usize = 40;

/// Checks edits with the tree-sitter grammars compiled into this build.
#[derive(Debug, Clone, Copy, Default)]
pub struct TreeSitterSyntax;

impl TreeSitterSyntax {
    /// A checker over every compiled-in grammar.
    pub fn new() -> Self {
        Self
    }
}

impl SyntaxCheck for TreeSitterSyntax {
    fn covers(&self, path: &Path) -> bool {
        checked_lang(path).is_some()
    }

    fn introduced(&self, path: &Path, before: &str, after: &str) -> Option<SyntaxIssue> {
        introduced_in(checked_lang(path)?, before, after)
    }
}

/// The compiled-in language the guard checks a file as.
fn checked_lang(path: &Path) -> Option<SupportLang> {
    let unchecked = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| UNCHECKED_EXTENSIONS.contains(&e));
    if unchecked {
        return None;
    }
    lang::for_path(path).map(|s| s.lang)
}

/// The first syntax error that turning `before` into `after` adds, parsing both as `lang` (which
/// must be compiled in: see [`lang::LangSpec::enabled`]). Texts are LF-normalized, BOM-free.
pub fn introduced_in(lang: SupportLang, before: &str, after: &str) -> Option<SyntaxIssue> {
    let enabled = lang::spec_of(lang).is_some_and(|s| s.enabled);
    if !enabled {
        return None;
    }
    Check::new(lang, Instant::now() + PARSE_BUDGET)?
        .run(before, after)
        .ok()
        .flatten()
        .map(|e| e.issue(after))
}

/// Lines `line - 2 ..= line + 2` of `text` (clamped), each as `NN|text`, the error line as
/// `>NN|text`: how a refusal shows where the parser stopped.
pub fn excerpt(text: &str, line: usize) -> String {
    let mut lines: Vec<&str> = text.split('\n').collect();
    if text.ends_with('\n') {
        lines.pop();
    }
    let lo = line.saturating_sub(2).max(1);
    let hi = (line + 2).min(lines.len().max(line));
    let width = hi.to_string().len();
    (lo..=hi)
        .map(|n| {
            let mark = if n == line { '>' } else { ' ' };
            let text = lines.get(n - 1).copied().unwrap_or("");
            format!("{mark}{n:>width$}|{text}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Why a check stopped without an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GaveUp {
    /// A text is over [`MAX_BYTES`].
    TooBig,
    /// The parses took longer than [`PARSE_BUDGET`].
    Timeout,
    /// The parser did not accept the window's range.
    Window,
}

/// One check's parser, deadline and counters.
struct Check {
    lang: SupportLang,
    parser: Parser,
    deadline: Instant,
    /// Progress callbacks per parse (about one per 100 parser operations): how much work each
    /// parse did, for the tests.
    work: Vec<usize>,
}

impl Check {
    fn new(lang: SupportLang, deadline: Instant) -> Option<Check> {
        let mut parser = Parser::new();
        parser.set_language(&lang.get_ts_language()).ok()?;
        Some(Check {
            lang,
            parser,
            deadline,
            work: Vec::new(),
        })
    }

    /// Parse `within` (all of `text` when `None`) of `text`, reusing `old` (already edited to
    /// match `text`) when given.
    fn parse(
        &mut self,
        text: &str,
        within: Option<Range<usize>>,
        old: Option<&Tree>,
    ) -> Result<Tree, GaveUp> {
        let ranges: Vec<tree_sitter::Range> = within
            .into_iter()
            .map(|r| tree_sitter::Range {
                start_byte: r.start,
                end_byte: r.end,
                start_point: point(text, r.start),
                end_point: point(text, r.end),
            })
            .collect();
        if self.parser.set_included_ranges(&ranges).is_err() {
            return Err(GaveUp::Window);
        }
        let bytes = text.as_bytes();
        let deadline = self.deadline;
        let mut calls = 0usize;
        let mut progress = |_: &ParseState| {
            calls += 1;
            if Instant::now() > deadline {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let tree = self.parser.parse_with_options(
            &mut |at, _| bytes.get(at..).unwrap_or_default(),
            old,
            Some(ParseOptions::new().progress_callback(&mut progress)),
        );
        self.work.push(calls);
        // A cancelled parse keeps resumable state: drop it before the parser is used again.
        self.parser.reset();
        tree.ok_or(GaveUp::Timeout)
    }

    /// Steps 1–4 of the module docs: on a window of whole top-level items around the edit
    /// when the text is big (`window`), else (or when the window's old text does not parse
    /// cleanly: the cut may be wrong) on the whole text.
    fn run(&mut self, before: &str, after: &str) -> Result<Option<Found>, GaveUp> {
        if before.len() > MAX_BYTES || after.len() > MAX_BYTES {
            return Err(GaveUp::TooBig);
        }
        let Some(span) = Span::of(before, after) else {
            return Ok(None);
        };
        if let Some(w) = window(before, &span) {
            if let Some(answer) = self.run_in(before, after, &span, Some(w))? {
                return Ok(answer);
            }
        }
        Ok(self.run_in(before, after, &span, None)?.flatten())
    }

    /// The check on the old window `within` (the whole texts when `None`). `Ok(None)`: the
    /// window's old text does not look `cut_cleanly`, so the window cannot be trusted.
    fn run_in(
        &mut self,
        before: &str,
        after: &str,
        span: &Span,
        within: Option<Range<usize>>,
    ) -> Result<Option<Option<Found>>, GaveUp> {
        let mut tree = self.parse(before, within.clone(), None)?;
        if within.is_some() && !cut_cleanly(&tree) {
            return Ok(None);
        }
        let old_region = whole_lines(before, span.start..span.old_end);
        let old_errors = errors(self.lang, before, &tree, &old_region);
        if old_errors.iter().any(|e| overlaps(&e.range, &old_region)) {
            return Ok(Some(None));
        }
        tree.edit(&span.input_edit(before, after));
        let new_within =
            within.map(|w| w.start..(w.end + span.new_end).saturating_sub(span.old_end));
        let tree = self.parse(after, new_within, Some(&tree))?;
        let new_region = whole_lines(after, span.start..span.new_end);
        let moved: Vec<Range<usize>> = old_errors
            .iter()
            .filter_map(|e| span.map_old(e.range.clone()))
            .map(|r| whole_lines(after, r))
            .collect();
        let fresh: Vec<Found> = errors(self.lang, after, &tree, &new_region)
            .into_iter()
            .filter(|e| !moved.iter().any(|m| m.contains(&e.range.start)))
            .collect();
        let in_region = fresh.iter().position(|e| overlaps(&e.range, &new_region));
        Ok(Some(
            in_region
                .or((!fresh.is_empty()).then_some(0))
                .map(|i| fresh[i].clone()),
        ))
    }
}

/// Whether a window's parse shows no sign of a wrong cut: it has no syntax error, or its errors
/// lie strictly inside it, between a first and a last top-level node that parsed cleanly (a cut
/// inside a string or comment shows up as an error at the window's start or end: the text after
/// the cut is read in the wrong state, or a string opened there runs to the end).
fn cut_cleanly(tree: &Tree) -> bool {
    let root = tree.root_node();
    if !root.has_error() {
        return true;
    }
    if root.is_error() {
        return false;
    }
    let mut cursor = root.walk();
    let items: Vec<Node<'_>> = root
        .children(&mut cursor)
        .filter(|c| !c.is_extra())
        .collect();
    match (items.first(), items.last()) {
        (Some(first), Some(last)) if items.len() >= 3 => !first.has_error() && !last.has_error(),
        _ => false,
    }
}

/// The bytes of `before` to parse for an edit of `span`, when `before` is longer than
/// [`WINDOW_ABOVE`]: at least [`CONTEXT_LINES`] lines on each side of the edit, widened to
/// top-level boundaries (a line that starts at column 0 with a letter, digit, `_`, `@`, `#` or
/// `/` right after a blank line or a line starting with `}`: where a top-level item starts in
/// most languages and code styles). Searches at most [`SEARCH_LINES`] further lines each way;
/// `None` when the window would be the whole text.
fn window(before: &str, span: &Span) -> Option<Range<usize>> {
    if before.len() <= WINDOW_ABOVE {
        return None;
    }
    let b = before.as_bytes();
    let line_start = |at: usize| {
        b[..at]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1)
    };
    let next_line = |at: usize| {
        b[at..]
            .iter()
            .position(|&c| c == b'\n')
            .map(|i| at + i + 1)
            .filter(|&n| n < b.len())
    };
    let prev_line = |start: usize| (start > 0).then(|| line_start(start - 1));
    let blank = |start: usize| {
        b[start..]
            .iter()
            .take_while(|&&c| c != b'\n')
            .all(|c| c.is_ascii_whitespace())
    };
    // A line that closes a top-level item: `}` at column 0 (`}`, `};`, `})` …).
    let closes_item = |start: usize| b.get(start) == Some(&b'}');
    let starts_item = |start: usize| {
        let first = b.get(start).copied().unwrap_or(b' ');
        (first.is_ascii_alphanumeric() || b"_@#/".contains(&first))
            && prev_line(start).is_some_and(|p| blank(p) || closes_item(p))
    };
    // Backwards: CONTEXT_LINES lines, then to the first line that starts an item.
    let mut lo = line_start(span.start.min(b.len()));
    for n in 0..CONTEXT_LINES + SEARCH_LINES {
        if n >= CONTEXT_LINES && starts_item(lo) {
            break;
        }
        match prev_line(lo) {
            Some(p) => lo = p,
            None => {
                lo = 0;
                break;
            }
        }
    }
    // Forwards: the same, ending just before the item that starts there.
    let mut hi = line_start(span.old_end.min(b.len()));
    let mut found = false;
    for n in 0..CONTEXT_LINES + SEARCH_LINES {
        match next_line(hi) {
            Some(next) => hi = next,
            None => break,
        }
        if n >= CONTEXT_LINES && starts_item(hi) {
            found = true;
            break;
        }
    }
    let hi = if found { hi } else { b.len() };
    (lo > 0 || hi < b.len()).then_some(lo..hi)
}

/// The changed span: bytes `start..old_end` of the old text became `start..new_end` of the new.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    start: usize,
    old_end: usize,
    new_end: usize,
}

impl Span {
    /// The span between the common prefix and suffix, on character boundaries; `None` when the
    /// texts are equal.
    fn of(before: &str, after: &str) -> Option<Span> {
        if before == after {
            return None;
        }
        let (b, a) = (before.as_bytes(), after.as_bytes());
        let mut start = b.iter().zip(a).take_while(|(x, y)| x == y).count();
        while !before.is_char_boundary(start) {
            start -= 1;
        }
        let room = b.len().min(a.len()) - start;
        let mut suffix = b
            .iter()
            .rev()
            .zip(a.iter().rev())
            .take(room)
            .take_while(|(x, y)| x == y)
            .count();
        while !before.is_char_boundary(b.len() - suffix) {
            suffix -= 1;
        }
        Some(Span {
            start,
            old_end: b.len() - suffix,
            new_end: a.len() - suffix,
        })
    }

    fn input_edit(&self, before: &str, after: &str) -> InputEdit {
        InputEdit {
            start_byte: self.start,
            old_end_byte: self.old_end,
            new_end_byte: self.new_end,
            start_position: point(before, self.start),
            old_end_position: point(before, self.old_end),
            new_end_position: point(after, self.new_end),
        }
    }

    /// An old text's byte range in the new text's bytes; `None` when it overlaps the span.
    fn map_old(&self, r: Range<usize>) -> Option<Range<usize>> {
        if r.end <= self.start {
            Some(r)
        } else if r.start >= self.old_end {
            let shift = |x: usize| x - self.old_end + self.new_end;
            Some(shift(r.start)..shift(r.end))
        } else {
            None
        }
    }
}

/// The tree-sitter point (row, byte column) of byte `at` of `text`.
fn point(text: &str, at: usize) -> Point {
    let head = &text.as_bytes()[..at.min(text.len())];
    let row = head.iter().filter(|&&b| b == b'\n').count();
    let line_start = head.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    Point::new(row, head.len() - line_start)
}

/// `r` widened to whole lines of `text` (from the start of its first line to the end of its
/// last, the newline excluded).
fn whole_lines(text: &str, r: Range<usize>) -> Range<usize> {
    let b = text.as_bytes();
    let start = r.start.min(b.len());
    let end = r.end.clamp(start, b.len());
    let lo = b[..start]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    let hi = b[end..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |i| end + i);
    lo..hi
}

/// Whether byte ranges `a` and `b` touch (ends included, so an empty range at a line's end
/// overlaps that line).
fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// One syntax error: an `ERROR` or `MISSING` node, or a Python layout error.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Found {
    /// The bytes of the node (of the outermost `ERROR` node when `point` names an inner one).
    range: Range<usize>,
    /// Where to point the reader: the first unexpected token or missing node inside, else the
    /// start of the node.
    point: Point,
    /// What the parser saw.
    what: String,
}

impl Found {
    fn new(node: &Node<'_>, what: String) -> Found {
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
    fn of(node: &Node<'_>, text: &str, region: &Range<usize>) -> Found {
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
    fn issue(&self, text: &str) -> SyntaxIssue {
        let line = text.split('\n').nth(self.point.row).unwrap_or("");
        let column = match line.get(..self.point.column) {
            Some(head) => head.chars().count(),
            None => self.point.column,
        };
        SyntaxIssue {
            line: self.point.row + 1,
            column: column + 1,
            what: self.what.clone(),
        }
    }
}

/// What an error node holds, in a few words.
fn describe(node: &Node<'_>, text: &str) -> String {
    if node.is_missing() {
        return format!("missing {}", quote(node.kind()));
    }
    let src = text.get(node.byte_range()).unwrap_or("");
    let mut lines = src.split('\n').map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("");
    if first.is_empty() {
        "unexpected end of input".to_string()
    } else if lines.next().is_none() {
        format!("unexpected {}", quote(first))
    } else {
        format!(
            "the code from {} on does not parse (a bracket or block left open, or closed once too often?)",
            quote(first)
        )
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

/// `s` in double quotes, cut to [`QUOTE_CHARS`] characters.
fn quote(s: &str) -> String {
    let mut out: String = s.chars().take(QUOTE_CHARS).collect();
    if s.chars().count() > QUOTE_CHARS {
        out.push('…');
    }
    format!("\"{out}\"")
}

/// Every syntax error of `tree` that the check considers, in document order: each outermost
/// `ERROR` node and each `MISSING` node anywhere, and for Python the layout errors of the
/// blocks that overlap `region` (tree-sitter-python accepts indentation that CPython refuses).
fn errors(lang: SupportLang, text: &str, tree: &Tree, region: &Range<usize>) -> Vec<Found> {
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

/// Python's layout rules, which tree-sitter-python does not enforce: the statements of a block
/// (or of the module) start at one column, deeper than the line that opens the block; a block
/// is not empty; `else`/`elif`/`except`/`finally` line up with their statement.
mod python {
    use std::ops::Range;

    use tree_sitter::{Node, Tree};

    use super::{overlaps, Found};

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

    /// The layout errors of every block overlapping `region` or the line above it (where an
    /// emptied block ends).
    pub(super) fn layout(text: &str, tree: &Tree, region: &Range<usize>) -> Vec<Found> {
        let above = text
            .as_bytes()
            .get(..region.start.saturating_sub(1))
            .and_then(|b| b.iter().rposition(|&c| c == b'\n'))
            .map_or(0, |i| i + 1);
        let region = &(above.min(region.start)..region.end);
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(path: &str, before: &str, after: &str) -> Option<SyntaxIssue> {
        TreeSitterSyntax.introduced(Path::new(path), before, after)
    }

    /// `(line, what)` of the issue, for short assertions.
    fn at(issue: Option<SyntaxIssue>) -> Option<(usize, String)> {
        issue.map(|i| (i.line, i.what))
    }

    const TS: &str = "function f(x: number) {\n  if (x > 1) {\n    y();\n  }\n  z();\n}\n\nfunction g() {\n  return 1;\n}\n";
    const RS: &str =
        "fn f() {\n    if x {\n        y();\n    }\n    z();\n}\n\nfn g() -> u8 {\n    1\n}\n";
    const GO: &str = "package a\n\nfunc f() {\n\tif x {\n\t\ty()\n\t}\n\tz()\n}\n\nfunc g() int {\n\treturn 1\n}\n";
    const PY: &str = "class A:\n    def f(self, x):\n        if x:\n            return 1\n        return 2\n\n\ndef g():\n    pass\n";

    #[test]
    fn covers_compiled_in_grammars_only() {
        assert!(TreeSitterSyntax.covers(Path::new("src/a.ts")));
        assert!(TreeSitterSyntax.covers(Path::new("a.go")));
        assert!(!TreeSitterSyntax.covers(Path::new("notes.txt")));
        assert!(!TreeSitterSyntax.covers(Path::new("Makefile")));
        assert!(!TreeSitterSyntax.covers(Path::new("include/a.h")));
        assert!(!TreeSitterSyntax.covers(Path::new("style.scss")));
        assert_eq!(check("notes.txt", "a\n", "a {\n"), None);
    }

    #[test]
    fn a_removed_closer_is_reported_in_each_language() {
        let ts = TS.replace("    y();\n  }\n", "    y();\n");
        let issue = check("a.ts", TS, &ts).expect("ts");
        assert_eq!(issue.what, "missing \"}\"", "{issue:?}");
        let rs = RS.replace("        y();\n    }\n", "        y();\n");
        let issue = check("a.rs", RS, &rs).expect("rust");
        assert!(issue.what.contains("does not parse"), "{issue:?}");
        let go = GO.replace("\t\ty()\n\t}\n", "\t\ty()\n");
        assert!(check("a.go", GO, &go).is_some());
    }

    #[test]
    fn a_unified_diff_header_in_go_is_reported_on_its_line() {
        let after = GO.replace("\tz()\n", "@@ -1,2 +1,2 @@\n\tz()\n");
        let issue = check("a.go", GO, &after).expect("issue");
        assert_eq!((issue.line, issue.column), (7, 1), "{issue:?}");
        assert!(issue.what.starts_with("unexpected \"@"), "{issue:?}");
    }

    #[test]
    fn a_literal_backslash_n_between_statements_in_go_is_reported() {
        let after = GO.replace("\t}\n\tz()\n", "\t}\\n\tz()\n");
        let issue = check("a.go", GO, &after).expect("issue");
        assert_eq!((issue.line, issue.column), (6, 3), "{issue:?}");
        assert_eq!(issue.what, "unexpected \"\\n\"", "{issue:?}");
        // The same two characters inside a string literal are fine.
        let fine = GO.replace("\tz()\n", "\tz(\"a\\nb\")\n");
        assert_eq!(check("a.go", GO, &fine), None);
    }

    #[test]
    fn diff_rows_in_rust_and_pasted_line_numbers_in_typescript_are_reported() {
        // `-    z();` still parses (a negation); `+` is no unary operator in Rust.
        let rs = RS.replace("    z();\n", "-    z();\n+    z(1);\n");
        assert_eq!(at(check("a.rs", RS, &rs)).map(|(l, _)| l), Some(6));
        let ts = TS.replace("    y();\n", "3:    y();\n");
        assert_eq!(at(check("a.ts", TS, &ts)).map(|(l, _)| l), Some(3));
        let ids = TS.replace("    y();\n", "3#KM|    y();\n");
        assert_eq!(at(check("a.ts", TS, &ids)).map(|(l, _)| l), Some(3));
    }

    #[test]
    fn a_correct_edit_is_not_reported() {
        let ts = TS.replace("    y();\n", "    y(x);\n    w();\n");
        assert_eq!(check("a.ts", TS, &ts), None);
        let rs = RS.replace("    z();\n", "    z();\n    if y {\n        w();\n    }\n");
        assert_eq!(check("a.rs", RS, &rs), None);
        let py = PY.replace("        return 2\n", "        x += 1\n        return x\n");
        assert_eq!(check("a.py", PY, &py), None);
        assert_eq!(check("a.ts", TS, TS), None);
    }

    #[test]
    fn an_edit_inside_code_that_was_already_broken_is_not_reported() {
        let broken = TS.replace("    y();\n", "    y(;\n");
        let still = broken.replace("    y(;\n", "    y(1;\n");
        assert_eq!(check("a.ts", &broken, &still), None);
    }

    #[test]
    fn an_old_error_elsewhere_is_not_blamed_on_the_edit() {
        let broken = TS.replace("  return 1;\n", "  return 1 +;\n");
        let edited = broken.replace("    y();\n", "    y();\n    w();\n");
        assert_eq!(check("a.ts", &broken, &edited), None);
        // …but a new error beside it is.
        let worse = broken.replace("    y();\n", "    y(;\n");
        assert_eq!(at(check("a.ts", &broken, &worse)).map(|(l, _)| l), Some(3));
    }

    #[test]
    fn python_layout_errors_are_reported() {
        // A statement indented deeper than its block.
        let deeper = PY.replace("        return 2\n", "                return 2\n");
        let (line, what) = at(check("a.py", PY, &deeper)).expect("deeper");
        assert_eq!(line, 5);
        assert!(what.contains("indentation does not match"), "{what}");
        // A body that lost its indentation.
        let dropped = PY.replace("def g():\n    pass\n", "def g():\npass\n");
        let (line, what) = at(check("a.py", PY, &dropped)).expect("dropped");
        assert!(what.contains("expected an indented block"), "{what}");
        assert_eq!(line, 8);
        // A dedent to no enclosing level.
        let half = PY.replace("        return 2\n", "      return 2\n");
        assert!(check("a.py", PY, &half).is_some());
        // An `else` that does not line up with its `if`.
        let clause = PY.replace(
            "            return 1\n",
            "            return 1\n          else:\n            return 3\n",
        );
        assert!(check("a.py", PY, &clause).is_some());
        // A deliberate dedent that closes the block is fine.
        let closed = PY.replace("        return 2\n", "        return 2\n    y = 1\n");
        assert_eq!(check("a.py", PY, &closed), None);
    }

    #[test]
    fn columns_count_characters() {
        let before = "const s = \"é\";\nf();\n";
        let after = "const s = \"é\"; )\nf();\n";
        let issue = check("a.ts", before, after).expect("issue");
        assert_eq!((issue.line, issue.column), (1, 16), "{issue:?}");
    }

    /// A TypeScript file of `lines` lines (a multiple of 8): function `f{k}` on lines
    /// `8k + 1 ..= 8k + 7`, then a blank line.
    fn big_ts(lines: usize) -> String {
        (0..lines / 8)
            .map(|i| format!("export function f{i}(a: number): number {{\n  const b = a * {i};\n  if (b > 3) {{\n    return b;\n  }}\n  return a;\n}}\n\n"))
            .collect()
    }

    fn checker() -> Check {
        Check::new(SupportLang::TypeScript, Instant::now() + PARSE_BUDGET).expect("parser")
    }

    /// `text` with line `line` (1-based) replaced by `with`.
    fn with_line(text: &str, line: usize, with: &str) -> String {
        let mut lines: Vec<&str> = text.split('\n').collect();
        lines[line - 1] = with;
        lines.join("\n")
    }

    #[test]
    fn a_big_file_is_reparsed_incrementally() {
        let before = big_ts(10_000);
        let after = with_line(&before, 4_498, "  const b = a * 9001;");
        let span = Span::of(&before, &after).expect("span");
        let mut check = checker();
        let full = check.parse(&before, None, None).expect("parse");
        assert!(!full.root_node().has_error());
        // Forced onto the whole text: one full parse, then a small incremental one.
        let mut check = checker();
        let answer = check.run_in(&before, &after, &span, None);
        assert_eq!(answer.map(|a| a.map(|f| f.is_none())), Ok(Some(true)));
        let (whole, incremental) = (check.work[0], check.work[1]);
        assert!(
            whole > 1_000 && incremental * 20 < whole,
            "{:?}",
            check.work
        );

        // By default only a window of top-level items around the edit is parsed.
        let mut check = checker();
        assert_eq!(check.run(&before, &after).map(|f| f.is_none()), Ok(true));
        assert_eq!(check.work.len(), 2, "{:?}", check.work);
        assert!(check.work[0] * 10 < whole, "{:?} vs {whole}", check.work);
        assert!(check.work[1] * 20 < whole, "{:?} vs {whole}", check.work);

        let broken = with_line(&before, 4_498, "  const b = a * ;");
        let found = checker()
            .run(&before, &broken)
            .expect("in time")
            .expect("issue");
        assert_eq!(found.issue(&broken).line, 4_498);
    }

    #[test]
    fn a_removed_closer_in_a_big_file_is_found_in_the_window() {
        let before = big_ts(10_000);
        let lines: Vec<&str> = before.split('\n').collect();
        assert_eq!(lines[4_500], "  }", "the closer of an `if`");
        let after = [&lines[..4_500], &lines[4_501..]].concat().join("\n");
        let mut check = checker();
        let found = check.run(&before, &after).expect("in time").expect("issue");
        assert_eq!(check.work.len(), 2, "a window: {:?}", check.work);
        let issue = found.issue(&after);
        assert!((4_500..4_800).contains(&issue.line), "{issue:?}");
    }

    #[test]
    fn an_old_error_inside_a_window_keeps_the_window() {
        // Line 4_450 (`  const b = a * 556;`) is broken already; the edit is 48 lines below.
        let before = with_line(&big_ts(10_000), 4_450, "  const b = a * ;");
        let fine = with_line(&before, 4_498, "  const b = a * 2;");
        let mut c = checker();
        assert_eq!(c.run(&before, &fine).map(|f| f.is_none()), Ok(true));
        assert_eq!(c.work.len(), 2, "window and incremental only: {:?}", c.work);
        let broken = with_line(&before, 4_498, "  const b = a * ;");
        let found = checker()
            .run(&before, &broken)
            .expect("in time")
            .expect("issue");
        assert_eq!(found.issue(&broken).line, 4_498);
    }

    #[test]
    fn a_window_whose_old_text_does_not_parse_falls_back_to_the_whole_text() {
        // A template literal holding blank lines and column-0 text: a window may start inside.
        let mut before = big_ts(6_000);
        let literal: String = (0..300)
            .map(|i| format!("\nfunction g{i}() {{ (\n"))
            .collect();
        before.push_str(&format!("export const doc = `{literal}`;\n"));
        before.push_str(&big_ts(6_000));
        // Lines 6001..=6601 hold the literal; line 6699 is `  const b = a * 12;`.
        assert_eq!(before.split('\n').nth(6_698), Some("  const b = a * 12;"));
        let after = with_line(&before, 6_699, "  const b = a * 2;");
        let mut c = checker();
        assert_eq!(c.run(&before, &after).map(|f| f.is_none()), Ok(true));
        assert_eq!(c.work.len(), 3, "window, whole, incremental: {:?}", c.work);
        let broken = with_line(&before, 6_699, "  const b = a * ;");
        assert_eq!(
            at(check("a.ts", &before, &broken)).map(|(l, _)| l),
            Some(6_699)
        );
    }

    #[test]
    fn gives_up_on_huge_texts_and_on_timeouts() {
        let huge = "x;\n".repeat(MAX_BYTES / 3 + 1);
        assert_eq!(check("a.ts", &huge, &format!("{huge}(\n")), None);
        let before = big_ts(2_000);
        let after = format!("{before}(\n");
        let mut check = Check::new(SupportLang::TypeScript, Instant::now()).expect("parser");
        let span = Span::of(&before, &after).expect("span");
        assert_eq!(
            check.run_in(&before, &after, &span, None),
            Err(GaveUp::Timeout)
        );
    }

    #[test]
    fn span_stays_on_character_boundaries() {
        let span = Span::of("aé", "aè").expect("span");
        assert_eq!((span.start, span.old_end, span.new_end), (1, 3, 3));
        let span = Span::of("abab", "ab").expect("span");
        assert_eq!((span.start, span.old_end, span.new_end), (2, 4, 2));
        assert_eq!(Span::of("x", "x"), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        #[test]
        fn never_panics(
            lang in 0usize..4,
            at in 0usize..200,
            cut in 0usize..40,
            insert in "[ -~\\n\\t{}()\\[\\]é@\\\\]{0,30}",
        ) {
            let (path, before) = [("a.ts", TS), ("a.rs", RS), ("a.go", GO), ("a.py", PY)][lang];
            let mut start = at.min(before.len());
            while !before.is_char_boundary(start) { start -= 1; }
            let mut end = (start + cut).min(before.len());
            while !before.is_char_boundary(end) { end -= 1; }
            let mut after = before.to_string();
            after.replace_range(start..end, &insert);
            let _ = check(path, before, &after);
            let _ = check(path, &after, before);
        }
    }
}
