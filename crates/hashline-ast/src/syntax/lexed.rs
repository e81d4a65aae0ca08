//! Which line starts of a text lie at top level: outside every string, comment, template and
//! bracket, found by a conservative scan (`top_rows`). The many-hunk windows (`hunks`) start
//! and end only at such lines, in the old text and in the new: a window read on its own is
//! then read as the whole file reads it, and the text between windows reads as it did before.
//!
//! The scan knows each language's comments, quotes and brackets; where it cannot be sure (a
//! raw string, JSX, a string left open at a line's end where the language closes it there, a
//! closer that does not match its opener, text left open at the end, a `/` that may open a
//! regex holding a quote or backtick) it gives no answer, and the whole check runs. Regex
//! literals are not told from divisions otherwise: a bracket in one gives up (a mismatch) or
//! keeps lines off top level.

use ast_grep_language::SupportLang;

/// What the scan knows of a language.
struct Rules {
    /// The line comment's opener.
    line: &'static [u8],
    /// `/* … */` comments.
    block: bool,
    /// Block comments nest (Rust).
    nest: bool,
    /// Quotes whose strings may span lines (Rust's `"`).
    multi_quote: bool,
    /// `"""` and `'''` strings (Python, Java).
    triple: bool,
    /// What a backtick opens.
    backtick: Backtick,
    /// A `"` right after this letter opens a raw string (`r` Rust, `R` C++): give up.
    raw: Option<u8>,
    /// `'` opens a char literal only when one closes it: `'a` is a lifetime (Rust).
    lifetimes: bool,
    /// `<` before a letter, `/` or `>` may open JSX: give up.
    jsx: bool,
    /// A `/` may open a regex literal: give up when a quote or backtick lies between it and
    /// the next `/` of its line (the scan cannot tell a regex from a division).
    regex: bool,
}

/// What a backtick opens.
#[derive(Clone, Copy, PartialEq)]
enum Backtick {
    /// Nothing special (a plain character).
    Plain,
    /// A template literal with `${ … }` substitutions.
    Template,
    /// A raw string without escapes (Go).
    Raw,
}

fn rules(lang: SupportLang) -> Option<Rules> {
    let c = Rules {
        line: b"//",
        block: true,
        nest: false,
        multi_quote: false,
        triple: false,
        backtick: Backtick::Plain,
        raw: None,
        lifetimes: false,
        jsx: false,
        regex: false,
    };
    Some(match lang {
        SupportLang::TypeScript => Rules {
            backtick: Backtick::Template,
            regex: true,
            ..c
        },
        SupportLang::JavaScript | SupportLang::Tsx => Rules {
            backtick: Backtick::Template,
            jsx: true,
            regex: true,
            ..c
        },
        SupportLang::Go => Rules {
            backtick: Backtick::Raw,
            ..c
        },
        SupportLang::Rust => Rules {
            multi_quote: true,
            nest: true,
            raw: Some(b'r'),
            lifetimes: true,
            ..c
        },
        SupportLang::C => c,
        SupportLang::Cpp => Rules {
            raw: Some(b'R'),
            ..c
        },
        SupportLang::Java => Rules { triple: true, ..c },
        SupportLang::Json => c,
        SupportLang::Css => Rules { line: b"", ..c },
        SupportLang::Python => Rules {
            line: b"#",
            block: false,
            triple: true,
            ..c
        },
        _ => return None,
    })
}

/// The bytes the scan looks at in code (all others are stepped over).
const SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let bytes = b"\n\\/#\"'`<()[]{}";
    let mut k = 0;
    while k < bytes.len() {
        t[bytes[k] as usize] = true;
        k += 1;
    }
    t
};

/// Where the scan is.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Code,
    /// In a string closed by this quote (tripled when `.1`).
    Str(u8, bool),
    /// In a block comment this deep.
    Block(usize),
    /// In a template literal's text.
    Template,
    /// In a Go raw string.
    Raw,
}

/// For each row of `text`, whether its start lies at top level (see the module docs): outside
/// every token and bracket, and not after a line ending in `\`. `None` when the scan cannot
/// tell, or `lang` is not one it knows.
pub(super) fn top_rows(lang: SupportLang, text: &str) -> Option<Vec<bool>> {
    let r = rules(lang)?;
    let b = text.as_bytes();
    let mut rows = vec![true];
    let mut mode = Mode::Code;
    // Open brackets; `$` marks a template substitution's `${`.
    let mut stack: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        // Plain bytes first, fast: in code, anything but what the match below looks at; in a
        // string or comment, anything but its closer, a backslash and a newline.
        i = match mode {
            Mode::Code => b[i..]
                .iter()
                .position(|&c| SPECIAL[c as usize])
                .map_or(b.len(), |n| i + n),
            Mode::Str(q, _) => memchr::memchr3(q, b'\\', b'\n', &b[i..]).map_or(b.len(), |n| i + n),
            Mode::Block(_) => {
                memchr::memchr3(b'*', b'/', b'\n', &b[i..]).map_or(b.len(), |n| i + n)
            }
            Mode::Raw => memchr::memchr2(b'`', b'\n', &b[i..]).map_or(b.len(), |n| i + n),
            Mode::Template => i,
        };
        let Some(&c) = b.get(i) else { break };
        let next = b.get(i + 1).copied().unwrap_or(0);
        if c == b'\n' {
            if let Mode::Str(_, false) = mode {
                if !r.multi_quote {
                    return None;
                }
            }
            let continued = i > 0 && b[i - 1] == b'\\';
            rows.push(mode == Mode::Code && stack.is_empty() && !continued);
            i += 1;
            continue;
        }
        match mode {
            Mode::Code => {
                if !r.line.is_empty() && b[i..].starts_with(r.line) {
                    i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |n| i + n);
                    continue;
                }
                match c {
                    b'\\' if next != b'\n' => i += 1,
                    b'/' if r.block && next == b'*' => {
                        mode = Mode::Block(1);
                        i += 1;
                    }
                    b'/' if r.regex && quoted_regex(&b[i + 1..]) => return None,
                    b'"' | b'\'' => {
                        let before = i.checked_sub(1).map(|p| b[p]);
                        if r.raw.is_some()
                            && c == b'"'
                            && matches!(before, Some(x) if Some(x) == r.raw || x == b'#')
                        {
                            return None;
                        }
                        if r.triple && b[i..].starts_with(&[c, c, c]) {
                            mode = Mode::Str(c, true);
                            i += 2;
                        } else if r.lifetimes && c == b'\'' {
                            i += char_literal(text, i);
                        } else {
                            mode = Mode::Str(c, false);
                        }
                    }
                    b'`' if r.backtick == Backtick::Template => mode = Mode::Template,
                    b'`' if r.backtick == Backtick::Raw => mode = Mode::Raw,
                    b'<' if r.jsx
                        && (next.is_ascii_alphabetic() || next == b'/' || next == b'>') =>
                    {
                        return None
                    }
                    b'(' | b'[' | b'{' => stack.push(c),
                    b')' | b']' | b'}' => match (stack.pop(), c) {
                        (Some(b'('), b')') | (Some(b'['), b']') | (Some(b'{'), b'}') => {}
                        (Some(b'$'), b'}') => mode = Mode::Template,
                        _ => return None,
                    },
                    _ => {}
                }
            }
            Mode::Str(q, triple) => {
                if c == b'\\' && next != b'\n' {
                    i += 1;
                } else if c == q && (!triple || b[i..].starts_with(&[q, q, q])) {
                    mode = Mode::Code;
                    if triple {
                        i += 2;
                    }
                }
            }
            Mode::Block(depth) => {
                if c == b'*' && next == b'/' {
                    mode = if depth > 1 {
                        Mode::Block(depth - 1)
                    } else {
                        Mode::Code
                    };
                    i += 1;
                } else if c == b'/' && next == b'*' && r.nest {
                    mode = Mode::Block(depth + 1);
                    i += 1;
                }
            }
            Mode::Template => {
                if c == b'\\' && next != b'\n' {
                    i += 1;
                } else if c == b'`' {
                    mode = Mode::Code;
                } else if c == b'$' && next == b'{' {
                    stack.push(b'$');
                    mode = Mode::Code;
                    i += 1;
                }
            }
            Mode::Raw => {
                if c == b'`' {
                    mode = Mode::Code;
                }
            }
        }
        i += 1;
    }
    (mode == Mode::Code && stack.is_empty()).then_some(rows)
}

/// The bytes after the `'` at `at` (Rust) to step over: the rest of a char literal (`'a'`,
/// `'\n'`, `'"'`), or none after the quote of a lifetime (`'a`).
fn char_literal(text: &str, at: usize) -> usize {
    let rest = text.get(at + 1..).unwrap_or("");
    // A char literal never spans lines: what the scan steps over stays on this line, so its
    // count of rows stays right whatever follows a stray quote.
    let rest = rest.split('\n').next().unwrap_or("");
    let mut chars = rest.char_indices();
    match chars.next() {
        Some((_, '\\')) => rest
            .get(2..)
            .and_then(|r| r.find('\''))
            .map_or(0, |n| n + 3),
        Some((_, ch)) if ch != '\'' => match chars.next() {
            Some((n, '\'')) => n + 1,
            _ => 0,
        },
        _ => 0,
    }
}

/// Whether the rest of a line after a `/` (`rest`) holds a quote or backtick before the next
/// unescaped `/` of the line: were the `/` a regex literal's, it would hide them.
fn quoted_regex(rest: &[u8]) -> bool {
    let mut k = 0;
    while let Some(&c) = rest.get(k) {
        match c {
            b'\\' => k += 1,
            b'/' | b'\n' => return false,
            b'`' | b'"' | b'\'' => return true,
            _ => {}
        }
        k += 1;
    }
    false
}
