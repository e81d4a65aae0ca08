//! A text held as the slices it is made of, never copied into one buffer.
//!
//! An edit of a big file keeps almost all of its lines: its new text is a few runs of the old
//! text and the rows the edits wrote. [`SplicedText`] holds it that way (ranges of the old text
//! and one small buffer of new rows), and [`Pieces`] is the view everything downstream reads it
//! through (the write, the record, the tag, the reply's diff), so the old and the new text of a
//! 100 MB file are never both in memory whole.
//!
//! Invariant of every [`Pieces`] this crate builds: it is *line-aligned*, every part but the
//! last ends with `\n`, so a line of the text is always a slice of one part ([`Pieces::lines`]).

use std::borrow::Cow;
use std::ops::Range;

/// A text as its parts, in order (none empty). See the module for the line alignment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pieces<'a> {
    parts: Vec<&'a str>,
    len: usize,
}

impl<'a> Pieces<'a> {
    /// The text `text`, as one part.
    pub fn whole(text: &'a str) -> Pieces<'a> {
        Pieces::new([text])
    }

    /// The text made of `parts`, in order (empty parts are dropped).
    pub fn new(parts: impl IntoIterator<Item = &'a str>) -> Pieces<'a> {
        let parts: Vec<&'a str> = parts.into_iter().filter(|p| !p.is_empty()).collect();
        let len = parts.iter().map(|p| p.len()).sum();
        Pieces { parts, len }
    }

    /// The text's length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The parts, in order.
    pub fn parts(&self) -> &[&'a str] {
        &self.parts
    }

    /// The text as one slice, when it is one part (or empty): no copy needed.
    pub fn as_whole(&self) -> Option<&'a str> {
        match self.parts.as_slice() {
            [] => Some(""),
            [one] => Some(one),
            _ => None,
        }
    }

    /// The text, borrowed when it is one part, else copied into one buffer.
    pub fn to_text(&self) -> Cow<'a, str> {
        match self.as_whole() {
            Some(whole) => Cow::Borrowed(whole),
            None => {
                let mut s = String::with_capacity(self.len);
                self.parts.iter().for_each(|p| s.push_str(p));
                Cow::Owned(s)
            }
        }
    }

    /// Whether every part but the last ends with `\n` (see the module).
    pub fn is_line_aligned(&self) -> bool {
        let n = self.parts.len().saturating_sub(1);
        self.parts[..n].iter().all(|p| p.ends_with('\n'))
    }

    /// The text's lines, each keeping its `\n` (`str::split_inclusive`): each is a slice of one
    /// part when the pieces are line-aligned (else a line may come in two slices).
    pub fn lines(&self) -> impl DoubleEndedIterator<Item = &'a str> + Clone + '_ {
        self.parts.iter().flat_map(|p| p.split_inclusive('\n'))
    }

    /// The text's lines in the shared line model (split on `\n`, the final empty piece
    /// included: `"a\n"` gives `a`, `""`), for line-aligned pieces.
    pub fn lf_lines(&self) -> impl DoubleEndedIterator<Item = &'a str> + Clone + '_ {
        let last = self.parts.last().is_none_or(|p| p.ends_with('\n'));
        self.lines()
            .map(|l| l.strip_suffix('\n').unwrap_or(l))
            .chain(last.then_some(""))
    }

    /// Whether the text is `other`, compared part by part without a copy.
    pub fn eq_str(&self, other: &str) -> bool {
        if other.len() != self.len {
            return false;
        }
        let mut at = 0;
        self.parts.iter().all(|p| {
            let same = other.as_bytes().get(at..at + p.len()) == Some(p.as_bytes());
            at += p.len();
            same
        })
    }

    /// Whether the text starts with `prefix`.
    pub fn starts_with(&self, prefix: &str) -> bool {
        let mut rest = prefix.as_bytes();
        for p in &self.parts {
            let n = rest.len().min(p.len());
            if p.as_bytes()[..n] != rest[..n] {
                return false;
            }
            rest = &rest[n..];
            if rest.is_empty() {
                return true;
            }
        }
        rest.is_empty()
    }

    /// Whether the text holds `c`.
    pub fn contains(&self, c: char) -> bool {
        self.parts.iter().any(|p| p.contains(c))
    }

    /// The bytes `range` of the text: borrowed when they lie in one part, else copied. Out of
    /// bounds ends are cut to the text.
    pub fn slice(&self, range: Range<usize>) -> Cow<'a, [u8]> {
        let (start, end) = (range.start.min(self.len), range.end.min(self.len));
        let mut at = 0;
        let mut out: Option<Vec<u8>> = None;
        for p in &self.parts {
            let (lo, hi) = (at, at + p.len());
            at = hi;
            if hi <= start {
                continue;
            }
            if lo >= end {
                break;
            }
            let piece = &p.as_bytes()[start.max(lo) - lo..end.min(hi) - lo];
            if out.is_none() && lo <= start && end <= hi {
                return Cow::Borrowed(piece);
            }
            out.get_or_insert_with(|| Vec::with_capacity(end - start))
                .extend_from_slice(piece);
        }
        Cow::Owned(out.unwrap_or_default())
    }
}

/// Where a part of a [`SplicedText`] comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// A range of the old text.
    Old,
    /// A range of the rows the edits wrote ([`SplicedText`]'s own buffer).
    New,
}

/// A new text as ranges of the old text it was spliced from and of one buffer of the rows
/// the edits wrote (owned, so it can live beside the old text it refers to). Read it through
/// [`SplicedText::pieces`], handing it that old text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SplicedText {
    parts: Vec<(Source, Range<usize>)>,
    rows: String,
    len: usize,
}

impl SplicedText {
    /// The new text's length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the new text is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The new text, read over `old` (the text it was spliced from; line-aligned).
    pub fn pieces<'a>(&'a self, old: &'a str) -> Pieces<'a> {
        Pieces::new(self.parts.iter().map(|(source, range)| match source {
            Source::Old => old.get(range.clone()).unwrap_or(""),
            Source::New => self.rows.get(range.clone()).unwrap_or(""),
        }))
    }

    /// Append the old text's bytes `range` (`old`: that text, to keep the parts line-aligned).
    pub(crate) fn push_old(&mut self, old: &str, mut range: Range<usize>) {
        if let Some((Source::Old, last)) = self.parts.last_mut() {
            if last.end == range.start {
                self.len += range.len();
                last.end = range.end;
                return;
            }
        }
        if !self.ends_line(old) {
            // The last line goes on in this range: its rest up to the `\n` joins the rows.
            self.pending_line(old);
            let bytes = old.as_bytes().get(range.clone()).unwrap_or(&[]);
            let cut = memchr::memchr(b'\n', bytes).map_or(bytes.len(), |i| i + 1);
            let head = old.get(range.start..range.start + cut).unwrap_or("");
            self.push_rows(head);
            range.start += cut;
        }
        if !range.is_empty() {
            self.len += range.len();
            self.parts.push((Source::Old, range));
        }
    }

    /// Append `text` (new rows, separators).
    pub(crate) fn push_new(&mut self, old: &str, text: &str) {
        if text.is_empty() {
            return;
        }
        // A `\n` right after an old range that the old text also has there is taken from it.
        if let (Some((Source::Old, last)), Some(rest)) =
            (self.parts.last_mut(), text.strip_prefix('\n'))
        {
            if old.as_bytes().get(last.end) == Some(&b'\n') {
                last.end += 1;
                self.len += 1;
                return self.push_new(old, rest);
            }
        }
        self.pending_line(old);
        self.push_rows(text);
    }

    /// Whether the text so far ends a line (or is empty).
    fn ends_line(&self, old: &str) -> bool {
        match self.parts.last() {
            None => true,
            Some((Source::Old, r)) => old.get(r.clone()).is_some_and(|t| t.ends_with('\n')),
            Some((Source::New, r)) => self.rows.get(r.clone()).is_some_and(|t| t.ends_with('\n')),
        }
    }

    /// Append `text` to the rows buffer, as a part of its own or the end of the last one.
    fn push_rows(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let start = self.rows.len();
        self.rows.push_str(text);
        self.len += text.len();
        match self.parts.last_mut() {
            Some((Source::New, last)) if last.end == start => last.end = self.rows.len(),
            _ => self.parts.push((Source::New, start..self.rows.len())),
        }
    }

    /// Before anything but its continuation is appended: a last old range that does not end
    /// with `\n` (it ends where the old text does, without one) would leave a line split over
    /// two parts; its unfinished line moves into the rows buffer.
    fn pending_line(&mut self, old: &str) {
        let Some((Source::Old, last)) = self.parts.last_mut() else {
            return;
        };
        let text = old.get(last.clone()).unwrap_or("");
        if text.ends_with('\n') {
            return;
        }
        let cut = text.rfind('\n').map_or(0, |i| i + 1);
        let tail = &text[cut..];
        last.end = last.start + cut;
        if last.start == last.end {
            self.parts.pop();
        }
        self.len -= tail.len();
        self.push_rows(tail);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_view_reads_its_parts_in_order() {
        let p = Pieces::new(["ab\n", "", "c\nd"]);
        assert_eq!(p.len(), 6);
        assert_eq!(p.parts().len(), 2);
        assert!(p.is_line_aligned());
        assert_eq!(p.to_text(), "ab\nc\nd");
        assert_eq!(p.lines().collect::<Vec<_>>(), ["ab\n", "c\n", "d"]);
        assert_eq!(p.lf_lines().collect::<Vec<_>>(), ["ab", "c", "d"]);
        assert_eq!(
            Pieces::whole("a\n").lf_lines().collect::<Vec<_>>(),
            ["a", ""]
        );
        assert_eq!(Pieces::whole("").lf_lines().collect::<Vec<_>>(), [""]);
        assert!(p.eq_str("ab\nc\nd") && !p.eq_str("ab\nc\ne") && !p.eq_str("ab"));
        assert!(p.starts_with("ab\nc") && !p.starts_with("abc") && !p.starts_with("ab\nc\nd!"));
        assert_eq!(&*p.slice(1..4), b"b\nc");
        assert!(matches!(p.slice(3..5), Cow::Borrowed(b"c\n")));
        assert!(!Pieces::new(["a", "b"]).is_line_aligned());
    }

    #[test]
    fn a_spliced_text_keeps_lines_whole() {
        let old = "a\nb\nc";
        let mut s = SplicedText::default();
        s.push_old(old, 0..5);
        s.push_new(old, "\nX");
        let p = s.pieces(old);
        assert_eq!(p.to_text(), "a\nb\nc\nX");
        assert!(p.is_line_aligned(), "{p:?}");
        let mut t = SplicedText::default();
        t.push_old(old, 0..3);
        t.push_new(old, "\nY\n");
        t.push_old(old, 4..5);
        assert_eq!(t.pieces(old).to_text(), "a\nb\nY\nc");
        assert_eq!(t.pieces(old).parts(), ["a\nb\n", "Y\n", "c"]);
    }

    proptest! {
        /// Whatever is appended, the pieces read back what was appended, line-aligned.
        #[test]
        fn appended_text_reads_back(
            old in "[ab\\n]{0,20}",
            ops in proptest::collection::vec((any::<bool>(), 0usize..21, 0usize..21, "[xy\\n]{0,4}"), 0..8),
        ) {
            let mut s = SplicedText::default();
            let mut expect = String::new();
            for (is_old, a, b, text) in ops {
                if is_old {
                    let (a, b) = (a.min(old.len()), b.min(old.len()));
                    let (a, b) = (a.min(b), a.max(b));
                    s.push_old(&old, a..b);
                    expect.push_str(&old[a..b]);
                } else {
                    s.push_new(&old, &text);
                    expect.push_str(&text);
                }
            }
            let p = s.pieces(&old);
            prop_assert_eq!(p.to_text(), expect.as_str());
            prop_assert_eq!(s.len(), expect.len());
            prop_assert!(p.is_line_aligned());
            prop_assert!(p.eq_str(&expect));
            let lines: Vec<&str> = expect.split('\n').collect();
            prop_assert_eq!(p.lf_lines().collect::<Vec<_>>(), lines.clone());
            prop_assert_eq!(p.lf_lines().rev().collect::<Vec<_>>(), lines.into_iter().rev().collect::<Vec<_>>());
            let (a, b) = (expect.len() / 3, expect.len() * 2 / 3);
            prop_assert_eq!(&*p.slice(a..b), &expect.as_bytes()[a..b]);
        }
    }
}
