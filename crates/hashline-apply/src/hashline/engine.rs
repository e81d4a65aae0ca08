//! The whole tool call: sections → per-section preparation → all-or-nothing commit.
//!
//! The file access is abstracted by [`Files`] so the same computation runs on a
//! [`crate::fs::Workspace`] (the tool) and on in-memory files (library-level conformance runs).

use std::path::Path;

use hashline_anchor::tag::file_tag;
use hashline_core::TextFile;
use hashline_state::SnapshotStore;
use hashline_syntax::hashline::{parse_body, split_sections, SplitOptions};

use super::error::HashlineError;
use super::lower::BlockCtx;
use super::section::{prepare, Mode, SectionInput};
use super::{messages, EditOptions};

/// Where sections' paths land and how files are read.
pub(crate) trait Files {
    /// A resolved file.
    type Handle: Clone;
    /// Resolve a section path; returns the handle and its store key (the canonical identity).
    fn resolve(&self, path: &str) -> Result<(Self::Handle, String), HashlineError>;
    /// The file's bytes, `None` when it does not exist.
    fn read(&self, handle: &Self::Handle) -> Result<Option<Vec<u8>>, HashlineError>;
    /// Directory that absolute header paths are made relative to.
    fn cwd(&self) -> Option<String>;
}

/// One section ready to commit.
pub(crate) struct Planned<H> {
    /// The section path as written.
    pub display: String,
    /// The resolved file.
    pub handle: H,
    /// Store key.
    pub key: String,
    /// Bytes read.
    pub old_bytes: Vec<u8>,
    /// LF text read.
    pub old_text: String,
    /// Bytes to write.
    pub new_bytes: Vec<u8>,
    /// LF text after the edit.
    pub new_text: String,
    /// Tag of `new_text`.
    pub new_tag: String,
    /// Warnings of the section.
    pub warnings: Vec<String>,
}

impl<H> Planned<H> {
    /// Whether the section changes nothing.
    pub fn is_noop(&self) -> bool {
        self.new_text == self.old_text
    }
}

/// Prepare every section of `input` (nothing is written). Refusals in the seed's order:
/// splitting, then per section parse → tag → path → existence → tag validation/recovery/apply;
/// then duplicate files; then (with several sections) any no-op.
pub(crate) fn plan<F: Files>(
    files: &F,
    store: &dyn SnapshotStore,
    input: &str,
    opts: &EditOptions<'_>,
    mode: Mode,
) -> Result<Vec<Planned<F::Handle>>, HashlineError> {
    let split = SplitOptions {
        cwd: files.cwd(),
        fallback_path: None,
    };
    let sections = split_sections(input, &split).map_err(|e| HashlineError::Parse(e.message))?;
    if sections.is_empty() {
        return Err(HashlineError::Parse(messages::NO_SECTIONS.to_string()));
    }
    let mut planned: Vec<Planned<F::Handle>> = Vec::with_capacity(sections.len());
    for section in &sections {
        let body = parse_body(&section.body).map_err(|e| HashlineError::Parse(e.message))?;
        let Some(tag) = section.tag.as_deref() else {
            return Err(HashlineError::MissingTag(messages::missing_tag(
                &section.path,
            )));
        };
        let (handle, key) = files.resolve(&section.path)?;
        let Some(bytes) = files.read(&handle)? else {
            return Err(HashlineError::FileNotFound(messages::file_not_found(
                &section.path,
            )));
        };
        if let Some(message) = hashline_core::kind::refusal(&section.path, &bytes, "edit") {
            return Err(HashlineError::Fs(hashline_core::ErrorCode::Binary, message));
        }
        let live = TextFile::decode(bytes);
        let ctx = BlockCtx {
            guard: opts.guard,
            resolver: opts.resolver,
            path: Path::new(&section.path),
        };
        let input = SectionInput {
            path: &section.path,
            tag,
            hunks: &body.hunks,
            parse_warnings: &body.warnings,
            key: &key,
        };
        let result = prepare(&input, &live, store, ctx, mode)?;
        let encoded = result.encoded;
        let new_bytes = encoded.bytes;
        let mut warnings = result.warnings;
        warnings.extend(encoded.lost_bytes);
        let mut new_text = result.text;
        if let Some(shown) = encoded.reread {
            // The tag and the preview must describe the file as the next read will show it.
            warnings.push(messages::REREAD_DIFFERS.to_string());
            new_text = shown;
        }
        // Moved, not copied: on a 100 MB file every copy is 100 MB of peak memory.
        let (old_bytes, old_text) = live.into_parts();
        planned.push(Planned {
            display: section.path.clone(),
            handle,
            key,
            old_text,
            new_tag: file_tag(&new_text),
            new_text,
            new_bytes,
            old_bytes,
            warnings,
        });
    }
    for (i, p) in planned.iter().enumerate() {
        if let Some(first) = planned[..i].iter().find(|q| q.key == p.key) {
            return Err(HashlineError::DuplicateFile(messages::duplicate_target(
                &first.display,
                &p.display,
            )));
        }
    }
    if planned.len() > 1 {
        if let Some(p) = planned.iter().find(|p| p.is_noop()) {
            return Err(HashlineError::Noop(messages::noop(&p.display)));
        }
    }
    Ok(planned)
}
