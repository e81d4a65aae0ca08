//! A key the language takes once per level, given twice: the kept line right beside a replaced
//! range and a payload row of the same block (same indentation, no line of the block's parent
//! between them) start with the same key, so the range stopped one line short and the old line
//! stays beside its new version (`W_DUPLICATE_KEY`).
//!
//! What counts as a key is read from the language: a JSON, YAML or TOML key; an object, struct
//! literal or struct field `name:` (JS/TS, Go, Rust); a `case X:` (Go, JS/TS); a Rust match arm
//! `PAT =>` without a guard; a Python keyword argument or dict key inside brackets; and a
//! declaration the language refuses twice in one block (JS `const`/`let`/`class`, Go `var` or
//! `:=` of the same names, Rust `use` and items). An ordinary statement, a call or a list row
//! repeated is no key: adding a row like its neighbour is the commonest correct edit.

use hashline_core::Edit;

use super::layout::Start;
use super::lexical::{code_part, indent, is_blank, Family};
use super::names::{unique_declares, Lang};
use super::Subject;

/// The file kinds whose keys this check reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Json,
    Yaml,
    Toml,
    Code(Lang),
}

impl Kind {
    fn of(path: &str) -> Option<Kind> {
        let ext = path.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
        match ext.as_str() {
            "json" => Some(Kind::Json),
            "yml" | "yaml" => Some(Kind::Yaml),
            "toml" => Some(Kind::Toml),
            _ => Lang::of(path).map(Kind::Code),
        }
    }
}

/// Warn about `edit` (see the module doc).
pub(super) fn check(s: &Subject<'_>, edit: &Edit, warnings: &mut Vec<String>) {
    let Some(kind) = Kind::of(s.path) else {
        return;
    };
    let Some((start, end)) = Subject::replaced(edit) else {
        return;
    };
    if edit.rows.is_empty() || rust_cfg(s, kind, edit, start, end) {
        return;
    }
    // `W_REDECLARED` already named the old line beside its new version.
    let label = (s.label)(edit);
    if warnings
        .iter()
        .any(|w| w.starts_with("[W_REDECLARED]") && w.contains(&label))
    {
        return;
    }
    // Where each row starts (in a string, in brackets), read on from the line above.
    let mut lexer = s.lexer_before(start);
    let starts: Vec<Start> = edit.rows.iter().map(|r| lexer.feed(r)).collect();
    let below = lexer.feed(s.line(end + 1));
    let above = (start > 1).then(|| s.lexer_before(start - 1).feed(s.line(start - 1)));
    let rows: Vec<(&str, Start)> = edit.rows.iter().map(String::as_str).zip(starts).collect();
    let sides = [
        (start.checked_sub(1), above, rows.clone()),
        (Some(end + 1), Some(below), rows.into_iter().rev().collect()),
    ];
    for (n, at, rows) in sides {
        let (Some(n), Some(at)) = (n, at) else {
            continue;
        };
        if n < 1 || n > s.line_count() || !s.survives(n) {
            continue;
        }
        let line = s.line(n);
        let Some(key) = key_of(s, kind, line, at, n) else {
            continue;
        };
        for (row, row_at) in rows {
            if is_blank(row) || row_at.text {
                continue;
            }
            let depth = indent(row).len();
            if depth < indent(line).len()
                || (kind == Kind::Toml && row.trim_start().starts_with('['))
            {
                break;
            }
            if depth == indent(line).len() && key_of(s, kind, row, row_at, 0).as_ref() == Some(&key)
            {
                warnings.push(format!(
                    "[W_DUPLICATE_KEY] {}: a row gives {key}, which line {n} (`{}`) right beside \
                     it gives too, at the same level: the old line stays beside its new version; \
                     if the range was meant to cover that line, widen it",
                    label,
                    line.trim()
                ));
                return;
            }
        }
    }
}

/// A Rust edit near `#[cfg(…)]`: one name may be declared once per configuration.
fn rust_cfg(s: &Subject<'_>, kind: Kind, edit: &Edit, start: usize, end: usize) -> bool {
    if kind != Kind::Code(Lang::Rust) {
        return false;
    }
    let lo = start.saturating_sub(3).max(1);
    let hi = (end + 3).min(s.line_count());
    let near = (lo..=hi).map(|n| s.line(n));
    edit.rows
        .iter()
        .map(String::as_str)
        .chain(near)
        .any(|l| l.contains("cfg"))
}

/// The key `line` (starting at `at`) gives, described for the message; `n` its line number
/// in the text read (0 for a payload row), to find a YAML block scalar around it.
fn key_of(s: &Subject<'_>, kind: Kind, line: &str, at: Start, n: usize) -> Option<String> {
    if at.text || at.joined || is_blank(line) {
        return None;
    }
    let t = line.trim_start();
    match kind {
        Kind::Json => quoted_key(t).map(|k| format!("the key {k}")),
        Kind::Toml => {
            let (k, _) = t.split_once('=')?;
            let k = k.trim();
            let plain = k
                .chars()
                .all(|c| c.is_alphanumeric() || "_-.\"'".contains(c));
            (plain && !k.is_empty() && !t.starts_with('#')).then(|| format!("the key `{k}`"))
        }
        Kind::Yaml => {
            if n > 0 && in_block_scalar(s, n) {
                return None;
            }
            yaml_key(t).map(|k| format!("the key `{k}`"))
        }
        Kind::Code(lang) => code_key(s, lang, line, at),
    }
}

/// A YAML `key:` (not a list item, a comment, a merge key or a document marker).
fn yaml_key(t: &str) -> Option<&str> {
    if t.starts_with(['-', '#', '<', '?', '{', '[', '&', '*', '!', '|', '>']) {
        return None;
    }
    if let Some(k) = quoted_key(t) {
        return Some(k);
    }
    let end = t
        .find(": ")
        .or_else(|| t.ends_with(':').then(|| t.len() - 1))?;
    let k = &t[..end];
    let plain = k.chars().all(|c| c.is_alphanumeric() || "_-./".contains(c));
    (plain && !k.is_empty()).then_some(k)
}

/// Whether line `n` of a YAML text is the content of a block scalar (`key: |`, `key: >-`).
fn in_block_scalar(s: &Subject<'_>, n: usize) -> bool {
    let depth = indent(s.line(n)).len();
    (1..n)
        .rev()
        .map(|m| s.line(m))
        .find(|l| !is_blank(l) && indent(l).len() < depth)
        .is_some_and(|p| {
            let t = p.trim_end();
            let tail = t.rsplit(' ').next().unwrap_or("");
            tail.starts_with('|') || tail.starts_with('>')
        })
}

/// A `"key":` at the start of `t`, quotes included.
fn quoted_key(t: &str) -> Option<&str> {
    let q = t.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let close = t[1..].find(q)? + 1;
    let rest = t[close + 1..].trim_start();
    (rest.starts_with(':') && !rest.starts_with("::")).then(|| &t[..=close])
}

/// The key a line of code gives: see the module doc.
fn code_key(s: &Subject<'_>, lang: Lang, line: &str, at: Start) -> Option<String> {
    let family = Family::of(s.path);
    let code = code_part(line, family);
    let t = code.trim();
    if lang == Lang::Python {
        // Only inside brackets: a keyword argument or a dict key.
        if at.depth == 0 {
            return None;
        }
        if let Some(k) = quoted_key(line.trim_start()) {
            return Some(format!("the key {k}"));
        }
        let (k, rest) = t.split_once('=')?;
        let k = k.trim_end();
        let ident = !k.is_empty() && k.chars().all(|c| c.is_alphanumeric() || c == '_');
        return (ident && !rest.starts_with('=') && !k.starts_with(|c: char| c.is_ascii_digit()))
            .then(|| format!("the keyword argument `{k}`"));
    }
    // Patterns are compared as written (the code part blanks their strings).
    let raw = line.trim();
    if t.starts_with("case ") && t.ends_with(':') && lang != Lang::Rust {
        return Some(format!("`{raw}`"));
    }
    if t == "default:" && lang != Lang::Rust {
        return Some("`default:`".to_owned());
    }
    if lang == Lang::Rust && t.contains("=>") {
        if let Some((pat, _)) = raw.split_once("=>") {
            let pat = pat.trim();
            let simple = !pat.is_empty() && !pat.contains(" if ") && !pat.starts_with('(');
            if simple && !pat.contains('$') {
                return Some(format!("the match arm `{pat} =>`"));
            }
            return None;
        }
    }
    // A Go `if`/`for`/`switch` header declares in its own scope.
    let header = ["if ", "for ", "switch ", "}", "else"]
        .iter()
        .any(|k| t.starts_with(k));
    let declared = unique_declares(lang, &code);
    if !declared.is_empty() && !header {
        return Some(format!("a declaration of `{}`", declared.join("`, `")));
    }
    // A field: `name: value,` (object, struct literal or type), with nothing before the name.
    // Not in JSX, where a line of text may start with a word and a colon.
    if s.path.ends_with('x') {
        return None;
    }
    let (k, rest) = t.split_once(':')?;
    let ident = !k.is_empty()
        && k.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    let field = ident && !rest.starts_with(':') && !k.starts_with(|c: char| c.is_ascii_digit());
    let keyword = ["default", "case", "else", "return", "http", "https"].contains(&k);
    (field && !keyword).then(|| format!("the field `{k}`"))
}
