//! Indentation that does not fit where the payload lands: spaces in a block indented with tabs
//! (and the reverse), rows dropped below the indentation of everything around them, every row
//! shifted by one column (a `+ TEXT` diff habit). The rules of block structure (a row under an
//! opener, above a closer, inside brackets, within braces) are in `indent_block`.

use hashline_core::{Edit, ErrorCode};

use super::indent_block::{above_closer, braced, inside_brackets};
use super::indent_opener::under_opener;
use super::lexical::{indent, is_blank, width, Family};
use super::scope::Ix;
use super::{refuse, Refusal, Subject};

/// Lines on each side of an edit that show the block's indentation style.
const AROUND: usize = 4;

const RESEND: &str = "Re-indent the rows like the lines shown above and send the edit again; if \
this indentation is meant, resend with --as-sent (CLI) or \"allowSyntaxErrors\": true (JSON).";

/// Refuse `edit` if its rows' indentation does not fit the block.
pub(super) fn check(s: &Subject<'_>, edit: &Edit) -> Result<(), Refusal> {
    let ix = Ix::new(s, edit);
    let ctx = context(&ix);
    let e = &ix.edit;
    let what = mixed_style(e, &ctx)
        .or_else(|| method_at_top_level(s, e))
        .or_else(|| dropped(&ix))
        .or_else(|| list_text_dropped(s, e))
        .or_else(|| below_first_row(s, e))
        .or_else(|| under_opener(&ix))
        .or_else(|| above_closer(&ix))
        .or_else(|| inside_brackets(&ix))
        .or_else(|| super::indent_yaml::dedented_out_of_block(&ix))
        .or_else(|| super::indent_comment::star_dropped(&ix))
        .or_else(|| super::py_scope::outside_function(&ix))
        .or_else(|| shifted_by_one(s, e, &ctx));
    match what {
        Some(what) => Err(refuse(s, ErrorCode::Indentation, edit, what, RESEND)),
        None => Ok(()),
    }
}

/// The non-blank original lines around (and under) the edit.
fn context<'a>(ix: &Ix<'a, '_>) -> Vec<&'a str> {
    let s = ix.s;
    let (before, after) = s.neighbours(&ix.edit);
    let lo = before.saturating_sub(AROUND - 1).max(1);
    let hi = (after + AROUND - 1).min(s.line_count());
    // Lines inside strings count too: a file whose strings are indented with spaces does
    // not show a tab style.
    (lo..=hi)
        .map(|n| s.line(n))
        .filter(|l| !is_blank(l))
        .collect()
}

/// Rows indented with spaces in a block indented only with tabs, or the reverse.
fn mixed_style(edit: &Edit, ctx: &[&str]) -> Option<String> {
    let indented: Vec<&str> = ctx
        .iter()
        .map(|l| indent(l))
        .filter(|i| !i.is_empty())
        .collect();
    if indented.is_empty() {
        return None;
    }
    let tabs = indented.iter().all(|i| i.starts_with('\t'));
    let spaces = indented.iter().all(|i| i.starts_with(' '));
    for (i, row) in edit.rows.iter().enumerate() {
        if is_blank(row) {
            continue;
        }
        let ind = indent(row);
        // A space before `*` continues a block comment in a tab-indented file.
        let comment = row.trim_start().starts_with('*');
        if tabs && ind.contains(' ') && !comment {
            return Some(format!(
                "row {} is indented with spaces, but the lines around it are indented with tabs",
                i + 1
            ));
        }
        if spaces && ind.starts_with('\t') {
            return Some(format!(
                "row {} is indented with a tab, but the lines around it are indented with spaces",
                i + 1
            ));
        }
    }
    None
}

/// Rows dropped below the block: for a replace in code, a first row less indented than both
/// the lines it replaces and the line before; otherwise rows less indented than both
/// neighbours. With braces, a row closing a block opened above the edit may sit at that
/// block's indentation (and the rows after it too), never below it.
fn dropped(ix: &Ix<'_, '_>) -> Option<String> {
    let (s, edit) = (ix.s, &ix.edit);
    let (before, after) = s.neighbours(edit);
    let prev = width(s.line(ix.nearest(before, false)?), 4);
    let family = Family::of(s.path);
    // In prose a block may end anywhere: only rows below both neighbours count there.
    let prose = family == Family::Prose;
    let braces = matches!(family, Family::CLike | Family::Rust);
    let replaced = Subject::replaced(edit).and_then(|(start, end)| {
        (start..=end)
            .map(|n| s.line(n))
            .filter(|l| !is_blank(l))
            .map(|l| width(l, 4))
            .min()
    });
    let floor = match replaced {
        Some(under) if !prose => under.min(prev),
        _ => {
            let next = width(s.line(ix.nearest(after, true)?), 4);
            prev.min(next).min(replaced.unwrap_or(usize::MAX))
        }
    };
    if braces {
        return braced(ix, floor);
    }
    // In Python a new top-level item may follow a replace's first row: only that row counts
    // (also where the rows that restate the range's edges leave an insert).
    let row = if Subject::replaced(ix.sent).is_some() && !prose {
        edit.rows
            .iter()
            .find(|r| !is_blank(r))
            .map(|r| width(r, 4))?
    } else {
        edit.rows
            .iter()
            .filter(|r| !is_blank(r))
            .map(|r| width(r, 4))
            .min()?
    };
    (row < floor && !deliberate_dedent(ix, row) && !restates_moved(ix, row))
        .then(|| lost(row, floor))
}

/// Markdown: a replace of the indented continuation lines of a list item (the item's line, or
/// another such line, kept right above) whose rows all start further left, none of them
/// markup of its own (a list item, a heading, a fence, a quote, a table): the rows fall out
/// of the item.
fn list_text_dropped(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    if Family::of(s.path) != Family::Prose {
        return None;
    }
    let (start, end) = Subject::replaced(edit)?;
    let lines: Vec<&str> = (start..=end)
        .map(|n| s.line(n))
        .filter(|l| !is_blank(l))
        .collect();
    let k = lines.iter().map(|l| width(l, 4)).min()?;
    let markup = |l: &str| {
        let t = l.trim_start();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        ["- ", "* ", "+ ", "#", "```", "~~~", ">", "|"]
            .iter()
            .any(|m| t.starts_with(m))
            || (digits > 0 && t[digits..].starts_with(". "))
    };
    if k < 2 || lines.iter().any(|l| markup(l)) || start < 2 || !s.survives(start - 1) {
        return None;
    }
    let above = s.line(start - 1);
    let item = markup(above) && width(above, 4) < k && !above.trim_start().starts_with('#');
    if !(item || (width(above, 4) == k && !is_blank(above))) {
        return None;
    }
    let rows: Vec<&String> = edit.rows.iter().filter(|r| !is_blank(r)).collect();
    if rows.is_empty() || rows.iter().any(|r| width(r, 4) >= k || markup(r)) {
        return None;
    }
    Some(format!(
        "the rows start at column {}, left of the {k} columns of the list item's lines they \
         replace: they would fall out of the item (indentation lost?)",
        rows.iter().map(|r| width(r, 4)).min().unwrap_or(0)
    ))
}

/// Lines the request removes right beside the edit (only blank or removed lines between)
/// reach down to `row`'s indentation: the rows restate code the request takes out there (a
/// `def` header rewritten by a delete and an insert), they lost nothing.
fn restates_moved(ix: &Ix<'_, '_>, row: usize) -> bool {
    const REACH: usize = 64;
    let s = ix.s;
    let (before, after) = s.neighbours(&ix.edit);
    let side = |lines: &mut dyn Iterator<Item = usize>| {
        let mut least = None::<usize>;
        for n in lines.take(REACH) {
            let line = s.line(n);
            if s.survives(n) {
                if !is_blank(line) {
                    break;
                }
                continue;
            }
            if !is_blank(line) {
                let w = width(line, 4);
                least = Some(least.map_or(w, |l| l.min(w)));
            }
        }
        least
    };
    let up = side(&mut (1..=before).rev());
    let down = side(&mut (after..=s.line_count()));
    up.into_iter().chain(down).any(|w| w <= row)
}

/// One row moved out of its block to the level of the block's own statement (`    return x`
/// after the `if` it ended): a line above at exactly that indentation with none shallower in
/// between, and the code after it no deeper. Lost indentation lands at column 0 or below the
/// block's level, or leaves the lines after it deeper.
fn deliberate_dedent(ix: &Ix<'_, '_>, row: usize) -> bool {
    let s = ix.s;
    let mut solid = ix.edit.rows.iter().filter(|r| !is_blank(r));
    if row == 0 || solid.next().is_none() || solid.next().is_some() {
        return false;
    }
    let (before, after) = s.neighbours(&ix.edit);
    let next_ok = ix
        .nearest(after, true)
        .is_none_or(|n| width(s.line(n), 4) <= row);
    let mut n = before;
    let level = loop {
        match ix.nearest(n, false) {
            Some(m) if width(s.line(m), 4) > row => n = m - 1,
            Some(m) => break width(s.line(m), 4),
            None => break 0,
        }
    };
    next_ok && level == row
}

pub(super) fn lost(row: usize, floor: usize) -> String {
    format!(
        "the rows are indented {row} columns, less than the {floor} of the lines around and \
         under the edit (indentation lost?)"
    )
}

/// A Python `def` at column 0 whose first parameter is `self` or `cls`: a method whose
/// indentation was lost (it would leave its class).
fn method_at_top_level(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    if !super::lexical::is_python(s.path) {
        return None;
    }
    edit.rows.iter().enumerate().find_map(|(i, r)| {
        let sig = r
            .strip_prefix("def ")
            .or_else(|| r.strip_prefix("async def "))?;
        let params = sig.split_once('(')?.1.trim_start();
        let method = ["self", "cls"].iter().any(|p| {
            params
                .strip_prefix(p)
                .is_some_and(|rest| rest.starts_with([',', ')', ':']))
        });
        method.then(|| {
            format!(
                "row {} defines a method (`self`/`cls` first) at column 0, outside any class",
                i + 1
            )
        })
    })
}

/// With braces, a row less indented than the payload's first row although no row in between
/// closed a block (`}`, `)`, `]`): the indentation of the later rows was lost.
fn below_first_row(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    if !matches!(Family::of(s.path), Family::CLike | Family::Rust) {
        return None;
    }
    let mut rows = edit.rows.iter().enumerate().filter(|(_, r)| !is_blank(r));
    let (_, first) = rows.next()?;
    let mut floor = width(first, 4);
    for (i, row) in rows {
        let w = width(row, 4);
        if row.trim_start().starts_with(['}', ')', ']']) {
            floor = floor.min(w);
        } else if w < floor {
            return Some(format!(
                "row {} is indented {w} columns, less than the rows before it, with no block \
                 closed in between (indentation lost?)",
                i + 1
            ));
        }
    }
    None
}

/// Every non-blank row indented one column past the block's indentation unit, where no line
/// around does so: a `+ TEXT` (or context-space) habit that shifts each row by one.
fn shifted_by_one(s: &Subject<'_>, edit: &Edit, ctx: &[&str]) -> Option<String> {
    if Family::of(s.path) == Family::Prose {
        // Rows inside a code fence are code of any language (diff context rows start with
        // one space): only the prose rows count. No row starts with one space: nothing to
        // find, and the fences are not looked for.
        if !edit.rows.iter().any(|r| one_space(r)) {
            return None;
        }
        let prose = Edit {
            rows: super::payload::outside_fences(s, edit),
            ..edit.clone()
        };
        return prose_shifted(&prose, ctx);
    }
    let spaces = |l: &str| indent(l).chars().take_while(|&c| c == ' ').count();
    let significant = |l: &str| {
        let t = l.trim_start();
        !t.is_empty() && !t.starts_with('*')
    };
    let ctx_widths: Vec<usize> = ctx
        .iter()
        .filter(|l| significant(l))
        .map(|l| spaces(l))
        .collect();
    let unit = ctx_widths.iter().copied().filter(|&w| w > 0).fold(0, gcd);
    if unit < 2 {
        return None;
    }
    let rows: Vec<usize> = edit
        .rows
        .iter()
        .map(String::as_str)
        .filter(|l| significant(l))
        .map(spaces)
        .collect();
    (!rows.is_empty() && rows.iter().all(|w| w % unit == 1)).then(|| {
        format!(
            "every row is indented one column more than a multiple of the block's {unit}-space \
             indentation (a space after a `+`?)"
        )
    })
}

/// Prose rows that all start with exactly one space where no line around does: the space of a
/// `+ TEXT` diff habit (or a bullet's `+` taken as the row marker).
/// A line indented by exactly one space.
fn one_space(l: &str) -> bool {
    l.starts_with(' ') && !l[1..].starts_with([' ', '\t'])
}

fn prose_shifted(edit: &Edit, ctx: &[&str]) -> Option<String> {
    let rows: Vec<&String> = edit.rows.iter().filter(|r| !is_blank(r)).collect();
    let shifted = !rows.is_empty() && rows.iter().any(|r| one_space(r));
    (shifted && !ctx.iter().any(|l| one_space(l))).then(|| {
        "a row starts with one space where no line around does (a space after a `+`, or a \
         bullet's `+` taken as the row marker?)"
            .to_string()
    })
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
#[path = "indent_tests.rs"]
mod tests;
