//! File-level steps outside the executor: the read-only check, and the open-and-decode of a
//! `read` command.

use hashline_core::kind::Nul;
use hashline_core::{name, ErrorCode, Refusal, TextFile};

use crate::fs::{FsError, LockGuard, Target};

use super::disk::{Disk, Entry};

/// `path` resolved for any command, after the file-name rule of [`hashline_core::name`]: a name
/// holding a control character is refused (`E_UNSAFE_PATH`) before anything is opened.
pub(crate) fn resolve(ws: &dyn Disk, path: &str) -> Result<Target, Refusal> {
    name::check(path)?;
    Ok(ws.resolve(path)?)
}

/// `Err` with the shared binary refusal ([`hashline_core::kind::refusal_with`]) when `bytes` are
/// not text under the NUL rule `nul`; `verb` is the command (`read`, `edit`).
pub(crate) fn text_only(path: &str, bytes: &[u8], verb: &str, nul: Nul) -> Result<(), Refusal> {
    match hashline_core::kind::refusal_with(path, bytes, verb, nul) {
        None => Ok(()),
        Some(message) => Err(Refusal {
            code: ErrorCode::Binary,
            message,
        }),
    }
}

/// How a dialect decodes a file that is not UTF-8. Either way untouched lines keep their bytes;
/// the encode step ([`crate::pipeline::stage`]) writes new lines in the file's own encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decoding {
    /// UTF-8, invalid sequences shown as U+FFFD (the anchored dialects' seeds).
    Utf8,
    /// A legacy single-byte code page when one is detected
    /// ([`hashline_core::text::detect_charset`]), else as [`Decoding::Utf8`] (the text-editor
    /// tool, whose oracle reads cp1251 and Latin-1 files).
    Legacy,
}

/// `bytes` decoded under `decoding`.
pub(crate) fn decode(bytes: Vec<u8>, decoding: Decoding) -> TextFile {
    match decoding {
        Decoding::Utf8 => TextFile::decode(bytes),
        Decoding::Legacy => TextFile::decode_detected(bytes),
    }
}

/// Whether the file exists and its permissions forbid writing it.
pub(crate) fn is_read_only(disk: &dyn Disk, target: &Target) -> bool {
    matches!(disk.entry(target), Entry::File { read_only: true })
}

/// A file opened for a `read` command: resolved, and locked when a running edit could be seen
/// half done.
pub(crate) struct ForRead {
    /// The resolved file.
    pub target: Target,
    /// Held until the read is recorded (see [`Disk::lock_for_read`]).
    _guard: Option<LockGuard>,
}

/// Resolve `path` for a read and take the read lock: a hard-linked file is rewritten in place,
/// so the read waits for a running edit rather than show half.
pub(crate) fn open_for_read(ws: &dyn Disk, path: &str) -> Result<ForRead, Refusal> {
    let target = resolve(ws, path)?;
    Ok(open_resolved(ws, target)?)
}

/// [`open_for_read`] of a target the caller resolved (after its own name checks).
pub(crate) fn open_resolved(ws: &dyn Disk, target: Target) -> Result<ForRead, FsError> {
    let guard = ws.lock_for_read(&target)?;
    Ok(ForRead {
        target,
        _guard: guard,
    })
}

/// The LF text of an opened file under `decoding`, `None` when it does not exist; a binary file
/// is refused ([`text_only`]). Only the text is kept: the bytes are dropped as soon as they are
/// decoded (a 100 MB file is 100 MB less peak memory).
pub(crate) fn read_text(
    ws: &dyn Disk,
    file: &ForRead,
    nul: Nul,
    decoding: Decoding,
) -> Result<Option<String>, Refusal> {
    let Some(bytes) = ws.read(&file.target)? else {
        return Ok(None);
    };
    text_only(&file.target.display, &bytes, "read", nul)?;
    Ok(Some(match decoding {
        Decoding::Utf8 => TextFile::decode_text(bytes),
        Decoding::Legacy => decode(bytes, decoding).into_text(),
    }))
}
