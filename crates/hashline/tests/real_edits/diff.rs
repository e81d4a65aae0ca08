//! The line diff a careful model works from: before → after as hunks of whole lines.

use std::ops::Range;

use imara_diff::{Algorithm, Diff, InternedInput};

/// One changed region: `old` lines of the before text became `new` lines of the after text
/// (0-based, half-open; a pure insertion has an empty `old` range where the lines go).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    /// Lines of the before text.
    pub old: Range<usize>,
    /// Lines of the after text.
    pub new: Range<usize>,
}

/// The lines of a text as a model sees them: split on `\n`, the empty piece after a final
/// newline is no line.
pub fn lines(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    text.strip_suffix('\n')
        .unwrap_or(text)
        .split('\n')
        .collect()
}

/// Myers' line diff of `old` → `new` (imara-diff, with its line post-processing).
pub fn hunks(old: &[&str], new: &[&str]) -> Vec<Hunk> {
    let mut input: InternedInput<&str> = InternedInput::default();
    input.update_before(old.iter().copied());
    input.update_after(new.iter().copied());
    let mut diff = Diff::compute(Algorithm::Myers, &input);
    diff.postprocess_lines(&input);
    diff.hunks()
        .map(|h| Hunk {
            old: h.before.start as usize..h.before.end as usize,
            new: h.after.start as usize..h.after.end as usize,
        })
        .collect()
}

/// Applies `hunks` to `old`, giving the new lines (the reference applier every request is
/// checked against).
pub fn apply<'a>(old: &[&'a str], new: &[&'a str], hunks: &[Hunk]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut at = 0;
    for h in hunks {
        out.extend_from_slice(&old[at..h.old.start]);
        out.extend_from_slice(&new[h.new.clone()]);
        at = h.old.end;
    }
    out.extend_from_slice(&old[at..]);
    out
}
