//! The edit guard: every dialect's edits pass through it before anything is written.
//!
//! Models make the same mistakes again and again: ranges one line off, indentation lost or
//! changed to spaces, anchors or diff markers pasted into the content, two lines joined by a
//! literal `\n`. For each such mistake the guard either refuses the edit with a stable code and
//! a message that shows the lines concerned with fresh anchors and says how to resend, or, where
//! the request may be deliberate, lets it land and adds a warning starting with `[W_…]`.
//!
//! The guard sees the edit as the IR ([`Edit`]s in the numbering of the text the model read),
//! the text before and after, and the file's path; dialects supply only how to render a line
//! with its anchor and how to name an edit. Checks, in order:
//! * `payload`: rows that are not content (read anchors, diff rows and headers, `\n` joins,
//!   `\r` inside rows);
//! * `indent`: spaces in a tab-indented block (and the reverse), indentation dropped below
//!   the block, every row shifted by one column (`+ TEXT`);
//! * `echo`: rows that restate the lines next to the edit;
//! * `boundary`: a range that swallows a separating blank line or leaves dead code behind;
//! * `syntax`: with a compiled-in grammar, an edit that adds a syntax error; without one,
//!   `balance` of brackets between the removed and the inserted text;
//! * `merged`: two statements joined on one row (a warning).

mod balance;
mod blank;
mod boundary;
mod dead;
mod echo;
mod edges;
mod emptied;
mod indent;
mod indent_block;
mod indent_comment;
mod indent_opener;
mod indent_yaml;
mod layout;
mod leftover;
mod lexical;
mod markdown;
mod markdown_tags;
mod merged;
mod names;
mod orphan;
mod payload;
mod py_scope;
mod reach;
mod scope;
mod seam;
mod seam_markdown;
mod seam_more;
mod sentence;
mod syntax;
mod transient;
mod twice;

use std::path::Path;

pub(crate) use lexical::{is_one_wrapped_unit, without_strings, Family};

use hashline_core::{Edit, EditKind, ErrorCode, LineChange, Pieces, SyntaxCheck};

/// How the guard runs; part of every dialect's edit options.
#[derive(Clone, Copy, Default)]
pub struct GuardOptions<'a> {
    /// Parses files in languages with a compiled-in grammar; `None` skips the syntax check
    /// (the grammar-free bracket balance still runs).
    pub syntax: Option<&'a dyn SyntaxCheck>,
    /// Let the edit land as sent: an edit that adds a syntax error (a multi-step change that
    /// passes through a broken state), and one the other checks would refuse (a deliberate
    /// dedent, a row that looks like a diff row), which then draws a `[W_AS_SENT]` warning. The
    /// CLI's `--allow-syntax-errors` (alias `--as-sent`), the JSON field `allowSyntaxErrors`.
    pub allow_syntax_errors: bool,
}

impl std::fmt::Debug for GuardOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GuardOptions")
            .field("syntax", &self.syntax.is_some())
            .field("allow_syntax_errors", &self.allow_syntax_errors)
            .finish()
    }
}

impl GuardOptions<'_> {
    /// These options with a request's own `allowSyntaxErrors` added (either one allows).
    pub fn allowing_syntax_errors(self, allow: bool) -> Self {
        GuardOptions {
            allow_syntax_errors: self.allow_syntax_errors || allow,
            ..self
        }
    }
}

/// A refusal of the guard: nothing is written. Its message says what is wrong, the lines
/// concerned with fresh anchors, and how to resend.
pub use hashline_core::Refusal;

/// The runs of blank lines of a text ([`Subject::blank_runs`]).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct BlankRuns {
    /// The longest run.
    pub longest: usize,
    /// How many runs.
    pub runs: usize,
    /// The longest run between two indented lines (inside a block).
    pub inner_longest: usize,
    /// How many runs between two indented lines.
    pub inner_runs: usize,
}

/// What the guard looks at: one file's edits in the numbering of the text they address.
pub(crate) struct Subject<'a> {
    /// The file's path as the request named it (for the language and for messages).
    pub path: &'a str,
    /// The lines of the text the edits address (LF model, final empty piece included).
    pub lines: &'a [&'a str],
    /// The edits, in request order.
    pub edits: &'a [Edit],
    /// The text before (LF, no BOM).
    pub before: &'a str,
    /// The text after the edits (LF, no BOM), as the pieces it is held in.
    pub after: &'a Pieces<'a>,
    /// Renders 1-based line `n` with the dialect's read anchor (`12:text`, `ab:text`, …).
    pub anchor: &'a dyn Fn(usize) -> String,
    /// Names an edit the way the request did (`replace 5..7`, `edits[0]`).
    pub label: &'a dyn Fn(&Edit) -> String,
    /// The dialect sends one hunk per call by design (the text-editor tool): a multi-hunk change
    /// passes through intermediate texts ([`syntax`] judges their errors by that).
    pub one_hunk_per_call: bool,
    /// The ranges the edits replace, sorted and merged: [`Subject::survives`] is a binary
    /// search, not a scan of every edit (the checks ask it while walking lines).
    removed: Vec<(usize, usize)>,
    /// `(line, lines added by the edits at or above it)`, by line: [`Subject::shift_above`].
    shifts: Vec<(usize, isize)>,
    /// The lines that open or close a Markdown code fence, found once on first use
    /// ([`Subject::fences_through`]).
    fences: std::sync::OnceLock<Vec<usize>>,
    /// The stretches of lines the edits change, found once on first use
    /// ([`Subject::changes`]).
    changes: std::sync::OnceLock<Vec<LineChange>>,
    /// The language scanner's state every [`layout::CHECKPOINT`] lines, up to the last line
    /// any check looks at, found once on first use ([`Subject::lexer_before`]).
    lexers: std::sync::OnceLock<(usize, Vec<layout::Lexer>)>,
    /// The longest run of blank lines of the text read and how many runs it has, found once
    /// on first use ([`Subject::blank_runs`]).
    blank_runs: std::sync::OnceLock<BlankRuns>,
    /// How often each name is bound in the text read, found once on first use
    /// ([`Subject::bindings`]).
    bindings: std::sync::OnceLock<names::Bindings>,
    /// The names the rows of every edit bind, found once on first use
    /// ([`Subject::row_bindings`]).
    row_bindings: std::sync::OnceLock<std::collections::HashSet<String>>,
    /// How the text read spaces brackets and comments, found once on first use
    /// ([`Subject::seam_style`]).
    seam_style: std::sync::OnceLock<seam::Style>,
}

impl<'a> Subject<'a> {
    /// The subject of `edits` (in the numbering of `lines`, the lines of `before`).
    pub fn new(
        path: &'a str,
        lines: &'a [&'a str],
        edits: &'a [Edit],
        (before, after): (&'a str, &'a Pieces<'a>),
        anchor: &'a dyn Fn(usize) -> String,
        label: &'a dyn Fn(&Edit) -> String,
    ) -> Subject<'a> {
        let mut ranges: Vec<(usize, usize)> = edits.iter().filter_map(Subject::replaced).collect();
        ranges.sort_unstable();
        let mut removed: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
        for (start, end) in ranges {
            match removed.last_mut() {
                Some(last) if start <= last.1 + 1 => last.1 = last.1.max(end),
                _ => removed.push((start, end)),
            }
        }
        // Where each edit changes the line count: a replace after its last line, an insert
        // after its anchor, `insert head` at 0 (an `insert tail` shifts nothing below it).
        let mut shifts: Vec<(usize, isize)> = edits
            .iter()
            .filter_map(|e| {
                let rows = e.rows.len() as isize;
                match e.kind {
                    EditKind::Replace { start, end } => {
                        Some((end, rows - (end - start + 1) as isize))
                    }
                    EditKind::InsertAfter(l) | EditKind::InsertBefore(l) => Some((l, rows)),
                    EditKind::Head => Some((0, rows)),
                    EditKind::Tail => None,
                }
            })
            .collect();
        shifts.sort_unstable_by_key(|&(line, _)| line);
        let mut sum = 0;
        for shift in &mut shifts {
            sum += shift.1;
            shift.1 = sum;
        }
        Subject {
            path,
            lines,
            edits,
            before,
            after,
            anchor,
            label,
            one_hunk_per_call: false,
            removed,
            shifts,
            fences: std::sync::OnceLock::new(),
            changes: std::sync::OnceLock::new(),
            lexers: std::sync::OnceLock::new(),
            blank_runs: std::sync::OnceLock::new(),
            bindings: std::sync::OnceLock::new(),
            row_bindings: std::sync::OnceLock::new(),
            seam_style: std::sync::OnceLock::new(),
        }
    }
}

/// A line that opens or closes a Markdown code fence (```` ``` ```` or `~~~`).
pub(crate) fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

impl Subject<'_> {
    /// How many of lines `1..=n` open or close a code fence. The fence lines are found once
    /// per subject, and only in a text that holds a fence at all (a substring search), so
    /// many edits of a big file cost one scan, and a file without fences none.
    pub fn fences_through(&self, n: usize) -> usize {
        let fences = self.fences.get_or_init(|| {
            if !self.before.contains("```") && !self.before.contains("~~~") {
                return Vec::new();
            }
            (1..=self.lines.len())
                .filter(|&k| is_fence(self.line(k)))
                .collect()
        });
        fences.partition_point(|&f| f <= n)
    }

    /// The stretches of lines the edits change (0-based, sorted, disjoint; edits that touch
    /// or overlap are one stretch: [`LineChange::of_edits`]), for a parser that looks only
    /// around them and for the report's diff. Derived from the edits alone: their users check
    /// that the lines between them are unchanged.
    pub fn changes(&self) -> &[LineChange] {
        self.changes
            .get_or_init(|| LineChange::of_edits(self.edits, self.line_count()))
    }

    /// [`Subject::changes`], taken out of the subject (the executor keeps them for the report).
    pub fn into_changes(self) -> Vec<LineChange> {
        self.changes();
        self.changes.into_inner().unwrap_or_default()
    }

    /// The language scanner standing just before line `n` (1-based): where each line starts
    /// (inside a string or comment, brackets open) without a scan from the top per edit. The
    /// scan starts [`layout::SCAN_BACK`] lines above the first edit (at code, no bracket open:
    /// a string, comment or `(`/`[` does not span that many lines), so an edit deep in a big
    /// file costs a bounded scan, and runs once to the last line any check looks at.
    pub(crate) fn lexer_before(&self, n: usize) -> layout::Lexer {
        let (start, marks) = self.lexers.get_or_init(|| {
            let first = self.edits.iter().map(|e| self.neighbours(e).0).min();
            let start = first.unwrap_or(1).saturating_sub(layout::SCAN_BACK).max(1);
            let upto = self
                .edits
                .iter()
                .map(|e| self.neighbours(e).1)
                .max()
                .unwrap_or(0)
                + 32;
            let upto = upto.min(self.line_count());
            let lines = (start..=upto).map(|k| self.line(k));
            (start, layout::checkpoints(self.path, lines))
        });
        // A line above the scan (no check asks for one) is scanned on its own.
        let (base, marks): (usize, &[layout::Lexer]) = if n >= *start {
            (*start, marks)
        } else {
            (n.saturating_sub(layout::SCAN_BACK).max(1), &[])
        };
        let k = (n.max(base) - base) / layout::CHECKPOINT;
        let k = k.min(marks.len().saturating_sub(1));
        let mut lexer = marks
            .get(k)
            .cloned()
            .unwrap_or_else(|| layout::Lexer::new(self.path));
        let from = if marks.is_empty() {
            base
        } else {
            base + k * layout::CHECKPOINT
        };
        for m in from..n {
            lexer.feed(self.line(m));
        }
        lexer
    }

    /// The longest run of blank lines in the text read and how many runs it has, over all
    /// runs and over the runs inside a block (both lines around them indented): one scan, on
    /// first use.
    pub fn blank_runs(&self) -> BlankRuns {
        *self.blank_runs.get_or_init(|| {
            let mut out = BlankRuns::default();
            let mut current = 0;
            let mut above_indented = false;
            for n in 1..=self.line_count() + 1 {
                let line = self.line(n);
                if n <= self.line_count() && lexical::is_blank(line) {
                    current += 1;
                    continue;
                }
                let indented = n <= self.line_count() && !lexical::indent(line).is_empty();
                if current > 0 {
                    out.longest = out.longest.max(current);
                    out.runs += 1;
                    if above_indented && indented {
                        out.inner_longest = out.inner_longest.max(current);
                        out.inner_runs += 1;
                    }
                    current = 0;
                }
                above_indented = indented;
            }
            out
        })
    }

    /// How often each name is bound in the text read, the names of a line (its code, strings
    /// blanked) given by `of` (one scan, on first use; later calls get the first map).
    pub(crate) fn bindings(&self, of: impl Fn(&str) -> Vec<String>) -> &names::Bindings {
        self.bindings.get_or_init(|| {
            let family = lexical::Family::of(self.path);
            let mut map = names::Bindings::new();
            for n in 1..=self.line_count() {
                for name in of(&lexical::code_part(self.line(n), family)) {
                    *map.entry(name).or_default() += 1;
                }
            }
            map
        })
    }

    /// The names the rows of all the request's edits bind, a row's names given by `of` (one
    /// pass over the rows, on first use; later calls get the first set).
    pub(crate) fn row_bindings(
        &self,
        of: impl Fn(&str) -> Vec<String>,
    ) -> &std::collections::HashSet<String> {
        self.row_bindings.get_or_init(|| {
            self.edits
                .iter()
                .flat_map(|e| &e.rows)
                .flat_map(|row| of(row))
                .collect()
        })
    }

    /// How the text read spaces what a merge of two lines leaves behind (one scan of the
    /// lines around the edits, on first use).
    pub(crate) fn seam_style(&self) -> seam::Style {
        *self.seam_style.get_or_init(|| seam::Style::of(self))
    }

    /// Line `n` (1-based), or "" outside the file.
    pub fn line(&self, n: usize) -> &str {
        n.checked_sub(1)
            .and_then(|i| self.lines.get(i))
            .copied()
            .unwrap_or("")
    }

    /// Number of real lines (a trailing empty piece after the final newline not counted).
    pub fn line_count(&self) -> usize {
        match self.lines.last() {
            Some(last) if last.is_empty() && self.before.ends_with('\n') => self.lines.len() - 1,
            _ => self.lines.len(),
        }
    }

    /// The lines `lo..=hi` (clamped to the file) with their anchors, one per line.
    pub fn show(&self, lo: usize, hi: usize) -> String {
        let hi = hi.min(self.line_count());
        (lo.max(1)..=hi)
            .map(|n| (self.anchor)(n))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Whether original line `n` is kept by the request (no edit of it replaces or deletes it).
    pub fn survives(&self, n: usize) -> bool {
        let i = self.removed.partition_point(|&(_, end)| end < n);
        self.removed.get(i).is_none_or(|&(start, _)| start > n)
    }

    /// `n` when the request keeps it; else the line just past the run of removed lines holding
    /// `n`, towards the end (`up`) or the start (0 or past the end when the run reaches it).
    /// Walks over a packed region of edits jump it in one step instead of line by line.
    pub fn skip_removed(&self, n: usize, up: bool) -> usize {
        let i = self.removed.partition_point(|&(_, end)| end < n);
        match self.removed.get(i) {
            Some(&(start, end)) if start <= n => {
                if up {
                    end + 1
                } else {
                    start - 1
                }
            }
            _ => n,
        }
    }

    /// How many lines the request's edits above line `n` add (negative: remove), counting
    /// replaces that end and inserts anchored before `n`.
    pub fn shift_above(&self, n: usize) -> isize {
        let i = self.shifts.partition_point(|&(line, _)| line < n);
        i.checked_sub(1).map_or(0, |i| self.shifts[i].1)
    }

    /// The original lines an edit replaces, `(start, end)`, if it is a replace.
    pub fn replaced(edit: &Edit) -> Option<(usize, usize)> {
        match edit.kind {
            EditKind::Replace { start, end } => Some((start, end)),
            _ => None,
        }
    }

    /// The surviving line just before an edit and just after it (1-based; 0 or past the end
    /// when there is none).
    pub fn neighbours(&self, edit: &Edit) -> (usize, usize) {
        match edit.kind {
            EditKind::Replace { start, end } => (start - 1, end + 1),
            EditKind::InsertBefore(l) => (l - 1, l),
            EditKind::InsertAfter(l) => (l, l + 1),
            EditKind::Head => (0, 1),
            EditKind::Tail => (self.line_count(), self.line_count() + 1),
        }
    }

    /// The lines shown around an edit in a refusal: a few before and after.
    pub fn context(&self, edit: &Edit) -> String {
        let (before, after) = self.neighbours(edit);
        self.show(before.saturating_sub(2).max(1), after + 2)
    }
}

/// An edit named in the hashline language's words (`replace 5..7`, `insert after 4`).
pub(crate) fn op_label(edit: &Edit) -> String {
    match edit.kind {
        EditKind::Replace { start, end } if edit.rows.is_empty() => {
            format!("delete {start}..{end}")
        }
        EditKind::Replace { start, end } => format!("replace {start}..{end}"),
        EditKind::InsertBefore(l) => format!("insert before {l}"),
        EditKind::InsertAfter(l) => format!("insert after {l}"),
        EditKind::Head => "insert head".to_string(),
        EditKind::Tail => "insert tail".to_string(),
    }
}

/// Run every check on one file's edits. `Ok` carries the warnings (each starting `[W_…]`).
///
/// On a text of [`PARALLEL_BYTES`] or more the parser runs on a second thread while the
/// per-edit checks run; a refusal of the per-edit checks still comes first, as it would alone.
pub(crate) fn check<'a>(s: &Subject<'a>, opts: &GuardOptions<'a>) -> Result<Vec<String>, Refusal> {
    if opts.allow_syntax_errors {
        return as_sent(s);
    }
    let covered = opts.syntax.is_some_and(|p| p.covers(Path::new(s.path)));
    if !covered {
        let warnings = per_edit(s)?;
        balance::check(s)?;
        return Ok(warnings);
    }
    let Some(parse) = syntax::parse(s, opts) else {
        return per_edit(s);
    };
    if s.after.len() < PARALLEL_BYTES {
        let mut warnings = per_edit(s)?;
        let inspection = parse.run();
        let layout = syntax::layout_warnings(s, &inspection, &warnings);
        warnings.extend(layout);
        syntax::check(s, inspection.issue, opts.syntax)?;
        return Ok(warnings);
    }
    // A refusal of the per-edit checks is the answer: the parse is told to give up, and a
    // refused request does not wait for a big file's parse.
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (warnings, inspection) = hashline_core::par::both(
        || {
            let warnings = per_edit(s);
            if warnings.is_err() {
                cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            warnings
        },
        || parse.run_unless(&cancel),
    );
    let mut warnings = warnings?;
    let layout = syntax::layout_warnings(s, &inspection, &warnings);
    warnings.extend(layout);
    syntax::check(s, inspection.issue, opts.syntax)?;
    Ok(warnings)
}

/// Texts (after the edits, in bytes) from which the parser runs beside the per-edit checks.
const PARALLEL_BYTES: usize = 1 << 18;

/// The checks of each edit in turn (payload, echo, indentation, boundary, merged rows).
fn per_edit(s: &Subject<'_>) -> Result<Vec<String>, Refusal> {
    let mut warnings = Vec::new();
    for edit in s.edits {
        one_edit(s, edit, &mut warnings)?;
    }
    markdown::check(s, &mut warnings);
    Ok(warnings)
}

/// The checks of one edit; a deletion passes the checks of rows, but not the orphaned body,
/// the blank lines it takes nor the code it leaves unreachable.
fn one_edit(s: &Subject<'_>, edit: &Edit, warnings: &mut Vec<String>) -> Result<(), Refusal> {
    if edit.rows.is_empty() {
        if let Some(what) = orphan::orphaned_body(s, edit) {
            return Err(refuse(
                s,
                ErrorCode::RangeBoundary,
                edit,
                what,
                boundary::RESEND,
            ));
        }
        blank::warn(s, edit, warnings);
        names::check(s, edit, warnings);
        emptied::check(s, edit, warnings);
        if let Some(what) = sentence::cut_sentence(s, edit) {
            warnings.push(format!(
                "[W_RANGE_EDGE] {}: {what}; if it was not meant to go, leave it out of the range",
                (s.label)(edit)
            ));
        }
        return dead::check(s, edit, warnings);
    }
    payload::check(s, edit)?;
    echo::check(s, edit, warnings);
    indent::check(s, edit)?;
    boundary::check(s, edit, warnings)?;
    merged::check(s, edit, warnings);
    seam::check(s, edit, warnings);
    names::check(s, edit, warnings);
    twice::check(s, edit, warnings);
    emptied::check(s, edit, warnings);
    Ok(())
}

/// The request said the edit is meant as sent (`--allow-syntax-errors`, `--as-sent`,
/// `"allowSyntaxErrors": true`): the per-edit checks still run, and what they would refuse is
/// reported as a `[W_AS_SENT]` warning instead; the syntax check does not run.
fn as_sent(s: &Subject<'_>) -> Result<Vec<String>, Refusal> {
    let mut warnings = Vec::new();
    for edit in s.edits {
        if let Err(refusal) = one_edit(s, edit, &mut warnings) {
            let first = refusal.message.lines().next().unwrap_or("");
            let first = first.trim_end_matches(" Nothing was written.");
            warnings.push(format!("[W_AS_SENT] applied as sent, as asked: {first}"));
        }
    }
    Ok(warnings)
}

/// A refusal with `code` whose message is `what`, the lines around `edit`, and `fix`.
pub(crate) fn refuse(
    s: &Subject<'_>,
    code: ErrorCode,
    edit: &Edit,
    what: String,
    fix: &str,
) -> Refusal {
    Refusal {
        code,
        message: format!(
            "[{code}] {}: {what}. Nothing was written.\nThe lines around it, with fresh anchors:\n{}\n{fix}",
            (s.label)(edit),
            s.context(edit)
        ),
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_echo;
#[cfg(test)]
mod tests_joins;
#[cfg(test)]
mod tests_markdown;
#[cfg(test)]
mod tests_range;
#[cfg(test)]
mod tests_reach;
#[cfg(test)]
mod tests_twice;
