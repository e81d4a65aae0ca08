//! Where each line starts in its language's structure: inside a multi-line string or block
//! comment (Python triple quotes, Go raw strings, template literals, Rust strings, `/* … */`),
//! and how many brackets are open. Lines inside text are not code: their indentation says
//! nothing about blocks.

use super::lexical::Family;

/// Where a line starts, and how its code leaves the brackets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Start {
    /// The line starts inside a string or a block comment.
    pub text: bool,
    /// Open `(` and `[` (and in Python `{`) at its start.
    pub depth: usize,
    /// The line before ended with a `\` outside strings: this one continues it.
    pub joined: bool,
    /// The line ends inside a string or a block comment.
    pub ends_in_text: bool,
    /// Open brackets at its end.
    pub depth_end: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Mode {
    Code,
    /// A string ending at the given delimiter; `multi` when it may span lines.
    Str {
        close: &'static str,
        multi: bool,
    },
    /// A Rust raw string, ending at `"` and as many `#`.
    Raw(String),
    /// A block comment (Rust nests them).
    Block(usize),
}

/// A line-by-line scanner of one language's strings, comments and brackets.
#[derive(Debug, Clone)]
pub(crate) struct Lexer {
    family: Family,
    /// Python (and TOML): `"""`/`'''` strings, `{` counted as a bracket.
    triple: bool,
    mode: Mode,
    depth: usize,
    joined: bool,
}

impl Lexer {
    /// A scanner for the file at `path`.
    pub(crate) fn new(path: &str) -> Lexer {
        let triple = [".py", ".pyi", ".toml"].iter().any(|e| path.ends_with(e));
        Lexer {
            family: Family::of(path),
            triple,
            mode: Mode::Code,
            depth: 0,
            joined: false,
        }
    }

    /// Scan one line; where it starts and ends.
    pub(crate) fn feed(&mut self, line: &str) -> Start {
        let start = Start {
            text: self.mode != Mode::Code,
            depth: self.depth,
            joined: self.joined,
            ..Start::default()
        };
        if matches!(self.family, Family::Prose | Family::Data) {
            return start;
        }
        let mut last_code = None;
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let rest = &line[i..];
            let skip = if self.mode == Mode::Code {
                if !c.is_whitespace() {
                    last_code = Some(c);
                }
                let skip = self.code(line, i, c);
                if skip == usize::MAX {
                    break; // a line comment
                }
                skip
            } else {
                self.in_text(rest, c)
            };
            for _ in 0..skip {
                chars.next();
            }
        }
        if let Mode::Str { multi: false, .. } = self.mode {
            self.mode = Mode::Code;
        }
        self.joined = self.mode == Mode::Code && last_code == Some('\\');
        Start {
            ends_in_text: self.mode != Mode::Code,
            depth_end: self.depth,
            ..start
        }
    }

    /// One character inside a string or comment: may end it. The bytes to skip after it.
    fn in_text(&mut self, rest: &str, c: char) -> usize {
        let (skip, done) = match &mut self.mode {
            Mode::Block(n) if rest.starts_with("*/") => {
                *n -= 1;
                (1, *n == 0)
            }
            Mode::Block(n) if self.family == Family::Rust && rest.starts_with("/*") => {
                *n += 1;
                (1, false)
            }
            Mode::Str { .. } if c == '\\' => (1, false),
            Mode::Str { close, .. } if rest.starts_with(*close) => (close.len() - 1, true),
            Mode::Raw(close) if rest.starts_with(close.as_str()) => (close.len() - 1, true),
            _ => (0, false),
        };
        if done {
            self.mode = Mode::Code;
        }
        skip
    }

    /// One character of code at byte `i`: opens a string or comment, counts a bracket. The
    /// bytes to skip after it, or `usize::MAX` at a line comment.
    fn code(&mut self, line: &str, i: usize, c: char) -> usize {
        let rest = &line[i..];
        let fam = self.family;
        match c {
            '(' | '[' => self.depth += 1,
            ')' | ']' => self.depth = self.depth.saturating_sub(1),
            '{' if self.triple => self.depth += 1,
            '}' if self.triple => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        let comment = match fam {
            Family::CLike | Family::Rust => rest.starts_with("//"),
            Family::Hash => c == '#',
            _ => false,
        };
        if comment {
            return usize::MAX;
        }
        if matches!(fam, Family::CLike | Family::Rust) && rest.starts_with("/*") {
            self.mode = Mode::Block(1);
            return 1;
        }
        if self.triple && (rest.starts_with("\"\"\"") || rest.starts_with("'''")) {
            let close = if c == '"' { "\"\"\"" } else { "'''" };
            self.mode = Mode::Str { close, multi: true };
            return 2;
        }
        if fam == Family::Rust && c == 'r' {
            let boundary = line[..i]
                .chars()
                .last()
                .is_none_or(|p| !(p.is_alphanumeric() || p == '_'));
            let hashes = rest[1..].chars().take_while(|&h| h == '#').count();
            if boundary && rest[1 + hashes..].starts_with('"') {
                self.mode = Mode::Raw(format!("\"{}", "#".repeat(hashes)));
                return hashes + 1;
            }
        }
        let (close, multi) = match (fam, c) {
            (Family::Rust, '"') => ("\"", true),
            (Family::Rust, '\'') => {
                // A char literal (`'x'`, `'\n'`); a lifetime is not a string.
                let mut it = rest.chars().skip(1);
                match (it.next(), it.next()) {
                    (Some('\\'), _) | (Some(_), Some('\'')) => ("'", false),
                    _ => return 0,
                }
            }
            (Family::CLike, '`') => ("`", true),
            (Family::CLike | Family::Hash, '"') => ("\"", false),
            (Family::CLike | Family::Hash, '\'') => ("'", false),
            _ => return 0,
        };
        self.mode = Mode::Str { close, multi };
        0
    }
}

/// Lines between two saved scanner states ([`checkpoints`]).
pub(crate) const CHECKPOINT: usize = 128;

/// How far above the first edit the scan starts (a multiple of [`CHECKPOINT`]).
pub(crate) const SCAN_BACK: usize = 16_384;

/// The scanner's state before lines `1`, `CHECKPOINT + 1`, `2 * CHECKPOINT + 1`, … of
/// `lines`: a scan of the file once, from which any line's state is a short scan away.
pub(crate) fn checkpoints<'a>(path: &str, lines: impl IntoIterator<Item = &'a str>) -> Vec<Lexer> {
    let mut lexer = Lexer::new(path);
    let mut out = vec![lexer.clone()];
    for (i, line) in lines.into_iter().enumerate() {
        lexer.feed(line);
        if (i + 1) % CHECKPOINT == 0 {
            out.push(lexer.clone());
        }
    }
    out
}

/// The start of each of `lines`, scanned from the first.
#[cfg(test)]
pub(crate) fn starts<'a>(path: &str, lines: impl IntoIterator<Item = &'a str>) -> Vec<Start> {
    let mut lexer = Lexer::new(path);
    lines.into_iter().map(|l| lexer.feed(l)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(path: &str, text: &str) -> Vec<bool> {
        starts(path, text.lines()).iter().map(|s| s.text).collect()
    }

    #[test]
    fn multi_line_strings_and_comments_are_text() {
        let py = "def f():\n    \"\"\"Doc:\n    more\n    \"\"\"\n    x = 1\n";
        assert_eq!(texts("a.py", py), [false, false, true, true, false]);
        let go = "var t = `A:\nB\n`\nfunc f() {}\n";
        assert_eq!(texts("t.go", go), [false, true, true, false]);
        let rs = "let s = \"a\nb\";\n/* c\n d */\nx();\n";
        assert_eq!(texts("a.rs", rs), [false, true, false, true, false]);
        // A lifetime is no string; a quote in a comment opens nothing.
        let rs = "fn f<'a>(x: &'a str) {} // don't\ny();\n";
        assert_eq!(texts("a.rs", rs), [false, false]);
    }

    #[test]
    fn brackets_and_joins_are_counted() {
        let s = starts("a.py", "x = f(a,\n      b)\ny = 1 + \\\n    2\n".lines());
        assert_eq!(s.iter().map(|s| s.depth).collect::<Vec<_>>(), [0, 1, 0, 0]);
        assert_eq!(
            s.iter().map(|s| s.joined).collect::<Vec<_>>(),
            [false, false, false, true]
        );
        // One-line strings end with their line even when unclosed.
        assert_eq!(texts("a.js", "a = 'x\nb()\n"), [false, false]);
    }

    #[test]
    fn a_state_from_a_checkpoint_equals_a_scan_from_the_top() {
        let text: String = (0..600)
            .map(|i| match i % 7 {
                0 => "x = \"\"\"a:\n",
                3 => "b\"\"\"\n",
                5 => "y = (1,\n",
                6 => "  2)\n",
                _ => "z = 1\n",
            })
            .collect();
        let lines: Vec<&str> = text.lines().collect();
        let full = starts("a.py", lines.iter().copied());
        let marks = checkpoints("a.py", lines.iter().copied());
        for n in [1, 128, 129, 300, 600] {
            let k = (n - 1) / CHECKPOINT;
            let mut lexer = marks[k].clone();
            for line in &lines[k * CHECKPOINT..n - 1] {
                lexer.feed(line);
            }
            assert_eq!(lexer.feed(lines[n - 1]), full[n - 1], "line {n}");
        }
    }
}
