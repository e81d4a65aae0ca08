//! Many edits spread over a big file (a patch of a thousand hunks): instead of one span from the
//! first edit to the last, which is the whole file, the new text is parsed in one small window
//! of whole top-level items around each stretch of changed lines. When every window parses
//! without an error, no edit added one; otherwise the caller falls back to the whole check.
//!
//! The stretches come from the caller ([`LineChange`]) and are checked, not trusted: the lines
//! between them must be byte for byte the same in both texts, else there are no windows.

use std::ops::Range;

use ast_grep_language::SupportLang;
use hashline_core::LineChange;
use tree_sitter::Point;

use super::lexed::top_rows;

/// First words of a line that continue the construct above it (`else`, `catch`, a binary
/// keyword): such a line starts no item, blank line above or not.
const CONTINUATIONS: &[&[u8]] = &[
    b"else",
    b"elif",
    b"except",
    b"finally",
    b"catch",
    b"while",
    b"in",
    b"instanceof",
    b"as",
    b"satisfies",
    b"extends",
    b"implements",
];

/// How many lines a window looks through, each way, for the start of a top-level item.
const SEARCH_LINES: usize = 400;

/// One window of the new text: whole top-level items around one or more changed stretches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Window {
    /// The window's bytes.
    pub(super) bytes: Range<usize>,
    /// Where it starts and ends, as tree-sitter points.
    pub(super) points: Range<Point>,
    /// The changed lines inside it (from the first stretch's start to the last one's end).
    pub(super) region: Range<usize>,
}

/// A text's line starts, looked up forward and backward from known places.
struct Lines<'t> {
    b: &'t [u8],
    /// Number of pieces (newlines + 1).
    pieces: usize,
    /// Per row, whether it starts at top level (`lexed`); empty: every row does.
    top: Vec<bool>,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str) -> Lines<'t> {
        let b = text.as_bytes();
        Lines {
            b,
            pieces: memchr::memchr_iter(b'\n', b).count() + 1,
            top: Vec::new(),
        }
    }

    /// The start of the line after the one starting at `at` (`None` at the last piece).
    fn next(&self, at: usize) -> Option<usize> {
        memchr::memchr(b'\n', &self.b[at..]).map(|i| at + i + 1)
    }

    /// The start of the line before the one starting at `at` (`None` at the first line).
    fn prev(&self, at: usize) -> Option<usize> {
        let end = at.checked_sub(1)?;
        Some(memchr::memrchr(b'\n', &self.b[..end]).map_or(0, |i| i + 1))
    }

    /// The line starting at `at`, without its newline.
    fn line(&self, at: usize) -> &'t [u8] {
        let end = memchr::memchr(b'\n', &self.b[at..]).map_or(self.b.len(), |i| at + i);
        &self.b[at..end]
    }

    /// Whether the line starting at `at` (row `row`) starts a top-level item: it starts at
    /// column 0 with a letter, digit, `_`, `@`, `#` or `/`, and the line above is blank,
    /// starts with `}` (`}`, `};`, `})` …), or starts at column 0 and ends with `;` (a whole
    /// top-level statement: `import …;`, `use …;`, `export const … ;`). The first line does.
    /// Never a line inside a string, comment or bracket (`top`), one that continues the line
    /// above ([`CONTINUATIONS`], a `/` that opens no comment), or one under a decorator.
    fn starts_item(&self, at: usize, row: usize) -> bool {
        if row == 0 {
            return true;
        }
        if !self.top.get(row).copied().unwrap_or(self.top.is_empty()) {
            return false;
        }
        let line = self.line(at);
        let first = line.first().copied().unwrap_or(b' ');
        if !(first.is_ascii_alphanumeric() || b"_@#/".contains(&first)) {
            return false;
        }
        if first == b'/' && !matches!(line.get(1), Some(b'/' | b'*')) {
            return false;
        }
        let word = line
            .iter()
            .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
            .map_or(line, |n| &line[..n]);
        if CONTINUATIONS.contains(&word) {
            return false;
        }
        let Some(above) = self.prev(at).map(|p| self.line(p)) else {
            return true;
        };
        let trimmed = above.trim_ascii_end();
        if trimmed.is_empty() && self.decorated(at) {
            return false;
        }
        trimmed.is_empty()
            || trimmed.starts_with(b"}")
            || (!above[0].is_ascii_whitespace() && trimmed.ends_with(b";"))
    }

    /// Whether the last line above `at` that is not blank starts with `@` (a decorator).
    fn decorated(&self, at: usize) -> bool {
        let mut at = at;
        while let Some(p) = self.prev(at) {
            let line = self.line(p).trim_ascii();
            if !line.is_empty() {
                return line.starts_with(b"@");
            }
            at = p;
        }
        false
    }
}

/// Advance `(at, row)`, a line start of `lines`, to row `to` (a line start, or the text's end
/// for row `pieces`); `None` when `to` is behind it or past the end.
fn advance(lines: &Lines<'_>, (at, row): (usize, usize), to: usize) -> Option<usize> {
    if to < row || to > lines.pieces {
        return None;
    }
    let mut at = at;
    for r in row..to {
        at = match lines.next(at) {
            Some(next) => next,
            None if r + 1 == lines.pieces => lines.b.len(),
            None => return None,
        };
    }
    Some(at)
}

/// The changed stretches as whole-line byte ranges of `after` with their rows, once the lines
/// between them are found equal in both texts; `None` when they are not (or the stretches are
/// out of order or out of the texts).
fn regions(before: &str, new: &Lines<'_>, changes: &[LineChange]) -> Option<Vec<Stretch>> {
    let old = Lines::new(before);
    let (mut o, mut n) = ((0usize, 0usize), (0usize, 0usize));
    let mut out = Vec::with_capacity(changes.len());
    for c in changes {
        let ordered = c.old.start >= o.1
            && c.new.start >= n.1
            && c.old.end >= c.old.start
            && c.new.end >= c.new.start;
        if !ordered || c.old.start - o.1 != c.new.start - n.1 {
            return None;
        }
        let o_gap = advance(&old, o, c.old.start)?;
        let n_gap = advance(new, n, c.new.start)?;
        if old.b[o.0..o_gap] != new.b[n.0..n_gap] {
            return None;
        }
        let o_end = advance(&old, (o_gap, c.old.start), c.old.end)?;
        let n_end = advance(new, (n_gap, c.new.start), c.new.end)?;
        out.push(Stretch {
            at: n_gap,
            row: c.new.start,
            end: n_end,
            end_row: c.new.end,
            region: n_gap..n_end,
        });
        o = (o_end, c.old.end);
        n = (n_end, c.new.end);
    }
    (old.b[o.0..] == new.b[n.0..]).then_some(out)
}

/// Lines `row..end_row` of the new text, bytes `at..end` (`end_row` is the piece count at the
/// text's end), with the changed bytes they were widened from.
struct Stretch {
    at: usize,
    row: usize,
    end: usize,
    end_row: usize,
    region: Range<usize>,
}

/// Widen `w`'s end to the next line that starts an item (or the text's end); `None` past
/// [`SEARCH_LINES`].
fn widen_end(lines: &Lines<'_>, w: &mut Stretch) -> Option<()> {
    let mut n = 0;
    while w.end_row < lines.pieces && !lines.starts_item(w.end, w.end_row) {
        n += 1;
        (w.end, w.end_row) = match lines.next(w.end) {
            Some(next) => (next, w.end_row + 1),
            None => (lines.b.len(), lines.pieces),
        };
        if n > SEARCH_LINES {
            return None;
        }
    }
    Some(())
}

/// The windows of `after` (a text of `lang`) to parse for `changes`, merged where they meet;
/// `None` when the changes do not check out, the scan of either text for its top-level rows
/// cannot tell (`lexed`), a window finds no item start within [`SEARCH_LINES`], a window
/// ends where the old text was not at top level (the unchanged text after it would read
/// differently), or the windows together hold more than half the text (a whole parse is as
/// cheap then).
pub(super) fn windows(
    lang: SupportLang,
    before: &str,
    after: &str,
    changes: &[LineChange],
) -> Option<Vec<Window>> {
    let mut lines = Lines::new(after);
    // The two scans are independent: the old text's on another thread.
    let (new_top, old_top) =
        hashline_core::par::both(|| top_rows(lang, after), || top_rows(lang, before));
    lines.top = new_top?;
    let old_top = old_top?;
    let len = after.len();
    let mut out: Vec<Stretch> = Vec::new();
    // The window being built; its end is widened to an item start only once no later stretch
    // begins inside it, so packed hunks walk each line once forward.
    let mut open: Option<Stretch> = None;
    for mut s in regions(before, &lines, changes)? {
        // A deletion leaves no line: look at the line above it and at the one below.
        if s.row == s.end_row {
            if let Some(p) = lines.prev(s.at) {
                (s.at, s.row) = (p, s.row - 1);
            }
            if s.end_row < lines.pieces {
                s.end = lines.next(s.end).unwrap_or(len);
                s.end_row += 1;
            }
            s.region = s.at..s.end;
        }
        if let Some(w) = &mut open {
            if s.row > w.end_row {
                widen_end(&lines, w)?;
            }
            if s.row <= w.end_row {
                (w.end, w.end_row) = (s.end.max(w.end), s.end_row.max(w.end_row));
                w.region.end = s.region.end;
                continue;
            }
            out.extend(open.take());
        }
        // Back to the item start, then to the one before it: an item left open above a
        // blank line (`x = a +`) is then read with the line that continues it.
        let mut n = 0;
        let mut starts = 0;
        while starts < 2 {
            if lines.starts_item(s.at, s.row) {
                starts += 1;
                if starts == 2 || s.row == 0 {
                    break;
                }
            }
            n += 1;
            (s.at, s.row) = (lines.prev(s.at)?, s.row - 1);
            if n > SEARCH_LINES {
                return None;
            }
        }
        // That may reach back into the window before: it grows instead.
        match out.pop() {
            Some(mut w) if s.row < w.end_row => {
                (w.end, w.end_row) = (s.end.max(w.end), s.end_row.max(w.end_row));
                w.region.end = s.region.end;
                open = Some(w);
            }
            last => {
                out.extend(last);
                open = Some(s);
            }
        }
    }
    if let Some(mut w) = open {
        widen_end(&lines, &mut w)?;
        out.push(w);
    }
    for w in &out {
        if w.end_row < lines.pieces && !*old_top.get(old_row(changes, w.end_row)?)? {
            return None;
        }
    }
    let total: usize = out.iter().map(|w| w.end - w.at).sum();
    if total > len / 2 {
        return None;
    }
    let last_start = memchr::memrchr(b'\n', lines.b).map_or(0, |i| i + 1);
    let point = |row: usize| {
        if row >= lines.pieces {
            Point::new(lines.pieces - 1, len - last_start)
        } else {
            Point::new(row, 0)
        }
    };
    Some(
        out.into_iter()
            .map(|w| Window {
                bytes: w.at..w.end,
                points: point(w.row)..point(w.end_row),
                region: w.region,
            })
            .collect(),
    )
}

/// Whether `changes` check out against the texts: in order, inside them, and the lines between
/// them byte for byte the same in both.
pub(super) fn check_out(before: &str, after: &str, changes: &[LineChange]) -> bool {
    regions(before, &Lines::new(after), changes).is_some()
}

/// The row of the old text at new row `row`, which lies between changed stretches (`None`
/// inside one).
pub(super) fn old_row(changes: &[LineChange], row: usize) -> Option<usize> {
    let done = changes.partition_point(|c| c.new.end <= row);
    if changes.get(done).is_some_and(|c| c.new.start < row) {
        return None;
    }
    let delta = done
        .checked_sub(1)
        .and_then(|d| changes.get(d))
        .map_or(0, |c| c.old.end as isize - c.new.end as isize);
    row.checked_add_signed(delta)
}
