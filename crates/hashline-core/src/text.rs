//! A file's bytes as addressable lines, and the way back to bytes.
//!
//! Invariant: [`TextFile::encode`] of an [`OutLine`] list that keeps every original line
//! ([`OutLine::Kept`]) reproduces the original bytes exactly — BOM, invalid UTF-8, and the ending
//! of every line included. An edit therefore changes only the lines it names.
//!
//! Line model (shared by every dialect): the LF-normalized text is split on `\n` *without*
//! dropping the final empty piece, so `"a\nb\n"` has three lines (`a`, `b`, `""`) and an empty
//! file has one empty line. Dialects that hide that last piece do so when they render.

use std::borrow::Cow;
use std::ops::Range;

pub use legacy::{detect as detect_charset, Charset};

/// A line terminator as it was on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Eol {
    /// `\n`
    Lf,
    /// `\r\n`
    CrLf,
    /// a lone `\r`
    Cr,
}

impl Eol {
    /// The terminator's bytes.
    pub fn as_bytes(self) -> &'static [u8] {
        match self {
            Eol::Lf => b"\n",
            Eol::CrLf => b"\r\n",
            Eol::Cr => b"\r",
        }
    }
}

/// One line of the output of an edit, described by where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutLine {
    /// Original line `index` (0-based), kept byte for byte with its own ending.
    Kept(usize),
    /// A new line. `like` names the original line (0-based) whose ending it takes, if any;
    /// otherwise it takes the file's first line ending.
    New {
        /// The line's text, without terminator.
        text: String,
        /// The original line whose ending this line takes.
        like: Option<usize>,
    },
}

/// A decoded text file: its original bytes, its BOM, its lines and their endings.
///
/// A file that is valid UTF-8 with `\n` endings only and no BOM (the common case) is held once:
/// its text is its bytes.
#[derive(Debug, Clone)]
pub struct TextFile {
    /// The original bytes when they differ from `text` (`None`: `text`'s bytes are the file's).
    bytes: Option<Vec<u8>>,
    bom: bool,
    /// Lines (0-based) whose bytes are not valid UTF-8 (shown with U+FFFD in `text`).
    lossy: Vec<usize>,
    /// Where every line ends in the bytes, and its terminator.
    lines: LineTable,
    text: String,
    /// The legacy code page the lines were decoded in (and new lines are encoded in); `None`:
    /// UTF-8.
    charset: Option<Charset>,
}

/// The lines of a file's bytes: per line one word, the end of its content (without terminator)
/// shifted left by two bits, and its terminator in the low two bits (8 bytes a line). A plain
/// file (see [`TextFile::is_plain`]) keeps no words, only its line count: its lines are found
/// in its text.
#[derive(Debug, Clone)]
enum LineTable {
    /// A plain file's line count.
    Plain(usize),
    /// Where the first line starts (after a BOM), and the word of every line.
    Words { start: usize, ends: Vec<u64> },
}

impl LineTable {
    fn push(&mut self, end: usize, eol: Option<Eol>) {
        let code = match eol {
            None => 0,
            Some(Eol::Lf) => 1,
            Some(Eol::CrLf) => 2,
            Some(Eol::Cr) => 3,
        };
        if let LineTable::Words { ends, .. } = self {
            // A file is far below 2^62 bytes (memory holds it).
            ends.push(((end as u64) << 2) | code);
        }
    }

    fn len(&self) -> usize {
        match self {
            LineTable::Plain(count) => *count,
            LineTable::Words { ends, .. } => ends.len(),
        }
    }

    /// Where the first line starts.
    fn start(&self) -> usize {
        match self {
            LineTable::Plain(_) => 0,
            LineTable::Words { start, .. } => *start,
        }
    }

    /// The terminator of line `i` (`None` for the last line and past the end).
    fn eol(&self, i: usize) -> Option<Eol> {
        let ends = match self {
            LineTable::Plain(count) => return (i + 1 < *count).then_some(Eol::Lf),
            LineTable::Words { ends, .. } => ends,
        };
        match ends.get(i).map(|w| w & 3) {
            Some(1) => Some(Eol::Lf),
            Some(2) => Some(Eol::CrLf),
            Some(3) => Some(Eol::Cr),
            _ => None,
        }
    }

    /// The byte range of line `i`'s content (`i` < `len()`; a plain file's lines are found in
    /// its text instead: [`line_start`]).
    fn range(&self, i: usize) -> Range<usize> {
        let LineTable::Words { start, ends } = self else {
            return 0..0;
        };
        let end = (ends[i] >> 2) as usize;
        let start = match i.checked_sub(1) {
            None => *start,
            Some(p) => (ends[p] >> 2) as usize + self.eol(p).map_or(0, |e| e.as_bytes().len()),
        };
        start..end
    }

    fn eols(&self) -> impl Iterator<Item = Option<Eol>> + '_ {
        (0..self.len()).map(|i| self.eol(i))
    }
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Where line `i` of `text` starts, walking forward from `at` (a line start and its index;
/// from the top when `i` is behind it); `None` past the last line.
fn line_start(text: &[u8], at: &mut (usize, usize), i: usize) -> Option<usize> {
    if i < at.1 {
        *at = (0, 0);
    }
    if i > at.1 {
        let nl = memchr::memchr_iter(b'\n', &text[at.0..]).nth(i - at.1 - 1)?;
        *at = (at.0 + nl + 1, i);
    }
    Some(at.0)
}

/// The lines of `bytes` joined with `\n`, each line's text given by `line` (line index, byte
/// range); a line it gives no text for is left empty (never the case for its callers).
fn join_lines<'a>(
    bytes: &'a [u8],
    lines: &LineTable,
    mut line: impl FnMut(usize, Range<usize>) -> Option<std::borrow::Cow<'a, str>>,
) -> String {
    let mut text = String::with_capacity(bytes.len());
    for k in 0..lines.len() {
        if k > 0 {
            text.push('\n');
        }
        if let Some(s) = line(k, lines.range(k)) {
            text.push_str(&s);
        }
    }
    text
}

impl TextFile {
    /// Decode raw file bytes. Never fails: invalid UTF-8 becomes U+FFFD in [`TextFile::text`]
    /// (and [`TextFile::is_lossy`] says so), while the original bytes are kept for untouched lines.
    pub fn decode(bytes: Vec<u8>) -> TextFile {
        TextFile::decode_with(bytes, None)
    }

    /// [`TextFile::decode`], or every line decoded in `charset` (see
    /// [`TextFile::decode_detected`]).
    fn decode_with(bytes: Vec<u8>, charset: Option<Charset>) -> TextFile {
        let bom = charset.is_none() && bytes.starts_with(BOM);
        let body_start = if bom { BOM.len() } else { 0 };
        // Valid UTF-8 with `\n` endings only and no BOM (the common case): the text is the
        // bytes, held once, and only the lines are counted.
        let bytes = if charset.is_none() && !bom && memchr::memchr(b'\r', &bytes).is_none() {
            match String::from_utf8(bytes) {
                Ok(text) => {
                    let count = memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1;
                    return TextFile {
                        bytes: None,
                        bom,
                        lossy: Vec::new(),
                        lines: LineTable::Plain(count),
                        text,
                        charset,
                    };
                }
                Err(e) => e.into_bytes(),
            }
        } else {
            bytes
        };
        let n = bytes.len();
        // One scan for both terminators over the whole buffer.
        let mut lines = LineTable::Words {
            start: body_start,
            ends: Vec::new(),
        };
        let mut skip_lf = false;
        for at in memchr::memchr2_iter(b'\n', b'\r', &bytes[body_start..]) {
            let at = at + body_start;
            if skip_lf {
                // The `\n` of a `\r\n` already taken.
                skip_lf = false;
                continue;
            }
            let eol = if bytes[at] == b'\n' {
                Eol::Lf
            } else if bytes.get(at + 1) == Some(&b'\n') {
                skip_lf = true;
                Eol::CrLf
            } else {
                Eol::Cr
            };
            lines.push(at, Some(eol));
        }
        lines.push(n, None);
        if let LineTable::Words { ends, .. } = &mut lines {
            ends.shrink_to_fit();
        }
        TextFile::decode_bytes(bytes, lines, bom, charset)
    }

    /// The text of `bytes` (split into `lines`) when it is not the bytes themselves.
    fn decode_bytes(
        bytes: Vec<u8>,
        lines: LineTable,
        bom: bool,
        charset: Option<Charset>,
    ) -> TextFile {
        let body_start = lines.start();
        let body = &bytes[body_start..];
        let mut lossy = Vec::new();
        // A legacy code page: every line decoded in it (the body is not UTF-8 to check).
        let utf8 = match charset {
            Some(_) => None,
            None => Some(std::str::from_utf8(body)),
        };
        let text = match utf8 {
            None => join_lines(&bytes, &lines, |_, range| {
                charset.map(|c| std::borrow::Cow::Owned(c.decode(&bytes[range])))
            }),
            // Valid UTF-8 with `\n` endings only (after a BOM): the text is the body.
            Some(Ok(valid)) if lines.eols().all(|e| e.is_none_or(|e| e == Eol::Lf)) => {
                valid.to_owned()
            }
            // Valid UTF-8: each line is a slice of the checked body (line ends are ASCII, so
            // char boundaries), never checked again.
            Some(Ok(valid)) => join_lines(&bytes, &lines, |_, range| {
                valid
                    .get(range.start - body_start..range.end - body_start)
                    .map(std::borrow::Cow::Borrowed)
            }),
            Some(Err(_)) => join_lines(&bytes, &lines, |k, range| {
                Some(match std::str::from_utf8(&bytes[range.clone()]) {
                    Ok(s) => std::borrow::Cow::Borrowed(s),
                    Err(_) => {
                        lossy.push(k);
                        String::from_utf8_lossy(&bytes[range])
                    }
                })
            }),
        };
        TextFile {
            bytes: Some(bytes),
            bom,
            lossy,
            lines,
            text,
            charset,
        }
    }

    /// Only the LF text of raw file bytes (what [`TextFile::decode`] would hold as
    /// [`TextFile::text`]), for callers that only hash and show it. A BOM-free, `\r`-free, valid
    /// UTF-8 buffer becomes the text without a copy.
    pub fn decode_text(bytes: Vec<u8>) -> String {
        if bytes.starts_with(BOM) || memchr::memchr(b'\r', &bytes).is_some() {
            return TextFile::decode(bytes).into_text();
        }
        match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => TextFile::decode(e.into_bytes()).into_text(),
        }
    }

    /// Decode a string (no BOM unless it starts with U+FEFF).
    pub fn from_text(text: &str) -> TextFile {
        TextFile::decode(text.as_bytes().to_vec())
    }

    /// The original bytes.
    pub fn bytes(&self) -> &[u8] {
        self.bytes.as_deref().unwrap_or(self.text.as_bytes())
    }

    /// Whether the bytes are the text (valid UTF-8, `\n` endings only, no BOM, no code page):
    /// then [`TextFile::encode`] of any output is its [`TextFile::render_text`], byte for byte.
    pub fn is_plain(&self) -> bool {
        self.bytes.is_none()
    }

    /// Whether the file starts with a UTF-8 BOM (not part of [`TextFile::text`]).
    pub fn has_bom(&self) -> bool {
        self.bom
    }

    /// Whether invalid UTF-8 was replaced by U+FFFD in [`TextFile::text`].
    pub fn is_lossy(&self) -> bool {
        !self.lossy.is_empty()
    }

    /// The BOM-free text with every line ending turned into `\n`.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The LF text and, when they differ from it ([`TextFile::is_plain`] is false), the original
    /// bytes, without copying (for callers that keep both after they are done encoding).
    pub fn into_parts(self) -> (String, Option<Vec<u8>>) {
        (self.text, self.bytes)
    }

    /// The LF text, without copying.
    pub fn into_text(self) -> String {
        self.text
    }

    /// The original bytes, without copying.
    pub fn into_bytes(self) -> Vec<u8> {
        match self.bytes {
            Some(bytes) => bytes,
            None => self.text.into_bytes(),
        }
    }

    /// Number of lines, counting the final empty piece after a trailing newline.
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// The lines of [`TextFile::text`] (split on `\n`, final empty piece included).
    pub fn lines(&self) -> std::str::Split<'_, char> {
        self.text.split('\n')
    }

    /// The ending of line `index` (0-based); `None` for the last line.
    pub fn eol(&self, index: usize) -> Option<Eol> {
        self.lines.eol(index)
    }

    /// The file's first line ending, `\n` when it has none. New lines that replace nothing take it.
    pub fn default_eol(&self) -> Eol {
        self.lines.eol(0).unwrap_or(Eol::Lf)
    }

    /// Whether every line ending is the same as the first.
    pub fn is_uniform(&self) -> bool {
        let first = self.default_eol();
        self.lines.eols().all(|e| e.is_none_or(|e| e == first))
    }

    /// Bytes of the file made of `out`: BOM kept, kept lines byte for byte with their own ending,
    /// new lines with the ending of the line they are `like`, else the first ending. The last
    /// output line gets no terminator (the line model carries the final newline as an empty
    /// last line).
    ///
    /// A new line that repeats, U+FFFD for U+FFFD, the text of an original line that is not
    /// UTF-8 gets that line's original bytes back (see [`TextFile::restorable`]): a model that
    /// echoes such a line does not destroy it.
    ///
    /// One ending is ever written differently from that rule: a lone `\r` directly followed by
    /// an empty line that ends in `\n` would read back as one `\r\n` and lose the empty line,
    /// so that `\r` is written as `\r\n` (possible only in files that mix lone-CR endings with
    /// others, once an edit makes two such lines neighbours).
    pub fn encode(&self, out: &[OutLine]) -> Vec<u8> {
        // A plain file's bytes are its text: every line ends in `\n`, nothing to restore.
        if self.bytes.is_none() {
            return self.render_text(out).into_bytes();
        }
        let default = self.default_eol();
        let mut buf = Vec::with_capacity(self.bytes().len() + 64);
        if self.bom {
            buf.extend_from_slice(BOM);
        }
        // The ending of the previous line is written once this line is known (see above).
        let mut pending: Option<Eol> = None;
        for (k, line) in out.iter().enumerate() {
            let (content, eol) = self.part(line, default);
            let last = k + 1 == out.len();
            if let Some(prev) = pending.take() {
                let bare_lf = content.is_empty() && eol == Eol::Lf && !last;
                let prev = if prev == Eol::Cr && bare_lf {
                    Eol::CrLf
                } else {
                    prev
                };
                buf.extend_from_slice(prev.as_bytes());
            }
            buf.extend_from_slice(&content);
            if !last {
                pending = Some(eol);
            }
        }
        buf
    }

    /// The bytes (without terminator) and the ending [`TextFile::encode`] writes for `line`. A
    /// new line of a legacy file is written in its code page; one the code page cannot hold
    /// (callers refuse it first: [`TextFile::unencodable`]) falls back to UTF-8.
    fn part<'a>(&'a self, line: &'a OutLine, default: Eol) -> (Cow<'a, [u8]>, Eol) {
        match line {
            OutLine::Kept(i) => (
                Cow::Borrowed(&self.bytes()[self.lines.range(*i)]),
                self.lines.eol(*i).unwrap_or(default),
            ),
            OutLine::New { text, like } => {
                let eol = like.and_then(|i| self.eol(i)).unwrap_or(default);
                if let Some(i) = self.restorable(text, *like) {
                    return (Cow::Borrowed(&self.bytes()[self.lines.range(i)]), eol);
                }
                match self.charset.and_then(|c| c.encode(text)) {
                    Some(bytes) => (Cow::Owned(bytes), eol),
                    None => (Cow::Borrowed(text.as_bytes()), eol),
                }
            }
        }
    }

    /// The LF-normalized text of `out` (what [`TextFile::encode`] would write, before endings).
    pub fn render_text(&self, out: &[OutLine]) -> String {
        let mut s = String::with_capacity(self.text.len() + 64);
        // Kept lines come in increasing order from a splice: one forward walk finds them.
        let mut rest = self.text.split('\n');
        let mut next = 0usize;
        let mut all: Option<Vec<&str>> = None;
        for (k, line) in out.iter().enumerate() {
            if k > 0 {
                s.push('\n');
            }
            match line {
                OutLine::Kept(i) if *i >= next && all.is_none() => {
                    s.push_str(rest.nth(i - next).unwrap_or(""));
                    next = i + 1;
                }
                OutLine::Kept(i) => {
                    let all = all.get_or_insert_with(|| self.lines().collect());
                    s.push_str(all.get(*i).copied().unwrap_or(""));
                }
                OutLine::New { text, .. } => s.push_str(text),
            }
        }
        s
    }

    /// The lines of [`TextFile::text`] in a vector of exactly [`TextFile::line_count`] slices.
    pub fn line_slices(&self) -> Vec<&str> {
        let mut lines = Vec::with_capacity(self.lines.len());
        // One vectorised search over the whole text (a `split` searches afresh per line).
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', self.text.as_bytes()) {
            lines.push(self.text.get(start..end).unwrap_or(""));
            start = end + 1;
        }
        lines.push(self.text.get(start..).unwrap_or(""));
        lines
    }

    /// Every original line kept: encoding this gives the original bytes back.
    pub fn identity(&self) -> Vec<OutLine> {
        (0..self.lines.len()).map(OutLine::Kept).collect()
    }
}

mod legacy;
mod lossy;
mod runs;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_cr_never_swallows_the_empty_line_after_it() {
        // `x\ry\n\nz` with line 2 deleted: `x` (CR) now precedes the empty line (LF).
        let f = TextFile::decode(b"x\ry\n\nz".to_vec());
        let out = [OutLine::Kept(0), OutLine::Kept(2), OutLine::Kept(3)];
        let bytes = f.encode(&out);
        assert_eq!(bytes, b"x\r\n\nz");
        assert_eq!(TextFile::decode(bytes).text(), f.render_text(&out));
        // A new empty line after a CR line, and the fuzzer's case.
        let g = TextFile::decode(b"\n\n\n\n\r\r\n\n".to_vec());
        let out: Vec<OutLine> = vec![
            OutLine::Kept(0),
            OutLine::Kept(1),
            OutLine::Kept(2),
            OutLine::Kept(3),
            OutLine::New {
                text: String::new(),
                like: Some(4),
            },
            OutLine::Kept(6),
            OutLine::Kept(7),
        ];
        let bytes = g.encode(&out);
        assert_eq!(TextFile::decode(bytes).text(), g.render_text(&out));
        // An empty last line after a CR needs no change: nothing follows it.
        let h = TextFile::decode(b"a\r\n".to_vec());
        assert_eq!(h.encode(&h.identity()), b"a\r\n");
    }

    fn roundtrip(bytes: &[u8]) {
        let f = TextFile::decode(bytes.to_vec());
        assert_eq!(f.encode(&f.identity()), bytes, "{bytes:?}");
    }

    #[test]
    fn identity_roundtrips() {
        for b in [
            &b""[..],
            b"\n",
            b"a",
            b"a\n",
            b"a\r\nb\r\n",
            b"a\nb\r\nc\rd",
            b"\xEF\xBB\xBFx\r\ny",
            b"bad \xFF\xFE bytes\n",
            b"\r\r\n\n",
        ] {
            roundtrip(b);
        }
    }

    #[test]
    fn line_model_counts_final_empty_piece() {
        let f = TextFile::from_text("a\nb\n");
        assert_eq!(f.line_count(), 3);
        assert_eq!(f.lines().collect::<Vec<_>>(), ["a", "b", ""]);
        assert_eq!(TextFile::from_text("").line_count(), 1);
    }

    #[test]
    fn normalizes_text_but_keeps_bytes() {
        let f = TextFile::decode(b"\xEF\xBB\xBFa\r\nb\rc\n".to_vec());
        assert!(f.has_bom());
        assert_eq!(f.text(), "a\nb\nc\n");
        assert_eq!(f.default_eol(), Eol::CrLf);
        assert!(!f.is_uniform());
    }

    #[test]
    fn new_lines_take_replaced_ending_else_first() {
        let f = TextFile::decode(b"a\nb\r\nc\r\n".to_vec());
        let out = vec![
            OutLine::Kept(0),
            OutLine::New {
                text: "B".into(),
                like: Some(1),
            },
            OutLine::New {
                text: "X".into(),
                like: None,
            },
            OutLine::Kept(2),
            OutLine::Kept(3),
        ];
        assert_eq!(f.encode(&out), b"a\nB\r\nX\nc\r\n");
    }

    #[test]
    fn plain_files_are_held_once_and_render_alike() {
        let plain = TextFile::decode(b"a\nb\nc\n".to_vec());
        assert!(plain.is_plain());
        assert_eq!(plain.bytes(), b"a\nb\nc\n");
        for bytes in [&b"a\r\nb\r\n"[..], b"\xEF\xBB\xBFa\n", b"\xFFa\n", b"x\ry"] {
            assert!(!TextFile::decode(bytes.to_vec()).is_plain(), "{bytes:?}");
        }
        let new = |t: &str| OutLine::New {
            text: t.into(),
            like: None,
        };
        let outs = [
            vec![
                OutLine::Kept(0),
                new("X"),
                OutLine::Kept(2),
                OutLine::Kept(3),
            ],
            vec![
                new("H"),
                OutLine::Kept(0),
                OutLine::Kept(1),
                OutLine::Kept(2),
            ],
            vec![OutLine::Kept(2), OutLine::Kept(0), OutLine::Kept(1)],
            vec![OutLine::Kept(3), OutLine::Kept(4), OutLine::Kept(5)],
            vec![],
        ];
        for file in [&plain, &TextFile::decode(b"a\r\nb\nc\n".to_vec())] {
            for out in &outs {
                let walked = file.render_text(out);
                assert_eq!(file.render_owned(out.clone()), walked, "{out:?}");
                assert_eq!(file.line_slices(), file.lines().collect::<Vec<_>>());
                let in_range = out
                    .iter()
                    .all(|l| !matches!(l, OutLine::Kept(i) if *i >= file.line_count()));
                if file.is_plain() && in_range {
                    assert_eq!(file.encode(out), walked.as_bytes(), "{out:?}");
                }
            }
        }
        assert_eq!(plain.render_text(&outs[0]), "a\nX\nc\n");
        // Every run of kept lines of a plain file renders as its CRLF twin's lines do.
        let lf = TextFile::decode(b"l0\nl1\n\nl3\nl4".to_vec());
        let crlf = TextFile::decode(b"l0\r\nl1\r\n\r\nl3\r\nl4".to_vec());
        assert_eq!(
            (lf.line_count(), lf.eol(3), lf.eol(4)),
            (5, Some(Eol::Lf), None)
        );
        for first in 0..5 {
            for last in first..=5 {
                let mut out: Vec<OutLine> = (first..last).map(OutLine::Kept).collect();
                out.insert(out.len() / 2, new("n"));
                out.extend((0..first).map(OutLine::Kept));
                let want = crlf.render_text(&out);
                assert_eq!(lf.render_owned(out.clone()), want, "{out:?}");
                assert_eq!(lf.render_text(&out), want, "{out:?}");
                assert_eq!(lf.encode(&out), want.as_bytes(), "{out:?}");
            }
        }
    }

    #[test]
    fn lossy_lines_keep_their_bytes() {
        let f = TextFile::decode(b"\xFFa\nb\n".to_vec());
        assert!(f.is_lossy());
        assert_eq!(f.text(), "\u{FFFD}a\nb\n");
        let out = vec![
            OutLine::Kept(0),
            OutLine::New {
                text: "B".into(),
                like: Some(1),
            },
            OutLine::Kept(2),
        ];
        assert_eq!(f.encode(&out), b"\xFFa\nB\n");
    }
}
