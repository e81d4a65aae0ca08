//! Rendering a splice's output without a line per line: [`TextFile::render_runs`] (runs of
//! kept lines copied as slices of a plain file's text) and [`TextFile::render_owned`].

use super::{line_start, OutLine, TextFile};

impl TextFile {
    /// [`TextFile::render_text`] of the output `runs` (a [`crate::splice_runs`] of `lines`,
    /// this file's [`TextFile::line_slices`]). A plain file copies each run of kept lines as
    /// one slice of its text, found from where its lines lie in it, without an output line per
    /// line (a 1,000-edit patch of a 100,000-line file builds 2,000 runs).
    pub fn render_runs(&self, lines: &[&str], runs: &[crate::Run<'_>]) -> String {
        if self.bytes.is_some() {
            return self.render_text(&crate::edit::out_lines(runs));
        }
        let mut s = String::with_capacity(self.text.len() + 64);
        self.emit_runs(lines, runs, |piece| match piece {
            Emit::Old(range) => s.push_str(self.text.get(range).unwrap_or("")),
            Emit::New(text) => s.push_str(text),
        });
        s
    }

    /// The new text of the output `runs` (as [`TextFile::render_runs`]) held as ranges of
    /// this file's text and the new rows, without copying the kept lines: `None` unless the
    /// file is [plain](TextFile::is_plain) (its text is then what is written).
    pub fn splice_pieces(
        &self,
        lines: &[&str],
        runs: &[crate::Run<'_>],
    ) -> Option<crate::SplicedText> {
        if self.bytes.is_some() {
            return None;
        }
        let mut spliced = crate::SplicedText::default();
        self.emit_runs(lines, runs, |piece| match piece {
            Emit::Old(range) => spliced.push_old(&self.text, range),
            Emit::New(text) => spliced.push_new(&self.text, text),
        });
        Some(spliced)
    }

    /// The pieces of a plain file's new text made of `runs`, in order, handed to `out`.
    fn emit_runs<'r>(
        &self,
        lines: &[&str],
        runs: &'r [crate::Run<'_>],
        mut out: impl FnMut(Emit<'r>),
    ) {
        use crate::Run;
        let count = self.lines.len();
        let text = self.text.as_bytes();
        let mut at = (0usize, 0usize);
        for (k, run) in runs.iter().enumerate() {
            if k > 0 {
                out(Emit::New("\n"));
            }
            match run {
                Run::New { text, .. } => out(Emit::New(text)),
                Run::Kept(range) => {
                    let (first, last) = (range.start, range.end.min(count).max(range.start));
                    if first < last {
                        let (start, end) = match slice_of(&self.text, lines, first, last) {
                            Some(found) => found,
                            None => {
                                let start = line_start(text, &mut at, first).unwrap_or(text.len());
                                // The run ends where the line after it starts, less its `\n`.
                                let end =
                                    line_start(text, &mut at, last).map_or(text.len(), |e| e - 1);
                                (start, end)
                            }
                        };
                        out(Emit::Old(start..end));
                    }
                    // Lines past the end are empty, as in `render_text`.
                    for _ in last.max(first + 1)..range.end {
                        out(Emit::New("\n"));
                    }
                }
            }
        }
    }

    /// [`TextFile::render_text`] of `out`, consuming it: a plain file's runs of kept lines are
    /// gathered and each copied as one slice ([`TextFile::render_runs`]).
    pub fn render_owned(&self, out: Vec<OutLine>) -> String {
        if self.bytes.is_some() {
            return self.render_text(&out);
        }
        let mut runs: Vec<crate::Run<'_>> = Vec::new();
        for line in &out {
            match (line, runs.last_mut()) {
                (OutLine::Kept(i), Some(crate::Run::Kept(r))) if r.end == *i => r.end += 1,
                (OutLine::Kept(i), _) => runs.push(crate::Run::Kept(*i..*i + 1)),
                (OutLine::New { text, like }, _) => {
                    runs.push(crate::Run::New { text, like: *like })
                }
            }
        }
        self.render_runs(&[], &runs)
    }
}

/// A piece of a plain file's new text: a range of its text, or new text.
enum Emit<'r> {
    Old(std::ops::Range<usize>),
    New(&'r str),
}

/// The bytes of `text` from the start of `lines[first]` to the end of `lines[last - 1]`, when
/// those lines are slices of `text` (`None` otherwise: the caller counts lines instead).
fn slice_of(text: &str, lines: &[&str], first: usize, last: usize) -> Option<(usize, usize)> {
    let (a, b) = (lines.get(first)?, lines.get(last.checked_sub(1)?)?);
    let base = text.as_ptr() as usize;
    let start = (a.as_ptr() as usize).checked_sub(base)?;
    let end = (b.as_ptr() as usize).checked_sub(base)? + b.len();
    (start <= end && end <= text.len()).then_some((start, end))
}
