//! The hash-json front end of the executor: the request's file checks, anchor resolution and
//! stale rebase (its plan), and the seed's response texts.

use std::borrow::Cow;
use std::cell::OnceCell;

use hashline_anchor::hash_json::{hash_lines, push_row, LineHash, LineHasher};
use hashline_core::{Edit, ErrorCode, SpliceError, TextFile};
use hashline_state::{SnapshotStore, StoreError};
use hashline_syntax::hash_json::{parse_envelope, parse_items, EditItem, Envelope};

use crate::anchors::AnchorForm;
use crate::fs::FsError;
use crate::merge::forget_older;
use crate::pipeline::commit::CommitError;
use crate::pipeline::execute::{
    execute, EditPlan, FrontEnd, Guarded, Intent, Land, Opened, Plan, Run,
};
use crate::pipeline::files::is_read_only;
use crate::pipeline::report::{change_report, noop_report, FirstLine};
use crate::Disk;
use crate::{FileOp, Outcome};

use super::checks::{bare_prefix, boundary_warnings, unicode_escape_warning};
use super::plan::{label, plan, NoopRecord};
use super::read::{detect, FileKind};
use super::rebase::{rebase, recorded_base};
use super::resolve::{anchors_of, resolve, Version};
use super::response::{applied, changed_range, noop};
use hashline_core::Refusal;

/// The end of the refusal of a non-text file.
const TEXT_ONLY: &str = "Hashline edit only supports text files.";

/// The warning of an edit to a file with invalid UTF-8. The peer rewrites such a file as UTF-8;
/// we keep every untouched line's bytes (DEVIATIONS §2), so the warning says that instead.
const LOSSY: &str =
    "Non-UTF-8 bytes were shown as U+FFFD; lines this edit did not touch keep their original bytes.";

/// How `edit` runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct EditOptions<'a> {
    /// Compute and report everything, write nothing, record nothing.
    pub dry_run: bool,
    /// The edit guard's options.
    pub guard: crate::guard::GuardOptions<'a>,
    /// Leave `files[].anchors` empty: the caller will not show them (saves a diff of the
    /// whole file per report).
    pub skip_anchors: bool,
}

/// The whole tool call: `request` is the JSON text the model sent
/// (`{"path": …, "edits": [...], "returnMode"?: …, "returnRanges"?: …}`).
///
/// Refusals come back as `ok: false` with the peer's message as `text`; a noop is a success
/// that writes nothing. The file is locked from before it is read until the write committed.
pub fn edit(
    ws: &dyn Disk,
    store: &dyn SnapshotStore,
    request: &str,
    opts: &EditOptions<'_>,
) -> Outcome {
    match run(ws, store, request, opts) {
        Ok(outcome) => outcome,
        Err(refusal) => Outcome::refused(refusal.code, refusal.message),
    }
}

fn run(
    ws: &dyn Disk,
    store: &dyn SnapshotStore,
    request: &str,
    opts: &EditOptions<'_>,
) -> Result<Outcome, Refusal> {
    let env = parse_envelope(request)?;
    let mut front = HashJson {
        env,
        items: Vec::new(),
        noops: Vec::new(),
        hashes: OnceCell::new(),
    };
    let run = Run {
        dry_run: opts.dry_run,
        guard: opts.guard,
    };
    let done = execute(ws, store, &mut front, &run)?;
    let Some(done) = done.into_iter().next() else {
        return Err(Refusal::new(ErrorCode::Io, "no file was edited"));
    };
    let env = &front.env;
    let path = env.path.as_str();
    let (old, new) = (done.old_text.as_str(), &done.new_pieces());
    if done.noop {
        let text = noop(path, env.return_mode, &env.return_ranges, old, &front.noops);
        return Ok(Outcome {
            undo: None,
            ok: true,
            code: None,
            text,
            warnings: done.warnings,
            files: vec![noop_report(path, old)],
        });
    }
    let text = applied(
        path,
        env.return_mode,
        &env.return_ranges,
        old,
        new,
        &done.warnings,
    );
    let first = changed_range(old, new).map(|(first, _)| first);
    let form = (!opts.skip_anchors).then_some(AnchorForm::Hash);
    let report = change_report(
        path,
        FileOp::Update,
        (old, &done.new_tagged(), done.changes.as_deref()),
        (FirstLine::Given(first), form),
        !opts.dry_run,
    );
    Ok(Outcome {
        undo: done.undo,
        ok: true,
        code: None,
        text,
        warnings: done.warnings,
        files: vec![report],
    })
}

/// The hash-json front end: the request's one file, its anchors, its seed's words.
struct HashJson {
    env: Envelope,
    /// The edit items, parsed once the file is known to be text.
    items: Vec<EditItem>,
    /// The plan's no-op edits (for the no-op text).
    noops: Vec<NoopRecord>,
    /// The read hashes of the file's lines, computed only when a refusal shows anchors.
    hashes: OnceCell<Vec<LineHash>>,
}

impl HashJson {
    fn name(&self, origin: usize) -> String {
        self.items
            .iter()
            .find(|i| i.index == origin)
            .map(label)
            .unwrap_or_default()
    }
}

impl FrontEnd for HashJson {
    type Error = Refusal;

    fn intents(&self) -> Vec<Intent> {
        vec![Intent {
            path: self.env.path.clone(),
            dest: None,
        }]
    }

    fn fs_error(&self, _i: usize, e: FsError) -> Refusal {
        fs_refusal(&e, &self.env.path)
    }

    fn plan(&mut self, opened: Opened<'_>) -> Result<Plan, Refusal> {
        let path = self.env.path.as_str();
        let Some(bytes) = opened.bytes else {
            return Err(Refusal::new(
                ErrorCode::FileNotFound,
                format!("File not found: {path}"),
            ));
        };
        match detect(&bytes) {
            FileKind::Text => {}
            FileKind::Image(_) => {
                let message = format!("Path is an image file: {path}. {TEXT_ONLY}");
                return Err(Refusal::new(ErrorCode::Binary, message));
            }
            FileKind::Binary(what) => {
                let message = format!("Path is a binary file: {path} ({what}). {TEXT_ONLY}");
                return Err(Refusal::new(ErrorCode::Binary, message));
            }
        }
        if !opened.dry_run && is_read_only(opened.disk, opened.target) {
            return Err(Refusal::new(
                ErrorCode::PermissionDenied,
                format!("File is not writable: {path}"),
            ));
        }
        self.items = parse_items(&self.env.edits)?;
        let items = &self.items;
        let file = TextFile::decode(bytes);
        let live_text = file.text();
        let live = Version::new(live_text);
        let store = opened.store;
        let key = &opened.target.key;
        let recorded = recorded_base(store, key, &live, items);
        let held;
        let base = match &recorded {
            Some(b) => {
                held = Version::new(&b.text);
                &held
            }
            None => &live,
        };
        let places = resolve(items, base)?;
        let mut warnings: Vec<String> = Vec::new();
        for (item, &place) in items.iter().zip(&places) {
            warnings.extend(boundary_warnings(item, place, base, &label(item)));
        }
        warnings.extend(items.iter().filter_map(|i| unicode_escape_warning(i, path)));
        // The hashes a read of this file showed: the base's and the disk's first, the other
        // recorded versions hashed only when those do not settle it.
        let others = || {
            let versions = store.versions_except(key, live_text).unwrap_or_default();
            versions
                .into_iter()
                .flatten()
                .map(|v| Cow::<[LineHash]>::Owned(hash_lines(&v.text)))
        };
        let shown = [Cow::from(&base.hashes[..]), Cow::from(&live.hashes[..])];
        bare_prefix(
            items,
            shown
                .into_iter()
                .chain(std::iter::once_with(others).flatten()),
        )?;
        let planned = plan(items, &places, base)?;
        let edits: Vec<Edit> = match &recorded {
            Some(old) => rebase(&planned.edits, old, live_text, items, &|origin| {
                anchor_names(items, origin)
            })
            .inspect_err(|_| {
                // The refusal shows anchors of the disk text: that is a read of it, so a retry
                // with them resolves against the disk instead of being carried over again.
                if !opened.dry_run {
                    forget_older(store, key, live_text);
                }
            })?,
            None => planned.edits,
        };
        self.noops = planned.noops;
        Ok(Plan::Edit(EditPlan {
            file,
            edits,
            spliced: None,
            land: Land::Update,
            warnings,
        }))
    }

    fn splice_error(&self, e: SpliceError) -> Refusal {
        Refusal::new(ErrorCode::InvalidPatch, format!("[E_INVALID_PATCH] {e}"))
    }

    fn anchor(&self, _i: usize, lines: &[&str], n: usize) -> String {
        let hashes = self.hashes.get_or_init(|| {
            let mut hasher = LineHasher::new();
            lines.iter().map(|line| hasher.push(line)).collect()
        });
        let mut row = String::new();
        if let (Some(hash), Some(line)) = (hashes.get(n - 1), lines.get(n - 1)) {
            push_row(&mut row, *hash, line);
        }
        row
    }

    fn label(&self, _i: usize, e: &Edit) -> String {
        self.name(e.origin)
    }

    fn allow_syntax_errors(&self) -> bool {
        self.env.allow_syntax_errors
    }

    fn checked(&mut self, _i: usize, result: &Guarded<'_>) -> Result<Vec<String>, Refusal> {
        let live_text = result.plan.file.text();
        if !live_text.is_empty() && result.new_text.is_empty() {
            return Err(Refusal::new(
                ErrorCode::WouldEmpty,
                "[E_WOULD_EMPTY] Cannot empty a non-empty file via edit.",
            ));
        }
        if result.new_text.eq_str(live_text) {
            return Ok(Vec::new());
        }
        Ok(if result.plan.file.is_lossy() {
            vec![LOSSY.to_owned()]
        } else {
            Vec::new()
        })
    }

    fn store_error(&self, e: StoreError) -> Refusal {
        Refusal::new(ErrorCode::Io, e.to_string())
    }

    fn store_warning(&self, e: &StoreError) -> String {
        crate::not_recorded("The edit was written", e)
    }

    fn commit_error(&self, e: CommitError) -> Refusal {
        let CommitError::Fs(e) = e;
        fs_refusal(&e, &self.env.path)
    }
}

fn anchor_names(items: &[EditItem], origin: usize) -> Vec<String> {
    let mut names: Vec<String> = items
        .iter()
        .filter(|i| i.index == origin)
        .flat_map(|i| anchors_of(i).into_iter().map(ToString::to_string))
        .collect();
    names.dedup();
    names
}

/// The peer's wording for file-level failures (no bracketed code, except a change under us).
fn fs_refusal(e: &FsError, path: &str) -> Refusal {
    let message = match e {
        FsError::NotFound { .. } => format!("File not found: {path}"),
        FsError::IsDirectory { .. } => format!("Path is a directory: {path}. Use ls to inspect directories."),
        FsError::OutsideRoot { .. } => format!("Path resolves outside the workspace root: {path}"),
        FsError::Changed { .. } => format!(
            "[E_STALE_ANCHOR] {path} changed on disk while this edit was being applied; nothing was written. \
             Re-read the file to refresh."
        ),
        FsError::ReadOnly { .. } => format!("File is not writable: {path}"),
        FsError::Io { source, .. } if source.kind() == std::io::ErrorKind::PermissionDenied => {
            format!("File is not writable: {path}")
        }
        other => format!("Cannot access file: {path} ({other})"),
    };
    Refusal::new(e.code(), message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::Workspace;
    use hashline_state::MemoryStore;

    fn setup(name: &str, bytes: &[u8]) -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join(name), bytes).expect("write fixture");
        let ws = Workspace::new(dir.path()).expect("workspace");
        (dir, ws)
    }

    #[test]
    fn dry_run_writes_and_records_nothing() {
        let (dir, ws) = setup("a.txt", b"aaa\nbbb\n");
        let store = MemoryStore::new();
        let req = r#"{"path":"a.txt","edits":[{"op":"replace","start":"0WIr","end":"0WIr","lines":["BBB"]}]}"#;
        let out = edit(
            &ws,
            &store,
            req,
            &EditOptions {
                dry_run: true,
                ..Default::default()
            },
        );
        assert!(out.ok, "{}", out.text);
        assert!(!out.files[0].written);
        assert!(out.files[0].diff.contains("+BBB"), "{}", out.files[0].diff);
        assert_eq!(
            std::fs::read(dir.path().join("a.txt")).expect("read"),
            b"aaa\nbbb\n"
        );
        assert!(store
            .versions(&ws.resolve("a.txt").expect("resolve").key)
            .expect("versions")
            .is_empty());
    }

    #[test]
    fn applied_edit_is_recorded_and_reported() {
        let (_dir, ws) = setup("a.txt", b"aaa\nbbb\n");
        let store = MemoryStore::new();
        let req = r#"{"path":"a.txt","edits":[{"op":"append","lines":["ccc"]}]}"#;
        let out = edit(&ws, &store, req, &EditOptions::default());
        assert!(out.ok, "{}", out.text);
        let key = ws.resolve("a.txt").expect("resolve").key;
        let head = store.head(&key).expect("store").expect("recorded");
        assert_eq!(head.text, "aaa\nbbb\nccc\n");
        assert_eq!(out.files[0].tag.as_deref(), Some(head.tag.as_str()));
        assert_eq!(out.files[0].first_changed_line, Some(3));
    }

    #[test]
    fn items_are_checked_after_the_file() {
        let (_dir, ws) = setup("b.bin", b"x\0y");
        let out = edit(
            &ws,
            &MemoryStore::new(),
            r#"{"path":"b.bin","edits":[{"op":"nope"}]}"#,
            &EditOptions::default(),
        );
        assert_eq!(out.code, Some(ErrorCode::Binary));
        assert_eq!(out.text, "Path is a binary file: b.bin (null bytes detected). Hashline edit only supports text files.");
    }

    #[test]
    fn would_empty_is_refused() {
        let (dir, ws) = setup("a.txt", b"only\n");
        let req =
            r#"{"path":"a.txt","edits":[{"op":"replace","start":"B5Gd","end":"B5Gd","lines":[]}]}"#;
        let hashes = hashline_anchor::hash_json::line_hashes("only\n");
        let req = req.replace("B5Gd", &hashes[0]);
        let out = edit(&ws, &MemoryStore::new(), &req, &EditOptions::default());
        assert_eq!(out.code, Some(ErrorCode::WouldEmpty), "{}", out.text);
        assert_eq!(
            std::fs::read(dir.path().join("a.txt")).expect("read"),
            b"only\n"
        );
    }
}
