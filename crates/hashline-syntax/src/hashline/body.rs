//! The section-body parser: the seed's state machine over classified lines (hashline.md §b
//! "Line classification", "Parser state machine", "Error precedence").

use std::ops::Range;

use super::ast::{Hunk, HunkOp, ParseError, ParsedBody};
use super::contamination::contamination;
use super::header;
use super::js_text::{js_trim, js_trim_start};
use super::lexer::{lead, Lead};
use super::messages;
use super::op_header::parse_op_header;
use super::overlap::first_overlap;

/// Parse one section body into hunks. Error line numbers are body-relative (line 1 is the
/// first line after the header); spans are byte ranges in `body`.
pub fn parse_body(body: &str) -> Result<ParsedBody, ParseError> {
    let mut parser = BodyParser::default();
    for (index, (start, line)) in body_lines(body).enumerate() {
        let at = Line {
            number: index + 1,
            span: start..start + line.len(),
            text: line,
        };
        if parser.feed(at)? == Flow::Stop {
            break;
        }
    }
    parser.finish()
}

/// The lines of `body` as the seed splits them: on `\n`, one trailing `\r` dropped, no empty
/// line after a final `\n`, and one empty line for an empty body. Yields `(offset, text)`.
pub(crate) fn body_lines(body: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut segments: Vec<(usize, &str)> = Vec::new();
    let mut start = 0;
    for piece in body.split('\n') {
        segments.push((start, piece.strip_suffix('\r').unwrap_or(piece)));
        start += piece.len() + 1;
    }
    if body.ends_with('\n') {
        segments.pop();
    }
    segments.into_iter()
}

/// One body line with its position.
#[derive(Debug, Clone)]
struct Line<'a> {
    number: usize,
    span: Range<usize>,
    text: &'a str,
}

impl Line<'_> {
    fn error(&self, message: &str) -> ParseError {
        ParseError {
            message: messages::at_line(self.number, message),
            line: self.number,
            span: self.span.clone(),
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Stop,
}

#[derive(Debug)]
struct Pending {
    op: HunkOp,
    header_line: usize,
    header_span: Range<usize>,
    rows: Vec<String>,
    /// Blank lines skipped since the header (before or between rows).
    skipped_blanks: usize,
}

impl Pending {
    fn delete_message(&self) -> Option<&'static str> {
        match self.op {
            HunkOp::Delete { .. } => Some(messages::DELETE_TAKES_NO_BODY),
            HunkOp::DeleteBlock { .. } => Some(messages::DELETE_BLOCK_TAKES_NO_BODY),
            _ => None,
        }
    }
}

#[derive(Debug, Default)]
struct BodyParser<'a> {
    hunks: Vec<Hunk>,
    warnings: Vec<String>,
    pending: Option<Pending>,
    /// `#…` lines seen with no pending hunk: dropped if an op header follows, else raw.
    held_comments: Vec<Line<'a>>,
}

impl<'a> BodyParser<'a> {
    fn feed(&mut self, line: Line<'a>) -> Result<Flow, ParseError> {
        match lead(line.text) {
            Lead::Blank => {
                self.release_comments()?;
                if let Some(pending) = self.pending.as_mut() {
                    pending.skipped_blanks += 1;
                }
            }
            Lead::BeginPatch => self.release_comments()?,
            Lead::EndPatch | Lead::Abort => {
                self.release_comments()?;
                return Ok(Flow::Stop);
            }
            Lead::Pilcrow if header::strict(line.text).is_some() => {
                self.release_comments()?;
                self.flush()?;
            }
            Lead::Plus => {
                self.release_comments()?;
                self.payload(&line)?;
            }
            Lead::Verb => match parse_op_header(line.text) {
                Some(op) => self.op_header(op, &line)?,
                None => self.raw(line)?,
            },
            Lead::Pilcrow | Lead::Other => self.raw(line)?,
        }
        Ok(Flow::Continue)
    }

    fn op_header(&mut self, op: HunkOp, line: &Line<'a>) -> Result<(), ParseError> {
        self.held_comments.clear();
        if let HunkOp::Replace { start, end } | HunkOp::Delete { start, end } = op {
            if end < start {
                return Err(line.error(&messages::range_out_of_order(start, end)));
            }
        }
        self.flush()?;
        self.pending = Some(Pending {
            op,
            header_line: line.number,
            header_span: line.span.clone(),
            rows: Vec::new(),
            skipped_blanks: 0,
        });
        Ok(())
    }

    fn payload(&mut self, line: &Line<'a>) -> Result<(), ParseError> {
        let Some(pending) = self.pending.as_mut() else {
            return Err(line.error(&messages::stray_payload_line(line.text)));
        };
        if let Some(message) = pending.delete_message() {
            return Err(line.error(message));
        }
        pending
            .rows
            .push(line.text.get(1..).unwrap_or_default().to_string());
        Ok(())
    }

    fn raw(&mut self, line: Line<'a>) -> Result<(), ParseError> {
        if self.pending.is_none() && js_trim_start(line.text).starts_with('#') {
            self.held_comments.push(line);
            return Ok(());
        }
        self.release_comments()?;
        self.process_raw(&line)
    }

    fn process_raw(&mut self, line: &Line<'a>) -> Result<(), ParseError> {
        if let Some(message) = contamination(line.text) {
            return Err(line.error(&message));
        }
        if self.pending.is_some() && looks_like_op_header(line.text) {
            return Err(line.error(&messages::near_miss_header(line.text)));
        }
        if js_trim(line.text).is_empty() {
            if let Some(pending) = self.pending.as_mut() {
                pending.skipped_blanks += 1;
            }
            return Ok(());
        }
        let Some(pending) = self.pending.as_mut() else {
            return Err(line.error(&messages::stray_raw_line(line.text)));
        };
        // A blank line before or among bare rows may be content (a blank row the model meant)
        // or a separator: dropping it silently could lose lines, so the shape is refused.
        if pending.skipped_blanks > 0 {
            return Err(line.error(messages::BARE_ROWS_WITH_BLANKS));
        }
        if let Some(message) = pending.delete_message() {
            return Err(line.error(message));
        }
        if js_trim_start(line.text).starts_with('-') {
            return Err(line.error(messages::MINUS_ROW_REJECTED));
        }
        pending.rows.push(line.text.to_string());
        if !self
            .warnings
            .iter()
            .any(|w| w == messages::BARE_BODY_AUTO_PIPED_WARNING)
        {
            self.warnings
                .push(messages::BARE_BODY_AUTO_PIPED_WARNING.to_string());
        }
        Ok(())
    }

    /// Held `#` lines turn out not to precede an op header: they are ordinary raw lines.
    fn release_comments(&mut self) -> Result<(), ParseError> {
        for line in std::mem::take(&mut self.held_comments) {
            self.process_raw(&line)?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), ParseError> {
        let Some(pending) = self.pending.take() else {
            return Ok(());
        };
        let empty_message = match pending.op {
            HunkOp::Replace { .. } => Some(messages::EMPTY_REPLACE),
            HunkOp::ReplaceBlock { .. } => Some(messages::EMPTY_REPLACE_BLOCK),
            HunkOp::InsertBefore(_)
            | HunkOp::InsertAfter(_)
            | HunkOp::InsertHead
            | HunkOp::InsertTail => Some(messages::EMPTY_INSERT),
            HunkOp::Delete { .. } | HunkOp::DeleteBlock { .. } => None,
        };
        if let (Some(message), true) = (empty_message, pending.rows.is_empty()) {
            return Err(ParseError {
                message: messages::at_line(pending.header_line, message),
                line: pending.header_line,
                span: pending.header_span,
            });
        }
        self.hunks.push(Hunk {
            op: pending.op,
            rows: pending.rows,
            header_line: pending.header_line,
            header_span: pending.header_span,
        });
        Ok(())
    }

    fn finish(mut self) -> Result<ParsedBody, ParseError> {
        self.release_comments()?;
        self.flush()?;
        if let Some((line, anchor, earlier)) = first_overlap(&self.hunks) {
            let span = self
                .hunks
                .iter()
                .find(|h| h.header_line == line)
                .map(|h| h.header_span.clone());
            return Err(ParseError {
                message: messages::at_line(line, &messages::overlap(anchor, earlier)),
                line,
                span: span.unwrap_or_default(),
            });
        }
        Ok(ParsedBody {
            hunks: self.hunks,
            warnings: self.warnings,
        })
    }
}

/// A raw line shaped like an op header that does not parse as one (`Replace 5..7:`,
/// `replace 25,25:`, `insert after line 22:`): a typo, never content, so it is refused rather
/// than written into the file as a row.
fn looks_like_op_header(text: &str) -> bool {
    let t = js_trim(text).to_ascii_lowercase();
    if t.len() > 40 {
        return false;
    }
    let mut words = t.split_whitespace();
    let Some(verb) = words.next() else {
        return false;
    };
    if VERBS.contains(&verb) {
        return t.ends_with(':') && t.bytes().any(|b| b.is_ascii_digit());
    }
    // A misspelled verb (`delet 5`, `repalce 3..4:`) followed by nothing but a line reference.
    let near = verb.len() >= 4
        && VERBS
            .iter()
            .any(|v| strsim::damerau_levenshtein(verb, v) <= 2);
    let rest: Vec<&str> = words.collect();
    near && !rest.is_empty() && rest.iter().all(|w| is_line_reference(w))
}

/// The op verbs of a hunk header.
const VERBS: [&str; 3] = ["replace", "insert", "delete"];

/// A word of a hunk header after its verb: `before`, `after`, `head`, `tail`, `block`, or line
/// numbers (`5`, `3..4`, `3-4`), with an optional final `:`.
fn is_line_reference(word: &str) -> bool {
    let w = word.strip_suffix(':').unwrap_or(word);
    let numbers = |w: &str| {
        w.split("..")
            .flat_map(|p| p.split('-'))
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    matches!(w, "before" | "after" | "head" | "tail" | "block") || (!w.is_empty() && numbers(w))
}

#[cfg(test)]
#[path = "body_tests.rs"]
mod tests;
