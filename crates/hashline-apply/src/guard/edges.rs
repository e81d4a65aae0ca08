//! Range edges one line off, told apart by the rows' words: a replace that loses its first (or
//! last) line to nothing while its rows rewrite the others one for one, and a replace whose line
//! number was counted after the request's earlier edits.

use hashline_core::Edit;

use super::leftover::decl_of;
use super::lexical::{indent, is_blank, Family};
use super::Subject;

/// The words (3+ letters) of a line.
fn words(line: &str) -> Vec<&str> {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.len() >= 3)
        .collect()
}

/// How much of `line`'s vocabulary `row` shares, from 0 to 1.
fn overlap(row: &str, line: &str) -> f64 {
    let w = words(line);
    if w.is_empty() {
        return 0.0;
    }
    let r = words(row);
    w.iter().filter(|x| r.contains(x)).count() as f64 / w.len() as f64
}

/// Prose: the line right after a replaced range is a continuation line (indented, not a new
/// item) that a row already rewrites (most of its words): the range stopped one line short and
/// the old continuation stays under the new text.
pub(super) fn prose_leftover(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (_, end) = Subject::replaced(edit)?;
    if Family::of(s.path) != Family::Prose || end >= s.line_count() {
        return None;
    }
    // Inside a fenced code block the lines are code, not wrapped text.
    if s.fences_through(end) % 2 == 1 {
        return None;
    }
    let next = s.line(end + 1);
    let t = next.trim_start();
    let item = ["- ", "* ", "+ ", "#"].iter().any(|m| t.starts_with(m));
    if indent(next).len() < 2 || item || words(next).len() < 3 {
        return None;
    }
    let row = edit
        .rows
        .iter()
        .find(|r| r.trim() != t.trim_end() && overlap(r, next) >= 0.6)?;
    Some(format!(
        "line {} (`{}`) continues the text the range rewrites, and the payload already has it \
         (`{}`): the old line would stay under the new one",
        end + 1,
        t.trim_end(),
        row.trim()
    ))
}

/// A one-line replace, below edits of the same request that add or remove lines, whose row
/// rewrites the line that many lines above and has nothing of the line it names: its number was
/// counted in the file as it would be after those edits, but every number refers to the file as
/// it was read.
pub(super) fn renumbered(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    let [row] = edit.rows.as_slice() else {
        return None;
    };
    if start != end || is_blank(row) {
        return None;
    }
    let delta = s.shift_above(start);
    let meant = start.checked_add_signed(-delta)?;
    if delta == 0 || meant == 0 || meant > s.line_count() {
        return None;
    }
    let named = overlap(row, s.line(start));
    let shifted = overlap(row, s.line(meant));
    (shifted >= 0.6 && named < 0.3).then(|| {
        format!(
            "the row rewrites line {meant} (`{}`), not line {start} (`{}`): line numbers refer to \
             the file as read, not as the earlier edits of this request leave it",
            s.line(meant).trim(),
            s.line(start).trim()
        )
    })
}

/// The indentation and first word of a line: enough to pair a row with the line it rewrites.
fn shape(line: &str) -> (&str, &str) {
    (indent(line), line.split_whitespace().next().unwrap_or(""))
}

/// A replace with one row fewer than its range, whose rows pair in order, by indentation and
/// first word, with every replaced line but the first (or the last), which no row resembles: a
/// statement lost to a range one line too long.
pub(super) fn unpaired_end(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    let rows = &edit.rows;
    // Configuration lists drop entries as a matter of course: only code and prose are judged.
    let path = s.path.to_ascii_lowercase();
    if [".yaml", ".yml", ".json", ".toml"]
        .iter()
        .any(|e| path.ends_with(e))
    {
        return None;
    }
    if end - start + 1 != rows.len() + 1 || rows.iter().any(|r| is_blank(r)) {
        return None;
    }
    let lines: Vec<&str> = (start..=end).map(|n| s.line(n)).collect();
    if lines.iter().any(|l| is_blank(l)) {
        return None;
    }
    let pairs = |from: &[&str]| from.iter().zip(rows).all(|(l, r)| shape(l) == shape(r));
    // Rows that restate their lines (up to a trailing `,` or `;`) delete the other line on
    // purpose: only a range whose rows rewrite something can have lost a line by mistake.
    let bare = |l: &str| l.trim_end().trim_end_matches([',', ';']).to_string();
    let rewrites = |from: &[&str]| from.iter().zip(rows).any(|(l, r)| bare(l) != bare(r));
    // A row resembles a line when it has its shape, or names what the line declares (or its
    // first word): the line was rewritten or merged, not lost.
    let joined = rows.concat();
    let prose = Family::of(s.path) == Family::Prose;
    let resembles = |l: &str| {
        let words = words(l);
        let found = words.iter().filter(|w| joined.contains(*w)).count();
        let merged = found * 2 >= words.len();
        let declared = decl_of(l).is_some_and(|(_, name)| joined.contains(name));
        // In prose every bullet has the same shape: only the words tell.
        let shaped = !prose && rows.iter().any(|r| shape(r) == shape(l));
        merged || declared || shaped
    };
    let (head, tail) = (&lines[1..], &lines[..lines.len() - 1]);
    let (n, lost) = if pairs(head) && rewrites(head) && !resembles(lines[0]) {
        (start, lines[0])
    } else if pairs(tail) && rewrites(tail) && !resembles(lines[lines.len() - 1]) {
        (end, lines[lines.len() - 1])
    } else {
        return None;
    };
    // An entry of a list, a literal or an argument list (`Action: ShowHelp,`): entries are
    // dropped as a matter of course; so are comments about the lines a rewrite changes.
    if lost.trim_end().ends_with(',') || (n == start && !prose && statement_comment(s, n)) {
        return None;
    }
    if rewritten_nearby(s, edit, lost) || binding_dropped_with_its_uses(s, edit, n, lost) {
        return None;
    }
    Some(format!(
        "the rows rewrite the other lines of the range one for one, and line {n} (`{}`) is \
         replaced by nothing",
        lost.trim()
    ))
}

/// How many lines around an edit another edit of the same request may start and still be part
/// of one change (a line diff splits a rewrite into a replace and an insert beside it).
const NEARBY: usize = 3;

/// Whether another edit of the request within [`NEARBY`] lines has rows that resemble `lost`
/// (half its words, or what it declares): the line was rewritten there, not lost.
fn rewritten_nearby(s: &Subject<'_>, edit: &Edit, lost: &str) -> bool {
    let (before, after) = s.neighbours(edit);
    let lost_words = words(lost);
    s.edits.iter().any(|other| {
        if std::ptr::eq(other, edit) || other.rows.is_empty() {
            return false;
        }
        let (b, a) = s.neighbours(other);
        if a + NEARBY < before || b > after + NEARBY {
            return false;
        }
        let joined = other.rows.concat();
        let found = lost_words.iter().filter(|w| joined.contains(*w)).count();
        (!lost_words.is_empty() && found * 4 >= lost_words.len() * 3)
            || decl_of(lost).is_some_and(|(_, name)| has_word(&joined, name))
    })
}

/// Whether line `n` is a plain comment (`//`, `#`, `--`; not a doc comment) over a statement,
/// not over an item (a function, a type): a note about the lines a rewrite changes, which the
/// rewrite may drop. A doc comment, or one above an item, documents what stays.
fn statement_comment(s: &Subject<'_>, n: usize) -> bool {
    let t = s.line(n).trim_start();
    let plain = (t.starts_with("//") && !t.starts_with("///") && !t.starts_with("//!"))
        || (t.starts_with('#') && !t.starts_with("#[") && !t.starts_with("#!"))
        || t.starts_with("-- ");
    if !plain || n >= s.line_count() {
        return false;
    }
    let next = s.line(n + 1);
    !is_blank(next) && !super::blank::starts_item(next)
}

/// How far below a range a dropped binding is looked for.
const USE_REACH: usize = 60;

/// Whether `lost` (line `n`) only binds a name (`body = b"…"`, `let x = …`) that the other
/// lines of the range used and neither the rows nor the lines below still use: the binding
/// went with its last use, a rewrite that inlined or dropped it (a swallowed binding that is
/// still needed is `W_UNDECLARED_NAME`'s).
fn binding_dropped_with_its_uses(s: &Subject<'_>, edit: &Edit, n: usize, lost: &str) -> bool {
    let Some((start, end)) = Subject::replaced(edit) else {
        return false;
    };
    let Some(name) = bound_name(lost) else {
        return false;
    };
    let used_in_range = (start..=end).any(|k| k != n && has_word(s.line(k), name));
    let still_used = edit.rows.iter().any(|r| has_word(r, name))
        || (end + 1..=(end + USE_REACH).min(s.line_count())).any(|k| has_word(s.line(k), name));
    used_in_range && !still_used
}

/// The one name `line` binds to a value: `name = …`, `name := …`, or after `let`, `let mut`,
/// `const` or `var`. Items (`def`, `fn`, `class`) are not: their uses are callers elsewhere.
fn bound_name(line: &str) -> Option<&str> {
    let mut t = line.trim_start();
    for k in ["let mut ", "let ", "const ", "var "] {
        if let Some(rest) = t.strip_prefix(k) {
            t = rest.trim_start();
            break;
        }
    }
    let end = t
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(t.len());
    let (name, rest) = t.split_at(end);
    let rest = rest.trim_start();
    let assigns = rest.starts_with(":=") || (rest.starts_with('=') && !rest.starts_with("=="));
    (assigns && name.starts_with(|c: char| c.is_alphabetic() || c == '_')).then_some(name)
}

/// Whether `word` stands in `text` as a whole word (not inside a longer identifier).
fn has_word(text: &str, word: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || c == '_';
    !word.is_empty()
        && text.match_indices(word).any(|(at, _)| {
            !text[..at].chars().next_back().is_some_and(part)
                && !text[at + word.len()..].chars().next().is_some_and(part)
        })
}
