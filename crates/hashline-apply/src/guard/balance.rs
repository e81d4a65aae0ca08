//! Bracket balance without a grammar: the brackets the removed lines open and close must be
//! the brackets the rows open and close, or the range swallowed (or left behind) a closer.

use hashline_core::ErrorCode;

use super::lexical::{code_part, Family};
use super::{refuse, Refusal, Subject};

const PAIRS: [(char, char); 3] = [('{', '}'), ('[', ']'), ('(', ')')];

/// Net opens minus closes of each bracket pair in `lines`.
fn net<'l>(lines: impl Iterator<Item = &'l str>, family: Family) -> [i64; 3] {
    let mut out = [0i64; 3];
    for line in lines {
        for c in code_part(line, family).chars() {
            for (k, (open, close)) in PAIRS.iter().enumerate() {
                if c == *open {
                    out[k] += 1;
                } else if c == *close {
                    out[k] -= 1;
                }
            }
        }
    }
    out
}

/// Refuse when, over all edits of the file, the rows' bracket balance differs from the removed
/// lines' and the file ends up no closer to balanced than it was. Prose is not checked
/// (brackets there need not pair).
pub(super) fn check(s: &Subject<'_>) -> Result<(), Refusal> {
    let family = Family::of(s.path);
    if family == Family::Prose {
        return Ok(());
    }
    let mut removed = [0i64; 3];
    let mut added = [0i64; 3];
    for edit in s.edits {
        if let Some((start, end)) = Subject::replaced(edit) {
            let r = net((start..=end).map(|n| s.line(n)), family);
            (0..3).for_each(|k| removed[k] += r[k]);
        }
        let a = net(edit.rows.iter().map(String::as_str), family);
        (0..3).for_each(|k| added[k] += a[k]);
    }
    if removed == added {
        return Ok(());
    }
    // An edit that brings an unbalanced file closer to balance (adds a missing closer) is fine;
    // one that unbalances a balanced file, or makes it worse, is not.
    let whole = net(s.lines.iter().copied(), family);
    let worse = |k: usize| {
        let after = whole[k] - removed[k] + added[k];
        after.abs() >= whole[k].abs() && after != whole[k]
    };
    let Some(k) = (0..3).find(|&k| worse(k)) else {
        return Ok(());
    };
    let (open, close) = PAIRS[k];
    let edit = s
        .edits
        .iter()
        .find(|e| {
            let r = Subject::replaced(e)
                .map(|(a, b)| net((a..=b).map(|n| s.line(n)), family)[k])
                .unwrap_or(0);
            r != net(e.rows.iter().map(String::as_str), family)[k]
        })
        .unwrap_or(&s.edits[0]);
    let what = format!(
        "the removed lines and the rows do not balance `{open}`/`{close}` alike (removed {:+}, \
         inserted {:+}): the range swallows or leaves behind a bracket",
        removed[k], added[k]
    );
    Err(refuse(
        s,
        ErrorCode::RangeBoundary,
        edit,
        what,
        "Fix the range or the rows with the fresh anchors shown and send the edit again; if the \
         change of brackets is meant, resend with --as-sent (CLI) or \"allowSyntaxErrors\": \
         true (JSON).",
    ))
}
