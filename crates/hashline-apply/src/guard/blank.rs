//! Blank lines a range one line off takes or leaves: a separating blank line the payload does
//! not restate ([`swallowed_blank`], [`joined_by_delete`]: `W_SWALLOWED_BLANK`), or a run of
//! blank lines longer than any the file has ([`blank_run`]: `W_BLANK_RUN`), where the range
//! stopped one line short of a blank line it meant to take.

use hashline_core::{Edit, EditKind};

use super::boundary::only_removes;
use super::lexical::{indent, is_blank, Family};
use super::Subject;

/// A range of two or more lines that starts or ends on a blank line the payload does not
/// restate at that end, where that blank separates two items (see [`separates`]).
fn swallowed_blank(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    if end <= start || (start..=end).all(|n| is_blank(s.line(n))) {
        return None;
    }
    let first = edit.rows.first()?;
    let last = edit.rows.last()?;
    // Rows that restate every other line of the range: the edit removes blank lines and
    // nothing else, on purpose.
    if only_removes(s, edit, |n| is_blank(s.line(n))) {
        return None;
    }
    // As many blank rows as blank lines: the blank lines were restated, maybe moved; a run of
    // them thinned at an edge is then taken as meant. One taken whole is not (below).
    let blanks = (start..=end).filter(|&n| is_blank(s.line(n))).count();
    let restated = edit.rows.iter().filter(|r| is_blank(r)).count() >= blanks;
    // A last row that restates the line after the range is a different mistake (or intent):
    // the repeated-line notice covers it.
    if is_blank(s.line(end))
        && !is_blank(last)
        && !(restated && is_blank(s.line(end + 1)))
        && last.trim() != s.line(end + 1).trim()
    {
        let below = (end + 1..=s.line_count()).find(|&n| !is_blank(s.line(n)));
        let lines_from = |n: usize| (n..=s.line_count()).map(|k| s.line(k));
        if below.is_some_and(|n| s.survives(n) && separates(s, last, lines_from(n))) {
            return Some(format!(
                "the range ends on blank line {end}, which the payload does not restate: the \
                 edit would remove that separator"
            ));
        }
    }
    if is_blank(s.line(start))
        && !is_blank(first)
        && !(restated && is_blank(s.line(start - 1)))
        && first.trim() != s.line(start - 1).trim()
    {
        let above = (1..start).rev().find(|&n| !is_blank(s.line(n)));
        let rows = edit.rows.iter().map(String::as_str);
        if above.is_some_and(|n| s.survives(n) && separates(s, s.line(n), rows)) {
            return Some(format!(
                "the range starts on blank line {start}, which the payload does not restate: \
                 the edit would remove that separator"
            ));
        }
    }
    None
}

/// Lines that declare an item (a function, a type), with the keywords that may precede them.
const ITEMS: [&str; 14] = [
    "def ",
    "class ",
    "fn ",
    "func ",
    "function",
    "type ",
    "struct ",
    "enum ",
    "impl",
    "trait ",
    "interface ",
    "mod ",
    "@",
    "#[",
];

/// `t` without the modifiers that may precede an item's keyword (`export`, `pub`, `async`).
fn without_modifiers(mut t: &str) -> &str {
    for m in ["export ", "pub ", "pub(crate) ", "async ", "default "] {
        t = t.strip_prefix(m).unwrap_or(t);
    }
    t
}

/// Whether `line` declares an item (a function, a type, a decorated or attributed one), past
/// its modifiers.
pub(super) fn starts_item(line: &str) -> bool {
    let t = without_modifiers(line.trim_start());
    ITEMS.iter().any(|k| t.starts_with(k))
}

/// Whether a blank line between `upper` and the lines from `lower` on (the lines that would
/// meet without it) separates two items. In prose every blank does: it ends a paragraph. In
/// code it does not when it only pads a block (after an opener, before a closer), nor between
/// two statements of one body (same indentation, the upper line not closing a block, the lower
/// one, past its comments, not declaring an item): a paragraph break an edit may drop.
fn separates<'a>(s: &Subject<'_>, upper: &str, mut lower: impl Iterator<Item = &'a str>) -> bool {
    let Some(first) = lower.next() else {
        return false;
    };
    let (up, low) = (upper.trim(), first.trim());
    if Family::of(s.path) == Family::Prose {
        return true;
    }
    // A clause that goes on with the statement above (`else:`, `except E:`) is not a new
    // item: a blank line before it is not a separator.
    let clause = [
        "else:", "else ", "elif ", "except", "finally:", "catch ", "catch(",
    ]
    .iter()
    .any(|k| low.starts_with(k));
    if up.ends_with(['{', '(', '[', ':'])
        || low.starts_with(['}', ')', ']'])
        || low == "end"
        || clause
    {
        return false;
    }
    if Family::of(s.path) == Family::Data || indent(upper) != indent(first) {
        return true;
    }
    // Imports are grouped by blank lines (standard library, other packages, this crate): a
    // blank between two imports ends a group, unless both are of one group the language tells
    // (a standard-library import replacing the other group joins the first on purpose).
    if is_import(s.path, up) && is_import(s.path, low) {
        return match (import_group(s.path, up), import_group(s.path, low)) {
            (Some(a), Some(b)) => a != b,
            _ => true,
        };
    }
    // A TOML table header starts a new section.
    if s.path.ends_with(".toml") && low.starts_with('[') {
        return true;
    }
    let closes = up == "end" || up.chars().all(|c| matches!(c, '}' | ')' | ']' | ';' | ','));
    let comment = |t: &str| t.starts_with("//") || t.starts_with("/*") || t.starts_with("# ");
    let item = std::iter::once(first)
        .chain(lower)
        .map(str::trim)
        .find(|t| !comment(t))
        .unwrap_or(low);
    let t = without_modifiers(item);
    // A closer ends an item only at the top level; inside a body the statement after a closed
    // `if`/`for` block is another statement of that body, unless it declares a member (a
    // method opens its body without a keyword in JS/TS/Java classes).
    let top_level = indent(upper).is_empty();
    let keyword = ITEMS.iter().find(|k| t.starts_with(*k));
    let parts = (closes && (top_level || opens_member(t))) || keyword.is_some();
    parts && !(closes && joined_in_file(s, upper, first, keyword.copied()))
}

/// Whether the text read already has `upper`, a closer (the same trimmed text at the same
/// indentation), followed, with no blank line between, by a line at `first`'s indentation that starts the
/// same kind of item (`keyword`, after the same modifiers): the file writes such items without
/// a blank line (`}` then `func` in Go files that cuddle their methods), so an edit that does
/// the same follows its style.
fn joined_in_file(s: &Subject<'_>, upper: &str, first: &str, keyword: Option<&str>) -> bool {
    let starts_item = |line: &str| {
        let t = without_modifiers(line.trim());
        match keyword {
            Some(k) => t.starts_with(k),
            None => opens_member(t),
        }
    };
    let (up, up_indent, low_indent) = (upper.trim(), indent(upper), indent(first));
    s.lines.windows(2).any(|pair| {
        let [a, b] = pair else { return false };
        !is_blank(b)
            && a.trim() == up
            && indent(a) == up_indent
            && indent(b) == low_indent
            && starts_item(b)
    })
}

/// A line that opens a member's body without a keyword (`render() {`, `get x(): T {`): it
/// ends with `{`, has a parameter list, and is no control statement, assignment or method call
/// (`t.Run("x", func(t *T) {`).
fn opens_member(t: &str) -> bool {
    const CONTROL: [&str; 15] = [
        "if", "for", "while", "switch", "try", "do", "else", "catch", "return", "match", "loop",
        "select", "defer", "go", "with",
    ];
    let word: String = t
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let callee = t.split('(').next().unwrap_or("");
    t.ends_with('{')
        && t.contains('(')
        && !callee.contains('.')
        && !t.contains('=')
        && !t.contains("=>")
        && !word.is_empty()
        && !CONTROL.contains(&word.as_str())
}

/// Whether `line` (trimmed) imports a module or names from one, in the language of `path`.
fn is_import(path: &str, line: &str) -> bool {
    let t = line.trim();
    let t = t.strip_prefix("pub ").unwrap_or(t);
    if path.ends_with(".go") {
        // A spec of an `import ( … )` block: a quoted path, maybe after an alias.
        let spec = t.rsplit(' ').next().unwrap_or(t);
        let alias_ok = t == spec || t.split(' ').count() == 2;
        return alias_ok && spec.len() > 2 && spec.starts_with('"') && spec.ends_with('"')
            || t.starts_with("import ");
    }
    match Family::of(path) {
        Family::Prose | Family::Data => false,
        Family::Rust => t.starts_with("use ") || t.starts_with("extern crate "),
        _ => {
            t.starts_with("import ")
                || t.starts_with("#include ")
                || (t.starts_with("from ") && t.contains(" import "))
        }
    }
}

/// The group an import belongs to where the language's tools tell (Go: the standard library,
/// whose paths have no `.` in their first element, or not; Rust: `std`/`core`/`alloc`, this
/// crate, or other crates); `None` elsewhere.
fn import_group(path: &str, line: &str) -> Option<u8> {
    let t = line.trim();
    if path.ends_with(".go") {
        let spec = t.rsplit(' ').next().unwrap_or(t).trim_matches('"');
        let first = spec.split('/').next().unwrap_or(spec);
        return Some(u8::from(first.contains('.')));
    }
    if Family::of(path) == Family::Rust {
        let t = t.strip_prefix("pub ").unwrap_or(t);
        let root = t.strip_prefix("use ")?.trim_start_matches("::");
        let first = root.split("::").next().unwrap_or(root);
        return Some(match first {
            "std" | "core" | "alloc" => 0,
            "crate" | "self" | "super" => 2,
            _ => 1,
        });
    }
    None
}

/// A deletion that takes the blank line on one side of the lines it removes as well as the
/// blank line on the other: the lines around it meet with no blank line between them, where
/// that blank separated two items (see [`separates`]). Deleting a block and one of its blank
/// lines leaves the other; taking both joins its neighbours.
fn joined_by_delete(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    if !edit.rows.is_empty() || start <= 1 || end >= s.line_count() {
        return None;
    }
    let (above, below) = (s.line(start - 1), s.line(end + 1));
    if is_blank(above) || is_blank(below) || !(is_blank(s.line(start)) || is_blank(s.line(end))) {
        return None;
    }
    if (start..=end).all(|n| is_blank(s.line(n))) || !s.survives(start - 1) || !s.survives(end + 1)
    {
        return None;
    }
    let lines_from = |n: usize| (n..=s.line_count()).map(|k| s.line(k));
    if !separates(s, above, lines_from(end + 1)) {
        return None;
    }
    let which = if is_blank(s.line(start)) { start } else { end };
    Some(format!(
        "the deletion takes blank line {which} as well, so line {} (`{}`) would follow line {} \
         (`{}`) with no blank line between them",
        end + 1,
        below.trim(),
        start - 1,
        above.trim()
    ))
}

/// Blank runs a file must have before its longest one is taken as its rule (between two
/// indented lines, for the rule inside blocks).
pub(super) const RUNS_FOR_RULE: usize = 4;

/// The most blank lines the file has in a row between lines like `upper` and `lower`: inside a
/// block (both indented) the file's own inner runs, where it has enough of them (PEP 8 and
/// black keep two blank lines between top-level items and one inside a function; gofmt one
/// everywhere), else its longest run anywhere; with the number of runs it was learned from.
pub(super) fn most_in_a_row(
    s: &Subject<'_>,
    upper: Option<&str>,
    lower: Option<&str>,
) -> (usize, usize) {
    let runs = s.blank_runs();
    let indented = |l: Option<&str>| l.is_some_and(|l| !indent(l).is_empty());
    if indented(upper) && indented(lower) && runs.inner_runs >= RUNS_FOR_RULE {
        (runs.inner_longest, runs.inner_runs)
    } else {
        (runs.longest, runs.runs)
    }
}

/// Runs of blank lines longer than this are not judged (nor walked past).
const LONGEST_JUDGED: usize = 32;

/// The warnings of [`swallowed_blank`] (or, for a deletion, [`joined_by_delete`]) and
/// [`blank_run`] for `edit`.
pub(super) fn warn(s: &Subject<'_>, edit: &Edit, warnings: &mut Vec<String>) {
    let swallowed = if edit.rows.is_empty() {
        joined_by_delete(s, edit)
    } else {
        swallowed_blank(s, edit)
    };
    if let Some(what) = swallowed {
        warnings.push(format!(
            "[W_SWALLOWED_BLANK] {}: {what}; if that was not meant, restate the blank line",
            (s.label)(edit)
        ));
    }
    if let Some(what) = blank_run(s, edit) {
        warnings.push(format!(
            "[W_BLANK_RUN] {}: {what}; if that was not meant, delete the extra blank line",
            (s.label)(edit)
        ));
    }
}

/// A replace (or deletion) after which its rows and the blank lines beside it make a run of
/// blank lines longer than any in the file as read (and than the run that was there): the
/// range most likely stopped one line short of a blank line it meant to replace.
fn blank_run(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let EditKind::Replace { start, end } = edit.kind else {
        return None;
    };
    if matches!(Family::of(s.path), Family::Data) {
        return None;
    }
    // Blank lines kept above and below the range (stopping at a line another edit replaces;
    // runs past [`LONGEST_JUDGED`] are not judged, so the walk is bounded).
    // Rows another edit inserts between two lines end the run there.
    let inserted_between = |upper: usize| {
        s.edits.iter().any(|e| {
            !e.rows.is_empty()
                && (matches!(e.kind, EditKind::InsertAfter(l) if l == upper)
                    || matches!(e.kind, EditKind::InsertBefore(l) if l == upper + 1))
        })
    };
    let above = (1..start)
        .rev()
        .take(LONGEST_JUDGED)
        .take_while(|&n| s.survives(n) && is_blank(s.line(n)) && !inserted_between(n))
        .count();
    let below = (end + 1..=s.line_count())
        .take(LONGEST_JUDGED)
        .take_while(|&n| s.survives(n) && is_blank(s.line(n)) && !inserted_between(n - 1))
        .count();
    let lead = edit.rows.iter().take_while(|r| is_blank(r)).count();
    let trail = edit.rows.iter().rev().take_while(|r| is_blank(r)).count();
    let run = if lead == edit.rows.len() {
        above + lead + below
    } else {
        (above + lead).max(trail + below)
    };
    // The run that was there: blank lines around and at the ends of the range as read.
    if run < 2 {
        return None;
    }
    let old_top = above + (start..=end).take_while(|&n| is_blank(s.line(n))).count();
    let old_bottom = below
        + (start..=end)
            .rev()
            .take_while(|&n| is_blank(s.line(n)))
            .count();
    if run <= old_top.max(old_bottom) {
        return None;
    }
    // Inside a block (the lines around the run indented) the file's own inner runs are the
    // rule: PEP 8 keeps two blank lines between top-level items and one inside a function.
    let near = |n: usize, up: bool| {
        let mut k = n;
        while k >= 1 && k <= s.line_count() && is_blank(s.line(k)) {
            k = if up { k - 1 } else { k + 1 };
        }
        (k >= 1 && k <= s.line_count()).then(|| s.line(k))
    };
    let top = edit.rows.iter().find(|r| !is_blank(r)).map(String::as_str);
    let above_line = near(start.saturating_sub(1), true);
    let below_line = near(end + 1, false);
    let (longest, runs) = most_in_a_row(s, above_line.or(top), below_line.or(top));
    if runs < RUNS_FOR_RULE || run <= longest || longest >= LONGEST_JUDGED {
        return None;
    }
    Some(format!(
        "the edit leaves {run} blank lines in a row where the file has at most {longest}: the \
         range may stop one line short of a blank line it meant to replace"
    ))
}
