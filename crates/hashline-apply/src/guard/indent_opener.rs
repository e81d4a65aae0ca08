//! Rows under an opener (`indent`): a row right after a line that opens a block (`{`, or `:`
//! in Python) or a bracket body (`(`, `[` at the end of a line) must sit deeper than the
//! opener's statement, where the file itself indents such bodies. The same rule holds in a
//! Markdown code fence that names its language.

use super::layout::Start;
use super::lexical::{code_part, is_blank, is_markdown, is_python, width, Family};
use super::scope::{Above, Ix};
use super::{is_fence, Subject};

/// Lines of a fenced code block read for the file's own evidence.
const FENCE_LINES: usize = 400;

/// What a line ending opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opens {
    /// Nothing that the next line must sit under.
    Nothing,
    /// A block (`{`, or `:` in Python).
    Block,
    /// A bracket body: `(` or `[` last on the line.
    Bracket,
}

/// How the lines of one stretch are read: their family, Python's `:` blocks, and whether a
/// `(`/`[` at a line's end opens a body that must be indented (not in shell or data files).
#[derive(Debug, Clone, Copy)]
struct Lang {
    family: Family,
    python: bool,
    brackets: bool,
}

impl Lang {
    /// The language of the file at `path`, or `None` where indentation carries no block rule
    /// the check knows (prose, data, YAML).
    fn of_path(path: &str) -> Option<Lang> {
        let family = Family::of(path);
        let python = is_python(path);
        let code = matches!(family, Family::CLike | Family::Rust) || python;
        let yaml = path.ends_with(".yaml") || path.ends_with(".yml");
        (!matches!(family, Family::Prose | Family::Data) && !yaml).then_some(Lang {
            family,
            python,
            brackets: code,
        })
    }

    /// The language a Markdown fence's info string names (```` ```ts ````), where known.
    fn of_fence(fence: &str) -> Option<Lang> {
        let info = fence.trim_start().trim_start_matches(['`', '~']).trim();
        let word = info
            .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let (family, python) = match word.as_str() {
            "js" | "javascript" | "jsx" | "mjs" | "cjs" | "ts" | "typescript" | "tsx" | "go"
            | "golang" | "c" | "cpp" | "c++" | "java" | "kotlin" | "kt" | "swift" | "csharp"
            | "cs" | "php" | "scala" | "dart" => (Family::CLike, false),
            "rust" | "rs" => (Family::Rust, false),
            "python" | "py" | "python3" => (Family::Hash, true),
            _ => return None,
        };
        Some(Lang {
            family,
            python,
            brackets: true,
        })
    }

    /// What `line` (starting at `st`) opens: outside strings and comments, its code ends
    /// with `{` (a block), `:` in Python outside brackets (a block), or `(`/`[` (a body).
    fn opens(self, line: &str, st: Start) -> Opens {
        // Blanking strings and cutting comments never adds a bracket or `:`: a line without
        // one opens nothing (most lines; this runs on the lines around every edit).
        let any = line.contains('{')
            || (self.python && line.contains(':'))
            || (self.brackets && (line.contains('(') || line.contains('[')));
        if st.text || st.ends_in_text || !any {
            return Opens::Nothing;
        }
        let code = code_part(line, self.family);
        let code = code.trim_end();
        if code.ends_with('{') || (self.python && st.depth_end == 0 && code.ends_with(':')) {
            Opens::Block
        } else if self.brackets && (code.ends_with('(') || code.ends_with('[')) {
            Opens::Bracket
        } else {
            Opens::Nothing
        }
    }
}

/// A row right after an opener (a payload row, or for the first row the line above the
/// edit) that is not indented deeper than the opener's statement, and is not a closer or a
/// `case`: where the file indents what that kind of opener opens.
pub(super) fn under_opener(ix: &Ix<'_, '_>) -> Option<String> {
    let s = ix.s;
    if is_markdown(s.path) {
        return in_fence(ix);
    }
    let lang = Lang::of_path(s.path)?;
    let (found, kind) = row_under_opener(ix, lang, true)?;
    // The evidence: the lines scanned around the edit as read (the lines it replaces
    // included: the body it rewrites is evidence too). Synthetic or minified code is left
    // alone.
    let (lo, hi) = ix.window();
    let lines = (lo..=hi).map(|n| (s.line(n), ix.start(n)));
    indents(lang, kind, lines).then_some(found)
}

/// [`under_opener`] for rows inside a Markdown code fence that names a brace language or
/// Python; the evidence is the fence's own lines.
fn in_fence(ix: &Ix<'_, '_>) -> Option<String> {
    let s = ix.s;
    let open = fence_open(s, ix.last)?;
    let lang = Lang::of_fence(s.line(open))?;
    let (found, kind) = row_under_opener(ix, lang, false)?;
    let end = (open + FENCE_LINES).min(s.line_count());
    let lines = (open + 1..=end)
        .map(|n| s.line(n))
        .take_while(|l| !is_fence(l))
        .map(|l| (l, Start::default()));
    indents(lang, kind, lines).then_some(found)
}

/// The fence line that opens the code block original line `n` is in (`n` itself or a line
/// below the fence), if any.
fn fence_open(s: &Subject<'_>, n: usize) -> Option<usize> {
    if n == 0 || s.fences_through(n).is_multiple_of(2) {
        return None;
    }
    (1..=n)
        .rev()
        .take(FENCE_LINES)
        .find(|&k| is_fence(s.line(k)))
}

/// Whether `lines` show the file indenting what an opener of `kind` opens: some such opener
/// followed (after blank lines) by a deeper line, and, for bracket bodies, none followed by
/// a line as shallow that does not close it.
fn indents<'l>(lang: Lang, kind: Opens, lines: impl Iterator<Item = (&'l str, Start)>) -> bool {
    let lines: Vec<(&str, Start)> = lines.filter(|(l, _)| !is_blank(l)).collect();
    let (mut deeper, mut flat) = (0, 0);
    for pair in lines.windows(2) {
        let [(line, st), (next, _)] = pair else {
            continue;
        };
        if lang.opens(line, *st) != kind {
            continue;
        }
        if width(next, 4) > width(line, 4) {
            deeper += 1;
        } else if !resumes(next) {
            flat += 1;
        }
    }
    deeper > 0 && (kind == Opens::Block || flat == 0)
}

/// Whether a row may sit at its opener's level: it closes the body, or is a `case` label.
fn resumes(row: &str) -> bool {
    let t = row.trim_start();
    t.starts_with(['}', ')', ']'])
        || t.starts_with("case ")
        || t.starts_with("default:")
        || t.starts_with("default ")
}

/// The first of the edit's rows that follows an opener without being indented deeper than
/// the opener's statement, with the kind of that opener. `lexed` when the rows' starts
/// (strings, comments, brackets) were read in the file's own language.
fn row_under_opener(ix: &Ix<'_, '_>, lang: Lang, lexed: bool) -> Option<(String, Opens)> {
    let s = ix.s;
    let st = |n: usize| if lexed { ix.start(n) } else { Start::default() };
    // The opener's text, what it opens, and its statement's indentation.
    let mut opener: Option<(&str, Opens, usize)> = ix.above().map(|a| match a {
        Above::Line(n) => {
            let base = if lexed {
                ix.statement_width(n)
            } else {
                width(s.line(n), 4)
            };
            (s.line(n), lang.opens(s.line(n), st(n)), base)
        }
        Above::Row(r) => (r, lang.opens(r, Start::default()), width(r, 4)),
    });
    for (i, row) in ix.edit.rows.iter().enumerate() {
        if is_blank(row) {
            continue;
        }
        if !lexed && is_fence(row) {
            return None;
        }
        if let Some((open, kind, base)) = opener {
            if kind != Opens::Nothing && !resumes(row) && width(row, 4) <= base {
                let what = match kind {
                    Opens::Bracket => "opens brackets whose entries the file indents",
                    _ => "opens a block",
                };
                let found = format!(
                    "row {} is not indented under `{}`, which {what}",
                    i + 1,
                    open.trim()
                );
                return Some((found, kind));
            }
        }
        let (row_st, base) = if lexed {
            (ix.rows[i], ix.row_statement_width(i))
        } else {
            (Start::default(), width(row, 4))
        };
        opener = Some((row, lang.opens(row, row_st), base));
    }
    None
}
