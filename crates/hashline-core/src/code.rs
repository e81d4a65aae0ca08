//! Stable error codes.
//!
//! Every refusal in every dialect carries one of these. The string form (`E_…`) is part of the
//! public contract: scripts and `--json` consumers match on it, so a variant's string never
//! changes once released. Codes that a seed tool prints in brackets (`[E_BAD_REF]`) use the
//! seed's spelling.

use serde::{Deserialize, Serialize};

/// A stable, machine-readable reason for a refusal.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorCode {
    /// The patch text does not parse (hashline language).
    #[serde(rename = "E_PARSE")]
    Parse,
    /// A section has no `#TAG` (hashline language).
    #[serde(rename = "E_MISSING_TAG")]
    MissingTag,
    /// The tag or anchors name a file state that is not the one on disk and recovery could not
    /// prove a result.
    #[serde(rename = "E_STALE_ANCHOR")]
    StaleAnchor,
    /// A line number outside the file.
    #[serde(rename = "E_LINE_RANGE")]
    LineRange,
    /// The edit changes nothing.
    #[serde(rename = "E_NOOP")]
    Noop,
    /// The file to edit does not exist.
    #[serde(rename = "E_FILE_NOT_FOUND")]
    FileNotFound,
    /// A path resolves outside `--root`.
    #[serde(rename = "E_OUTSIDE_ROOT")]
    OutsideRoot,
    /// `replace block N:` / `delete block N` found no block.
    #[serde(rename = "E_BLOCK_UNRESOLVED")]
    BlockUnresolved,
    /// Two edits in one request touch the same lines or boundary.
    #[serde(rename = "E_EDIT_CONFLICT")]
    EditConflict,
    /// Two sections or requests name the same file.
    #[serde(rename = "E_DUPLICATE_FILE")]
    DuplicateFile,
    /// The path is a directory.
    #[serde(rename = "E_IS_DIRECTORY")]
    IsDirectory,
    /// The file is binary (or an image) and cannot be edited as text.
    #[serde(rename = "E_BINARY")]
    Binary,
    /// The request is not of the dialect's shape.
    #[serde(rename = "E_BAD_SHAPE")]
    BadShape,
    /// An unknown or malformed operation.
    #[serde(rename = "E_BAD_OP")]
    BadOp,
    /// A malformed anchor reference.
    #[serde(rename = "E_BAD_REF")]
    BadRef,
    /// An anchor hash matches more than one line.
    #[serde(rename = "E_AMBIGUOUS_ANCHOR")]
    AmbiguousAnchor,
    /// Payload lines carry pasted `HASH:` prefixes.
    #[serde(rename = "E_BARE_HASH_PREFIX")]
    BareHashPrefix,
    /// An old request shape that is no longer accepted.
    #[serde(rename = "E_LEGACY_SHAPE")]
    LegacyShape,
    /// The edit would empty a non-empty file.
    #[serde(rename = "E_WOULD_EMPTY")]
    WouldEmpty,
    /// The patch is not valid for its dialect (catch-all of the hash-json dialect).
    #[serde(rename = "E_INVALID_PATCH")]
    InvalidPatch,
    /// A pasted anchor or diff marker that the engine will not write into a file.
    #[serde(rename = "E_PASTED_ANCHOR")]
    PastedAnchor,
    /// A rename or create onto a file that exists.
    #[serde(rename = "E_FILE_EXISTS")]
    FileExists,
    /// A structural-rewrite pattern or template that does not compile.
    #[serde(rename = "E_BAD_PATTERN")]
    BadPattern,
    /// The language of a file cannot be inferred or is not built in.
    #[serde(rename = "E_UNSUPPORTED_LANGUAGE")]
    UnsupportedLanguage,
    /// A queued preview whose files changed since it was made.
    #[serde(rename = "E_STALE_PREVIEW")]
    StalePreview,
    /// No queued preview with that id.
    #[serde(rename = "E_NO_PREVIEW")]
    NoPreview,
    /// The target exists but may not be read or written (file permissions): a refusal the model
    /// can act on (pick another file, ask the user), not a tool failure.
    #[serde(rename = "E_PERMISSION_DENIED")]
    PermissionDenied,
    /// An I/O failure not caused by the patch.
    #[serde(rename = "E_IO")]
    Io,
    /// The edit would add a syntax error to a region of the file that had none (a compiled-in
    /// grammar parsed the file before and after).
    #[serde(rename = "E_SYNTAX_INTRODUCED")]
    SyntaxIntroduced,
    /// The payload carries something that is not file content: read anchors (`N:`, `HASH:`,
    /// `N#ID|`), diff markers or headers, a literal `\n` joining two lines, a `\r` inside a row.
    #[serde(rename = "E_PAYLOAD_CONTAMINATED")]
    PayloadContaminated,
    /// The payload's indentation does not fit the block it lands in (spaces in a tab-indented
    /// block, indentation dropped below the lines it replaces).
    #[serde(rename = "E_INDENTATION")]
    Indentation,
    /// The range's boundary looks off by one: it swallows a closer or a separating blank line the
    /// payload does not restate, or it leaves a line behind that the payload replaces.
    #[serde(rename = "E_RANGE_BOUNDARY")]
    RangeBoundary,
    /// The path is a FIFO, socket or device: refused before it is opened.
    #[serde(rename = "E_NOT_REGULAR_FILE")]
    NotRegularFile,
    /// The file is larger than the read cap (`HASHLINE_MAX_FILE_BYTES`).
    #[serde(rename = "E_FILE_TOO_LARGE")]
    FileTooLarge,
    /// Another process held the file's lock longer than `HASHLINE_LOCK_TIMEOUT`.
    #[serde(rename = "E_LOCK_TIMEOUT")]
    LockTimeout,
    /// A file name holds a control character (newline, tab, escape, …) that could forge rows of
    /// model-facing text ([`crate::name`]).
    #[serde(rename = "E_UNSAFE_PATH")]
    UnsafePath,
    /// The text to replace does not occur in the file (the text-editor tool).
    #[serde(rename = "E_NO_MATCH")]
    NoMatch,
    /// The text to replace occurs more than once (the text-editor tool).
    #[serde(rename = "E_AMBIGUOUS_MATCH")]
    AmbiguousMatch,
    /// There is no edit of the file in this session to undo (the text-editor tool's `undo_edit`).
    #[serde(rename = "E_NO_HISTORY")]
    NoHistory,
    /// A patch's context or old lines are not in the file (a V4A patch).
    #[serde(rename = "E_CONTEXT_NOT_FOUND")]
    ContextNotFound,
    /// A patch's context or old lines occur more than once where they are searched
    /// (a V4A patch): the edit is not guessed onto the first.
    #[serde(rename = "E_AMBIGUOUS_CONTEXT")]
    AmbiguousContext,
    /// `undo` names a call the undo log does not hold (or the session has none).
    #[serde(rename = "E_UNDO_UNKNOWN")]
    UndoUnknown,
    /// `undo` refused: a file the call changed has changed since.
    #[serde(rename = "E_UNDO_CHANGED")]
    UndoChanged,
    /// `undo` without an id refused: the session's newest call landed without an undo record.
    #[serde(rename = "E_UNDO_NOT_RECORDED")]
    UndoNotRecorded,
    /// A symlink cannot be changed as the request asks (a move of a link, or a link's deletion
    /// together with other changes).
    #[serde(rename = "E_SYMLINK")]
    Symlink,
    /// A directory on the path is a regular file (`file.txt/x`).
    #[serde(rename = "E_NOT_A_DIRECTORY")]
    NotADirectory,
    /// The path lies in hashline's own state directory (`--state`), also when that is inside
    /// the root: no command reads, writes or lists its records through a dialect.
    #[serde(rename = "E_STATE_PATH")]
    StatePath,
    /// A new line holds a character the legacy code page the file is written in cannot hold.
    #[serde(rename = "E_UNENCODABLE")]
    Unencodable,
    /// The command needs a directory on disk (`undo`, `recover`), and the session
    /// runs over another file system (an embedder's in-memory or own `Disk`).
    #[serde(rename = "E_NEEDS_DIRECTORY")]
    NeedsDirectory,
    /// The command line is not valid (an unknown flag or command, a missing or malformed
    /// argument); the CLI exits 2.
    #[serde(rename = "E_USAGE")]
    Usage,
    /// `write` would replace an existing file the session never read (without `--overwrite`).
    #[serde(rename = "E_NOT_READ")]
    NotRead,
    /// A record in the state directory (a journal plan, an undo record) fails its checks: a
    /// seal that does not verify, or a name outside the root or not the engine's own. It is not
    /// acted on and is left in place.
    #[serde(rename = "E_STATE_TAMPERED")]
    StateTampered,
    /// The caller cancelled the call while it ran (an MCP client's `notifications/cancelled`
    /// for an `ast_edit`): it stopped, and nothing was queued or written.
    #[serde(rename = "E_CANCELLED")]
    Cancelled,
}

impl ErrorCode {
    /// Every code, in declaration order (for catalogs and documentation checks).
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::Parse,
        ErrorCode::MissingTag,
        ErrorCode::StaleAnchor,
        ErrorCode::LineRange,
        ErrorCode::Noop,
        ErrorCode::FileNotFound,
        ErrorCode::OutsideRoot,
        ErrorCode::BlockUnresolved,
        ErrorCode::EditConflict,
        ErrorCode::DuplicateFile,
        ErrorCode::IsDirectory,
        ErrorCode::Binary,
        ErrorCode::BadShape,
        ErrorCode::BadOp,
        ErrorCode::BadRef,
        ErrorCode::AmbiguousAnchor,
        ErrorCode::BareHashPrefix,
        ErrorCode::LegacyShape,
        ErrorCode::WouldEmpty,
        ErrorCode::InvalidPatch,
        ErrorCode::PastedAnchor,
        ErrorCode::FileExists,
        ErrorCode::BadPattern,
        ErrorCode::UnsupportedLanguage,
        ErrorCode::StalePreview,
        ErrorCode::NoPreview,
        ErrorCode::PermissionDenied,
        ErrorCode::Io,
        ErrorCode::SyntaxIntroduced,
        ErrorCode::PayloadContaminated,
        ErrorCode::Indentation,
        ErrorCode::RangeBoundary,
        ErrorCode::NotRegularFile,
        ErrorCode::FileTooLarge,
        ErrorCode::LockTimeout,
        ErrorCode::UnsafePath,
        ErrorCode::NoMatch,
        ErrorCode::AmbiguousMatch,
        ErrorCode::NoHistory,
        ErrorCode::ContextNotFound,
        ErrorCode::AmbiguousContext,
        ErrorCode::UndoUnknown,
        ErrorCode::UndoChanged,
        ErrorCode::Unencodable,
        ErrorCode::NeedsDirectory,
        ErrorCode::Usage,
        ErrorCode::NotRead,
        ErrorCode::StateTampered,
        ErrorCode::UndoNotRecorded,
        ErrorCode::Symlink,
        ErrorCode::NotADirectory,
        ErrorCode::Cancelled,
        ErrorCode::StatePath,
    ];

    /// The code as printed: `E_STALE_ANCHOR`, ….
    pub fn as_str(self) -> &'static str {
        use ErrorCode::*;
        match self {
            Parse => "E_PARSE",
            MissingTag => "E_MISSING_TAG",
            StaleAnchor => "E_STALE_ANCHOR",
            LineRange => "E_LINE_RANGE",
            Noop => "E_NOOP",
            FileNotFound => "E_FILE_NOT_FOUND",
            OutsideRoot => "E_OUTSIDE_ROOT",
            BlockUnresolved => "E_BLOCK_UNRESOLVED",
            EditConflict => "E_EDIT_CONFLICT",
            DuplicateFile => "E_DUPLICATE_FILE",
            IsDirectory => "E_IS_DIRECTORY",
            Binary => "E_BINARY",
            BadShape => "E_BAD_SHAPE",
            BadOp => "E_BAD_OP",
            BadRef => "E_BAD_REF",
            AmbiguousAnchor => "E_AMBIGUOUS_ANCHOR",
            BareHashPrefix => "E_BARE_HASH_PREFIX",
            LegacyShape => "E_LEGACY_SHAPE",
            WouldEmpty => "E_WOULD_EMPTY",
            InvalidPatch => "E_INVALID_PATCH",
            PastedAnchor => "E_PASTED_ANCHOR",
            FileExists => "E_FILE_EXISTS",
            BadPattern => "E_BAD_PATTERN",
            UnsupportedLanguage => "E_UNSUPPORTED_LANGUAGE",
            StalePreview => "E_STALE_PREVIEW",
            NoPreview => "E_NO_PREVIEW",
            PermissionDenied => "E_PERMISSION_DENIED",
            Io => "E_IO",
            SyntaxIntroduced => "E_SYNTAX_INTRODUCED",
            PayloadContaminated => "E_PAYLOAD_CONTAMINATED",
            Indentation => "E_INDENTATION",
            RangeBoundary => "E_RANGE_BOUNDARY",
            NotRegularFile => "E_NOT_REGULAR_FILE",
            FileTooLarge => "E_FILE_TOO_LARGE",
            LockTimeout => "E_LOCK_TIMEOUT",
            UnsafePath => "E_UNSAFE_PATH",
            NoMatch => "E_NO_MATCH",
            AmbiguousMatch => "E_AMBIGUOUS_MATCH",
            NoHistory => "E_NO_HISTORY",
            ContextNotFound => "E_CONTEXT_NOT_FOUND",
            AmbiguousContext => "E_AMBIGUOUS_CONTEXT",
            UndoUnknown => "E_UNDO_UNKNOWN",
            UndoChanged => "E_UNDO_CHANGED",
            Unencodable => "E_UNENCODABLE",
            NeedsDirectory => "E_NEEDS_DIRECTORY",
            Usage => "E_USAGE",
            NotRead => "E_NOT_READ",
            StateTampered => "E_STATE_TAMPERED",
            UndoNotRecorded => "E_UNDO_NOT_RECORDED",
            Symlink => "E_SYMLINK",
            NotADirectory => "E_NOT_A_DIRECTORY",
            Cancelled => "E_CANCELLED",
            StatePath => "E_STATE_PATH",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn serde_name_matches_as_str() {
        for code in [
            ErrorCode::Parse,
            ErrorCode::StaleAnchor,
            ErrorCode::BadRef,
            ErrorCode::PermissionDenied,
            ErrorCode::Io,
        ] {
            let json = serde_json_like(code);
            assert_eq!(json, code.as_str());
        }
    }

    #[test]
    fn all_lists_every_variant_once() {
        // Exhaustive inside the crate: a new variant fails to compile here until it is placed.
        fn position(code: ErrorCode) -> usize {
            use ErrorCode::*;
            match code {
                Parse => 0,
                MissingTag => 1,
                StaleAnchor => 2,
                LineRange => 3,
                Noop => 4,
                FileNotFound => 5,
                OutsideRoot => 6,
                BlockUnresolved => 7,
                EditConflict => 8,
                DuplicateFile => 9,
                IsDirectory => 10,
                Binary => 11,
                BadShape => 12,
                BadOp => 13,
                BadRef => 14,
                AmbiguousAnchor => 15,
                BareHashPrefix => 16,
                LegacyShape => 17,
                WouldEmpty => 18,
                InvalidPatch => 19,
                PastedAnchor => 20,
                FileExists => 21,
                BadPattern => 22,
                UnsupportedLanguage => 23,
                StalePreview => 24,
                NoPreview => 25,
                PermissionDenied => 26,
                Io => 27,
                SyntaxIntroduced => 28,
                PayloadContaminated => 29,
                Indentation => 30,
                RangeBoundary => 31,
                NotRegularFile => 32,
                FileTooLarge => 33,
                LockTimeout => 34,
                UnsafePath => 35,
                NoMatch => 36,
                AmbiguousMatch => 37,
                NoHistory => 38,
                ContextNotFound => 39,
                AmbiguousContext => 40,
                UndoUnknown => 41,
                UndoChanged => 42,
                Unencodable => 43,
                NeedsDirectory => 44,
                Usage => 45,
                NotRead => 46,
                StateTampered => 47,
                UndoNotRecorded => 48,
                Symlink => 49,
                NotADirectory => 50,
                Cancelled => 51,
                StatePath => 52,
            }
        }
        assert_eq!(ErrorCode::ALL.len(), 53);
        for (i, code) in ErrorCode::ALL.iter().enumerate() {
            assert_eq!(position(*code), i, "{code} out of place in ALL");
        }
    }

    #[test]
    fn every_code_is_documented() {
        let doc =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/ERRORS.md"))
                .expect("docs/ERRORS.md");
        for code in ErrorCode::ALL {
            assert!(
                doc.contains(&format!("`{code}`")),
                "{code} missing from docs/ERRORS.md"
            );
        }
    }

    fn serde_json_like(code: ErrorCode) -> String {
        // Debug of the serde name without pulling serde_json into core: Display is the contract.
        code.to_string()
    }
}
