//! A range one line off: it swallows a separating blank line the payload does not restate,
//! leaves behind a line the payload already replaces (a duplicate key, code after the payload's
//! closing `return`), or repeats the line next to it.

use hashline_core::{Edit, ErrorCode};

use super::lexical::{indent, is_blank, Family};
use super::{refuse, GuardRefusal, Subject};

const RESEND: &str = "Fix the range with the fresh anchors shown and send the edit again; to \
remove such a line on purpose, delete it in an edit of its own.";

/// Statements after which nothing at the same indentation runs.
const TERMINAL: [&str; 6] = ["return", "raise", "throw", "break", "continue", "panic!("];

/// Lines that may follow a terminal statement at its indentation without being dead: a new
/// branch, handler, case or definition, a closer, a comment or a decorator.
const RESUMES: [&str; 24] = [
    "else", "elif", "except", "finally", "catch", "case", "default", "def ", "class ", "fn ",
    "func ", "function", "pub ", "async ", "export ", "@", "#", "//", "/*", "}", ")", "]", "end",
    "impl ",
];

/// Refuse (or warn about) `edit` if its range looks one line off.
pub(super) fn check(
    s: &Subject<'_>,
    edit: &Edit,
    warnings: &mut Vec<String>,
) -> Result<(), GuardRefusal> {
    if let Some(what) = swallowed_fence(s, edit).or_else(|| duplicate_key(s, edit)) {
        return Err(refuse(s, ErrorCode::RangeBoundary, edit, what, RESEND));
    }
    if let Some(what) = unpaired_end(s, edit) {
        warnings.push(format!(
            "[W_RANGE_EDGE] {}: {what}; if it was not meant to go, leave it out of the range",
            (s.label)(edit)
        ));
    }
    if let Some(what) = swallowed_blank(s, edit) {
        warnings.push(format!(
            "[W_SWALLOWED_BLANK] {}: {what}; if that was not meant, restate the blank line",
            (s.label)(edit)
        ));
    }
    match dead_code(s, edit) {
        Some((what, true)) => Err(refuse(s, ErrorCode::RangeBoundary, edit, what, RESEND)),
        Some((what, false)) => {
            warnings.push(format!(
                "[W_DEAD_CODE] {}: {what}; if the range was meant to cover it, delete it",
                (s.label)(edit)
            ));
            Ok(())
        }
        None => Ok(()),
    }
}

/// A range of two or more lines that starts or ends on a blank line the payload does not
/// restate at that end.
fn swallowed_blank(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    if end <= start || (start..=end).all(|n| is_blank(s.line(n))) {
        return None;
    }
    let first = edit.rows.first()?;
    let last = edit.rows.last()?;
    // A last row that restates the line after the range is a different mistake (or intent):
    // the repeated-line notice covers it.
    if is_blank(s.line(end)) && !is_blank(last) && last.trim() != s.line(end + 1).trim() {
        return Some(format!(
            "the range ends on blank line {end}, which the payload does not restate: the edit \
             would remove that separator"
        ));
    }
    if is_blank(s.line(start)) && !is_blank(first) && first.trim() != s.line(start - 1).trim() {
        return Some(format!(
            "the range starts on blank line {start}, which the payload does not restate: the edit \
             would remove that separator"
        ));
    }
    None
}

/// The indentation and first word of a line: enough to pair a row with the line it rewrites.
fn shape(line: &str) -> (&str, &str) {
    (indent(line), line.split_whitespace().next().unwrap_or(""))
}

/// A replace with one row fewer than its range, whose rows pair in order, by indentation and
/// first word, with every replaced line but the first (or the last), which no row resembles: a
/// statement lost to a range one line too long.
fn unpaired_end(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    let rows = &edit.rows;
    if end - start + 1 != rows.len() + 1 || rows.iter().any(|r| is_blank(r)) {
        return None;
    }
    let lines: Vec<&str> = (start..=end).map(|n| s.line(n)).collect();
    if lines.iter().any(|l| is_blank(l)) {
        return None;
    }
    let pairs = |from: &[&str]| from.iter().zip(rows).all(|(l, r)| shape(l) == shape(r));
    // A row resembles a line when it has its shape, or names what the line declares (or its
    // first word): the line was rewritten or merged, not lost.
    let joined = rows.concat();
    let resembles = |l: &str| {
        let words: Vec<&str> = l
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| w.len() >= 3)
            .collect();
        let found = words.iter().filter(|w| joined.contains(*w)).count();
        let merged = found * 2 >= words.len();
        let declared = decl_of(l).is_some_and(|(_, name)| joined.contains(name));
        merged || declared || rows.iter().any(|r| shape(r) == shape(l))
    };
    let (n, lost) = if pairs(&lines[1..]) && !resembles(lines[0]) {
        (start, lines[0])
    } else if pairs(&lines[..lines.len() - 1]) && !resembles(lines[lines.len() - 1]) {
        (end, lines[lines.len() - 1])
    } else {
        return None;
    };
    Some(format!(
        "the rows rewrite the other lines of the range one for one, and line {n} (`{}`) is \
         replaced by nothing",
        lost.trim()
    ))
}

/// A line that delimits a region: a Markdown code fence, a YAML document separator.
fn is_fence(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("```") || t.starts_with("~~~") || t == "---" || t == "..."
}

/// A range of several lines that starts or ends on a fence or document separator that no row
/// restates: the rest of the file would change region (text becomes code, two documents one).
fn swallowed_fence(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    if end <= start || edit.rows.is_empty() {
        return None;
    }
    let restated = |line: &str| edit.rows.iter().any(|r| r.trim() == line.trim());
    [end, start]
        .into_iter()
        .find(|&n| is_fence(s.line(n)) && !restated(s.line(n)))
        .map(|n| {
            format!(
                "the range {} on line {n} (`{}`), which no row restates: the edit would remove \
                 that delimiter",
                if n == end { "ends" } else { "starts" },
                s.line(n).trim()
            )
        })
}

/// The key of a `key: value` / `"key": value` / `key = value` line, with its indentation.
fn key_of(line: &str) -> Option<(&str, &str)> {
    let t = line.trim_start();
    // A list item starts a new mapping: its keys may repeat the item's before it.
    if t.starts_with("- ") {
        return None;
    }
    let end = t.find([':', '='])?;
    let key = t[..end].trim_end();
    let bare = key.trim_matches('"');
    let simple = !bare.is_empty()
        && bare
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    let after = &t[end..];
    // `key:` must be followed by space or the end (not `::`, not a URL); `=` not by `=`.
    let sep_ok = match after.as_bytes() {
        [b':'] | [b':', b' ', ..] => true,
        [b'=', b' ', ..] => !key.ends_with(['!', '<', '>', '=']),
        _ => false,
    };
    (simple && sep_ok).then_some((indent(line), key))
}

/// Keywords that start a declaration; the name follows.
const DECLARES: [&str; 14] = [
    "const ",
    "let ",
    "var ",
    "val ",
    "mut ",
    "static ",
    "final ",
    "def ",
    "fn ",
    "func ",
    "function ",
    "class ",
    "type ",
    "struct ",
];

/// Keywords that may stand before a declaration.
const MODIFIERS: [&str; 7] = [
    "export ",
    "pub ",
    "pub(crate) ",
    "async ",
    "private ",
    "public ",
    "readonly ",
];

/// An identifier or member path (`x`, `self.x`, `this.x`) at the start of `t`, and the rest.
fn ident(t: &str) -> Option<(&str, &str)> {
    let end = t
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.')))
        .unwrap_or(t.len());
    let name = &t[..end];
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then(|| (name, &t[end..]))
}

/// The name a code line declares or binds, with its indentation: `const X`, `let [a, b]`,
/// `var x int`, `x := …`, a field or dict entry `x: …,`, a keyword argument `x=…,`. Plain
/// reassignments (`x = …`) are not bindings: a file may reassign on consecutive lines.
fn decl_of(line: &str) -> Option<(&str, &str)> {
    let mut t = line.trim_start();
    if t.starts_with("- ") || t.starts_with("//") || t.starts_with('#') {
        return None;
    }
    while let Some(m) = MODIFIERS.iter().find(|m| t.starts_with(*m)) {
        t = t[m.len()..].trim_start();
    }
    if let Some(k) = DECLARES.iter().find(|k| t.starts_with(*k)) {
        let rest = t[k.len()..].trim_start();
        let rest = rest.strip_prefix("mut ").unwrap_or(rest);
        let name = match rest.chars().next()? {
            '[' | '{' | '(' => &rest[..rest.find([']', '}', ')'])? + 1],
            _ => {
                // `var total, prev int64`: every name of the list.
                let (first, mut after) = ident(rest)?;
                let mut len = first.len();
                while let Some(more) = after.strip_prefix(',') {
                    let Some((_, tail)) = ident(more.trim_start()) else {
                        break;
                    };
                    len = rest.len() - tail.len();
                    after = tail;
                }
                &rest[..len]
            }
        };
        return Some((indent(line), name));
    }
    let (name, rest) = ident(t)?;
    let rest_t = rest.trim_start();
    let binds = rest_t.starts_with(":=")
        || (line.trim_end().ends_with(',')
            && (rest.starts_with('=') && !rest.starts_with("==") || rest_t.starts_with(": ")));
    binds.then_some((indent(line), name))
}

/// The line right after (or before) a replaced range sets the same key, or declares the same
/// name, at the same indentation as a payload row that the range's own lines did not: the range
/// left the old entry behind (data files: keys; code: declarations, fields, arguments).
fn duplicate_key(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    let path = s.path.to_ascii_lowercase();
    let data = [
        ".yaml",
        ".yml",
        ".json",
        ".toml",
        ".ini",
        ".cfg",
        ".env",
        ".properties",
    ]
    .iter()
    .any(|ext| path.ends_with(ext));
    let prose = Family::of(s.path) == Family::Prose;
    if prose {
        return None;
    }
    let key = |l: &str| -> Option<(String, String)> {
        let found = if data { key_of(l) } else { decl_of(l) };
        found.map(|(i, k)| (i.to_string(), k.to_string()))
    };
    // Same indentation and a name in common (`var prev` against `var total, prev`).
    let names = |k: &str| -> Vec<String> {
        k.split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | '"' | '-')))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let same = |a: &(String, String), b: &(String, String)| {
        a.0 == b.0 && names(&a.1).iter().any(|n| names(&b.1).contains(n))
    };
    let replaced: Vec<(String, String)> = (start..=end).filter_map(|n| key(s.line(n))).collect();
    for n in [end + 1, start.wrapping_sub(1)] {
        if n == 0 || n > s.line_count() {
            continue;
        }
        let Some(left) = key(s.line(n)) else {
            continue;
        };
        // The entry is restated only when the range covered one of that key, too.
        if replaced.iter().any(|r| same(r, &left)) {
            continue;
        }
        if edit
            .rows
            .iter()
            .any(|r| key(r).is_some_and(|k| same(&k, &left)))
        {
            return Some(format!(
                "line {n} (`{}`) stays beside the payload, which sets `{}` at the same \
                 indentation too: the range is one line short",
                s.line(n).trim(),
                left.1
            ));
        }
    }
    None
}

/// The payload's last row is a terminal statement and the line right after the edit, at the
/// same indentation, could never run. `(message, refuse)`: refuse when that line is itself a
/// terminal statement (the range was one line short), else warn.
fn dead_code(s: &Subject<'_>, edit: &Edit) -> Option<(String, bool)> {
    // An inserted early return may be a deliberate stub; a replace that ends in one while the
    // old ending survives is the range-one-line-short mistake.
    Subject::replaced(edit)?;
    if matches!(Family::of(s.path), Family::Prose | Family::Data) {
        return None;
    }
    let last = edit.rows.iter().rev().find(|r| !is_blank(r))?;
    let body = last.trim_start();
    let terminal = |t: &str| {
        TERMINAL.iter().any(|k| {
            t.strip_prefix(k).is_some_and(|rest| {
                k.ends_with('(') || rest.is_empty() || rest.starts_with([' ', ';', '('])
            })
        })
    };
    if !terminal(body) || body.ends_with(['{', ':', '(', ',', '[']) {
        return None;
    }
    let (_, after) = s.neighbours(edit);
    let next_n = (after..=s.line_count()).find(|&n| !is_blank(s.line(n)))?;
    let next = s.line(next_n);
    if indent(next) != indent(last) {
        return None;
    }
    let t = next.trim_start();
    if RESUMES.iter().any(|k| t.starts_with(k)) {
        return None;
    }
    let msg = format!(
        "the payload ends with `{}`, so line {next_n} (`{}`) right after it, at the same \
         indentation, could never run",
        body.trim_end(),
        t.trim_end()
    );
    Some((msg, terminal(t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations() {
        assert_eq!(decl_of("  const limit = 5;"), Some(("  ", "limit")));
        assert_eq!(decl_of("\tvar prev int64"), Some(("\t", "prev")));
        assert_eq!(
            decl_of("\tvar total, prev int64"),
            Some(("\t", "total, prev"))
        );
        assert_eq!(
            decl_of("  const [a, setA] = useState(0);"),
            Some(("  ", "[a, setA]"))
        );
        assert_eq!(decl_of("    free: Vec::new(),"), Some(("    ", "free")));
        assert_eq!(
            decl_of("        days=_int(\"X\", 30),"),
            Some(("        ", "days"))
        );
        assert_eq!(decl_of("\tx := 1"), Some(("\t", "x")));
        assert_eq!(decl_of("    x = x + 1"), None);
        assert_eq!(decl_of("  - name: a"), None);
    }

    #[test]
    fn keys() {
        assert_eq!(key_of("  replicas: 3"), Some(("  ", "replicas")));
        assert_eq!(key_of("  - name: a"), None);
        assert_eq!(key_of("  \"name\": \"x\","), Some(("  ", "\"name\"")));
        assert_eq!(key_of("url: http://x"), Some(("", "url")));
        assert_eq!(key_of("a::b"), None);
        assert_eq!(key_of("x == y"), None);
    }
}
