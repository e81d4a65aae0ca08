//! The `edit` pipeline: request → file checks → resolution → plan → splice → write → response.

use hashline_anchor::hash_json::{hash_lines, render_rows};
use hashline_core::{Edit, ErrorCode, TextFile};
use hashline_state::SnapshotStore;
use hashline_syntax::hash_json::{parse_envelope, parse_items, EditItem};

use crate::fs::{FsError, Workspace};
use crate::merge::forget_older;
use crate::pipeline::commit::{commit, CommitError, Landing, Recorder, Staged};
use crate::pipeline::files::{is_read_only, lock_and_read};
use crate::pipeline::report::{change_report, noop_report};
use crate::pipeline::stage::{guard_and_encode, splice_file, REREAD_DIFFERS};
use crate::pipeline::Front;
use crate::{FileOp, Outcome};

use super::checks::{bare_prefix, boundary_warnings, repeated_lines, unicode_escape_warning};
use super::plan::{label, plan};
use super::read::{detect, FileKind};
use super::rebase::{rebase, recorded_base};
use super::refusal::Refusal;
use super::resolve::{anchors_of, resolve, Version};
use super::response::{applied, changed_range, noop};

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
}

/// The whole tool call: `request` is the JSON text the model sent
/// (`{"path": …, "edits": [...], "returnMode"?: …, "returnRanges"?: …}`).
///
/// Refusals come back as `ok: false` with the peer's message as `text`; a noop is a success
/// that writes nothing. The file is locked from before it is read until the write committed.
pub fn edit(
    ws: &Workspace,
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
    ws: &Workspace,
    store: &dyn SnapshotStore,
    request: &str,
    opts: &EditOptions<'_>,
) -> Result<Outcome, Refusal> {
    let env = parse_envelope(request)?;
    let path = env.path.as_str();
    if let Err(e) = hashline_core::name::check(path) {
        return Err(Refusal::new(e.code(), e.to_string()));
    }
    let target = ws.resolve(path).map_err(|e| fs_refusal(&e, path))?;
    let (_guard, read) = lock_and_read(ws, &[&target]).map_err(|e| fs_refusal(&e, path))?;
    let Some(bytes) = read else {
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
    if !opts.dry_run && is_read_only(&target) {
        return Err(Refusal::new(
            ErrorCode::PermissionDenied,
            format!("File is not writable: {path}"),
        ));
    }
    let items = parse_items(&env.edits)?;
    let file = TextFile::decode(bytes);
    let live_text = file.text();

    let live = Version::new(live_text);
    let recorded = recorded_base(store, &target.key, &live, &items);
    let base = match &recorded {
        Some(b) => Version::new(&b.text),
        None => live,
    };
    let places = resolve(&items, &base)?;
    let mut warnings: Vec<String> = Vec::new();
    for (item, &place) in items.iter().zip(&places) {
        warnings.extend(boundary_warnings(item, place, &base, &label(item)));
    }
    warnings.extend(items.iter().filter_map(unicode_escape_warning));
    warnings.extend(bare_prefix(&items, &base, path)?);
    let planned = plan(&items, &places, &base)?;
    let edits: Vec<Edit> = match &recorded {
        Some(old) => rebase(&planned.edits, old, live_text, &items, &|origin| {
            anchor_names(&items, origin)
        })
        .inspect_err(|_| {
            // The refusal shows anchors of the disk text: that is a read of it, so a retry with
            // them resolves against the disk instead of being carried over from `old` again.
            if !opts.dry_run {
                forget_older(store, &target.key, live_text);
            }
        })?,
        None => planned.edits,
    };

    let lines: Vec<&str> = file.lines().collect();
    let spliced = splice_file(&file, &lines, &edits)
        .map_err(|e| Refusal::new(ErrorCode::InvalidPatch, format!("[E_INVALID_PATCH] {e}")))?;
    // Only a refusal renders anchors: the disk text's hashes are computed then, once.
    let hashes = std::cell::OnceCell::new();
    let anchor = |n: usize| {
        let hashes = hashes.get_or_init(|| hash_lines(live_text));
        render_rows(live_text, hashes, n, n)
    };
    let name_of = |e: &Edit| {
        items
            .iter()
            .find(|i| i.index == e.origin)
            .map(label)
            .unwrap_or_default()
    };
    let front = Front {
        path,
        anchor: &anchor,
        label: &name_of,
        allow_syntax_errors: env.allow_syntax_errors,
    };
    let checked = guard_and_encode(&front, &file, &lines, &edits, spliced, &opts.guard)
        .map_err(|g| Refusal::new(g.code, g.message))?;
    let (mut new_text, encoded) = (checked.text, checked.encoded);
    // Reported = re-read: the tag, the anchors and the recorded text are the next read's.
    if let Some(shown) = encoded.reread.clone() {
        warnings.push(REREAD_DIFFERS.to_string());
        new_text = shown;
    }
    if !live_text.is_empty() && new_text.is_empty() {
        return Err(Refusal::new(
            ErrorCode::WouldEmpty,
            "[E_WOULD_EMPTY] Cannot empty a non-empty file via edit.",
        ));
    }
    if new_text == live_text {
        let text = noop(
            path,
            env.return_mode,
            &env.return_ranges,
            live_text,
            &planned.noops,
        );
        let report = noop_report(path, live_text);
        return Ok(Outcome {
            ok: true,
            code: None,
            text,
            warnings,
            files: vec![report],
        });
    }

    let labels = |origin: usize| {
        items
            .iter()
            .find(|i| i.index == origin)
            .map(label)
            .unwrap_or_default()
    };
    warnings.extend(repeated_lines(&lines, &edits, &labels));
    warnings.extend(checked.warnings);
    // The re-read rule (`encoded.reread`) is not applied here: the peer reports the spliced
    // text (issue 10 leaves that behaviour as it is).
    if file.is_lossy() {
        warnings.push(LOSSY.to_owned());
        warnings.extend(encoded.lost_bytes);
    }
    let new_bytes = encoded.bytes;
    if !opts.dry_run {
        let staged = Staged {
            target: &target,
            landing: Landing::Update {
                expected: file.bytes().to_vec(),
            },
            bytes: new_bytes,
            text: &new_text,
        };
        let recorder = Recorder {
            store,
            word: &|e| crate::not_recorded("The edit was written", e),
        };
        let recorded = commit(ws, vec![staged], &recorder).map_err(|e| match e {
            CommitError::Fs(e) => fs_refusal(&e, path),
            other => Refusal::new(other.code(), other.to_string()),
        })?;
        warnings.extend(recorded.into_iter().flatten());
    }
    let text = applied(
        path,
        env.return_mode,
        &env.return_ranges,
        live_text,
        &new_text,
        &warnings,
    );
    let first = changed_range(live_text, &new_text).map(|(first, _)| first);
    let report = change_report(
        path,
        FileOp::Update,
        (live_text, &new_text),
        first,
        !opts.dry_run,
    );
    Ok(Outcome {
        ok: true,
        code: None,
        text,
        warnings,
        files: vec![report],
    })
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
