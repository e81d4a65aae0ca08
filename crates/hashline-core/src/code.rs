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
    /// An I/O failure not caused by the patch.
    #[serde(rename = "E_IO")]
    Io,
}

impl ErrorCode {
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
            Io => "E_IO",
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
            ErrorCode::Io,
        ] {
            let json = serde_json_like(code);
            assert_eq!(json, code.as_str());
        }
    }

    fn serde_json_like(code: ErrorCode) -> String {
        // Debug of the serde name without pulling serde_json into core: Display is the contract.
        code.to_string()
    }
}
