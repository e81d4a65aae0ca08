//! Whether another binding of a name reaches a line: the scope of a declaration, read from the
//! indentation of the code around it (strings, comments and bracketed continuation lines
//! skipped), so a `let re = …` or `output := …` in one function does not count as declaring
//! the name another function's line still uses.
//!
//! The scope is read generously (a wider scope means fewer warnings): a binding at the top
//! level reaches every line; in a brace language, a binding reaches the lines of its block and
//! of the blocks nested in it, before or after it (hoisting, loops); in Python, a binding inside
//! a function reaches the whole function, and one outside any function the whole file. A JS
//! `var` reaches the whole file.

use super::lexical::{code_part, indent, is_blank, Family};
use super::names::{bindings, Lang};
use super::Subject;

/// Whether a line of the text read outside `skip` (the lines the range removes) binds `name`
/// where line `at` sees it.
pub(super) fn bound_in_reach(
    s: &Subject<'_>,
    lang: Lang,
    name: &str,
    at: usize,
    skip: (usize, usize),
) -> bool {
    let family = Family::of(s.path);
    (1..=s.line_count()).any(|k| {
        if (skip.0..=skip.1).contains(&k) {
            return false;
        }
        let line = s.line(k);
        if !line.contains(name) {
            return false;
        }
        let code = code_part(line, family);
        bindings(lang, &code).iter().any(|b| b == name) && reaches(s, lang, k, at, &code)
    })
}

/// Whether the binding on line `k` (its code `code`) reaches line `at`.
fn reaches(s: &Subject<'_>, lang: Lang, k: usize, at: usize, code: &str) -> bool {
    let depth = indent(s.line(k)).len();
    if depth == 0 || s.lexer_before(k).feed(s.line(k)).text {
        return true;
    }
    match lang {
        Lang::Python => match enclosing_def(s, k, depth) {
            None => true,
            Some((def, d)) => at > def && all_code_deeper(s, def + 1, at, d + 1),
        },
        Lang::Script if code.trim_start().starts_with("var ") => true,
        _ => {
            let (lo, hi) = if k < at { (k + 1, at) } else { (at, k - 1) };
            all_code_deeper(s, lo, hi, depth)
        }
    }
}

/// The line and indentation of the nearest `def` enclosing line `k` (indented `depth`), or
/// `None` if the binding is outside any function (or the walk up loses the structure).
fn enclosing_def(s: &Subject<'_>, k: usize, depth: usize) -> Option<(usize, usize)> {
    let mut cur = depth;
    for m in (1..k).rev() {
        let line = s.line(m);
        if is_blank(line) {
            continue;
        }
        let ind = indent(line).len();
        if ind >= cur {
            continue;
        }
        let t = line.trim_start();
        if t.starts_with("def ") || t.starts_with("async def ") {
            return Some((m, ind));
        }
        if ind == 0 {
            return None;
        }
        cur = ind;
    }
    None
}

/// Whether every line of code in `lo..=hi` (not blank, not inside a string, comment or open
/// bracket) is indented at least `depth`.
fn all_code_deeper(s: &Subject<'_>, lo: usize, hi: usize, depth: usize) -> bool {
    if lo > hi {
        return true;
    }
    let mut lexer = s.lexer_before(lo);
    (lo..=hi).all(|m| {
        let line = s.line(m);
        let at = lexer.feed(line);
        is_blank(line) || at.text || at.depth > 0 || at.joined || indent(line).len() >= depth
    })
}
