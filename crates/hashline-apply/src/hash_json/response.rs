//! §7: the model-facing text of a success or a noop, in each `returnMode`.

use hashline_anchor::hash_json::{
    hash_lines_at, push_row, visible_line_count, visible_line_count_of,
};
use hashline_core::Pieces;
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

/// The changed lines of `new` (1-based, inclusive) relative to `old`, the peer's way (§6),
/// compared part by part (a spliced new text is never joined for it).
pub(crate) fn changed_range(old: &str, new: &Pieces<'_>) -> Option<(usize, usize)> {
    if new.eq_str(old) {
        return None;
    }
    let visible_new = visible_line_count_of(new);
    if old.is_empty() {
        return Some((1, visible_new));
    }
    if new.starts_with(old) && old.ends_with('\n') {
        return Some((visible_line_count(old) + 1, visible_new));
    }
    let o = old.as_bytes();
    let p = common_prefix(o, new);
    let room = o.len().min(new.len()) - p;
    let s = common_suffix(o, new, room);
    let j = new.len() - s;
    // Newlines of `new` through byte `end` (inclusive).
    let newlines_through = |end: usize| newlines_before(new, end + 1);
    let first = 1 + newlines_through(p);
    let last = if j <= p {
        if new.is_empty() {
            1
        } else {
            visible_new
        }
    } else if p == 0 && s == o.len() {
        // `new` ends with `old`.
        first
    } else {
        1 + newlines_through(j - 1)
    };
    Some((first, last))
}

/// The newlines among the first `end` bytes of `text`.
fn newlines_before(text: &Pieces<'_>, end: usize) -> usize {
    let mut at = 0;
    let mut count = 0;
    for part in text.parts() {
        if at >= end {
            break;
        }
        let cut = part.len().min(end - at);
        count += part.as_bytes()[..cut]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        at += part.len();
    }
    count
}

/// How many bytes `old` and `text` share from the start: a part equal to its stretch of
/// `old` is one comparison.
fn common_prefix(old: &[u8], text: &Pieces<'_>) -> usize {
    let mut at = 0;
    for part in text.parts() {
        let part = part.as_bytes();
        let theirs = &old[at.min(old.len())..(at + part.len()).min(old.len())];
        if theirs == part {
            at += part.len();
            continue;
        }
        return at + part.iter().zip(theirs).take_while(|(a, b)| a == b).count();
    }
    at
}

/// How many bytes `old` and `text` share at the end, at most `room`.
fn common_suffix(old: &[u8], text: &Pieces<'_>, room: usize) -> usize {
    let mut k = 0;
    for part in text.parts().iter().rev() {
        let part = part.as_bytes();
        let take = part.len().min(room - k);
        let mine = &part[part.len() - take..];
        let theirs = &old[old.len() - k - take..old.len() - k];
        if mine == theirs && take == part.len() {
            k += take;
            continue;
        }
        let same = mine
            .iter()
            .rev()
            .zip(theirs.iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        return k + same;
    }
    k
}

/// The anchors section of a `changed` response for the result `new`: only its rows around
/// the change are hashed (the counters of their lines only: `hash_lines_at`).
pub(crate) fn anchors_section(old: &str, new: &Pieces<'_>) -> String {
    let visible = visible_line_count_of(new);
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
    let wanted: Vec<usize> = (from..=to).collect();
    let hashes = hash_lines_at(new.lf_lines(), &wanted);
    let mut rows = String::new();
    for (k, (line, hash)) in new.lf_lines().skip(from - 1).zip(hashes).enumerate() {
        if k > 0 {
            rows.push('\n');
        }
        push_row(&mut rows, hash, line);
    }
    let block = format!("--- Anchors ---\n{rows}");
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
    new: &Pieces<'_>,
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
                outline(&[whole(&Pieces::whole(old))])
            )
        }
        ReturnMode::Ranges => format!(
            "{head}{}\n\nRequested range payloads are available in details.returnedRanges.",
            outline(&range_sections(&Pieces::whole(old), ranges))
        ),
    }
}

/// Contents of lines `from..=to` of `text` as a read preview would cut them (line and byte caps
/// on the rendered `HASH:content` rows).
fn preview_lines<'t>(text: &Pieces<'t>, from: usize, to: usize) -> Vec<&'t str> {
    let mut out = Vec::new();
    let mut bytes = 0usize;
    for line in text.lf_lines().skip(from - 1).take(to + 1 - from) {
        let cost = line.len() + 5 + usize::from(!out.is_empty());
        if out.len() == MAX_LINES || bytes + cost > MAX_BYTES {
            break;
        }
        bytes += cost;
        out.push(line);
    }
    out
}

fn whole<'t>(text: &Pieces<'t>) -> Section<'t> {
    let visible = visible_line_count_of(text);
    Section {
        label: None,
        lines: if visible == 0 {
            Vec::new()
        } else {
            preview_lines(text, 1, visible)
        },
    }
}

fn range_sections<'t>(text: &Pieces<'t>, ranges: &[ReturnRange]) -> Vec<Section<'t>> {
    let visible = visible_line_count_of(text);
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
        assert_eq!(
            changed_range("a\nb\nc\nd\n", &Pieces::whole("a\nb\nc\n")),
            Some((4, 3))
        );
        assert_eq!(
            changed_range("aaa\nbbb\nccc", &Pieces::whole("aaa\nccc")),
            Some((2, 2))
        );
        assert_eq!(
            changed_range("l1\nl2\nl3\nl4\n", &Pieces::whole("l1\nl2\nl3\nL4\n")),
            Some((4, 4))
        );
        assert_eq!(changed_range("a\n", &Pieces::whole("a\nb\n")), Some((2, 2)));
        assert_eq!(changed_range("", &Pieces::whole("x\ny")), Some((1, 2)));
        assert_eq!(changed_range("b\n", &Pieces::whole("a\nb\n")), Some((1, 1)));
        assert_eq!(changed_range("x", &Pieces::whole("x")), None);
    }

    #[test]
    fn anchors_block_window() {
        assert_eq!(
            anchors_section("a\nb\nc\nd\n", &Pieces::whole("a\nb\nc\n")),
            "--- Anchors ---\ngCp1:b\nrVBO:c"
        );
        assert_eq!(anchors_section("a\n", &Pieces::whole("")), EMPTY_FILE);
    }

    proptest::proptest! {
        /// However the new text is cut into parts, the changed range is the joined text's.
        #[test]
        fn the_changed_range_does_not_depend_on_the_parts(
            old in "[ab\n]{0,12}",
            new in "[ab\n]{0,12}",
            cuts in proptest::collection::vec(0usize..13, 0..4),
        ) {
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(new.len())).collect();
            cuts.sort_unstable();
            let mut parts = Vec::new();
            let mut at = 0;
            for c in cuts.into_iter().chain([new.len()]) {
                parts.push(&new[at..c]);
                at = c;
            }
            let whole = changed_range(&old, &Pieces::whole(&new));
            proptest::prop_assert_eq!(changed_range(&old, &Pieces::new(parts)), whole);
            // Rows are read line by line: the parts a splice makes end at line ends.
            let aligned = Pieces::new(new.split_inclusive('\n'));
            proptest::prop_assert_eq!(
                anchors_section(&old, &aligned),
                anchors_section(&old, &Pieces::whole(&new))
            );
        }
    }
}
