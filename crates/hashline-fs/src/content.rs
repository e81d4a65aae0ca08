//! [`Content`]: the new bytes of a file change, as one buffer or as the parts of a text.
//!
//! The new text of an edit of a big plain file is a few runs of its old text and the rows the
//! edits wrote ([`Pieces`]): the write path (temp files, in-place rewrites, the journal's
//! fingerprints) takes it part by part, so it is never joined into one buffer.

use std::borrow::Cow;
use std::io::{self, BufWriter, Write};

use hashline_core::Pieces;

use super::journal::Print;

/// Buffer of a write of many parts: small parts are gathered into one `write`, a part as big
/// as this or bigger goes straight through.
const WRITE_BUFFER: usize = 64 * 1024;

/// The new bytes of a file change: one buffer (borrowed or owned), or the parts of a text
/// ([`Pieces`]), written and fingerprinted part by part, never joined.
///
/// Built with `From`/[`Into`] from `Cow<[u8]>`, `Vec<u8>`, `&[u8]`, `&Vec<u8>`, `String`,
/// `&str` and [`Pieces`].
#[derive(Debug, Clone)]
pub struct Content<'a>(Repr<'a>);

#[derive(Debug, Clone)]
enum Repr<'a> {
    /// One buffer.
    Bytes(Cow<'a, [u8]>),
    /// The parts of a text, in order.
    Pieces(Pieces<'a>),
}

impl<'a> Content<'a> {
    /// The length in bytes.
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Bytes(bytes) => bytes.len(),
            Repr::Pieces(pieces) => pieces.len(),
        }
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The parts, in order (none empty): their concatenation is the content.
    pub fn parts(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let (whole, parts): (Option<&[u8]>, &[&str]) = match &self.0 {
            Repr::Bytes(bytes) => (Some(bytes), &[]),
            Repr::Pieces(pieces) => (None, pieces.parts()),
        };
        whole
            .into_iter()
            .chain(parts.iter().map(|p| p.as_bytes()))
            .filter(|p| !p.is_empty())
    }

    /// The bytes as one slice when they are one part (or none): no copy needed.
    pub fn as_whole(&self) -> Option<&[u8]> {
        match &self.0 {
            Repr::Bytes(bytes) => Some(bytes),
            Repr::Pieces(pieces) => pieces.as_whole().map(str::as_bytes),
        }
    }

    /// The bytes, borrowed when they are one buffer or one part, else copied into one buffer
    /// (for a disk that keeps files whole, such as an in-memory one).
    pub fn into_bytes(self) -> Cow<'a, [u8]> {
        match self.0 {
            Repr::Bytes(bytes) => bytes,
            Repr::Pieces(pieces) => match pieces.to_text() {
                Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
                Cow::Owned(text) => Cow::Owned(text.into_bytes()),
            },
        }
    }

    /// Whether the content is exactly `other`, compared part by part without a copy.
    pub fn eq_bytes(&self, other: &[u8]) -> bool {
        match &self.0 {
            Repr::Bytes(bytes) => **bytes == *other,
            // Bytes that are not UTF-8 are no text.
            Repr::Pieces(pieces) => std::str::from_utf8(other).is_ok_and(|t| pieces.eq_str(t)),
        }
    }

    /// Writes the bytes to `out` part by part (small parts gathered in a buffer of 64 KiB,
    /// big ones written straight through), then flushes what was gathered.
    pub fn write_to<W: Write>(&self, out: &mut W) -> io::Result<()> {
        if let Some(whole) = self.as_whole() {
            return out.write_all(whole);
        }
        let mut buffered = BufWriter::with_capacity(WRITE_BUFFER, out);
        for part in self.parts() {
            buffered.write_all(part)?;
        }
        buffered.flush()
    }

    /// The journal's fingerprint of the bytes, hashed part by part (equal to the fingerprint
    /// of the joined bytes).
    pub(super) fn print(&self) -> Print {
        match self.as_whole() {
            Some(whole) => Print::of(whole),
            None => Print::of_parts(self.parts()),
        }
    }
}

impl PartialEq<[u8]> for Content<'_> {
    fn eq(&self, other: &[u8]) -> bool {
        self.eq_bytes(other)
    }
}

impl<'a> From<Cow<'a, [u8]>> for Content<'a> {
    fn from(bytes: Cow<'a, [u8]>) -> Content<'a> {
        Content(Repr::Bytes(bytes))
    }
}

impl<'a> From<Vec<u8>> for Content<'a> {
    fn from(bytes: Vec<u8>) -> Content<'a> {
        Content(Repr::Bytes(Cow::Owned(bytes)))
    }
}

impl<'a> From<&'a [u8]> for Content<'a> {
    fn from(bytes: &'a [u8]) -> Content<'a> {
        Content(Repr::Bytes(Cow::Borrowed(bytes)))
    }
}

impl<'a> From<&'a Vec<u8>> for Content<'a> {
    fn from(bytes: &'a Vec<u8>) -> Content<'a> {
        Content(Repr::Bytes(Cow::Borrowed(bytes)))
    }
}

impl<'a> From<String> for Content<'a> {
    fn from(text: String) -> Content<'a> {
        Content::from(text.into_bytes())
    }
}

impl<'a> From<&'a str> for Content<'a> {
    fn from(text: &'a str) -> Content<'a> {
        Content::from(text.as_bytes())
    }
}

impl<'a> From<Pieces<'a>> for Content<'a> {
    fn from(pieces: Pieces<'a>) -> Content<'a> {
        Content(Repr::Pieces(pieces))
    }
}

impl<'a> From<&Pieces<'a>> for Content<'a> {
    fn from(pieces: &Pieces<'a>) -> Content<'a> {
        Content(Repr::Pieces(pieces.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `text` cut at `cuts` (offsets, any order, out of range ones cut to the end).
    fn cut<'t>(text: &'t str, cuts: &[usize]) -> Pieces<'t> {
        let mut at: Vec<usize> = cuts.iter().map(|&c| c.min(text.len())).collect();
        at.extend([0, text.len()]);
        at.sort_unstable();
        at.dedup();
        Pieces::new(at.windows(2).map(|w| &text[w[0]..w[1]]))
    }

    #[test]
    fn one_buffer_and_its_parts_agree() {
        let text = "alpha\nbeta\ngamma\n";
        let whole = Content::from(text.as_bytes());
        let parts = Content::from(cut(text, &[3, 6, 11]));
        assert_eq!(parts.parts().count(), 4);
        assert_eq!(whole.len(), parts.len());
        assert_eq!(parts.as_whole(), None);
        assert_eq!(whole.as_whole(), Some(text.as_bytes()));
        assert!(parts.eq_bytes(text.as_bytes()) && whole == *text.as_bytes());
        assert!(!parts.eq_bytes(b"alpha\nbeta\ngamma!") && !parts.eq_bytes(b"alpha\n"));
        assert_eq!(&*parts.clone().into_bytes(), text.as_bytes());
        assert_eq!(parts.print(), whole.print());
        assert_eq!(whole.print(), Print::of(text.as_bytes()));
        let mut written = Vec::new();
        parts.write_to(&mut written).expect("write");
        assert_eq!(written, text.as_bytes());
        let empty = Content::from(Pieces::default());
        assert!(empty.is_empty() && empty.eq_bytes(b"") && empty.parts().next().is_none());
        assert_eq!(empty.print(), Print::of(b""));
        assert_eq!(Content::from(Vec::new()).parts().count(), 0);
    }

    /// A print over parts bigger than the hasher's internal buffers and the write buffer.
    #[test]
    fn big_parts_print_and_write_as_joined() {
        let text: String = (0..200_000).map(|i| format!("line {i}\n")).collect();
        let pieces = cut(
            &text,
            &[1, 2, 1000, 65_536, 65_600, 700_000, text.len() - 1],
        );
        let content = Content::from(&pieces);
        assert_eq!(content.print(), Print::of(text.as_bytes()));
        let mut written = Vec::new();
        content.write_to(&mut written).expect("write");
        assert!(written == text.as_bytes());
    }

    proptest! {
        /// However a text is cut, its parts write, compare and fingerprint as the joined bytes.
        #[test]
        fn any_cut_reads_as_the_joined_bytes(
            text in "[a-z\\n]{0,3000}",
            cuts in proptest::collection::vec(0usize..3000, 0..12),
        ) {
            let content = Content::from(cut(&text, &cuts));
            let print = Print::of(text.as_bytes());
            prop_assert_eq!(content.print(), print);
            prop_assert_eq!(print.hash, xxhash_rust::xxh3::xxh3_128(text.as_bytes()));
            prop_assert!(content.eq_bytes(text.as_bytes()));
            let mut written = Vec::new();
            content.write_to(&mut written).expect("write");
            prop_assert_eq!(written, text.as_bytes());
            prop_assert_eq!(&*content.into_bytes(), text.as_bytes());
        }
    }
}
