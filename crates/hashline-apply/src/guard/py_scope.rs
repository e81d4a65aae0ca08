//! Python rows that only a function may hold (`indent`): a `return` or `yield`, or a
//! statement on `self`/`cls`, whose indentation puts it in a class body or at module level.
//! Python accepts the first in no such place and fails on the second when the module loads;
//! a row there lost its indentation.

use super::lexical::{is_blank, is_python, width};
use super::scope::Ix;

/// Lines walked up from a row to the function or class that holds it.
const SCOPE_LINES: usize = 2000;

/// A row that belongs in a function, placed outside every function.
pub(super) fn outside_function(ix: &Ix<'_, '_>) -> Option<String> {
    let s = ix.s;
    if !is_python(s.path) {
        return None;
    }
    let rows = &ix.edit.rows;
    rows.iter().enumerate().find_map(|(i, row)| {
        let st = ix.rows[i];
        if is_blank(row) || st.text || st.depth > 0 || st.joined || !needs_function(row) {
            return None;
        }
        let w = width(row, 4);
        // The rows above it, nearest first, then the original lines the request keeps.
        let above_rows = rows[..i]
            .iter()
            .enumerate()
            .rev()
            .filter(|(j, r)| header_candidate(r, ix.rows[*j].text, ix.rows[*j].depth))
            .map(|(_, r)| r.as_str());
        // Only the lines whose starts were scanned: beyond them a string or a wrapped
        // signature would read as code.
        let (lo, _) = ix.window();
        let above_lines = (lo.max(1)..=ix.last)
            .rev()
            .take(SCOPE_LINES)
            .filter(|&n| ix.survives(n))
            .filter(|&n| header_candidate(s.line(n), ix.start(n).text, ix.start(n).depth))
            .map(|n| s.line(n));
        let mut bound = w;
        let mut reached_top = w == 0;
        for line in above_rows.chain(above_lines) {
            let lw = width(line, 4);
            if lw >= bound {
                continue;
            }
            let t = line.trim_start();
            if t.starts_with("def ") || t.starts_with("async def ") {
                return None;
            }
            if t.starts_with("class ") {
                return Some(format!(
                    "row {} (`{}`) would stand in the body of `{}`, outside any function \
                     (indentation lost?)",
                    i + 1,
                    row.trim(),
                    t.trim_end()
                ));
            }
            bound = lw;
            if lw == 0 {
                reached_top = true;
                break;
            }
        }
        reached_top.then(|| {
            format!(
                "row {} (`{}`) would stand at module level, outside any function \
                 (indentation lost?)",
                i + 1,
                row.trim()
            )
        })
    })
}

/// Whether a statement only makes sense inside a function.
fn needs_function(row: &str) -> bool {
    let t = row.trim_start();
    let word = |w: &str| {
        t.strip_prefix(w)
            .is_some_and(|r| r.is_empty() || r.starts_with([' ', '(', '\t']))
    };
    word("return") || word("yield") || t.starts_with("self.") || t.starts_with("cls.")
}

/// A line that can end a walk up to the enclosing scope: code at bracket depth 0, not a
/// comment or a decorator.
fn header_candidate(line: &str, text: bool, depth: usize) -> bool {
    let t = line.trim_start();
    // A closer ends a wrapped header or call (`) -> int:`): its statement started above.
    !text && depth == 0 && !t.is_empty() && !t.starts_with(['#', '@', ')', ']', '}'])
}
