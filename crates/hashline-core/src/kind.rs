//! Whether a file's bytes are text: the one classifier every command shares (`read` in every
//! anchor mode, `edit` in every dialect, `write`). Magic numbers in the first 8 KiB (seed 001
//! §9), then NUL bytes anywhere. Invalid UTF-8 alone does not make a file binary: a Latin-1
//! file is text, shown with U+FFFD and edited with its untouched lines' bytes kept
//! (DEVIATIONS §2).

/// How many leading bytes the magic-number detector looks at.
pub const SNIFF_WINDOW: usize = 8192;

/// What a file's bytes are, as far as `read` is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// Text, to be decoded as UTF-8 (lossily).
    Text,
    /// A JPEG, PNG, GIF or WebP image: described, never dumped; the MIME type is given.
    Image(&'static str),
    /// Anything else that is not text; the description is a MIME type or
    /// `null bytes detected`.
    Binary(&'static str),
}

/// Description of a file with NUL bytes.
pub const NULL_BYTES: &str = "null bytes detected";

/// One magic number: `bytes` at `offset`.
struct Magic {
    offset: usize,
    bytes: &'static [u8],
    mime: &'static str,
}

const fn magic(offset: usize, bytes: &'static [u8], mime: &'static str) -> Magic {
    Magic {
        offset,
        bytes,
        mime,
    }
}

/// Signatures of common non-text formats, in the order they are tried. Two-byte signatures
/// made only of printable ASCII (`BM`, `MZ`) are left out on purpose: they would misclassify
/// text files that happen to start with those letters, and real files of those formats carry
/// NUL bytes that the NUL check catches anyway. Short ASCII signatures (`BZh`, `ID3`) are
/// checked together with the binary bytes that follow them in real files.
const MAGICS: &[Magic] = &[
    magic(0, b"\xFF\xD8\xFF", "image/jpeg"),
    magic(0, b"\x89PNG\r\n\x1A\n", "image/png"),
    magic(0, b"GIF87a", "image/gif"),
    magic(0, b"GIF89a", "image/gif"),
    magic(0, b"%PDF-", "application/pdf"),
    magic(0, b"PK\x03\x04", "application/zip"),
    magic(0, b"PK\x05\x06", "application/zip"),
    magic(0, b"\x1F\x8B\x08", "application/gzip"),
    magic(0, b"\xFD7zXZ\x00", "application/x-xz"),
    magic(0, b"7z\xBC\xAF\x27\x1C", "application/x-7z-compressed"),
    magic(0, b"\x28\xB5\x2F\xFD", "application/zstd"),
    magic(0, b"Rar!\x1A\x07", "application/x-rar-compressed"),
    magic(0, b"\x7FELF", "application/x-elf"),
    magic(0, b"\xCA\xFE\xBA\xBE", "application/java-vm"),
    magic(0, b"\xCF\xFA\xED\xFE", "application/x-mach-binary"),
    magic(0, b"\x00asm", "application/wasm"),
    magic(0, b"SQLite format 3\x00", "application/x-sqlite3"),
    magic(0, b"OggS", "audio/ogg"),
    magic(0, b"fLaC", "audio/x-flac"),
    magic(0, b"ID3\x02\x00", "audio/mpeg"),
    magic(0, b"ID3\x03\x00", "audio/mpeg"),
    magic(0, b"ID3\x04\x00", "audio/mpeg"),
    magic(0, b"II*\x00", "image/tiff"),
    magic(0, b"MM\x00*", "image/tiff"),
    magic(0, b"8BPS", "image/vnd.adobe.photoshop"),
    magic(0, b"wOFF", "font/woff"),
    magic(0, b"wOF2", "font/woff2"),
    magic(4, b"ftyp", "video/mp4"),
];

/// The MIME type of a RIFF container (`RIFF....TYPE`), if it is one.
fn riff(sniff: &[u8]) -> Option<&'static str> {
    if !sniff.starts_with(b"RIFF") || sniff.len() < 12 {
        return None;
    }
    match &sniff[8..12] {
        b"WEBP" => Some("image/webp"),
        b"WAVE" => Some("audio/wav"),
        b"AVI " => Some("video/vnd.avi"),
        _ => None,
    }
}

/// `application/x-bzip2` for a bzip2 stream header (`BZh1`…`BZh9` then the block magic).
fn bzip2(sniff: &[u8]) -> Option<&'static str> {
    let header = sniff.get(..10)?;
    (header.starts_with(b"BZh")
        && header[3].is_ascii_digit()
        && header[3] != b'0'
        && &header[4..10] == b"1AY&SY")
        .then_some("application/x-bzip2")
}

/// The MIME type the leading bytes announce, if any.
fn sniff_mime(sniff: &[u8]) -> Option<&'static str> {
    riff(sniff).or_else(|| bzip2(sniff)).or_else(|| {
        MAGICS.iter().find_map(|m| {
            let end = m.offset + m.bytes.len();
            (sniff.len() >= end && &sniff[m.offset..end] == m.bytes).then_some(m.mime)
        })
    })
}

/// Classifies `bytes`: images by magic number, other formats by magic number, then any NUL
/// byte makes the file binary. An empty file is text.
pub fn detect(bytes: &[u8]) -> FileKind {
    let sniff = &bytes[..bytes.len().min(SNIFF_WINDOW)];
    if let Some(mime) = sniff_mime(sniff) {
        return match mime {
            "image/jpeg" | "image/png" | "image/gif" | "image/webp" => FileKind::Image(mime),
            _ => FileKind::Binary(mime),
        };
    }
    // memchr's vector scan: twice as fast as `<[u8]>::contains` on a big file.
    if memchr::memchr(0, bytes).is_some() {
        return FileKind::Binary(NULL_BYTES);
    }
    FileKind::Text
}

/// How NUL bytes count. The rule is [`Nul::Binary`] everywhere but in the lineid dialect,
/// whose seed (004) reads NUL-bearing UTF-8 text as text (its conformance vectors
/// `control-chars.txt` and the hash cases hold `nul\0inside`), so there [`Nul::TextIfUtf8`]:
/// NUL bytes in a file that is valid UTF-8 throughout are shown; every magic number, and NUL
/// bytes in anything else, still refuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nul {
    /// Any NUL byte makes the file binary (seeds 000 and 001).
    Binary,
    /// NUL bytes in valid UTF-8 are text (seed 004).
    TextIfUtf8,
}

/// [`detect`] under the NUL rule `nul`.
pub fn detect_with(bytes: &[u8], nul: Nul) -> FileKind {
    match detect(bytes) {
        FileKind::Binary(NULL_BYTES)
            if nul == Nul::TextIfUtf8 && std::str::from_utf8(bytes).is_ok() =>
        {
            FileKind::Text
        }
        kind => kind,
    }
}

/// The refusal text of a non-text file at `path` for command `verb` (`read`, `edit`, `write`),
/// or `None` when `bytes` are text. One wording for every anchor mode and dialect (the
/// hash-json `read`, which shows images, keeps the seed's own).
pub fn refusal(path: &str, bytes: &[u8], verb: &str) -> Option<String> {
    refusal_with(path, bytes, verb, Nul::Binary)
}

/// [`refusal`] under the NUL rule `nul`.
pub fn refusal_with(path: &str, bytes: &[u8], verb: &str, nul: Nul) -> Option<String> {
    let path = crate::name::display(path);
    match detect_with(bytes, nul) {
        FileKind::Text => None,
        FileKind::Image(mime) => Some(format!(
            "Path is an image file: {path} ({mime}). Hashline {verb} only supports text files."
        )),
        FileKind::Binary(what) => Some(format!(
            "Path is a binary file: {path} ({what}). Hashline {verb} only supports text files."
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_files_are_text() {
        assert_eq!(detect(b""), FileKind::Text);
        assert_eq!(detect(b"BMW\nMZ\n"), FileKind::Text);
        assert_eq!(detect("héllo\r\n".as_bytes()), FileKind::Text);
    }

    #[test]
    fn images_are_described() {
        assert_eq!(
            detect(b"\x89PNG\r\n\x1A\n\0\0\0\rIHDR"),
            FileKind::Image("image/png")
        );
        assert_eq!(detect(b"\xFF\xD8\xFF\xE0"), FileKind::Image("image/jpeg"));
        assert_eq!(detect(b"GIF89a..."), FileKind::Image("image/gif"));
        assert_eq!(
            detect(b"RIFF\x10\x20\x30\x40WEBPVP8 "),
            FileKind::Image("image/webp")
        );
    }

    #[test]
    fn binaries_by_magic_or_nul() {
        assert_eq!(detect(b"%PDF-1.7\n"), FileKind::Binary("application/pdf"));
        assert_eq!(detect(b"abc\0def"), FileKind::Binary(NULL_BYTES));
        let mut late_nul = vec![b'a'; SNIFF_WINDOW * 3];
        late_nul.push(0);
        assert_eq!(detect(&late_nul), FileKind::Binary(NULL_BYTES));
    }

    #[test]
    fn lineid_rule_keeps_nul_in_utf8_only() {
        assert_eq!(
            detect_with(b"nul\0inside\n", Nul::TextIfUtf8),
            FileKind::Text
        );
        assert_eq!(
            detect_with(b"\xff\0\x01", Nul::TextIfUtf8),
            FileKind::Binary(NULL_BYTES)
        );
        assert_eq!(
            detect_with(b"\x7FELF\x02\x01", Nul::TextIfUtf8),
            FileKind::Binary("application/x-elf")
        );
        assert_eq!(
            detect_with(b"a\0b", Nul::Binary),
            FileKind::Binary(NULL_BYTES)
        );
    }

    #[test]
    fn refusal_names_the_kind() {
        assert_eq!(refusal("a.txt", b"text\n", "read"), None);
        assert_eq!(
            refusal("a.bin", b"a\0b", "edit").as_deref(),
            Some("Path is a binary file: a.bin (null bytes detected). Hashline edit only supports text files.")
        );
        assert_eq!(
            refusal("p.png", b"\x89PNG\r\n\x1A\n", "read").as_deref(),
            Some(
                "Path is an image file: p.png (image/png). Hashline read only supports text files."
            )
        );
    }
}
