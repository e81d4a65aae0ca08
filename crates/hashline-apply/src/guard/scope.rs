//! One edit as the indentation checks see it: only the rows that change (the first and last
//! lines of its range that the rows restate unchanged are context, not edited rows), rows
//! inside strings and block comments blanked (they are text, not code), and where each line
//! sits in the language's structure (brackets, continuation lines, the blocks it closes).

use hashline_core::{Edit, EditKind};

use super::layout::Start;
use super::lexical::{code_part, is_blank, width, Family};
use super::Subject;

/// How a line may start when it continues the statement on the line before it.
const CONTINUES: [&str; 9] = ["||", "&&", "?.", ".", "?", "|", "&", "+", "=>"];

/// Lines looked at when walking back to a statement's first line.
const STATEMENT_LINES: usize = 50;

/// Lines searched above an edit for the blocks its closers end.
const OPENER_LINES: usize = 4000;

/// An edit narrowed to the rows it changes, with the layout of the lines around it.
pub(super) struct Ix<'a, 's> {
    pub s: &'a Subject<'s>,
    /// The edit as sent.
    pub sent: &'a Edit,
    /// The narrowed edit, rows inside strings and block comments blanked.
    pub edit: Edit,
    /// Lines of the sent range that the rows restate unchanged (they stay).
    keep: Vec<(usize, usize)>,
    /// The original line before the rows.
    pub last: usize,
    /// The first original line of `orig`.
    lo: usize,
    /// Where original lines `lo..` start (as far as the checks look).
    orig: Vec<Start>,
    /// Where each row starts.
    pub rows: Vec<Start>,
}

impl<'a, 's> Ix<'a, 's> {
    pub(super) fn new(s: &'a Subject<'s>, sent: &'a Edit) -> Ix<'a, 's> {
        let (mut edit, keep) = narrow(s, sent);
        let last = match edit.kind {
            EditKind::Replace { start, .. } => start - 1,
            EditKind::InsertAfter(l) => l,
            EditKind::InsertBefore(l) => l.saturating_sub(1),
            EditKind::Head => 0,
            EditKind::Tail => s.line_count(),
        };
        let (_, after) = s.neighbours(&edit);
        let hi = (after + 16).min(s.line_count()).max(last);
        // Far enough back for a statement's first line and the openers looked at above.
        let lo = last.saturating_sub(STATEMENT_LINES + 16).max(1);
        let mut lexer = s.lexer_before(lo);
        let mut orig: Vec<Start> = (lo..=last).map(|n| lexer.feed(s.line(n))).collect();
        let mut in_rows = lexer.clone();
        let rows: Vec<Start> = edit.rows.iter().map(|r| in_rows.feed(r)).collect();
        orig.extend((last + 1..=hi).map(|n| lexer.feed(s.line(n))));
        for (row, st) in edit.rows.iter_mut().zip(&rows) {
            if st.text {
                row.clear();
            }
        }
        Ix {
            s,
            sent,
            edit,
            keep,
            last,
            lo,
            orig,
            rows,
        }
    }

    /// Where original line `n` starts (code at depth 0 outside the lines scanned).
    pub(super) fn start(&self, n: usize) -> Start {
        n.checked_sub(self.lo)
            .and_then(|i| self.orig.get(i))
            .copied()
            .unwrap_or_default()
    }

    /// The original lines whose starts were scanned (`start` knows them): from about 66
    /// lines above the rows to 16 below.
    pub(super) fn window(&self) -> (usize, usize) {
        (self.lo, self.lo + self.orig.len().saturating_sub(1))
    }

    /// Whether original line `n` is in the result (kept by every edit, or restated).
    pub(super) fn survives(&self, n: usize) -> bool {
        self.s.survives(n) || self.keep.iter().any(|&(a, b)| a <= n && n <= b)
    }

    /// The nearest non-blank original line the request keeps, from `n` towards the start
    /// (`up` false) or the end (`up` true).
    pub(super) fn nearest(&self, mut n: usize, up: bool) -> Option<usize> {
        let s = self.s;
        while n >= 1 && n <= s.line_count() {
            if !self.survives(n) {
                n = s.skip_removed(n, up);
                continue;
            }
            if !is_blank(s.line(n)) {
                return Some(n);
            }
            n = if up { n + 1 } else { n - 1 };
        }
        None
    }

    /// The non-blank line just above the rows in the result: an original line, or the last
    /// row another edit puts there.
    pub(super) fn above(&self) -> Option<Above<'a>> {
        let s = self.s;
        let mut n = self.last;
        while n >= 1 {
            let other = s.edits.iter().filter(|e| !std::ptr::eq(*e, self.sent));
            let rows = other.clone().find_map(|e| {
                let here = match e.kind {
                    EditKind::Replace { end, .. } => end == n,
                    EditKind::InsertAfter(l) => l == n,
                    EditKind::InsertBefore(l) => l == n + 1,
                    _ => false,
                };
                here.then(|| e.rows.iter().rev().find(|r| !is_blank(r)))
                    .flatten()
            });
            if let Some(row) = rows {
                return Some(Above::Row(row));
            }
            if self.survives(n) && !is_blank(s.line(n)) {
                return Some(Above::Line(n));
            }
            n -= 1;
        }
        None
    }

    /// The indentation of the statement original line `n` belongs to: walking back over the
    /// lines it continues (inside brackets, after a `\`, or starting with an operator).
    pub(super) fn statement_width(&self, n: usize) -> usize {
        let s = self.s;
        let mut w = width(s.line(n), 4);
        let mut m = n;
        let family = Family::of(s.path);
        while m > 1
            && n - m < STATEMENT_LINES
            && (continues(s.line(m), self.start(m)) || ends_open(s.line(m - 1), family))
        {
            m -= 1;
            if is_blank(s.line(m)) {
                break;
            }
            w = w.min(width(s.line(m), 4));
        }
        w
    }

    /// [`Ix::statement_width`] of row `i` of the edit, within its rows.
    pub(super) fn row_statement_width(&self, i: usize) -> usize {
        let rows = &self.edit.rows;
        let mut w = width(&rows[i], 4);
        let mut j = i;
        let family = Family::of(self.s.path);
        while j > 0
            && i - j < STATEMENT_LINES
            && (continues(&rows[j], self.rows[j]) || ends_open(&rows[j - 1], family))
        {
            j -= 1;
            if is_blank(&rows[j]) {
                break;
            }
            w = w.min(width(&rows[j], 4));
        }
        w
    }

    /// The statement widths of the brackets still open above the rows, innermost first (at
    /// most `want` of them).
    pub(super) fn open_blocks(&self, want: usize) -> Vec<usize> {
        let family = Family::of(self.s.path);
        let mut out = Vec::new();
        let mut need = 0usize;
        let lo = self.last.saturating_sub(OPENER_LINES).max(1);
        let mut lexer = self.s.lexer_before(lo);
        let text: Vec<bool> = (lo..=self.last)
            .map(|n| lexer.feed(self.s.line(n)).text)
            .collect();
        for n in (lo..=self.last).rev() {
            if text.get(n - lo).copied().unwrap_or(false) {
                continue;
            }
            for c in code_part(self.s.line(n), family).chars().rev() {
                match c {
                    ')' | ']' | '}' => need += 1,
                    '(' | '[' | '{' if need > 0 => need -= 1,
                    '(' | '[' | '{' => {
                        out.push(self.statement_width(n));
                        if out.len() >= want {
                            return out;
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }
}

/// A line just above the rows.
pub(super) enum Above<'a> {
    /// Original line `n`.
    Line(usize),
    /// A row of another edit.
    Row(&'a str),
}

/// Whether `line` ends with a logical operator outside strings and comments (`if a &&`): the
/// next line continues its condition (gofmt and rustfmt indent that line one level deeper
/// than the statement, and the block's body goes one level under the statement).
fn ends_open(line: &str, family: Family) -> bool {
    if matches!(family, Family::Prose | Family::Data) {
        return false;
    }
    let code = code_part(line, family);
    let t = code.trim_end();
    t.ends_with("&&") || t.ends_with("||")
}

/// Whether `line` (starting at `st`) continues the statement of the line before it.
fn continues(line: &str, st: Start) -> bool {
    let t = line.trim_start();
    st.depth > 0 || st.joined || CONTINUES.iter().any(|k| t.starts_with(k))
}

/// `edit` without the first and last rows that restate the lines of its range unchanged, and
/// those restated lines.
fn narrow(s: &Subject<'_>, edit: &Edit) -> (Edit, Vec<(usize, usize)>) {
    let Some((start, end)) = Subject::replaced(edit) else {
        return (edit.clone(), Vec::new());
    };
    let old: Vec<&str> = (start..=end).map(|n| s.line(n)).collect();
    let rows = &edit.rows;
    let head = old
        .iter()
        .zip(rows)
        .take_while(|(o, r)| **o == r.as_str())
        .count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(rows[head..].iter().rev())
        .take_while(|(o, r)| **o == r.as_str())
        .count();
    if head + tail == 0 {
        return (edit.clone(), Vec::new());
    }
    let (a, b) = (start + head, end - tail);
    let kind = if a <= b {
        EditKind::Replace { start: a, end: b }
    } else {
        EditKind::InsertAfter(a - 1)
    };
    let keep = [(start, a - 1), (b + 1, end)]
        .into_iter()
        .filter(|(x, y)| x <= y)
        .collect();
    let narrowed = Edit {
        kind,
        rows: rows[head..rows.len() - tail].to_vec(),
        origin: edit.origin,
    };
    (narrowed, keep)
}
