//! Block comment rows that lost their indentation (`indent`): in a brace language, the ` * `
//! rows of a `/* … */` comment sit one column right of the `/` that opens it. A row whose
//! `*` stands left of that column, in a file whose other comment rows align so, lost its
//! indentation.

use super::lexical::{width, Family};
use super::scope::Ix;

/// Lines looked at above an edit for the `/*` of the comment its first row is in.
const COMMENT_LINES: usize = 200;

/// Where the text of one stretch stands: outside a block comment, or inside one whose `*`
/// rows belong at the given column.
#[derive(Debug, Clone, Copy)]
struct Comment(Option<usize>);

impl Comment {
    /// The state after `line`, and for a `*` row inside a comment, whether its `*` stands
    /// left of the comment's column (`Some(true)`) or at it or right (`Some(false)`).
    fn feed(self, line: &str) -> (Comment, Option<bool>) {
        let t = line.trim_start();
        let mut verdict = None;
        let mut now = self.0;
        if let Some(col) = now {
            if t.starts_with('*') {
                verdict = Some(width(line, 4) < col);
            }
        }
        // The last opener or closer on the line decides what the next line is in.
        let open = line.rfind("/*");
        let close = line.rfind("*/");
        match (open, close) {
            (Some(o), Some(c)) if c > o => now = None,
            // A comment opened after code on its line sets no column for its rows.
            (Some(o), _) if o == line_start(line) => now = Some(width(line, 4) + 1),
            (Some(_), _) => now = Some(0),
            (None, Some(_)) => now = None,
            (None, None) => {}
        }
        (Comment(now), verdict)
    }
}

/// The byte offset where `line`'s text starts.
fn line_start(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// A row of a block comment whose `*` fell left of the comment's column.
pub(super) fn star_dropped(ix: &Ix<'_, '_>) -> Option<String> {
    let s = ix.s;
    if !matches!(Family::of(s.path), Family::CLike | Family::Rust) {
        return None;
    }
    let rows = &ix.sent.rows;
    if !rows.iter().any(|r| r.trim_start().starts_with('*')) {
        return None;
    }
    // The comment the rows start in: the nearest `/*` above when the first line the rows
    // take (or go before) starts inside a block comment.
    let mut state = Comment(None);
    if ix.start(ix.last + 1).text {
        let top = ix.last.saturating_sub(COMMENT_LINES).max(1);
        let open = (top..=ix.last).rev().find(|&n| s.line(n).contains("/*"))?;
        state = Comment(None).feed(s.line(open)).0;
    }
    let mut found = None;
    for (i, row) in rows.iter().enumerate() {
        let (next, verdict) = state.feed(row);
        if verdict == Some(true) && found.is_none() {
            found = Some(i);
        }
        state = next;
    }
    let i = found?;
    // The file's own comments, around the edit as read, align their rows.
    let (lo, hi) = ix.window();
    let (mut aligned, mut off, mut st) = (0, 0, Comment(None));
    for n in lo..=hi {
        let (next, verdict) = st.feed(s.line(n));
        match verdict {
            Some(false) => aligned += 1,
            Some(true) => off += 1,
            None => {}
        }
        st = next;
    }
    (aligned >= 2 && off == 0).then(|| {
        format!(
            "row {} (`{}`) stands left of the `/*` that opens its comment, whose other rows \
             align their `*` one column right of it (indentation lost?)",
            i + 1,
            rows[i].trim()
        )
    })
}
