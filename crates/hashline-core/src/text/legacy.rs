//! Text in a legacy single-byte code page (cp1251, Latin-1, KOI8-R, …): detected, decoded, and
//! written back in the same code page.
//!
//! The rule (docs/DEVIATIONS.md, "Legacy encodings"): bytes that are not UTF-8, carry no NUL
//! byte, no magic number and no UTF-8 BOM, are text in a legacy code page when the detector
//! (`chardetng`, Firefox's) names a single-byte, ASCII-compatible encoding that decodes every
//! byte to a character that is not a control character (tab, form feed and line breaks apart).
//! Anything else stays what it was: UTF-8 decoded lossily, or binary. Multi-byte legacy
//! encodings (Shift_JIS, GBK, Big5, EUC-*) are not guessed: a wrong guess there garbles whole
//! lines, and binary junk is often "valid" in them.
//!
//! A file read in a code page is written back in it: untouched lines keep their bytes (as for
//! every file), new lines are encoded in the code page, and a character the code page cannot
//! hold is refused before anything is written ([`TextFile::unencodable`]), never replaced.

//!
//! Without the `legacy-encodings` feature no code page is detected ([`detect`] answers
//! `None`) and [`Charset`] has no value.

use super::{OutLine, TextFile};

/// How many leading bytes the detector looks at (the decode that follows checks them all).
#[cfg(feature = "legacy-encodings")]
const DETECT_WINDOW: usize = 1 << 20;

/// A legacy single-byte code page a file was decoded in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Charset(Encoding);

/// The code page behind a [`Charset`].
#[cfg(feature = "legacy-encodings")]
type Encoding = &'static encoding_rs::Encoding;

/// No code page in a build without the `legacy-encodings` feature.
#[cfg(not(feature = "legacy-encodings"))]
type Encoding = std::convert::Infallible;

#[cfg(not(feature = "legacy-encodings"))]
impl Charset {
    /// The WHATWG name of the code page.
    pub fn name(self) -> &'static str {
        match self.0 {}
    }

    /// `text` in this code page.
    pub fn encode(self, _text: &str) -> Option<Vec<u8>> {
        match self.0 {}
    }

    /// `bytes` decoded.
    pub fn decode(self, _bytes: &[u8]) -> String {
        match self.0 {}
    }

    /// The first character of `text` this code page cannot hold.
    pub fn first_unencodable(self, _text: &str) -> Option<char> {
        match self.0 {}
    }
}

/// Without the `legacy-encodings` feature no bytes are text in a legacy code page.
#[cfg(not(feature = "legacy-encodings"))]
pub fn detect(_bytes: &[u8]) -> Option<Charset> {
    None
}

#[cfg(feature = "legacy-encodings")]
impl Charset {
    /// The WHATWG name of the code page (`windows-1251`, `ISO-8859-2`, …).
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// `text` in this code page, `None` when a character has no byte in it.
    pub fn encode(self, text: &str) -> Option<Vec<u8>> {
        let (bytes, _, unmappable) = self.0.encode(text);
        (!unmappable).then(|| bytes.into_owned())
    }

    /// `bytes` decoded; every byte of a detected file decodes (see [`detect`]).
    pub fn decode(self, bytes: &[u8]) -> String {
        self.0.decode_without_bom_handling(bytes).0.into_owned()
    }

    /// The first character of `text` this code page cannot hold.
    pub fn first_unencodable(self, text: &str) -> Option<char> {
        if self.encode(text).is_some() {
            return None;
        }
        let mut buf = [0u8; 4];
        text.chars()
            .find(|c| self.encode(c.encode_utf8(&mut buf)).is_none())
    }
}

/// The legacy code page `bytes` are text in, `None` when they are UTF-8 (or empty), binary, or
/// not recognisably text in a single-byte code page (see the module's rule).
#[cfg(feature = "legacy-encodings")]
pub fn detect(bytes: &[u8]) -> Option<Charset> {
    if std::str::from_utf8(bytes).is_ok()
        || bytes.starts_with(b"\xEF\xBB\xBF")
        || crate::kind::detect(bytes) != crate::kind::FileKind::Text
    {
        return None;
    }
    let window = &bytes[..bytes.len().min(DETECT_WINDOW)];
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(window, window.len() == bytes.len());
    let guess = detector.guess(None, chardetng::Utf8Detection::Deny);
    if !guess.is_single_byte() || !guess.is_ascii_compatible() {
        return None;
    }
    let text = guess.decode_without_bom_handling_and_without_replacement(bytes)?;
    let texty = |c: char| !c.is_control() || matches!(c, '\t' | '\n' | '\r' | '\x0C');
    text.chars().all(texty).then_some(Charset(guess))
}

impl TextFile {
    /// Decode `bytes` as every command that reads legacy text does: in the code page [`detect`]
    /// names, else as [`TextFile::decode`] (UTF-8, lossily).
    pub fn decode_detected(bytes: Vec<u8>) -> TextFile {
        match detect(&bytes) {
            Some(charset) => TextFile::decode_with(bytes, Some(charset)),
            None => TextFile::decode(bytes),
        }
    }

    /// The legacy code page the file was decoded in, `None` for UTF-8.
    pub fn charset(&self) -> Option<Charset> {
        self.charset
    }

    /// What a read that detects code pages ([`TextFile::decode_detected`]) will show of
    /// `bytes`, this file's edit whose LF text is `text`, when that differs from `text`. For a
    /// UTF-8 file, [`TextFile::reread_text`].
    pub fn reread(&self, text: &str, bytes: &[u8]) -> Option<String> {
        if self.charset.is_none() {
            return TextFile::reread_text(text, bytes);
        }
        let shown = TextFile::decode_detected(bytes.to_vec()).text;
        (shown != text).then_some(shown)
    }

    /// The first new line of `out` (1-based position) holding a character the file's code page
    /// cannot hold, and that character. `None` for UTF-8 files and when every line encodes.
    pub fn unencodable(&self, out: &[OutLine]) -> Option<(usize, char)> {
        let charset = self.charset?;
        out.iter().enumerate().find_map(|(k, line)| match line {
            OutLine::New { text, .. } => charset.first_unencodable(text).map(|c| (k + 1, c)),
            OutLine::Kept(_) => None,
        })
    }
}

#[cfg(all(test, feature = "legacy-encodings"))]
mod tests {
    use super::*;

    const CP1251: &[u8] = b"# \xd2\xe5\xf1\xf2\xee\xe2\xfb\xe9 \xf4\xe0\xe9\xeb\ntext = \"\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0!\"\n";
    const LATIN1: &[u8] = b"caf\xe9 cr\xe8me br\xfbl\xe9e\nna\xefve \xe0 la fran\xe7aise\n";

    #[test]
    fn cyrillic_and_latin_code_pages_are_detected_and_decoded() {
        let f = TextFile::decode_detected(CP1251.to_vec());
        assert_eq!(f.charset().map(Charset::name), Some("windows-1251"));
        assert_eq!(f.text(), "# Тестовый файл\ntext = \"Привет, мир!\"\n");
        assert!(!f.is_lossy());
        let g = TextFile::decode_detected(LATIN1.to_vec());
        assert_eq!(g.charset().map(Charset::name), Some("windows-1252"));
        assert!(g.text().starts_with("café crème brûlée\nnaïve"));
    }

    #[test]
    fn utf8_binary_and_multibyte_guesses_are_not_legacy() {
        assert_eq!(detect("héllo\n".as_bytes()), None);
        assert_eq!(detect(b""), None);
        assert_eq!(detect(b"caf\xe9\0\n"), None);
        // Four 0x8F bytes: chardetng guesses Shift_JIS, which is not single-byte.
        assert_eq!(detect(b"\x8f\x8f\x8f\x8f"), None);
        // Control characters are not text in any code page.
        assert_eq!(detect(b"caf\xe9\x01\x02\x03\n"), None);
        // A UTF-8 BOM then invalid bytes: a damaged UTF-8 file, not a legacy one.
        assert_eq!(detect(b"\xEF\xBB\xBFcaf\xe9\n"), None);
        assert!(TextFile::decode_detected(b"\x8f\x8f\x8f\x8f".to_vec()).is_lossy());
    }

    #[test]
    fn new_lines_are_written_in_the_code_page_and_untouched_ones_keep_their_bytes() {
        let f = TextFile::decode_detected(CP1251.to_vec());
        let out = [
            OutLine::Kept(0),
            OutLine::New {
                text: "text = \"Здравствуй, мир!\"".into(),
                like: Some(1),
            },
            OutLine::Kept(2),
        ];
        assert_eq!(f.unencodable(&out), None);
        let bytes = f.encode(&out);
        assert!(
            bytes.starts_with(&CP1251[..CP1251.iter().position(|&b| b == b'\n').unwrap_or(0) + 1])
        );
        let back = TextFile::decode_detected(bytes.clone());
        assert_eq!(
            back.text(),
            "# Тестовый файл\ntext = \"Здравствуй, мир!\"\n"
        );
        assert_eq!(f.encode(&f.identity()), CP1251);
    }

    #[test]
    fn a_character_the_code_page_lacks_is_named() {
        let f = TextFile::decode_detected(CP1251.to_vec());
        let out = [
            OutLine::Kept(0),
            OutLine::New {
                text: "text = \"日本\"".into(),
                like: Some(1),
            },
            OutLine::Kept(2),
        ];
        assert_eq!(f.unencodable(&out), Some((2, '日')));
        let utf8 = TextFile::decode_detected("a\n".as_bytes().to_vec());
        assert_eq!(utf8.unencodable(&out), None);
    }
}
