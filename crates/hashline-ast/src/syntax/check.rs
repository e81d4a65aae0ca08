//! One check: the parser with its deadline, a parse of the new text alone (no error in it: no
//! error added, done), else the parse of the old text (whole, or a `window`), the incremental
//! reparse of the new text from the edited old tree, and the comparison of their errors (steps
//! 2–4 of the module docs of `syntax`).

use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use ast_grep_core::tree_sitter::LanguageExt;
use ast_grep_language::SupportLang;
use tree_sitter::{ParseOptions, ParseState, Parser, Tree};

use super::errors::{errors, Found};
use super::hunks::Window;
use super::lexed::top_rows;
use super::span::{overlaps, point, whole_lines, Span};
use super::window::{cut_cleanly, window};
use super::MAX_BYTES;

/// Whether the big-file window `w` (bytes of `before`) starts and ends at rows the lexical
/// scan (`lexed`) finds at top level in both texts: a cut inside a string or comment would read
/// the window (and the text after it) in the wrong state, hiding an error or inventing one.
/// `false` when the scan cannot tell: the whole text is parsed then.
fn cut_at_top(lang: SupportLang, before: &str, after: &str, span: &Span, w: &Range<usize>) -> bool {
    let (Some(old_top), Some(new_top)) = (top_rows(lang, before), top_rows(lang, after)) else {
        return false;
    };
    let rows = |t: &str, r: Range<usize>| memchr::memchr_iter(b'\n', &t.as_bytes()[r]).count();
    let start = rows(before, 0..w.start);
    let at_top = |top: &[bool], row: usize| top.get(row).copied().unwrap_or(true);
    if !(at_top(&old_top, start) && at_top(&new_top, start)) {
        return false;
    }
    if w.end >= before.len() {
        return true;
    }
    let end = start + rows(before, w.start..w.end);
    let grown = rows(after, span.start..span.new_end) as isize
        - rows(before, span.start..span.old_end) as isize;
    at_top(&old_top, end)
        && end
            .checked_add_signed(grown)
            .is_some_and(|r| at_top(&new_top, r))
}

/// Windows from which [`Check::clean_in`] parses on two threads.
const PARALLEL_WINDOWS: usize = 64;

/// Why a check stopped without an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum GaveUp {
    /// A text is over [`MAX_BYTES`].
    TooBig,
    /// The parses took longer than [`PARSE_BUDGET`](super::PARSE_BUDGET).
    Timeout,
    /// The parser did not accept the window's range.
    Window,
}

/// One check's parser, deadline and counters.
pub(super) struct Check {
    /// The language both texts are parsed as.
    lang: SupportLang,
    /// The parser, set to `lang`.
    parser: Parser,
    /// When the parses give up ([`GaveUp::Timeout`]).
    deadline: Instant,
    /// Progress callbacks per parse (about one per 100 parser operations): how much work each
    /// parse did, for the tests.
    pub(super) work: Vec<usize>,
    /// Set by the other half of a [`Check::clean_in`] that found a broken window: this half's
    /// answer is no longer needed, its parses stop.
    halt: Option<Arc<AtomicBool>>,
    /// Set by the caller when it no longer needs the answer: every parse stops.
    pub(super) cancel: Option<Arc<AtomicBool>>,
    /// With [`Check::keep_clean`]: the parses of the new text (whole, or its windows) found
    /// without a syntax error, for the layout check (`layout`).
    pub(super) clean: Vec<Tree>,
    /// Whether to keep those parses.
    pub(super) keep_clean: bool,
    /// The stretches of lines the edits changed, as the caller claims them (checked against
    /// both texts, `hunks::check_out`, before use): with them, an error the old text already
    /// had inside the edited region no longer hides the errors of the other stretches
    /// ([`Check::run_in`]).
    pub(super) stretches: Option<Vec<hashline_core::LineChange>>,
}

impl Check {
    /// A parser for `lang` (`None` when the grammar does not load) giving up at `deadline`.
    pub(super) fn new(lang: SupportLang, deadline: Instant) -> Option<Check> {
        let mut parser = Parser::new();
        parser.set_language(&lang.get_ts_language()).ok()?;
        Some(Check {
            lang,
            parser,
            deadline,
            work: Vec::new(),
            halt: None,
            cancel: None,
            clean: Vec::new(),
            keep_clean: false,
            stretches: None,
        })
    }

    /// Parse `within` (all of `text` when `None`) of `text`, reusing `old` (already edited to
    /// match `text`) when given.
    pub(super) fn parse(
        &mut self,
        text: &str,
        within: Option<Range<usize>>,
        old: Option<&Tree>,
    ) -> Result<Tree, GaveUp> {
        let within = within.map(|r| tree_sitter::Range {
            start_byte: r.start,
            end_byte: r.end,
            start_point: point(text, r.start),
            end_point: point(text, r.end),
        });
        self.parse_range(text, within, old)
    }

    /// Whether every one of `windows` of `text` parses without a syntax error (the windows'
    /// changed regions judged as in [`Check::run_in`]); stops at the first that does not.
    /// From [`PARALLEL_WINDOWS`] windows on, the second half is parsed on another thread with
    /// a parser of its own (same language, same deadline); a broken window found in either
    /// half stops the other and is the answer (as on one thread, where no later window, nor
    /// the deadline, would have been reached).
    pub(super) fn clean_in(&mut self, text: &str, windows: &[Window]) -> Result<bool, GaveUp> {
        if windows.len() < PARALLEL_WINDOWS {
            return self.clean_in_here(text, windows);
        }
        let (first, second) = windows.split_at(windows.len() / 2);
        let Some(mut other) = Check::new(self.lang, self.deadline) else {
            return self.clean_in_here(text, windows);
        };
        other.cancel = self.cancel.clone();
        let halt = Arc::new(AtomicBool::new(false));
        other.halt = Some(Arc::clone(&halt));
        self.halt = Some(halt);
        let (mine, (theirs, work)) = hashline_core::par::both(
            || self.clean_in_here(text, first),
            || (other.clean_in_here(text, second), other.work),
        );
        self.halt = None;
        self.work.extend(work);
        match (mine, theirs) {
            (Ok(false), _) | (_, Ok(false)) => Ok(false),
            (Err(e), _) | (_, Err(e)) => Err(e),
            (Ok(true), Ok(true)) => Ok(true),
        }
    }

    /// [`Check::clean_in`] on this thread; a broken window halts the other half, if any.
    fn clean_in_here(&mut self, text: &str, windows: &[Window]) -> Result<bool, GaveUp> {
        for w in windows {
            if self.halted() {
                // The other half found a broken window: that is the answer.
                return Ok(true);
            }
            let range = tree_sitter::Range {
                start_byte: w.bytes.start,
                end_byte: w.bytes.end,
                start_point: w.points.start,
                end_point: w.points.end,
            };
            let tree = self.parse_range(text, Some(range), None)?;
            if tree.root_node().has_error() || !errors(self.lang, text, &tree, &w.region).is_empty()
            {
                if let Some(halt) = &self.halt {
                    halt.store(true, Ordering::Relaxed);
                }
                return Ok(false);
            }
            if self.keep_clean {
                self.clean.push(tree);
            }
        }
        Ok(true)
    }

    /// Whether the other half of a [`Check::clean_in`] found a broken window.
    fn halted(&self) -> bool {
        self.halt
            .as_ref()
            .is_some_and(|h| h.load(Ordering::Relaxed))
    }

    /// Parse `within` (all of `text` when `None`) of `text`, reusing `old`.
    fn parse_range(
        &mut self,
        text: &str,
        within: Option<tree_sitter::Range>,
        old: Option<&Tree>,
    ) -> Result<Tree, GaveUp> {
        let ranges: Vec<tree_sitter::Range> = within.into_iter().collect();
        if self.parser.set_included_ranges(&ranges).is_err() {
            return Err(GaveUp::Window);
        }
        let bytes = text.as_bytes();
        let deadline = self.deadline;
        let (halt, cancel) = (self.halt.clone(), self.cancel.clone());
        let mut calls = 0usize;
        let mut progress = |_: &ParseState| {
            calls += 1;
            let set = |flag: &Option<Arc<AtomicBool>>| {
                flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
            };
            let halted = set(&halt) || set(&cancel);
            if halted || Instant::now() > deadline {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let tree = self.parser.parse_with_options(
            &mut |at, _| bytes.get(at..).unwrap_or_default(),
            old,
            Some(ParseOptions::new().progress_callback(&mut progress)),
        );
        self.work.push(calls);
        // A cancelled parse keeps resumable state: drop it before the parser is used again.
        self.parser.reset();
        tree.ok_or(GaveUp::Timeout)
    }

    /// Steps 1–4 of the module docs: on a window of whole top-level items around the edit
    /// when the text is big (`window`), else (or when the window's old text does not parse
    /// cleanly: the cut may be wrong) on the whole text.
    pub(super) fn run(&mut self, before: &str, after: &str) -> Result<Option<Found>, GaveUp> {
        if before.len() > MAX_BYTES || after.len() > MAX_BYTES {
            return Err(GaveUp::TooBig);
        }
        let Some(span) = Span::of(before, after) else {
            return Ok(None);
        };
        let cut = window(before, &span).filter(|w| cut_at_top(self.lang, before, after, &span, w));
        if let Some(w) = cut {
            if let Some(answer) = self.run_in(before, after, &span, Some(w))? {
                return Ok(answer);
            }
        }
        Ok(self.run_in(before, after, &span, None)?.flatten())
    }

    /// The check on the old window `within` (the whole texts when `None`). `Ok(None)`: the
    /// window's old text does not look `cut_cleanly`, so the window cannot be trusted.
    pub(super) fn run_in(
        &mut self,
        before: &str,
        after: &str,
        span: &Span,
        within: Option<Range<usize>>,
    ) -> Result<Option<Option<Found>>, GaveUp> {
        let new_within = within
            .clone()
            .map(|w| w.start..(w.end + span.new_end).saturating_sub(span.old_end));
        let new_region = whole_lines(after, span.start..span.new_end);
        // The common case first: a new text without any error cannot have gained one, and the
        // old text need not be parsed at all (one parse instead of two; a patch of many hunks
        // spread over the file makes the incremental reparse a whole one).
        let clean = self.parse(after, new_within.clone(), None)?;
        if !clean.root_node().has_error()
            && errors(self.lang, after, &clean, &new_region).is_empty()
        {
            if self.keep_clean {
                self.clean.push(clean);
            }
            return Ok(Some(None));
        }
        let mut tree = self.parse(before, within.clone(), None)?;
        if within.is_some() && !cut_cleanly(&tree) {
            return Ok(None);
        }
        let old_region = whole_lines(before, span.start..span.old_end);
        let old_errors = errors(self.lang, before, &tree, &old_region);
        let hit = old_errors.iter().any(|e| overlaps(&e.range, &old_region));
        // The stretches are checked against the texts only here, where they are needed (a
        // text that already had an error in the edited region): not on every check.
        let by_stretch = match &self.stretches {
            Some(c) if hit && within.is_none() && super::hunks::check_out(before, after, c) => {
                Some(c.clone())
            }
            _ => None,
        };
        if hit && by_stretch.is_none() {
            return Ok(Some(None));
        }
        tree.edit(&span.input_edit(before, after));
        let tree = self.parse(after, new_within, Some(&tree))?;
        if let (true, Some(changes)) = (hit, &by_stretch) {
            let found = errors(self.lang, after, &tree, &new_region);
            return Ok(Some(first_new_by_stretch(
                (before, after),
                changes,
                &old_errors,
                found,
            )));
        }
        let moved: Vec<Range<usize>> = old_errors
            .iter()
            .filter_map(|e| span.map_old(e.range.clone()))
            .map(|r| whole_lines(after, r))
            .collect();
        let fresh: Vec<Found> = errors(self.lang, after, &tree, &new_region)
            .into_iter()
            .filter(|e| !moved.iter().any(|m| m.contains(&e.range.start)))
            .collect();
        let in_region = fresh.iter().position(|e| overlaps(&e.range, &new_region));
        Ok(Some(
            in_region
                .or((!fresh.is_empty()).then_some(0))
                .map(|i| fresh[i].clone()),
        ))
    }
}

/// The 0-based row of each byte offset of `text`, by binary search of its line starts (one scan
/// of the text, however many errors are placed).
struct Rows(Vec<usize>);

impl Rows {
    fn of(text: &str) -> Rows {
        let starts =
            std::iter::once(0).chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        Rows(starts.collect())
    }

    fn at(&self, byte: usize) -> usize {
        self.0.partition_point(|&s| s <= byte).saturating_sub(1)
    }

    /// The rows `range` spans: first and last, 0-based.
    fn span(&self, range: &Range<usize>) -> Range<usize> {
        self.at(range.start)..self.at(range.end) + 1
    }
}

/// The first error of `found` (in `after`) that no error of `old` (in `before`) accounts for,
/// told by the stretches of changed lines: an error on an unchanged line is old when an old
/// error covers that line; one inside a stretch is old when an old error reached into the lines
/// that stretch replaced (or the line on either side); any error the parser words as it worded
/// one of the old text's is old too. Used when an error of the old text lies in the edited
/// region, where a comparison of one span would give up. Linear in the errors (sorted rows,
/// binary searches), not their product.
fn first_new_by_stretch(
    (before, after): (&str, &str),
    changes: &[hashline_core::LineChange],
    old: &[Found],
    found: Vec<Found>,
) -> Option<Found> {
    let old_at = Rows::of(before);
    // The rows the old errors cover, merged into sorted disjoint stretches.
    let mut spans: Vec<Range<usize>> = old.iter().map(|e| old_at.span(&e.range)).collect();
    spans.sort_unstable_by_key(|r| r.start);
    let mut covers: Vec<Range<usize>> = Vec::with_capacity(spans.len());
    for r in spans {
        match covers.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => covers.push(r),
        }
    }
    let covered = |rows: Range<usize>| {
        let at = covers.partition_point(|c| c.end <= rows.start);
        covers.get(at).is_some_and(|c| c.start < rows.end)
    };
    // The same complaint as one of the old text's (a construct the grammar does not know, such
    // as Rust's `try!`, written again): not an error the edits made.
    let known: std::collections::HashSet<&str> = old.iter().map(|o| o.what.as_str()).collect();
    let new_at = Rows::of(after);
    found
        .into_iter()
        .filter(|e| !known.contains(e.what.as_str()))
        .find(|e| {
            let row = e.point.row;
            match super::hunks::old_row(changes, row) {
                Some(r) => !covered(r..r + 1),
                None => {
                    let at = changes.partition_point(|c| c.new.end <= row);
                    match changes.get(at) {
                        Some(c) => !covered(c.old.start.saturating_sub(1)..c.old.end + 1),
                        None => !covered(new_at.span(&e.range)),
                    }
                }
            }
        })
}
