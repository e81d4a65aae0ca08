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
#[derive(Debug, Clone)]
pub struct TextFile {
    bytes: Vec<u8>,
    bom: bool,
    /// Lines (0-based) whose bytes are not valid UTF-8 (shown with U+FFFD in `text`).
    lossy: Vec<usize>,
    /// Byte range (in `bytes`, without terminator) and terminator of every line.
    lines: Vec<(Range<usize>, Option<Eol>)>,
    text: String,
    /// The legacy code page the lines were decoded in (and new lines are encoded in); `None`:
    /// UTF-8.
    charset: Option<Charset>,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The lines of `bytes` joined with `\n`, each line's text given by `line` (line index, byte
/// range); a line it gives no text for is left empty (never the case for its callers).
fn join_lines<'a>(
    bytes: &'a [u8],
    lines: &[(Range<usize>, Option<Eol>)],
    mut line: impl FnMut(usize, Range<usize>) -> Option<std::borrow::Cow<'a, str>>,
) -> String {
    let mut text = String::with_capacity(bytes.len());
    for (k, (range, _)) in lines.iter().enumerate() {
        if k > 0 {
            text.push('\n');
        }
        if let Some(s) = line(k, range.clone()) {
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
        let n = bytes.len();
        // One scan for both terminators over the whole buffer.
        let mut lines = Vec::new();
        let mut start = body_start;
        let mut skip_lf = false;
        for at in memchr::memchr2_iter(b'\n', b'\r', &bytes[body_start..]) {
            let at = at + body_start;
            if skip_lf {
                // The `\n` of a `\r\n` already taken.
                skip_lf = false;
                continue;
            }
            let (eol, len) = if bytes[at] == b'\n' {
                (Eol::Lf, 1)
            } else if bytes.get(at + 1) == Some(&b'\n') {
                skip_lf = true;
                (Eol::CrLf, 2)
            } else {
                (Eol::Cr, 1)
            };
            lines.push((start..at, Some(eol)));
            start = at + len;
        }
        lines.push((start..n, None));
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
            // Valid UTF-8 with `\n` endings only (the common case): the text is the body.
            Some(Ok(valid)) if lines.iter().all(|(_, e)| e.is_none_or(|e| e == Eol::Lf)) => {
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
            bytes,
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
            return TextFile::decode(bytes).into_parts().1;
        }
        match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => TextFile::decode(e.into_bytes()).into_parts().1,
        }
    }

    /// Decode a string (no BOM unless it starts with U+FEFF).
    pub fn from_text(text: &str) -> TextFile {
        TextFile::decode(text.as_bytes().to_vec())
    }

    /// The original bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
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

    /// The original bytes and the LF text, without copying (for callers that keep both after
    /// they are done encoding).
    pub fn into_parts(self) -> (Vec<u8>, String) {
        (self.bytes, self.text)
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
        self.lines.get(index).and_then(|(_, e)| *e)
    }

    /// The file's first line ending, `\n` when it has none. New lines that replace nothing take it.
    pub fn default_eol(&self) -> Eol {
        self.lines.first().and_then(|(_, e)| *e).unwrap_or(Eol::Lf)
    }

    /// Whether every line ending is the same as the first.
    pub fn is_uniform(&self) -> bool {
        let first = self.default_eol();
        self.lines.iter().all(|(_, e)| e.is_none_or(|e| e == first))
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
        let default = self.default_eol();
        let mut buf = Vec::with_capacity(self.bytes.len() + 64);
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
            OutLine::Kept(i) => {
                let (range, eol) = &self.lines[*i];
                (
                    Cow::Borrowed(&self.bytes[range.clone()]),
                    eol.unwrap_or(default),
                )
            }
            OutLine::New { text, like } => {
                let eol = like.and_then(|i| self.eol(i)).unwrap_or(default);
                if let Some(i) = self.restorable(text, *like) {
                    return (Cow::Borrowed(&self.bytes[self.lines[i].0.clone()]), eol);
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
        let mut lines: Vec<&str> = Vec::new();
        let need_lines = out.iter().any(|l| matches!(l, OutLine::Kept(_)));
        if need_lines {
            lines = self.lines().collect();
        }
        for (k, line) in out.iter().enumerate() {
            if k > 0 {
                s.push('\n');
            }
            match line {
                OutLine::Kept(i) => s.push_str(lines.get(*i).copied().unwrap_or("")),
                OutLine::New { text, .. } => s.push_str(text),
            }
        }
        s
    }

    /// Every original line kept: encoding this gives the original bytes back.
    pub fn identity(&self) -> Vec<OutLine> {
        (0..self.lines.len()).map(OutLine::Kept).collect()
    }
}

mod legacy;
mod lossy;

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
