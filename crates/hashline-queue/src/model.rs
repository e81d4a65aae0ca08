//! What a queued preview holds: [`PreviewId`], [`Fingerprint`], [`QueuedFile`], [`QueuedPreview`].

use std::path::PathBuf;
use std::str::FromStr;

use hashline_ast::{MatchEdit, Preview, RewriteRequest};
use serde::{Deserialize, Serialize};

/// The id of a queued preview: a positive number, unique in the state database (ids are never
/// reused, so an applied or discarded id stays unknown).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PreviewId(i64);

impl PreviewId {
    /// `n` as an id, when it is positive.
    pub fn new(n: i64) -> Option<PreviewId> {
        (n >= 1).then_some(PreviewId(n))
    }

    /// The number.
    pub fn get(self) -> i64 {
        self.0
    }
}

impl std::fmt::Display for PreviewId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for PreviewId {
    type Err = String;

    /// Accepts `7`, and `#7` as the listing might be copied.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let t = t.strip_prefix('#').unwrap_or(t);
        t.parse::<i64>()
            .ok()
            .and_then(PreviewId::new)
            .ok_or_else(|| {
                format!(
                    "`{s}` is not a preview id; use a number that `hashline resolve` lists (or none for the newest)"
                )
            })
    }
}

/// A fingerprint of a file's bytes: its length and XXH3-128 digest. Apply refuses a preview when
/// any of its files no longer has the fingerprint it had when the preview was made.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fingerprint {
    /// Length in bytes.
    pub len: u64,
    /// XXH3-128 of the bytes, 32 lower-case hex digits.
    pub xxh3: String,
}

impl Fingerprint {
    /// The fingerprint of `bytes`.
    pub fn of(bytes: &[u8]) -> Fingerprint {
        Fingerprint {
            len: u64::try_from(bytes.len()).unwrap_or(u64::MAX),
            xxh3: format!("{:032x}", xxhash_rust::xxh3::xxh3_128(bytes)),
        }
    }

    /// Whether `bytes` have this fingerprint.
    pub fn matches(&self, bytes: &[u8]) -> bool {
        *self == Fingerprint::of(bytes)
    }
}

/// One file of a queued preview: where it is, what it looked like, and the exact edits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueuedFile {
    /// Root-relative display path (`/` separators).
    pub path: String,
    /// Canonical absolute path when the preview was made.
    pub abs: PathBuf,
    /// Hashline tag of the previewed text (the `¶PATH#TAG` of the preview).
    pub tag: String,
    /// Fingerprint of the previewed bytes.
    pub fingerprint: Fingerprint,
    /// The replacements, in file order: byte ranges into the previewed bytes and their new text.
    pub matches: Vec<MatchEdit>,
}

/// A preview waiting in the queue for `apply` or `discard`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueuedPreview {
    /// Its id.
    pub id: PreviewId,
    /// When it was queued, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// The call that made it (rules, paths, root, language, caps).
    pub request: RewriteRequest,
    /// The files with replacements, in preview order.
    pub files: Vec<QueuedFile>,
}

impl QueuedPreview {
    /// Total number of replacements.
    pub fn replacements(&self) -> usize {
        self.files.iter().map(|f| f.matches.len()).sum()
    }

    /// Every match id (`FILE:MATCH`), in preview order.
    pub fn match_ids(&self) -> impl Iterator<Item = &str> {
        self.files
            .iter()
            .flat_map(|f| f.matches.iter().map(|m| m.id.as_str()))
    }

    /// The seed's label: `AST Edit: 3 replacements in 2 files`.
    pub fn label(&self) -> String {
        label(self.replacements(), self.files.len())
    }
}

/// `AST Edit: N replacement(s) in M file(s)`, as the seed labels a pending preview.
pub fn label(replacements: usize, files: usize) -> String {
    format!("AST Edit: {}", replacements_in_files(replacements, files))
}

/// `N replacement(s) in M file(s)`: the counts as every ast-edit text words them.
pub fn replacements_in_files(replacements: usize, files: usize) -> String {
    format!(
        "{replacements} replacement{} in {files} file{}",
        plural(replacements),
        plural(files)
    )
}

/// `"s"` unless `n == 1`.
pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The files of `preview` as the queue stores them (fingerprints of the previewed bytes).
pub(crate) fn queued_files(preview: &Preview) -> Vec<QueuedFile> {
    preview
        .files
        .iter()
        .map(|f| QueuedFile {
            path: f.path.clone(),
            abs: f.abs.clone(),
            tag: f.tag.clone(),
            fingerprint: Fingerprint::of(&f.original),
            matches: f.matches.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_parse_and_print() {
        assert_eq!("7".parse::<PreviewId>().map(PreviewId::get), Ok(7));
        assert_eq!(" #12 ".parse::<PreviewId>().map(PreviewId::get), Ok(12));
        assert!("0".parse::<PreviewId>().is_err());
        assert!("x".parse::<PreviewId>().is_err());
        assert_eq!(PreviewId::new(3).map(|i| i.to_string()), Some("3".into()));
    }

    #[test]
    fn fingerprint_sees_any_byte() {
        let f = Fingerprint::of(b"foo(1);\n");
        assert!(f.matches(b"foo(1);\n"));
        assert!(!f.matches(b"foo(2);\n"));
        assert!(!f.matches(b"foo(1);\r\n"));
        assert_eq!(f.len, 8);
        assert_eq!(f.xxh3.len(), 32);
    }

    #[test]
    fn labels_pluralize() {
        assert_eq!(label(1, 1), "AST Edit: 1 replacement in 1 file");
        assert_eq!(label(3, 2), "AST Edit: 3 replacements in 2 files");
    }
}
