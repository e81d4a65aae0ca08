//! The block-structure rules of the indentation check (`indent`): a row under a block opener
//! must sit deeper than it, rows above a closer must not fall below the block it closes, rows
//! inside an open bracket keep the bracket's continuation indentation, and a brace language's
//! rows must not drop below the braces that hold them.

use super::indent::lost;
use super::layout::Start;
use super::lexical::{code_part, is_blank, width, Family};
use super::scope::Ix;
use super::Subject;

/// [`dropped`] with braces: each row at `floor` or deeper, where a row that closes a block
/// opened above the edit lowers the floor to that block's indentation.
pub(super) fn braced(ix: &Ix<'_, '_>, mut floor: usize) -> Option<String> {
    let family = Family::of(ix.s.path);
    let mut depth = 0usize;
    let mut closed = 0usize;
    let mut blocks: Vec<usize> = Vec::new();
    for (i, row) in ix.edit.rows.iter().enumerate() {
        if is_blank(row) {
            continue;
        }
        let w = width(row, 4);
        let at_start = floor;
        let mut leading = true;
        let mut closes_first = false;
        for c in code_part(row, family).trim_start().chars() {
            match c {
                '(' | '[' | '{' => {
                    depth += 1;
                    leading = false;
                }
                ')' | ']' | '}' if depth > 0 => depth -= 1,
                ')' | ']' | '}' => {
                    closed += 1;
                    if blocks.len() < closed {
                        blocks = ix.open_blocks(closed + 4);
                    }
                    let want = blocks.get(closed - 1).copied().unwrap_or(0);
                    if leading {
                        closes_first = true;
                        if w < want {
                            return Some(format!(
                                "row {} closes a block opened above the edit at {want} columns, \
                                 but is indented {w} (indentation lost?)",
                                i + 1
                            ));
                        }
                    }
                    floor = floor.min(want);
                }
                c if c.is_whitespace() => {}
                _ => leading = false,
            }
        }
        if !closes_first && w < at_start {
            return Some(lost(w, at_start));
        }
    }
    None
}

/// With braces, rows right above a line that starts by closing a block (`}`, `)`, `]`), in
/// a file that indents that block's body (the line above the rows is deeper than the
/// closer), rows that leave no block open: the rows sit inside that block, so deeper than
/// its closer, and after a `}`
/// that ends a sibling block at least at that sibling's level, until a row closes a block
/// opened above. Labels, `case`, preprocessor lines and comments may sit anywhere.
pub(super) fn above_closer(ix: &Ix<'_, '_>) -> Option<String> {
    let s = ix.s;
    let family = Family::of(s.path);
    if !matches!(family, Family::CLike | Family::Rust) {
        return None;
    }
    let (before, after) = s.neighbours(&ix.edit);
    let next = ix.nearest(after, true)?;
    let prev = ix.nearest(before, false)?;
    let (nl, pl) = (s.line(next), s.line(prev));
    let code = |n: usize| !ix.start(n).text && !code_part(s.line(n), family).trim().is_empty();
    if !code(next) || !code(prev) || !nl.trim_start().starts_with(['}', ')', ']']) {
        return None;
    }
    let closer = width(nl, 4);
    if width(pl, 4) <= closer {
        return None;
    }
    let sibling = if pl.trim_start().starts_with('}') {
        width(pl, 4)
    } else {
        0
    };
    let floor = (closer + 1).max(sibling);
    // Rows that leave a block open may be its opener (the closer after ends their block).
    let net = ix.edit.rows.iter().fold(0isize, |d, r| {
        code_part(r, family).chars().fold(d, |d, ch| match ch {
            '(' | '[' | '{' => d + 1,
            ')' | ']' | '}' => d - 1,
            _ => d,
        })
    });
    if net > 0 {
        return None;
    }
    let mut depth = 0usize;
    for (i, row) in ix.edit.rows.iter().enumerate() {
        let c = code_part(row, family);
        let t = c.trim();
        if t.is_empty() {
            continue;
        }
        let free = t.starts_with("case ")
            || t.starts_with("default")
            || (family == Family::CLike && t.starts_with('#'))
            || t.ends_with(':');
        if depth == 0 && t.starts_with(['}', ')', ']']) {
            return None;
        }
        if !free && width(row, 4) < floor {
            return Some(format!(
                "row {} is indented {} columns, but it sits inside the block that the line \
                 after the edit closes, whose body is indented {floor} or more (indentation \
                 lost?)",
                i + 1,
                width(row, 4)
            ));
        }
        for ch in t.chars() {
            match ch {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' if depth > 0 => depth -= 1,
                ')' | ']' | '}' => return None,
                _ => {}
            }
        }
    }
    None
}

/// A replace's row inside open brackets (an argument, an entry), not closing them, indented
/// less than every line it replaces and than the line after the edit, itself an entry
/// inside the brackets: the entries of one bracket share their indentation, so the row lost
/// its own.
pub(super) fn inside_brackets(ix: &Ix<'_, '_>) -> Option<String> {
    let s = ix.s;
    let family = Family::of(s.path);
    if matches!(family, Family::Prose | Family::Data) {
        return None;
    }
    let (start, end) = Subject::replaced(&ix.edit)?;
    let (_, after) = s.neighbours(&ix.edit);
    let next = ix.nearest(after, true)?;
    let entry = |st: Start, l: &str| {
        st.depth > 0 && !st.text && !l.trim_start().starts_with([')', ']', '}'])
    };
    // The line after is another entry, or the closer of the brackets the entries sit in
    // (`const (` … `)`): entries stand deeper than their closer.
    let next_line = s.line(next);
    let closer = ix.start(next).depth > 0
        && !ix.start(next).text
        && next_line.trim_start().starts_with([')', ']', '}']);
    if !entry(ix.start(next), next_line) && !closer {
        return None;
    }
    let replaced = (start..=end)
        .map(|n| s.line(n))
        .filter(|l| !is_blank(l))
        .map(|l| width(l, 4))
        .min()?;
    let (floor, ceiling) = if closer {
        (replaced, width(next_line, 4))
    } else {
        (replaced.min(width(next_line, 4)), usize::MAX)
    };
    if closer && replaced <= ceiling {
        return None;
    }
    ix.edit.rows.iter().enumerate().find_map(|(i, r)| {
        let w = width(r, 4);
        (!is_blank(r) && entry(ix.rows[i], r) && w < floor && w <= ceiling).then(|| {
            format!(
                "row {} is an entry inside open brackets indented {w} columns, less than the \
                 {floor} of the entries it replaces and follows (indentation lost?)",
                i + 1
            )
        })
    })
}
