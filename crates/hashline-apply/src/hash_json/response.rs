//! §7: the model-facing text of a success or a noop, in each `returnMode`.

use hashline_anchor::hash_json::{hash_lines, render_rows, visible_line_count};
use hashline_syntax::hash_json::{ReturnMode, ReturnRange};

use super::outline::{outline, Section};
use super::plan::NoopRecord;
use crate::outcome::warnings_block;

/// Context lines around the changed range in the anchors block.
const CONTEXT: usize = 2;
/// Most rows the anchors block shows.
const MAX_ROWS: usize = 12;
/// Byte cap of the anchors block and of read-style previews.
pub(crate) const MAX_BYTES: usize = 51_200;
/// Line cap of read-style previews.
pub(crate) const MAX_LINES: usize = 2000;

/// Text of an empty result.
pub(crate) const EMPTY_FILE: &str =
    "File is empty. Use edit with prepend or append and omit pos to insert content.";
const OMITTED: &str = "Anchors omitted; use read for subsequent edits.";

/// The changed lines of `new` (1-based, inclusive) relative to `old`, the peer's way (§6).
pub(crate) fn changed_range(old: &str, new: &str) -> Option<(usize, usize)> {
    if old == new {
        return None;
    }
    let visible_new = visible_line_count(new);
    if old.is_empty() {
        return Some((1, visible_new));
    }
    if new.starts_with(old) && old.ends_with('\n') {
        return Some((visible_line_count(old) + 1, visible_new));
    }
    let (o, n) = (old.as_bytes(), new.as_bytes());
    let p = o.iter().zip(n).take_while(|(a, b)| a == b).count();
    let (mut i, mut j) = (o.len(), n.len());
    while i > p && j > p && o[i - 1] == n[j - 1] {
        i -= 1;
        j -= 1;
    }
    let newlines_through = |end: usize| {
        n[..(end + 1).min(n.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
    };
    let first = 1 + newlines_through(p);
    let last = if j <= p {
        if new.is_empty() {
            1
        } else {
            visible_new
        }
    } else if p == 0 && new.ends_with(old) {
        first
    } else {
        1 + newlines_through(j - 1)
    };
    Some((first, last))
}

/// The anchors section of a `changed` response for the result `new`.
pub(crate) fn anchors_section(old: &str, new: &str) -> String {
    let visible = visible_line_count(new);
    if visible == 0 {
        return EMPTY_FILE.to_owned();
    }
    let Some((first, last)) = changed_range(old, new) else {
        return OMITTED.to_owned();
    };
    let from = first.saturating_sub(CONTEXT).max(1);
    let to = (last + CONTEXT).min(visible);
    if from > to || to - from + 1 > MAX_ROWS {
        return OMITTED.to_owned();
    }
    let block = format!(
        "--- Anchors ---\n{}",
        render_rows(new, &hash_lines(new), from, to)
    );
    if block.len() > MAX_BYTES {
        OMITTED.to_owned()
    } else {
        block
    }
}

/// The response to an applied edit.
pub(crate) fn applied(
    path: &str,
    mode: ReturnMode,
    ranges: &[ReturnRange],
    old: &str,
    new: &str,
    warnings: &[String],
) -> String {
    match mode {
        ReturnMode::Changed => format!("{}{}", anchors_section(old, new), warnings_block(warnings)),
        ReturnMode::Full => format!(
            "Updated {path}{}{}\n\nFull content is available in details.fullContent.",
            warnings_block(warnings),
            outline(&[whole(new)])
        ),
        ReturnMode::Ranges => format!(
            "Updated {path}{}{}\n\nRequested range payloads are available in details.returnedRanges.",
            warnings_block(warnings),
            outline(&range_sections(new, ranges))
        ),
    }
}

/// The response to a request whose result equals the file (nothing written; warnings not shown).
pub(crate) fn noop(
    path: &str,
    mode: ReturnMode,
    ranges: &[ReturnRange],
    old: &str,
    records: &[NoopRecord],
) -> String {
    let head = format!("No changes made to {path}\nClassification: noop");
    match mode {
        ReturnMode::Changed => {
            if records.is_empty() {
                return format!("{head}\nThe edits produced identical content.");
            }
            let per_edit: Vec<String> = records
                .iter()
                .map(|r| {
                    format!(
                        "Edit {}: replacement for {} is identical to current content:\n  {}: {}",
                        r.index, r.hash, r.hash, r.content
                    )
                })
                .collect();
            format!("{head}\n{}", per_edit.join("\n"))
        }
        ReturnMode::Full => {
            format!(
                "{head}{}\n\nFull content is available in details.fullContent.",
                outline(&[whole(old)])
            )
        }
        ReturnMode::Ranges => format!(
            "{head}{}\n\nRequested range payloads are available in details.returnedRanges.",
            outline(&range_sections(old, ranges))
        ),
    }
}

/// Contents of lines `from..=to` of `text` as a read preview would cut them (line and byte caps
/// on the rendered `HASH:content` rows).
fn preview_lines(text: &str, from: usize, to: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut bytes = 0usize;
    for line in text.split('\n').skip(from - 1).take(to + 1 - from) {
        let cost = line.len() + 5 + usize::from(!out.is_empty());
        if out.len() == MAX_LINES || bytes + cost > MAX_BYTES {
            break;
        }
        bytes += cost;
        out.push(line);
    }
    out
}

fn whole(text: &str) -> Section<'_> {
    let visible = visible_line_count(text);
    Section {
        label: None,
        lines: if visible == 0 {
            Vec::new()
        } else {
            preview_lines(text, 1, visible)
        },
    }
}

fn range_sections<'t>(text: &'t str, ranges: &[ReturnRange]) -> Vec<Section<'t>> {
    let visible = visible_line_count(text);
    let several = ranges.len() > 1;
    ranges
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let start = usize::try_from(r.start).unwrap_or(usize::MAX);
            let want_end = r
                .end
                .map_or(start, |e| usize::try_from(e).unwrap_or(usize::MAX));
            let lines = if start > visible {
                Vec::new()
            } else {
                preview_lines(text, start, want_end.min(visible))
            };
            let end = if lines.is_empty() {
                want_end
            } else {
                start + lines.len() - 1
            };
            Section {
                label: several.then(|| format!("Range {} (lines {start}-{end})", k + 1)),
                lines,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_range_cases() {
        assert_eq!(changed_range("a\nb\nc\nd\n", "a\nb\nc\n"), Some((4, 3)));
        assert_eq!(changed_range("aaa\nbbb\nccc", "aaa\nccc"), Some((2, 2)));
        assert_eq!(
            changed_range("l1\nl2\nl3\nl4\n", "l1\nl2\nl3\nL4\n"),
            Some((4, 4))
        );
        assert_eq!(changed_range("a\n", "a\nb\n"), Some((2, 2)));
        assert_eq!(changed_range("", "x\ny"), Some((1, 2)));
        assert_eq!(changed_range("b\n", "a\nb\n"), Some((1, 1)));
        assert_eq!(changed_range("x", "x"), None);
    }

    #[test]
    fn anchors_block_window() {
        assert_eq!(
            anchors_section("a\nb\nc\nd\n", "a\nb\nc\n"),
            "--- Anchors ---\ngCp1:b\nrVBO:c"
        );
        assert_eq!(anchors_section("a\n", ""), EMPTY_FILE);
    }
}
