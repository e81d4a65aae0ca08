//! `read --anchors hash`: the hash-json dialect's `read` tool (seed 001 §1, §3, §9, §12).
//!
//! The output is `HASH:content` rows of the visible lines in the window, with the host's
//! 2000-line / 51200-byte head truncation, the continuation hints, the empty-file advisory and
//! the non-UTF-8 note, byte for byte as the seed tool prints them. Refusals (bad `offset` /
//! `limit`, missing file, directory, binary file) come back as `ok: false` with a stable code.
//!
//! Two layers:
//! * [`render`]: the pure core over a [`Source`] (what was found at the path), used by tests
//!   and by [`read`].
//! * [`read`]: resolves the path on a [`Disk`] (a [`Workspace`](crate::fs::Workspace) or
//!   in-memory files), classifies it and renders it.
//!
//! Every read that shows rows (or the empty-file advisory) records the whole file text —
//! BOM-free, line endings as `\n` — in the session's [`SnapshotStore`] under the target's key.

mod args;
mod window;

use std::borrow::Cow;

use hashline_core::ErrorCode;
use hashline_state::SnapshotStore;

use crate::fs::FsError;
use crate::pipeline::files::open_for_read;
use crate::{Disk, Entry};
use crate::{FileOp, FileReport, Outcome};

pub use args::{parse_arg, parse_window, BadReadArg, ReadArg};
pub use hashline_core::kind::{detect, FileKind, NULL_BYTES, SNIFF_WINDOW};
pub use window::{format_size, render_window, Window, MAX_BYTES, MAX_LINES};

/// How to put content into an empty file (the tail of both empty-file texts).
const EMPTY_HOWTO: &str = "Use edit with prepend or append and omit pos to insert content.";

/// The advisory for a file with no visible lines (also used by the edit response).
pub const EMPTY_FILE: &str =
    "File is empty. Use edit with prepend or append and omit pos to insert content.";

/// The note appended when decoding replaced invalid UTF-8.
pub const NON_UTF8_NOTE: &str =
    "[Non-UTF-8 bytes shown as U+FFFD; editing rewrites the file as UTF-8.]";

/// Description of a path that is neither a regular file nor a directory (FIFO, device, …).
pub const UNSUPPORTED_FILE_TYPE: &str = "unsupported file type";

/// What was found at the requested path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source<'a> {
    /// Nothing exists there.
    Missing,
    /// A directory.
    Directory,
    /// Neither a regular file nor a directory; it is never opened.
    Special,
    /// It exists but may not be read (permission denied).
    Unreadable,
    /// Its metadata could not be read for another reason.
    Inaccessible,
    /// A regular file with these bytes.
    Bytes(&'a [u8]),
}

/// Text decoded by the dialect's line model (§1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// BOM-free text with every CRLF and lone CR turned into LF.
    pub text: Cow<'a, str>,
    /// Whether invalid UTF-8 was replaced by U+FFFD.
    pub lossy: bool,
}

/// Decodes file bytes by the dialect's line model (§1): a leading UTF-8 BOM is dropped, each
/// maximal invalid UTF-8 subsequence becomes one U+FFFD, and CRLF / lone CR become LF.
/// Borrows from `bytes` when nothing changes.
///
/// The result is exactly [`hashline_core::TextFile::decode`]'s text, which the edit engine
/// hashes, so every anchor `read` shows resolves in `edit`. (The seed's decoder also removes a
/// *second* leading U+FEFF; here that character is content, as it is for the edit engine and the
/// writer, which keep it.)
pub fn decode(bytes: &[u8]) -> Decoded<'_> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let (text, lossy) = match String::from_utf8_lossy(body) {
        Cow::Borrowed(s) => (Cow::Borrowed(s), false),
        Cow::Owned(s) => (Cow::Owned(s), true),
    };
    let text = if text.contains('\r') {
        Cow::Owned(normalize_eol(&text))
    } else {
        text
    };
    Decoded { text, lossy }
}

/// CRLF → LF, then every remaining CR → LF, in one pass.
fn normalize_eol(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' {
            if chars.peek() == Some(&'\n') {
                chars.next();
            }
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

/// Number of lines `read` shows (the sentinel of a newline-terminated text is not one).
fn visible_lines(text: &str) -> usize {
    hashline_anchor::hash_json::visible_line_count(text)
}

/// A successful read's outcome.
fn shown(display_path: &str, text: String, tag: Option<String>) -> Outcome {
    Outcome {
        undo: None,
        ok: true,
        code: None,
        text,
        warnings: Vec::new(),
        files: vec![FileReport {
            path: display_path.to_owned(),
            new_path: None,
            op: FileOp::Read,
            tag,
            diff: String::new(),
            first_changed_line: None,
            written: false,
            anchors: Vec::new(),
        }],
    }
}

/// Records `text` under `key` and returns its hashline tag, or the coded warning of a store
/// failure (the read still shows the file, as every read and edit does then).
fn record(store: &dyn SnapshotStore, key: &str, text: &str) -> Result<String, String> {
    store
        .record(key, text)
        .map_err(|e| crate::not_recorded("The file was read", &e))
}

/// A read's outcome after [`record`]: shown with its tag, or shown with the warning.
fn recorded(display_path: &str, text: String, tag: Result<String, String>) -> Outcome {
    match tag {
        Ok(tag) => shown(display_path, text, Some(tag)),
        Err(warning) => {
            let warnings = vec![warning];
            let text = text + &crate::warnings_block(&warnings);
            Outcome {
                warnings,
                ..shown(display_path, text, None)
            }
        }
    }
}

/// The pure core: validates `offset` / `limit`, then renders what `source` holds for the path
/// shown as `display_path`, recording the text under `key` in `store` when rows or the
/// empty-file advisory are shown.
pub fn render(
    display_path: &str,
    source: Source<'_>,
    offset: Option<ReadArg<'_>>,
    limit: Option<ReadArg<'_>>,
    store: &dyn SnapshotStore,
    key: &str,
) -> Outcome {
    match parse_window(offset, limit) {
        Ok((offset, limit)) => render_parsed(display_path, source, offset, limit, store, key),
        Err(err) => Outcome::refused(ErrorCode::BadShape, err.to_string()),
    }
}

/// [`render`] with `offset` / `limit` already validated (each ≥ 1 when present).
pub fn render_parsed(
    display_path: &str,
    source: Source<'_>,
    offset: Option<usize>,
    limit: Option<usize>,
    store: &dyn SnapshotStore,
    key: &str,
) -> Outcome {
    let bytes = match source {
        Source::Missing => {
            return Outcome::refused(
                ErrorCode::FileNotFound,
                format!("File not found: {display_path}"),
            )
        }
        Source::Directory => {
            return Outcome::refused(
                ErrorCode::IsDirectory,
                format!("Path is a directory: {display_path}. Use ls to inspect directories."),
            )
        }
        Source::Unreadable => {
            return Outcome::refused(
                ErrorCode::PermissionDenied,
                format!("File is not readable: {display_path}"),
            )
        }
        Source::Inaccessible => {
            return Outcome::refused(ErrorCode::Io, format!("Cannot access file: {display_path}"))
        }
        Source::Special => return binary(display_path, UNSUPPORTED_FILE_TYPE),
        Source::Bytes(bytes) => bytes,
    };
    match detect(bytes) {
        FileKind::Text => {}
        FileKind::Image(mime) => {
            return shown(display_path, format!("Read image file [{mime}]"), None)
        }
        FileKind::Binary(description) => return binary(display_path, description),
    }
    let decoded = decode(bytes);
    let text: &str = &decoded.text;
    let total = visible_lines(text);
    let offset = offset.unwrap_or(1);
    if total == 0 {
        if offset > 1 {
            return shown(
                display_path,
                format!("Offset {offset} is beyond end of file (0 lines total). The file is empty. {EMPTY_HOWTO}"),
                None,
            );
        }
        return recorded(
            display_path,
            EMPTY_FILE.to_owned(),
            record(store, key, text),
        );
    }
    if offset > total {
        return shown(
            display_path,
            format!(
                "Offset {offset} is beyond end of file ({total} lines total). Use offset=1 to read from the start, or offset={total} to read the last line."
            ),
            None,
        );
    }
    let window = render_window(text, total, offset, limit);
    let mut out = window.text;
    if window.shown == 0 {
        return shown(display_path, out, None);
    }
    if decoded.lossy {
        out.push_str("\n\n");
        out.push_str(NON_UTF8_NOTE);
    }
    recorded(display_path, out, record(store, key, text))
}

/// The refusal for a non-text file.
fn binary(display_path: &str, description: &str) -> Outcome {
    Outcome::refused(
        ErrorCode::Binary,
        format!(
            "Path is a binary file: {display_path} ({description}). Hashline read only supports text files and supported images."
        ),
    )
}

/// Reads `path` (relative to the tree's root, or absolute inside it) as the hash-json
/// `read` tool does, recording what it showed under the target's key.
///
/// `offset` / `limit` arrive raw: [`ReadArg::Json`] from a tool call, [`ReadArg::Text`] from
/// `--offset` / `--limit`; they are validated before the path is looked at. A path outside the
/// root is refused with the workspace's error. Like the seed's (§10), `read` is not queued
/// behind edits, except on a hard-linked file: edits rewrite it in place, so the read holds the
/// file's lock ([`Disk::lock_for_read`]) rather than show and record half a write.
pub fn read(
    ws: &dyn Disk,
    store: &dyn SnapshotStore,
    path: &str,
    offset: Option<ReadArg<'_>>,
    limit: Option<ReadArg<'_>>,
) -> Outcome {
    let (offset, limit) = match parse_window(offset, limit) {
        Ok(parsed) => parsed,
        Err(err) => return Outcome::refused(ErrorCode::BadShape, err.to_string()),
    };
    let opened = match open_for_read(ws, path) {
        Ok(opened) => opened,
        Err(err) => return Outcome::refused(err.code(), err.to_string()),
    };
    let target = &opened.target;
    let bytes: Vec<u8>;
    let source = match ws.entry(target) {
        Entry::Missing => Source::Missing,
        Entry::Denied => Source::Unreadable,
        Entry::Directory => Source::Directory,
        // FIFOs, sockets and devices are never opened (a FIFO would block).
        Entry::Special => Source::Special,
        Entry::File { .. } => match ws.read(target) {
            Ok(Some(read)) => {
                bytes = read;
                Source::Bytes(&bytes)
            }
            Ok(None) => Source::Missing,
            Err(FsError::IsDirectory { .. }) => Source::Directory,
            Err(FsError::Io { source, .. })
                if source.kind() == std::io::ErrorKind::PermissionDenied =>
            {
                Source::Unreadable
            }
            Err(err) => return Outcome::refused(err.code(), err.to_string()),
        },
        // Inaccessible for another reason (or a kind a later version adds).
        _ => Source::Inaccessible,
    };
    render_parsed(path, source, offset, limit, store, &target.key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashline_state::MemoryStore;

    fn run(bytes: &[u8], offset: Option<usize>, limit: Option<usize>) -> (Outcome, MemoryStore) {
        let store = MemoryStore::new();
        let out = render_parsed(
            "f.txt",
            Source::Bytes(bytes),
            offset,
            limit,
            &store,
            "/k/f.txt",
        );
        (out, store)
    }

    fn head(store: &MemoryStore) -> Option<String> {
        store
            .head("/k/f.txt")
            .expect("memory store never fails")
            .map(|s| s.text)
    }

    #[test]
    fn decode_strips_bom_and_normalizes_endings() {
        let d = decode(b"\xEF\xBB\xBFa\r\nb\rc\n");
        assert_eq!((d.text.as_ref(), d.lossy), ("a\nb\nc\n", false));
        let d = decode(b"\xEF\xBB\xBF\xEF\xBB\xBFx");
        assert_eq!(d.text, "\u{feff}x");
        let d = decode(b"a\xFFb");
        assert_eq!((d.text.as_ref(), d.lossy), ("a\u{fffd}b", true));
        assert!(matches!(decode(b"plain\n").text, Cow::Borrowed(_)));
    }

    #[test]
    fn decode_agrees_with_the_core_text_model() {
        let samples: [&[u8]; 8] = [
            b"",
            b"\xEF\xBB\xBF",
            b"\xEF\xBB\xBF\xEF\xBB\xBFa\r\n",
            b"a\rb\r\r\nc\n\r",
            b"\xE2\x82\n\xFF\xFE x\r\n\xC3",
            b"caf\xC3\xA9\r",
            b"\xF0\x9F\x98\x80 \xF0\x9F\n",
            b"\r\n\r\n",
        ];
        for bytes in samples {
            let core = hashline_core::TextFile::decode(bytes.to_vec());
            let ours = decode(bytes);
            assert_eq!(ours.text, core.text(), "{bytes:?}");
            assert_eq!(ours.lossy, core.is_lossy(), "{bytes:?}");
        }
    }

    #[test]
    fn records_the_whole_text_for_a_window() {
        let (out, store) = run(b"\xEF\xBB\xBFa\r\nb\r\nc\r\n", Some(2), Some(1));
        assert!(out.ok);
        assert!(out
            .text
            .ends_with("[Showing lines 2-2 of 3. Use offset=3 to continue.]"));
        assert_eq!(head(&store).as_deref(), Some("a\nb\nc\n"));
    }

    #[test]
    fn nothing_recorded_when_nothing_shown() {
        let (out, store) = run(b"a\nb\n", Some(3), None);
        assert!(out.ok);
        assert!(out
            .text
            .starts_with("Offset 3 is beyond end of file (2 lines total)."));
        assert_eq!(head(&store), None);
    }

    #[test]
    fn empty_file_advisory_is_recorded() {
        let (out, store) = run(b"", None, None);
        assert_eq!(out.text, EMPTY_FILE);
        assert_eq!(head(&store).as_deref(), Some(""));
    }

    #[test]
    fn images_are_described_and_binaries_refused() {
        let (out, store) = run(b"GIF89a\x01\x00", None, None);
        assert_eq!(
            (out.ok, out.text.as_str()),
            (true, "Read image file [image/gif]")
        );
        assert_eq!(head(&store), None);
        let (out, _) = run(b"%PDF-1.4\n", None, None);
        assert_eq!(out.code, Some(ErrorCode::Binary));
        assert!(out.text.contains("(application/pdf)"));
    }

    #[test]
    fn empty_texts_share_the_howto() {
        assert_eq!(EMPTY_FILE, format!("File is empty. {EMPTY_HOWTO}"));
    }

    #[test]
    fn special_files_are_binary() {
        let store = MemoryStore::new();
        let out = render_parsed("p", Source::Special, None, None, &store, "k");
        assert_eq!(out.code, Some(ErrorCode::Binary));
        assert!(out.text.contains("(unsupported file type)"));
    }
}
