//! Entries left behind by a range one line short: the line beside the range sets the same key
//! (data files) or declares the same name (code) as a payload row.

use hashline_core::Edit;

use super::lexical::{indent, Family};
use super::Subject;

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
pub(super) fn decl_of(line: &str) -> Option<(&str, &str)> {
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

/// A row that closes or opens a nesting level, or starts a new list item: keys on either side of
/// it belong to different entries.
fn breaks_group(row: &str) -> bool {
    let t = row.trim();
    t.starts_with(['}', ']', ')'])
        || t.ends_with(['{', '[', '('])
        || t.starts_with("- ")
        || t == "-"
}

/// The line right after (or before) a replaced range sets the same key, or declares the same
/// name, at the same indentation as a payload row that the range's own lines did not: the range
/// left the old entry behind (data files: keys; code: declarations, fields, arguments).
pub(super) fn duplicate_key(s: &Subject<'_>, edit: &Edit) -> Option<String> {
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
        // Only the rows of the same entry group as the left line count: after the payload's
        // last closer or new item (for the line after), before its first (for the line before).
        let rows = &edit.rows;
        let group = if n > end {
            let from = rows
                .iter()
                .rposition(|r| breaks_group(r))
                .map_or(0, |i| i + 1);
            &rows[from..]
        } else {
            let to = rows
                .iter()
                .position(|r| breaks_group(r))
                .unwrap_or(rows.len());
            &rows[..to]
        };
        if group
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
