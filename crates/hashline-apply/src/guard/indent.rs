//! Indentation that does not fit where the payload lands: spaces in a block indented with tabs
//! (and the reverse), rows dropped below the indentation of everything around them, every row
//! shifted by one column (a `+ TEXT` diff habit).

use hashline_core::{Edit, ErrorCode};

use super::lexical::{code_part, indent, is_blank, width, Family};
use super::{refuse, GuardRefusal, Subject};

/// Lines on each side of an edit that show the block's indentation style.
const AROUND: usize = 4;

const RESEND: &str = "Re-indent the rows like the lines shown above and send the edit again.";

/// Refuse `edit` if its rows' indentation does not fit the block.
pub(super) fn check(s: &Subject<'_>, edit: &Edit) -> Result<(), GuardRefusal> {
    let ctx = context(s, edit);
    let what = mixed_style(edit, &ctx)
        .or_else(|| method_at_top_level(s, edit))
        .or_else(|| dropped(s, edit))
        .or_else(|| below_first_row(s, edit))
        .or_else(|| under_opener(s, edit))
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

/// The nearest non-blank original line that the request keeps, from `n` going towards the
/// start (`up` false) or the end (`up` true).
fn nearest(s: &Subject<'_>, mut n: usize, up: bool) -> Option<usize> {
    while n >= 1 && n <= s.line_count() {
        if !s.survives(n) {
            // A run of removed lines, jumped at once.
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

/// Rows dropped below the block: for a replace in code, a first row less indented than both
/// the lines it replaces and the line before; otherwise rows less indented than both
/// neighbours.
fn dropped(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (before, after) = s.neighbours(edit);
    let prev = width(s.line(nearest(s, before, false)?), 4);
    // In prose a block may end anywhere: only rows below both neighbours count there.
    let prose = Family::of(s.path) == Family::Prose;
    let (row, floor) = match Subject::replaced(edit) {
        Some((start, end)) if !prose => {
            let replaced = (start..=end)
                .map(|n| s.line(n))
                .filter(|l| !is_blank(l))
                .map(|l| width(l, 4))
                .min()?;
            // With braces no row may leave the block (its closer survives after the range);
            // in Python a new top-level item may follow, so only the first row counts.
            let braces = matches!(Family::of(s.path), Family::CLike | Family::Rust);
            let rows = edit
                .rows
                .iter()
                .filter(|r| !is_blank(r))
                .map(|r| width(r, 4));
            let row = if braces {
                rows.min()?
            } else {
                edit.rows
                    .iter()
                    .find(|r| !is_blank(r))
                    .map(|r| width(r, 4))?
            };
            (row, replaced.min(prev))
        }
        replaced => {
            let under = replaced
                .and_then(|(start, end)| {
                    (start..=end)
                        .map(|n| s.line(n))
                        .filter(|l| !is_blank(l))
                        .map(|l| width(l, 4))
                        .min()
                })
                .unwrap_or(usize::MAX);
            let next = width(s.line(nearest(s, after, true)?), 4).min(under);
            let min_row = edit
                .rows
                .iter()
                .filter(|r| !is_blank(r))
                .map(|r| width(r, 4))
                .min()?;
            (min_row, prev.min(next))
        }
    };
    (row < floor).then(|| {
        format!(
            "the rows are indented {row} columns, less than the {floor} of the lines around and \
             under the edit (indentation lost?)"
        )
    })
}

/// A Python `def` at column 0 whose first parameter is `self` or `cls`: a method whose
/// indentation was lost (it would leave its class).
fn method_at_top_level(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    if !(s.path.ends_with(".py") || s.path.ends_with(".pyi")) {
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

/// Whether `line` opens a block whose body must be indented deeper: it ends with `{` (or,
/// in Python, with `:`).
fn opens_block(line: &str, family: Family, python: bool) -> bool {
    // Blanking strings and cutting comments never adds a `{` or `:`: a line without one opens
    // nothing (most lines; this check runs on lines around every edit).
    if !(line.contains('{') || (python && line.contains(':'))) {
        return false;
    }
    let code = code_part(line, family);
    let code = code.trim_end();
    code.ends_with('{') || (python && code.ends_with(':'))
}

/// A row right after a block opener (a payload row, or for the first row the line before the
/// edit) that is not indented deeper than the opener, and is not a closer or a `case`.
fn under_opener(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let family = Family::of(s.path);
    if matches!(family, Family::Prose | Family::Data)
        || s.path.ends_with(".yaml")
        || s.path.ends_with(".yml")
    {
        return None;
    }
    let python = s.path.ends_with(".py") || s.path.ends_with(".pyi");
    let (before, after) = s.neighbours(edit);
    let found = row_under_opener(s, edit, family, python)?;
    // Only where the file itself indents block bodies (some opener near the edit is followed
    // by a deeper line): synthetic or minified code is left alone.
    let lo = before.saturating_sub(10).max(1);
    let hi = (after + 10).min(s.line_count());
    let indents_blocks = (lo..hi).any(|n| {
        opens_block(s.line(n), family, python)
            && nearest(s, n + 1, true).is_some_and(|m| width(s.line(m), 4) > width(s.line(n), 4))
    });
    indents_blocks.then_some(found)
}

/// The first of `edit`'s rows that follows a block opener without being indented deeper
/// (what [`under_opener`] reports where the file indents block bodies).
fn row_under_opener(s: &Subject<'_>, edit: &Edit, family: Family, python: bool) -> Option<String> {
    let (before, _) = s.neighbours(edit);
    let mut opener: Option<&str> = nearest(s, before, false).map(|n| s.line(n));
    for (i, row) in edit.rows.iter().enumerate() {
        if is_blank(row) {
            continue;
        }
        if let Some(open) = opener {
            let t = row.trim_start();
            let resumes = t.starts_with(['}', ')', ']'])
                || t.starts_with("case ")
                || t.starts_with("default:")
                || t.starts_with("default ");
            if opens_block(open, family, python) && !resumes && width(row, 4) <= width(open, 4) {
                return Some(format!(
                    "row {} is not indented under `{}`, which opens a block",
                    i + 1,
                    open.trim()
                ));
            }
        }
        opener = Some(row);
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
