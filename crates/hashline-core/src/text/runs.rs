//! Rendering a splice's output without a line per line: [`TextFile::render_runs`] (runs of
//! kept lines copied as slices of a plain file's text) and [`TextFile::render_owned`].

use super::{line_start, OutLine, TextFile};

impl TextFile {
    /// [`TextFile::render_text`] of the output `runs` (a [`crate::splice_runs`] of `lines`,
    /// this file's [`TextFile::line_slices`]). A plain file copies each run of kept lines as
    /// one slice of its text, found from where its lines lie in it, without an output line per
    /// line (a 1,000-edit patch of a 100,000-line file builds 2,000 runs).
    pub fn render_runs(&self, lines: &[&str], runs: &[crate::Run<'_>]) -> String {
        use crate::Run;
        if self.bytes.is_some() {
            let out: Vec<OutLine> = runs
                .iter()
                .flat_map(|run| -> Box<dyn Iterator<Item = OutLine> + '_> {
                    match run {
                        Run::Kept(range) => Box::new(range.clone().map(OutLine::Kept)),
                        Run::New { text, like } => Box::new(std::iter::once(OutLine::New {
                            text: (*text).to_owned(),
                            like: *like,
                        })),
                    }
                })
                .collect();
            return self.render_text(&out);
        }
        let count = self.lines.len();
        let text = self.text.as_bytes();
        let mut at = (0usize, 0usize);
        let mut s = String::with_capacity(self.text.len() + 64);
        for (k, run) in runs.iter().enumerate() {
            if k > 0 {
                s.push('\n');
            }
            match run {
                Run::New { text, .. } => s.push_str(text),
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
                        s.push_str(self.text.get(start..end).unwrap_or(""));
                    }
                    // Lines past the end are empty, as in `render_text`.
                    for _ in last.max(first + 1)..range.end {
                        s.push('\n');
                    }
                }
            }
        }
        s
    }

    /// [`TextFile::render_text`] of `out`, consuming it: runs of kept lines are gathered first,
    /// so the output lines are gone before the text is built, and a run of a plain file's kept
    /// lines is copied as one slice.
    pub fn render_owned(&self, out: Vec<OutLine>) -> String {
        /// A run of kept lines (first, count) or a new line.
        enum Piece {
            Kept(usize, usize),
            New(String),
        }
        let mut pieces: Vec<Piece> = Vec::new();
        for line in out {
            match (line, pieces.last_mut()) {
                (OutLine::Kept(i), Some(Piece::Kept(first, n))) if *first + *n == i => *n += 1,
                (OutLine::Kept(i), _) => pieces.push(Piece::Kept(i, 1)),
                (OutLine::New { text, .. }, _) => pieces.push(Piece::New(text)),
            }
        }
        let count = self.lines.len();
        let mut at = (0usize, 0usize);
        let mut s = String::with_capacity(self.text.len() + 64);
        let mut rest = self.text.split('\n');
        let mut next = 0usize;
        let mut all: Option<Vec<&str>> = None;
        for (k, piece) in pieces.into_iter().enumerate() {
            if k > 0 {
                s.push('\n');
            }
            match piece {
                Piece::New(text) => s.push_str(&text),
                // A plain file's lines are ranges of its text, joined by `\n` as here.
                Piece::Kept(first, n) if self.bytes.is_none() => {
                    let last = (first + n).min(count).max(first);
                    if first < last {
                        let text = self.text.as_bytes();
                        let start = line_start(text, &mut at, first).unwrap_or(text.len());
                        // The run ends where the line after it starts, less its `\n`.
                        let end = line_start(text, &mut at, last).map_or(text.len(), |e| e - 1);
                        s.push_str(self.text.get(start..end).unwrap_or(""));
                    }
                    // Lines past the end are empty, as in `render_text`.
                    for j in last..first + n {
                        if j > first {
                            s.push('\n');
                        }
                    }
                }
                Piece::Kept(first, n) => {
                    for (j, i) in (first..first + n).enumerate() {
                        if j > 0 {
                            s.push('\n');
                        }
                        if i >= next && all.is_none() {
                            s.push_str(rest.nth(i - next).unwrap_or(""));
                            next = i + 1;
                        } else {
                            let all = all.get_or_insert_with(|| self.lines().collect());
                            s.push_str(all.get(i).copied().unwrap_or(""));
                        }
                    }
                }
            }
        }
        s
    }
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
