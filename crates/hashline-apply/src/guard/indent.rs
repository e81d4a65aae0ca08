//! Indentation that does not fit where the payload lands: spaces in a block indented with tabs
//! (and the reverse), rows dropped below the indentation of everything around them, every row
//! shifted by one column (a `+ TEXT` diff habit).

use hashline_core::{Edit, ErrorCode};

use super::lexical::{indent, is_blank, width, Family};
use super::{refuse, GuardRefusal, Subject};

/// Lines on each side of an edit that show the block's indentation style.
const AROUND: usize = 4;

const RESEND: &str = "Re-indent the rows like the lines shown above and send the edit again.";

/// Refuse `edit` if its rows' indentation does not fit the block.
pub(super) fn check(s: &Subject<'_>, edit: &Edit) -> Result<(), GuardRefusal> {
    let ctx = context(s, edit);
    let what = mixed_style(edit, &ctx)
        .or_else(|| dropped(s, edit))
        .or_else(|| shifted_by_one(s, edit, &ctx));
    match what {
        Some(what) => Err(refuse(s, ErrorCode::Indentation, edit, what, RESEND)),
        None => Ok(()),
    }
}

/// The non-blank original lines around (and under) the edit.
fn context<'s>(s: &'s Subject<'_>, edit: &Edit) -> Vec<&'s str> {
    let (before, after) = s.neighbours(edit);
    let lo = before.saturating_sub(AROUND - 1).max(1);
    let hi = (after + AROUND - 1).min(s.line_count());
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
        // A lone space before `*` continues a block comment in a tab-indented file.
        if tabs && ind.starts_with("  ") {
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

/// The nearest non-blank original line at or before `n` going down (`step` -1) or up (+1).
fn nearest(s: &Subject<'_>, mut n: usize, up: bool) -> Option<usize> {
    while n >= 1 && n <= s.line_count() {
        if !is_blank(s.line(n)) {
            return Some(n);
        }
        n = if up { n + 1 } else { n - 1 };
    }
    None
}

/// Rows less indented than the lines they replace and than both surviving neighbours.
fn dropped(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (before, after) = s.neighbours(edit);
    let min_row = edit
        .rows
        .iter()
        .filter(|r| !is_blank(r))
        .map(|r| width(r, 4))
        .min()?;
    let mut floor = usize::MAX;
    if let Some((start, end)) = Subject::replaced(edit) {
        floor = (start..=end)
            .map(|n| s.line(n))
            .filter(|l| !is_blank(l))
            .map(|l| width(l, 4))
            .min()
            .unwrap_or(usize::MAX);
    }
    let prev = nearest(s, before, false)?;
    let next = nearest(s, after, true)?;
    floor = floor
        .min(width(s.line(prev), 4))
        .min(width(s.line(next), 4));
    (floor != usize::MAX && min_row < floor).then(|| {
        format!(
            "the rows are indented {min_row} columns, less than the {floor} of every line around \
             and under the edit (indentation lost?)"
        )
    })
}

/// Every non-blank row indented one column past the block's indentation unit, where no line
/// around does so: a `+ TEXT` (or context-space) habit that shifts each row by one.
fn shifted_by_one(s: &Subject<'_>, edit: &Edit, ctx: &[&str]) -> Option<String> {
    if Family::of(s.path) == Family::Prose {
        return None;
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

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
