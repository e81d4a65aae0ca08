//! [`PreviewQueue::apply`]: check every fingerprint, then write the chosen edits all or nothing.

use std::collections::HashSet;
use std::path::PathBuf;

use hashline_ast::{splice_matches, MatchEdit};
use hashline_core::TextFile;
use hashline_fs::{Change, Disk};
use hashline_fs::{FsError, Target};

use crate::error::QueueError;
use crate::model::{Fingerprint, PreviewId, QueuedPreview};
use crate::queue::PreviewQueue;

/// How many match ids an unknown-id refusal lists.
const IDS_SHOWN: usize = 10;

/// What [`PreviewQueue::apply`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The preview (now removed from the queue).
    pub preview: QueuedPreview,
    /// The ids of the matches written, in preview order.
    pub match_ids: Vec<String>,
    /// The files written, in preview order.
    pub files: Vec<AppliedFile>,
    /// Problems after the write that did not undo it (e.g. the preview could not be removed).
    pub warnings: Vec<String>,
    /// After a partial apply (`--only`), the ids of the matches not chosen: they stay queued
    /// under the same preview id, carried onto the written bytes. Empty when the whole preview
    /// was applied (it is removed from the queue).
    pub pending: Vec<String>,
    /// The write's undo id (`None`: not recorded).
    pub undo: Option<u64>,
}

impl Applied {
    /// Number of replacements written.
    pub fn replacements(&self) -> usize {
        self.match_ids.len()
    }
}

/// One file [`PreviewQueue::apply`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedFile {
    /// Root-relative display path.
    pub path: String,
    /// The file written (symlinks resolved).
    pub real: PathBuf,
    /// The snapshot-store key of the file ([`Target::key`]).
    pub key: String,
    /// Its bytes before (the previewed bytes).
    pub before: Vec<u8>,
    /// Its bytes now.
    pub after: Vec<u8>,
    /// Replacements written in it.
    pub replacements: usize,
}

impl PreviewQueue {
    /// Apply preview `id` (the newest when `None`): all its matches, or only those named in
    /// `only` (`FILE:MATCH` ids as the preview printed them).
    ///
    /// Order of checks, all before any write: the preview exists ([`QueueError::NoPreview`]);
    /// every id of `only` is one of its matches ([`QueueError::UnknownMatch`]; the preview stays
    /// queued); every file of the preview resolves inside `ws` and, under the workspace's
    /// inter-process locks, still has the fingerprint it had at preview time
    /// ([`QueueError::Stale`]; the preview is dropped). Then every file is written through one
    /// [`Disk::write`] (all or nothing; one [`hashline_fs::Transaction`] on a workspace). The preview is then removed from the queue, or, after a
    /// partial apply, keeps the matches not chosen (same id, same match ids), their byte ranges,
    /// lines and the fingerprints moved onto the bytes just written ([`Applied::pending`]).
    pub fn apply(
        &self,
        ws: &dyn Disk,
        id: Option<PreviewId>,
        only: Option<&[String]>,
    ) -> Result<Applied, QueueError> {
        let preview = self.get(id)?;
        let chosen = only.map(|ids| choose(&preview, ids)).transpose()?;
        let picked = |m: &MatchEdit| chosen.as_ref().is_none_or(|c| c.contains(m.id.as_str()));

        let targets = preview
            .files
            .iter()
            .map(|f| {
                let mut target = ws.resolve(&f.abs.to_string_lossy())?;
                target.display = f.path.clone();
                Ok(target)
            })
            .collect::<Result<Vec<Target>, FsError>>()?;
        let _guard = ws.lock(&targets.iter().collect::<Vec<_>>())?;

        let mut current = Vec::with_capacity(targets.len());
        let mut changed = Vec::new();
        for (file, target) in preview.files.iter().zip(&targets) {
            match ws.read(target) {
                Ok(Some(bytes)) if file.fingerprint.matches(&bytes) => current.push(bytes),
                Ok(_) | Err(FsError::IsDirectory { .. }) => changed.push(file.path.clone()),
                Err(e) => return Err(e.into()),
            }
        }
        if !changed.is_empty() {
            return Err(self.stale(&preview, changed));
        }

        let mut changes = Vec::new();
        let mut files = Vec::new();
        let mut match_ids = Vec::new();
        for ((file, target), bytes) in preview.files.iter().zip(&targets).zip(current) {
            let edits: Vec<&MatchEdit> = file.matches.iter().filter(|m| picked(m)).collect();
            if edits.is_empty() {
                continue;
            }
            let after = splice_matches(&bytes, &edits).ok_or_else(|| QueueError::Corrupt {
                id: preview.id,
                reason: format!("its edits of {} do not fit the previewed bytes", file.path),
            })?;
            match_ids.extend(edits.iter().map(|m| m.id.clone()));
            changes.push(Change::Write {
                target,
                expected: Some(bytes.clone().into()),
                bytes: after.clone().into(),
            });
            files.push(AppliedFile {
                path: file.path.clone(),
                real: target.real.clone(),
                key: target.key.clone(),
                before: bytes,
                after,
                replacements: edits.len(),
            });
        }
        let written = match ws.write(changes) {
            Ok(written) => written,
            // Another writer that ignores hashline's locks got in between read and commit.
            Err(FsError::Changed { path }) => return Err(self.stale(&preview, vec![path])),
            Err(e) => return Err(e.into()),
        };
        let undo = written.undo;
        let mut warnings: Vec<String> = written.warning().map(str::to_owned).into_iter().collect();
        let rest = remainder(&preview, &files, &picked);
        let pending: Vec<String> = rest.match_ids().map(str::to_owned).collect();
        let kept = if pending.is_empty() {
            self.remove(preview.id).map(|_| ())
        } else {
            self.replace_files(preview.id, &rest.files)
        };
        if let Err(e) = kept {
            warnings.push(format!(
                "[W_QUEUE_NOT_UPDATED] the files were written, but preview {} could not be updated in the queue ({e}); discard it with `hashline resolve discard {}`",
                preview.id, preview.id
            ));
        }
        Ok(Applied {
            preview,
            match_ids,
            files,
            warnings,
            pending,
            undo,
        })
    }

    /// Drops `preview` (it can never apply again) and returns the stale refusal.
    fn stale(&self, preview: &QueuedPreview, changed: Vec<String>) -> QueueError {
        if let Err(e) = self.remove(preview.id) {
            return e;
        }
        QueueError::Stale {
            id: preview.id,
            changed,
        }
    }
}

/// The ids of `only`, each checked against the preview.
fn choose<'a>(preview: &QueuedPreview, only: &'a [String]) -> Result<HashSet<&'a str>, QueueError> {
    let known: HashSet<&str> = preview.match_ids().collect();
    let wanted: HashSet<&str> = only
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect();
    if wanted.is_empty() {
        return Err(QueueError::NoMatchChosen);
    }
    let mut sorted: Vec<&str> = wanted.iter().copied().collect();
    sorted.sort_unstable();
    if let Some(bad) = sorted.into_iter().find(|id| !known.contains(id)) {
        let mut list: Vec<&str> = preview.match_ids().take(IDS_SHOWN).collect();
        if known.len() > IDS_SHOWN {
            list.push("…");
        }
        return Err(QueueError::UnknownMatch {
            preview: preview.id,
            id: bad.to_owned(),
            known: list.join(", "),
        });
    }
    Ok(wanted)
}

/// A forward-only position in a file's bytes: 1-based line and character column of
/// increasing offsets, each byte looked at once.
#[derive(Default)]
struct Cursor {
    at: usize,
    line: usize,
    column: usize,
}

impl Cursor {
    /// The line and column of byte `to` (not before the last one asked).
    fn advance(&mut self, bytes: &[u8], to: usize) -> (usize, usize) {
        let to = to.min(bytes.len());
        if self.line == 0 {
            (self.line, self.column) = (1, 1);
        }
        let step = &bytes[self.at.min(to)..to];
        match step.iter().rposition(|&b| b == b'\n') {
            Some(last) => {
                self.line += step.iter().filter(|&&b| b == b'\n').count();
                self.column = String::from_utf8_lossy(&step[last + 1..]).chars().count() + 1;
            }
            None => self.column += String::from_utf8_lossy(step).chars().count(),
        }
        self.at = self.at.max(to);
        (self.line, self.column)
    }
}

/// What stays queued after a partial apply: every match `picked` left out, carried onto the
/// bytes just written (`written`, by display path): each range moves by what the applied
/// replacements before it added or removed, its line and column are counted again, and the
/// file's fingerprint and tag become those of the written bytes. Files not written keep theirs.
fn remainder(
    preview: &QueuedPreview,
    written: &[AppliedFile],
    picked: &dyn Fn(&MatchEdit) -> bool,
) -> QueuedPreview {
    let mut rest = preview.clone();
    for file in &mut rest.files {
        let applied: Vec<MatchEdit> = file.matches.iter().filter(|m| picked(m)).cloned().collect();
        file.matches.retain(|m| !picked(m));
        let Some(now) = written.iter().find(|w| w.path == file.path) else {
            continue;
        };
        // Both lists are in file order (matches never overlap): one walk carries the running
        // shift of the applied replacements before each kept match and a line/column cursor.
        let mut applied = applied.iter().peekable();
        let mut shift: isize = 0;
        let mut cursor = Cursor::default();
        for m in &mut file.matches {
            while let Some(a) = applied.next_if(|a| a.byte_range.end <= m.byte_range.start) {
                shift += a.after.len() as isize - a.byte_range.len() as isize;
            }
            let start = m.byte_range.start.saturating_add_signed(shift);
            m.byte_range = start..start + m.byte_range.len();
            (m.line, m.column) = cursor.advance(&now.after, start);
        }
        file.fingerprint = Fingerprint::of(&now.after);
        file.tag = match std::str::from_utf8(&now.after) {
            // The common case, already the LF text: tagged without a copy.
            Ok(text) if !text.starts_with('\u{feff}') && !text.contains('\r') => {
                hashline_anchor::tag::file_tag(text)
            }
            _ => hashline_anchor::tag::file_tag(&TextFile::decode_text(now.after.clone())),
        };
    }
    rest.files.retain(|f| !f.matches.is_empty());
    rest
}
