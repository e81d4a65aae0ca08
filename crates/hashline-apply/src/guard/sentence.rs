//! A sentence a range one line off cuts in two: the range takes a line of a comment or a
//! paragraph whose sentence the line after it (or the line before it) carries on, and what now
//! meets that line does not carry it. Wrapped text reads a line at a time: a line that starts
//! in lower case continues the sentence of the line above it, which does not end in `.`, `:`,
//! `!` or `?`.

use hashline_core::Edit;

use super::lexical::{indent, is_blank, Family};
use super::Subject;

/// A line of running text: its comment marker (empty in prose), indentation and text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TextLine<'a> {
    marker: &'a str,
    indent: &'a str,
    text: &'a str,
}

/// Comment markers of a line of running text in code, longest first.
const MARKERS: [&str; 5] = ["///", "//!", "//", "#", "*"];

impl<'a> TextLine<'a> {
    /// `line` as running text in the file's family: a comment line in code, a paragraph line
    /// in prose (not a heading, list item, table row, quote or fence).
    fn of(family: Family, line: &'a str) -> Option<TextLine<'a>> {
        let ind = indent(line);
        let t = line[ind.len()..].trim_end();
        let (marker, text) = match family {
            Family::Data => return None,
            Family::Prose => {
                let item = ["- ", "* ", "+ ", "#", "|", ">", "```", "~~~", "<"]
                    .iter()
                    .any(|m| t.starts_with(m));
                if item || ind.len() >= 4 || t.starts_with(|c: char| c.is_ascii_digit()) {
                    return None;
                }
                ("", t)
            }
            Family::Hash => {
                let text = t.strip_prefix('#')?;
                if text.starts_with(['!', '[']) {
                    return None;
                }
                ("#", text)
            }
            Family::CLike | Family::Rust => {
                let marker = MARKERS[..3]
                    .iter()
                    .chain(&MARKERS[4..])
                    .find(|m| t.starts_with(**m))?;
                (*marker, &t[marker.len()..])
            }
        };
        let text = text.trim();
        // Code in a comment (a doc test's `use bytes::BufMut;`, a commented-out `x = f();`)
        // is no running text.
        if text.ends_with([';', '{', '}']) {
            return None;
        }
        Some(TextLine {
            marker,
            indent: ind,
            text,
        })
    }

    /// Whether the text ends its sentence (or holds none).
    fn ends_sentence(&self) -> bool {
        self.text.is_empty() || self.text.ends_with(['.', ':', '!', '?'])
    }

    /// Whether the text starts in the middle of a sentence: a lower-case word of prose (not
    /// code: three words at least, and no brackets or `=` in the first one).
    fn continues(&self) -> bool {
        let first = self.text.split_whitespace().next().unwrap_or("");
        first.starts_with(|c: char| c.is_ascii_lowercase())
            && first
                .chars()
                .all(|c| c.is_alphabetic() || ",;'-".contains(c))
            && self.text.split_whitespace().count() >= 3
    }

    /// Whether `next` can carry on this line's sentence: the same kind of text, unfinished.
    fn carried_by(&self, next: &TextLine<'_>) -> bool {
        self.marker == next.marker
            && self.indent == next.indent
            && !self.ends_sentence()
            && next.continues()
    }
}

/// What is wrong when `edit` cuts a sentence at either end of its range (see the module doc).
pub(super) fn cut_sentence(s: &Subject<'_>, edit: &Edit) -> Option<String> {
    let (start, end) = Subject::replaced(edit)?;
    let family = Family::of(s.path);
    let text = |n: usize| -> Option<TextLine<'_>> {
        let line = s.line(n);
        let inside_fence = family == Family::Prose && s.fences_through(n) % 2 == 1;
        (n >= 1 && n <= s.line_count() && s.survives(n) && !inside_fence && !is_blank(line))
            .then(|| TextLine::of(family, line))
            .flatten()
    };
    let first_row = edit.rows.iter().find(|r| !is_blank(r));
    let last_row = edit.rows.iter().rev().find(|r| !is_blank(r));
    // Below: the line after the range carried on the range's last line; what it follows now
    // (the last row, or the line above a deletion) does not.
    if let (Some(next), Some(old)) = (text(end + 1), TextLine::of(family, s.line(end))) {
        let now = match last_row {
            Some(row) => TextLine::of(family, row),
            None => text(start.saturating_sub(1)),
        };
        if old.carried_by(&next) && !now.is_some_and(|p| p.carried_by(&next) || p == old) {
            return Some(format!(
                "line {} (`{}`) carries on the sentence of line {end}, which the range takes: \
                 the sentence would be cut in two",
                end + 1,
                s.line(end + 1).trim()
            ));
        }
    }
    // Above: the range's first line carried on the line before it, whose sentence the first
    // row (or the line after a deletion) does not carry on.
    let (Some(prev), Some(old)) = (
        text(start.saturating_sub(1)),
        TextLine::of(family, s.line(start)),
    ) else {
        return None;
    };
    let now = match first_row {
        Some(row) => TextLine::of(family, row),
        None => text(end + 1),
    };
    (prev.carried_by(&old) && !now.is_some_and(|f| prev.carried_by(&f) || f == old)).then(|| {
        format!(
            "line {} (`{}`) is left mid-sentence: the range takes line {start}, which carried \
             it on",
            start - 1,
            s.line(start - 1).trim()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::TextLine;
    use crate::guard::lexical::Family;

    #[test]
    fn wrapped_comment_lines_carry_a_sentence_on() {
        let a = TextLine::of(Family::CLike, "// StringSlice looks up the value, returns")
            .expect("text line");
        let b = TextLine::of(Family::CLike, "// nil if not found").expect("text line");
        assert!(a.carried_by(&b));
        let done =
            TextLine::of(Family::CLike, "// StringSlice looks up the value.").expect("text line");
        assert!(!done.carried_by(&b));
        let code = TextLine::of(Family::CLike, "// foo(x) is called here").expect("text line");
        assert!(!a.carried_by(&code));
        assert!(TextLine::of(Family::Prose, "- an item").is_none());
    }
}
