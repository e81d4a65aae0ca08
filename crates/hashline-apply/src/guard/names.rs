//! Names a range one line off leaves undeclared or declares twice, read from the binding forms
//! of the file's language (Python, JavaScript/TypeScript, Go, Rust):
//!
//! * [`undeclared`]: the range removes the line that declares a name (`let re = …`,
//!   `output := …`, `import click`) which the payload or the lines after it in the same block
//!   still use, and nothing else in the file binds that name where the use sees it
//!   ([`super::reach`]) (`W_UNDECLARED_NAME`);
//! * [`redeclared`]: the payload's first (or last) row declares a name that the kept line right
//!   above (or below) it declares too, in a form the language refuses twice in one scope (JS
//!   `const`/`let`, Go `:=`/`var`, Rust `use` and items): the range stopped one line short and
//!   the old declaration stays beside the new one (`W_REDECLARED`).
//!
//! Both are warnings: the parser accepts such a file, the compiler or the runtime does not.

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

use hashline_core::{Edit, EditKind};

use super::lexical::{code_part, indent, is_blank, Family};
use super::reach::bound_in_reach;
use super::Subject;

/// A language whose binding forms this check reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lang {
    Python,
    Script,
    Go,
    Rust,
}

impl Lang {
    /// The language of the file at `path`, if this check reads it.
    pub(super) fn of(path: &str) -> Option<Lang> {
        let ext = path.rsplit('.').next().unwrap_or("");
        match ext {
            "py" | "pyi" => Some(Lang::Python),
            "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" => Some(Lang::Script),
            "go" => Some(Lang::Go),
            "rs" => Some(Lang::Rust),
            _ => None,
        }
    }
}

/// Lines looked at below a range for a use of a name it removed (the block's rest).
const USES_BELOW: usize = 60;

/// Warn about `edit` (see the module doc).
pub(super) fn check(s: &Subject<'_>, edit: &Edit, warnings: &mut Vec<String>) {
    let Some(lang) = Lang::of(s.path) else {
        return;
    };
    if let Some(what) = undeclared(s, lang, edit) {
        warnings.push(format!(
            "[W_UNDECLARED_NAME] {}: {what}; if the range was not meant to cover that line, \
             shorten it",
            (s.label)(edit)
        ));
    }
    if let Some(what) = redeclared(s, lang, edit) {
        warnings.push(format!(
            "[W_REDECLARED] {}: {what}; if the range was meant to cover that line, widen it",
            (s.label)(edit)
        ));
    }
}

/// A name the range's removed lines declare that is still used (in the payload, or below the
/// range in the same block) and bound nowhere else in the file.
///
/// Each removed line is scanned once, in turn; what the payload uses and what the range binds
/// are gathered once per edit, and what the whole request binds once per call, and only when
/// a removed declaration is found, so a big range or a request of many hunks costs one pass.
fn undeclared(s: &Subject<'_>, lang: Lang, edit: &Edit) -> Option<String> {
    let EditKind::Replace { start, end } = edit.kind else {
        return None;
    };
    // A dialect of one hunk per call reaches a multi-hunk change through texts in between,
    // where a name may be removed before its uses are.
    if s.one_hunk_per_call {
        return None;
    }
    let family = Family::of(s.path);
    let payload_uses: OnceCell<HashSet<String>> = OnceCell::new();
    let range_bindings: OnceCell<Bindings> = OnceCell::new();
    let mut lexer = s.lexer_before(start);
    for n in start..=end {
        let line = s.line(n);
        // Only a whole statement declares: not a line inside a string or brackets.
        let at = lexer.feed(line);
        if is_blank(line) || at.text || at.depth > 0 || at.joined {
            continue;
        }
        let code = code_part(line, family);
        for name in declares(lang, &code) {
            // A builtin the line shadowed (`var Promise = require('es6-promise')`) is still
            // there once the line goes: removing a polyfill leaves nothing undeclared.
            if name.len() < 2 || is_builtin(lang, &name) {
                continue;
            }
            let in_payload = payload_uses
                .get_or_init(|| {
                    let rows = edit.rows.iter().map(|r| code_part(r, family));
                    rows.flat_map(|r| value_uses(&r).map(str::to_owned).collect::<Vec<_>>())
                        .collect()
                })
                .contains(&name);
            let (used, at) = if in_payload {
                ("the payload".to_owned(), n)
            } else {
                let Some(below) = used_below(s, edit, &name, indent(line).len()) else {
                    continue;
                };
                (format!("line {below}"), below)
            };
            // Bound again by any edit of the request (a `use` moved, a variable renamed).
            let rows_bind = s.row_bindings(|row| bindings(lang, &code_part(row, family)));
            if rows_bind.contains(&name) {
                continue;
            }
            // An import rewritten over several rows (`import ky, {` … `} from 'ky';`) names
            // what it imports on rows that bind nothing on their own.
            let import = ["import ", "from ", "use ", "pub use "]
                .iter()
                .any(|k| code.trim_start().starts_with(k));
            let named = || {
                edit.rows
                    .iter()
                    .any(|r| identifiers(&code_part(r, family)).any(|(_, id)| id == name))
            };
            if import && named() {
                continue;
            }
            let inside = range_bindings.get_or_init(|| {
                let mut map = Bindings::new();
                for k in start..=end {
                    for b in bindings(lang, &code_part(s.line(k), family)) {
                        *map.entry(b).or_default() += 1;
                    }
                }
                map
            });
            let total = s.bindings(|code| bindings(lang, code));
            let count = |m: &Bindings| m.get(&name).copied().unwrap_or(0);
            // Bound elsewhere in the file: in reach of the use (another function's `let re`
            // or `output :=` does not count)?
            if count(total) > count(inside) && bound_in_reach(s, lang, &name, at, (start, end)) {
                continue;
            }
            return Some(format!(
                "it removes line {n} (`{}`), which declares `{name}`; {used} still uses `{name}`, \
                 and nothing else in its reach declares it",
                line.trim()
            ));
        }
    }
    None
}

/// Whether `name` is a global every program of `lang` has (JavaScript's and Python's
/// standard globals), so a line that rebinds it may go without leaving it undeclared.
fn is_builtin(lang: Lang, name: &str) -> bool {
    const SCRIPT: [&str; 40] = [
        "Array",
        "ArrayBuffer",
        "BigInt",
        "Boolean",
        "Buffer",
        "console",
        "DataView",
        "Date",
        "Error",
        "fetch",
        "Function",
        "globalThis",
        "Infinity",
        "Intl",
        "JSON",
        "Map",
        "Math",
        "NaN",
        "Number",
        "Object",
        "process",
        "Promise",
        "Proxy",
        "Reflect",
        "RegExp",
        "require",
        "Set",
        "String",
        "Symbol",
        "TextDecoder",
        "TextEncoder",
        "TypeError",
        "URL",
        "URLSearchParams",
        "WeakMap",
        "WeakSet",
        "window",
        "document",
        "setTimeout",
        "structuredClone",
    ];
    const PYTHON: [&str; 36] = [
        "abs",
        "all",
        "any",
        "bool",
        "bytes",
        "callable",
        "dict",
        "enumerate",
        "Exception",
        "filter",
        "float",
        "format",
        "frozenset",
        "getattr",
        "hasattr",
        "hash",
        "id",
        "input",
        "int",
        "isinstance",
        "issubclass",
        "iter",
        "len",
        "list",
        "map",
        "max",
        "min",
        "next",
        "object",
        "open",
        "print",
        "range",
        "repr",
        "set",
        "sorted",
        "str",
    ];
    match lang {
        Lang::Script => SCRIPT.contains(&name),
        Lang::Python => PYTHON.contains(&name),
        Lang::Go | Lang::Rust => false,
    }
}

/// The kept line below the range, before its block ends (a line less indented than `depth`),
/// that uses `name`.
fn used_below(s: &Subject<'_>, edit: &Edit, name: &str, depth: usize) -> Option<usize> {
    let (_, after) = s.neighbours(edit);
    let family = Family::of(s.path);
    for n in after..=s.line_count().min(after + USES_BELOW) {
        let line = s.line(n);
        if is_blank(line) {
            continue;
        }
        if !s.survives(n) || indent(line).len() < depth {
            return None;
        }
        if value_uses(&code_part(line, family)).any(|id| id == name) {
            return Some(n);
        }
    }
    None
}

/// Every name a line binds: what it declares, and, on a line that binds names otherwise
/// (a signature, a loop, an alias, a closure, a handler), all its identifiers.
pub(super) fn bindings(lang: Lang, code: &str) -> Vec<String> {
    let mut out = declares(lang, code);
    let t = code.trim_start();
    // A Python `with …:` or `except …:` binds only what follows `as`; what it calls or
    // catches is used, not bound (`with pytest.raises(click.Abort) as e:`).
    let header = ["with ", "async with ", "except"]
        .iter()
        .any(|k| t.starts_with(k));
    if lang == Lang::Python && header && !code.contains("lambda") && !code.contains(" for ") {
        if let Some((_, after)) = code.split_once(" as ") {
            out.extend(identifiers(after).map(|(_, id)| id.to_owned()));
        }
        return out;
    }
    const BINDERS: [&str; 14] = [
        "def ", "fn ", "function", "func ", "lambda", "for ", "with ", "except", "catch", " as ",
        "=>", "|", "async ", "pub fn",
    ];
    if BINDERS.iter().any(|b| t.starts_with(b) || code.contains(b)) {
        out.extend(identifiers(code).map(|(_, id)| id.to_owned()));
    }
    out
}

/// The payload's first row and the kept line above it (or its last row and the kept line below)
/// declaring one name twice in one scope.
fn redeclared(s: &Subject<'_>, lang: Lang, edit: &Edit) -> Option<String> {
    let EditKind::Replace { start, end } = edit.kind else {
        return None;
    };
    if lang == Lang::Python {
        return None;
    }
    let family = Family::of(s.path);
    let first = edit.rows.iter().find(|r| !is_blank(r))?;
    let last = edit.rows.iter().rev().find(|r| !is_blank(r))?;
    let pairs = [(first, start.checked_sub(1)), (last, Some(end + 1))];
    for (row, kept) in pairs {
        let Some(n) = kept.filter(|&n| n >= 1 && n <= s.line_count() && s.survives(n)) else {
            continue;
        };
        let line = s.line(n);
        if indent(line) != indent(row) || s.lexer_before(n).feed(line).text {
            continue;
        }
        let (a, b) = (code_part(row, family), code_part(line, family));
        let (a, b) = (unique_declares(lang, &a), unique_declares(lang, &b));
        if let Some(name) = a.iter().find(|x| b.contains(x)) {
            return Some(format!(
                "a row declares `{name}`, which line {n} (`{}`) right beside it declares too: \
                 the old declaration stays beside the new one",
                line.trim()
            ));
        }
    }
    None
}

/// The names `code` declares in a form its language refuses twice in one scope.
pub(super) fn unique_declares(lang: Lang, code: &str) -> Vec<String> {
    let t = strip_export(code.trim_start());
    let unique = match lang {
        Lang::Python => false,
        Lang::Script => ["const ", "let ", "class ", "import "]
            .iter()
            .any(|k| t.starts_with(k)),
        Lang::Go => true,
        // `let` may shadow; `use` and items may not be declared twice in one module.
        Lang::Rust => !t.starts_with("let "),
    };
    if unique {
        // Go's and Rust's `_` binds nothing: `var _ io.Reader = …` may stand on every line.
        let mut names = declares(lang, code);
        if matches!(lang, Lang::Go | Lang::Rust) {
            names.retain(|n| n != "_");
        }
        names
    } else {
        Vec::new()
    }
}

fn strip_export(t: &str) -> &str {
    let mut t = t;
    for p in [
        "export ",
        "default ",
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "async ",
    ] {
        t = t.strip_prefix(p).unwrap_or(t);
    }
    t
}

/// The names `code` (one line, strings blanked) declares in its language's binding forms.
pub(super) fn declares(lang: Lang, code: &str) -> Vec<String> {
    let t = strip_export(code.trim_start());
    let word = |rest: &str| -> Vec<String> { first_ident(rest).into_iter().collect() };
    match lang {
        Lang::Python => {
            if let Some(rest) = t.strip_prefix("import ") {
                return rest
                    .split(',')
                    .filter_map(|part| {
                        let part = part.trim();
                        let name = part.rsplit(" as ").next().unwrap_or(part);
                        first_ident(name.split('.').next().unwrap_or(name))
                    })
                    .collect();
            }
            if t.starts_with("from ") {
                let Some((_, names)) = t.split_once(" import ") else {
                    return Vec::new();
                };
                return names
                    .split(',')
                    .filter_map(|p| first_ident(p.trim().rsplit(" as ").next().unwrap_or("")))
                    .collect();
            }
            for k in ["def ", "class ", "async def "] {
                if let Some(rest) = t.strip_prefix(k) {
                    return word(rest);
                }
            }
            assigned(t, "=")
        }
        Lang::Script => {
            for k in ["const ", "let ", "var "] {
                if let Some(rest) = t.strip_prefix(k) {
                    return pattern_names(rest);
                }
            }
            for k in ["function* ", "function ", "class "] {
                if let Some(rest) = t.strip_prefix(k) {
                    return word(rest);
                }
            }
            if let Some(rest) = t.strip_prefix("import ") {
                let head = rest.split(" from ").next().unwrap_or("");
                if head == rest || head.starts_with("type ") {
                    return Vec::new();
                }
                return pattern_names(head.trim_start_matches("* as "));
            }
            Vec::new()
        }
        Lang::Go => {
            for k in ["var ", "const ", "type "] {
                if let Some(rest) = t.strip_prefix(k) {
                    return word(rest);
                }
            }
            if let Some(rest) = t.strip_prefix("func ") {
                // A method (`func (r T) Name(`) declares no name of the package scope.
                return if rest.starts_with('(') {
                    Vec::new()
                } else {
                    word(rest)
                };
            }
            // A short declaration, also as the init statement of `if`, `for`, `switch`.
            let mut t = t.trim_start_matches('}').trim_start();
            for k in ["else ", "if ", "for ", "switch "] {
                t = t.strip_prefix(k).unwrap_or(t);
            }
            assigned(t.split(';').next().unwrap_or(t), ":=")
        }
        Lang::Rust => {
            if let Some(rest) = t.strip_prefix("let ") {
                return word(rest.trim_start_matches("mut "));
            }
            if let Some(rest) = t.strip_prefix("use ") {
                let rest = rest.trim_end().trim_end_matches(';');
                if let Some((_, alias)) = rest.rsplit_once(" as ") {
                    return word(alias);
                }
                if let Some(inner) = rest.split_once('{').map(|(_, i)| i) {
                    let Some(inner) = inner.strip_suffix('}') else {
                        return Vec::new();
                    };
                    return inner
                        .split(',')
                        .filter_map(|p| {
                            let p = p.trim();
                            let p = p.rsplit(" as ").next().unwrap_or(p);
                            first_ident(p.rsplit("::").next().unwrap_or(p))
                        })
                        .map(|n| {
                            // `use a::b::{self, …}` binds `b`.
                            if n == "self" {
                                let path = rest.split_once('{').map_or("", |(p, _)| p);
                                let path = path.trim_end_matches("::");
                                path.rsplit("::").next().unwrap_or(path).to_owned()
                            } else {
                                n
                            }
                        })
                        .collect();
                }
                return word(rest.rsplit("::").next().unwrap_or(rest));
            }
            for k in [
                "fn ", "const ", "static ", "struct ", "enum ", "type ", "mod ", "trait ",
            ] {
                if let Some(rest) = t.strip_prefix(k) {
                    return word(rest);
                }
            }
            Vec::new()
        }
    }
}

/// The names on the left of `op` (`=` or `:=`) when `t` is a plain assignment statement:
/// identifiers separated by commas, nothing else before the operator.
fn assigned(t: &str, op: &str) -> Vec<String> {
    let Some(at) = t.find(op) else {
        return Vec::new();
    };
    let (lhs, rest) = (&t[..at], &t[at + op.len()..]);
    if op == "=" && (rest.starts_with('=') || lhs.ends_with(['!', '<', '>', '=', ':', '+', '-'])) {
        return Vec::new();
    }
    let lhs = lhs.split(':').next().unwrap_or(lhs);
    let names: Vec<&str> = lhs.split(',').map(str::trim).collect();
    if names
        .iter()
        .all(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'))
    {
        names
            .into_iter()
            .filter(|n| *n != "_" && !n.starts_with(|c: char| c.is_ascii_digit()))
            .map(str::to_owned)
            .collect()
    } else {
        Vec::new()
    }
}

/// The names a JS binding pattern declares: `a`, `{a, b: c}` (a and c… taken as written),
/// `[a, b]`, up to its `=`.
fn pattern_names(rest: &str) -> Vec<String> {
    let head = rest.split('=').next().unwrap_or(rest);
    if head.starts_with(['{', '[']) {
        return head
            .trim_matches(|c: char| "{}[] ".contains(c))
            .split(',')
            .filter_map(|p| {
                let p = p.rsplit(':').next().unwrap_or(p);
                first_ident(p.rsplit(" as ").next().unwrap_or(p).trim())
            })
            .collect();
    }
    first_ident(head).into_iter().collect()
}

/// The identifier `text` starts with (after white space).
fn first_ident(text: &str) -> Option<String> {
    let t = text.trim_start();
    let id: String = t
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
        .collect();
    (!id.is_empty() && !id.starts_with(|c: char| c.is_ascii_digit())).then_some(id)
}

/// The identifiers of `code` with their byte offsets.
fn identifiers(code: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = code.as_bytes();
    let is_id = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80;
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            if is_id(bytes[i]) && (i == 0 || !is_id(bytes[i - 1])) {
                let start = i;
                while i < bytes.len() && is_id(bytes[i]) {
                    i += 1;
                }
                if !bytes[start].is_ascii_digit() {
                    return Some((start, &code[start..i]));
                }
            } else {
                i += 1;
            }
        }
        None
    })
}

/// The identifiers `code` uses as values: tokens not after `.` (a field), not before a lone
/// `=` or `:` (an assignment target, a keyword argument, an object key); none in an import,
/// which names modules and what it binds.
fn value_uses(code: &str) -> impl Iterator<Item = &str> {
    let t = strip_export(code.trim_start());
    let import = ["import ", "from ", "use ", "#include"]
        .iter()
        .any(|k| t.starts_with(k));
    identifiers(code)
        .filter(move |_| !import)
        .filter(move |&(at, id)| {
            let before = code[..at].trim_end();
            let after = code[at + id.len()..].trim_start();
            let target = (after.starts_with('=') && !after.starts_with("=="))
                || (after.starts_with(':') && !after.starts_with("::"));
            !before.ends_with('.') && !target
        })
        .map(|(_, id)| id)
}

/// Counts of the names every line of the text read binds (see [`bindings`]).
pub(super) type Bindings = HashMap<String, usize>;

#[cfg(test)]
mod tests {
    use super::{declares, value_uses, Lang};

    fn uses(code: &str, name: &str) -> bool {
        value_uses(code).any(|id| id == name)
    }

    #[test]
    fn binding_forms_of_each_language() {
        let cases: [(Lang, &str, &[&str]); 14] = [
            (Lang::Python, "import click", &["click"]),
            (Lang::Python, "from a.b import C, D as E", &["C", "E"]),
            (Lang::Python, "x, y = f()", &["x", "y"]),
            (Lang::Python, "x == y", &[]),
            (Lang::Python, "self.x = 1", &[]),
            (Lang::Script, "const cwd = 'x';", &["cwd"]),
            (Lang::Script, "import {a, b as c} from 'm';", &["a", "c"]),
            (Lang::Script, "export function f() {", &["f"]),
            (Lang::Go, "output := flag.String()", &["output"]),
            (Lang::Go, "a, err := f()", &["a", "err"]),
            (Lang::Go, "if err := f(); err != nil {", &["err"]),
            (Lang::Rust, "let mut re = Regex::new(x);", &["re"]),
            (
                Lang::Rust,
                "use crate::counter::{CounterWriter, jsont};",
                &["CounterWriter", "jsont"],
            ),
            (Lang::Rust, "use std::io::{self, Write};", &["io", "Write"]),
        ];
        for (lang, line, want) in cases {
            assert_eq!(declares(lang, line), want, "{line}");
        }
    }

    #[test]
    fn a_field_a_keyword_argument_and_a_key_are_no_uses() {
        assert!(uses("if output != want {", "output"));
        assert!(!uses("self.output()", "output"));
        assert!(!uses("f(output=1)", "output"));
        assert!(!uses("{output: 1}", "output"));
        assert!(uses("x == output", "output"));
    }
}
