//! A file's new text as the pipeline holds it: whole, or spliced from its old text without
//! being joined (a plain file: ranges of the old text and the new rows), so that a one-line
//! edit of a 100 MB file never holds the old and the new text whole at once. Everything
//! downstream reads it as [`Pieces`] over the old text.

use std::borrow::Cow;

use hashline_core::{Pieces, SplicedText};

/// A file's new LF text.
#[derive(Debug, Clone)]
pub(crate) enum NewText {
    /// One buffer (a file that is not plain, a text a read shows differently, a new file).
    Whole(String),
    /// Ranges of the old text and the new rows ([`hashline_core::TextFile::splice_pieces`]).
    Spliced(SplicedText),
}

impl Default for NewText {
    fn default() -> Self {
        NewText::Whole(String::new())
    }
}

impl From<String> for NewText {
    fn from(text: String) -> Self {
        NewText::Whole(text)
    }
}

impl NewText {
    /// The text, read over `old` (the text it was spliced from; unused when whole).
    pub fn pieces<'a>(&'a self, old: &'a str) -> Pieces<'a> {
        match self {
            NewText::Whole(text) => Pieces::whole(text),
            NewText::Spliced(spliced) => spliced.pieces(old),
        }
    }

    /// The text in one buffer (copied when spliced): for the rare paths that need it so.
    pub fn joined<'a>(&'a self, old: &'a str) -> Cow<'a, str> {
        self.pieces(old).to_text()
    }

    /// The text as one owned buffer.
    pub fn into_string(self, old: &str) -> String {
        match self {
            NewText::Whole(text) => text,
            NewText::Spliced(spliced) => spliced.pieces(old).to_text().into_owned(),
        }
    }

    /// Whether the text is `other` (`old`: as in [`NewText::pieces`]).
    pub fn is(&self, old: &str, other: &str) -> bool {
        self.pieces(old).eq_str(other)
    }
}
