//! The executor: one request's files from name to disk, the same for every dialect.
//!
//! [`execute`] resolves every file the request names, locks them all (sorted, so two calls
//! never deadlock), then per file in request order: reads it, asks the front end for its plan
//! (its anchors checked, stale ones carried over, the edits lowered to the disk's numbering),
//! splices, runs the guard, encodes with the re-read rule; then commits every changed file in
//! one transaction and records the new texts. The front end renders what came back.

use hashline_core::name::{self, UnsafeName};
use hashline_core::{Edit, LineChange};
use hashline_state::{SnapshotStore, StoreError};

use crate::fs::{FsError, Target};
use crate::guard::GuardOptions;

use super::commit::{Landing, Recorder, Staged};
use super::disk::Disk;
use super::links;
use super::new_text::NewText;
use super::stage::{guard_and_encode, splice_file, Front};
use hashline_core::Refusal;

pub(crate) use super::front::{Done, EditPlan, FrontEnd, Guarded, Intent, Land, Opened, Plan};

/// How the executor runs.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Run<'a> {
    /// Compute and report everything; write and record nothing.
    pub dry_run: bool,
    /// The edit guard's options.
    pub guard: GuardOptions<'a>,
}

/// Run `front`'s request on `disk`: every file planned and checked, then all written or none.
pub(crate) fn execute<F: FrontEnd>(
    disk: &dyn Disk,
    store: &dyn SnapshotStore,
    front: &mut F,
    run: &Run<'_>,
) -> Result<Vec<Done>, F::Error> {
    execute_beside(disk, store, front, run, |_| ()).map(|(done, ())| done)
}

/// [`execute`], and `beside` of the checked files: what the reply needs of them (their
/// diffs, say), worked out on another thread while the files are written and recorded, which
/// spends much of its time waiting for the disk. Dry runs and no-ops call it in turn.
pub(crate) fn execute_beside<F: FrontEnd, R: Send>(
    disk: &dyn Disk,
    store: &dyn SnapshotStore,
    front: &mut F,
    run: &Run<'_>,
    beside: impl Fn(&[Done]) -> R + Sync,
) -> Result<(Vec<Done>, R), F::Error> {
    let intents = front.intents();
    // Every name is resolved first so that all targets are locked together; a failure is
    // reported at its file's turn, after the checks of the files before it.
    let resolved: Vec<Resolved> = intents.iter().map(|i| resolve(disk, i)).collect();
    let locked: Vec<&Target> = resolved
        .iter()
        .flatten()
        .flat_map(|(t, d)| std::iter::once(t).chain(d))
        .collect();
    let lock = disk.lock(&locked).map_err(|e| front.fs_error(0, e))?;
    drop(locked);
    let mut done: Vec<Done> = Vec::with_capacity(intents.len());
    for (i, resolved) in resolved.into_iter().enumerate() {
        front.begin(i)?;
        let (target, dest) = match resolved {
            Ok(r) => r,
            Err(Unresolved::Name(e)) => return Err(Refusal::from(e).into()),
            Err(Unresolved::Fs(e)) => return Err(front.fs_error(i, e)),
            Err(Unresolved::OutsideLink(outside)) => {
                let (link, e) = *outside;
                // Only a deletion may name it: the link goes, and what it points to outside
                // the root is neither read nor touched. Anything else stays refused.
                let opened = Opened {
                    index: i,
                    target: &link,
                    dest: None,
                    bytes: Some(Vec::new()),
                    store,
                    dry_run: run.dry_run,
                    disk,
                };
                if !matches!(front.plan(opened), Ok(Plan::Delete(_))) {
                    return Err(front.fs_error(i, e));
                }
                done.push(unlinked(link));
                continue;
            }
        };
        let bytes = disk.read(&target).map_err(|e| front.fs_error(i, e))?;
        let opened = Opened {
            index: i,
            target: &target,
            dest: dest.as_ref(),
            bytes,
            store,
            dry_run: run.dry_run,
            disk,
        };
        let plan = front.plan(opened)?;
        // Only a deletion or a move looks at whether the path's last name is a symlink.
        let link = match &plan {
            Plan::Delete(_) => true,
            Plan::Edit(p) => dest.is_some() && p.land != Land::Update,
        };
        let link = match link {
            true => disk
                .link(&intents[i].path)
                .map_err(|e| front.fs_error(i, e))?,
            false => None,
        };
        let (target, checked, is_link) = match (plan, link) {
            // A deletion of a symlink removes the link, never the file it points to.
            (Plan::Delete(old_bytes), Some(link)) => (link, Checked::deleted(old_bytes), true),
            (Plan::Delete(old_bytes), None) => (target, Checked::deleted(old_bytes), false),
            (Plan::Edit(plan), Some(_)) if dest.is_some() && plan.land != Land::Update => {
                return Err(links::move_refused(&target.display).into());
            }
            (Plan::Edit(plan), _) => {
                let checked = check(front, (i, &target.display), plan, &run.guard)?;
                (target, checked, false)
            }
        };
        done.push(done_of(is_link, target, dest, checked));
    }
    front.before_commit(&done)?;
    links::alone(&done)?;
    let _lock = lock;
    if run.dry_run {
        let r = beside(&done);
        return Ok((done, r));
    }
    if done.iter().any(|d| d.link) {
        links::remove(disk, &mut done).map_err(|(i, e)| front.fs_error(i, e))?;
        let r = beside(&done);
        return Ok((done, r));
    }
    if done.iter().all(|d| d.noop) {
        if front.records_noop() {
            for d in &done {
                store
                    .record(&d.target.key, &d.old_text)
                    .map_err(|e| front.store_error(e))?;
            }
        }
        let r = beside(&done);
        return Ok((done, r));
    }
    let (committed, r) =
        hashline_core::par::both(|| commit(disk, store, front, &done), || beside(&done));
    let (recorded, undo) = committed?;
    for (i, warnings) in recorded {
        done[i].warnings.extend(warnings);
    }
    for d in &mut done {
        d.undo = undo;
    }
    Ok((done, r))
}

/// Why a file's names did not resolve.
enum Unresolved {
    /// A name holds a control character ([`hashline_core::name`]): refused before anything is
    /// opened, for every dialect.
    Name(UnsafeName),
    /// The file system refused it (outside the root, a directory on the way).
    Fs(FsError),
    /// Its last name is a symlink below the root that points outside it (the link itself, and
    /// the refusal of the path it resolves to): only its deletion, which removes the link, may
    /// go on.
    OutsideLink(Box<(Target, FsError)>),
}

/// A file's target and the destination of its move, or why its names did not resolve.
type Resolved = Result<(Target, Option<Target>), Unresolved>;

fn resolve(disk: &dyn Disk, intent: &Intent) -> Resolved {
    let named = |path: &str| -> Result<Target, Unresolved> {
        name::check(path).map_err(Unresolved::Name)?;
        if path.ends_with('/') {
            // `dir/` names a directory: never made into a file named `dir`.
            return Err(Unresolved::Fs(FsError::TrailingSlash {
                path: path.to_owned(),
            }));
        }
        disk.resolve(path).map_err(Unresolved::Fs)
    };
    let target = match named(&intent.path) {
        // A link below the root pointing outside it: only its deletion may go on.
        Err(Unresolved::Fs(e @ FsError::OutsideRoot { .. })) if intent.dest.is_none() => {
            return match disk.link(&intent.path) {
                Ok(Some(link)) => Err(Unresolved::OutsideLink(Box::new((link, e)))),
                _ => Err(Unresolved::Fs(e)),
            };
        }
        resolved => resolved?,
    };
    let dest = match &intent.dest {
        Some(d) => Some(named(d)?).filter(|d| d.real != target.real),
        None => None,
    };
    Ok((target, dest))
}

/// The deletion of a symlink that points outside the root: the link is removed, its target
/// never read.
fn unlinked(link: Target) -> Done {
    done_of(true, link, None, Checked::deleted(Vec::new()))
}

/// The file `target` (moving to `dest`; `link`: a symlink itself) with its checked result,
/// not yet written.
fn done_of(link: bool, target: Target, dest: Option<Target>, checked: Checked) -> Done {
    Done {
        link,
        target,
        dest,
        land: checked.land,
        old_text: checked.old_text,
        noop: checked.noop,
        changes: checked.changes,
        new_text: checked.new_text,
        new_tag: std::sync::OnceLock::new(),
        warnings: checked.warnings,
        old_bytes: checked.old_bytes,
        new_bytes: checked.new_bytes,
        undo: None,
    }
}

/// One file's result before it is written.
struct Checked {
    land: Land,
    old_text: String,
    new_text: NewText,
    warnings: Vec<String>,
    noop: bool,
    changes: Option<Vec<LineChange>>,
    /// `None`: the bytes of `old_text`.
    old_bytes: Option<Vec<u8>>,
    /// `None`: the bytes of `new_text`.
    new_bytes: Option<Vec<u8>>,
}

impl Checked {
    fn deleted(old_bytes: Vec<u8>) -> Checked {
        Checked {
            land: Land::Delete,
            old_text: String::new(),
            new_text: NewText::default(),
            warnings: Vec::new(),
            noop: false,
            changes: None,
            old_bytes: Some(old_bytes),
            new_bytes: Some(Vec::new()),
        }
    }
}

/// Splice, guard and encode file `i` (named `path` by the request); the front end's checks in
/// their places.
fn check<F: FrontEnd>(
    front: &mut F,
    (i, path): (usize, &str),
    mut plan: EditPlan,
    guard: &GuardOptions<'_>,
) -> Result<Checked, F::Error> {
    let lines: Vec<&str> = plan.file.line_slices();
    let spliced = match plan.spliced.take() {
        Some(s) => *s,
        None => splice_file(&plan.file, &lines, &plan.edits).map_err(|e| front.splice_error(e))?,
    };
    front.spliced(i, &plan, &spliced)?;
    let checked = {
        let anchor = |n: usize| front.anchor(i, &lines, n);
        let label = |e: &Edit| front.label(i, e);
        let shape = Front {
            path,
            anchor: &anchor,
            label: &label,
            allow_syntax_errors: front.allow_syntax_errors(),
            one_hunk_per_call: front.one_hunk_per_call(),
        };
        guard_and_encode(&shape, &plan.file, &lines, &plan.edits, spliced, guard)?
    };
    let encoded = checked.encoded;
    // Reported = re-read: the tag, the anchors and the recorded text are the next read's.
    let reread = encoded.reread.is_some().then_some(encoded.reread_warning);
    // The bytes written are the spliced text's unless encoding made others; a text a read
    // shows differently is reported and recorded instead.
    let (new_text, new_bytes) = match encoded.reread {
        Some(shown) => (
            NewText::Whole(shown),
            Some(
                encoded
                    .bytes
                    .unwrap_or_else(|| checked.text.into_string(plan.file.text()).into_bytes()),
            ),
        ),
        None => (checked.text, encoded.bytes),
    };
    let result = Guarded {
        plan: &plan,
        new_text: &new_text.pieces(plan.file.text()),
    };
    let before_guard = front.checked(i, &result)?;
    // The stretches hold for the spliced text, not for a text a read shows differently.
    let changes = reread.is_none().then_some(checked.changes);
    drop(lines);
    let mut warnings = std::mem::take(&mut plan.warnings);
    warnings.extend(before_guard);
    warnings.extend(checked.warnings);
    warnings.extend(encoded.lost_bytes);
    if let Some(why) = reread {
        warnings.push(why.to_string());
    }
    let (old_text, old_bytes) = plan.file.into_parts();
    Ok(Checked {
        land: plan.land,
        noop: new_text.is(&old_text, &old_text)
            && !matches!(plan.land, Land::Move { .. } | Land::Create),
        changes,
        old_text,
        new_text,
        warnings,
        old_bytes,
        new_bytes,
    })
}

/// What [`commit`] did: the store's failures as warnings for each file (by index), and the
/// call's undo id.
type Committed = (Vec<(usize, Vec<String>)>, Option<u64>);

/// Write every changed file of `done` in one transaction and record it; the store's failures
/// are the warnings returned for each file (by index).
fn commit<F: FrontEnd>(
    disk: &dyn Disk,
    store: &dyn SnapshotStore,
    front: &F,
    done: &[Done],
) -> Result<Committed, F::Error> {
    // The transaction borrows the bytes (a plain file's are its texts): nothing is copied.
    let changed: Vec<usize> = (0..done.len()).filter(|&i| !done[i].noop).collect();
    let staged: Vec<Staged<'_>> = changed
        .iter()
        .map(|&i| {
            let d = &done[i];
            let (expected, bytes) = (d.old_bytes(), d.new_bytes());
            let landing = match (d.land, &d.dest) {
                (Land::Delete, _) => Landing::Delete { expected },
                (Land::Create, _) => Landing::Create,
                (Land::Move { overwrite }, Some(dest)) => Landing::Rename {
                    expected,
                    dest,
                    overwrite,
                },
                (Land::Update | Land::Move { .. }, _) => Landing::Update { expected },
            };
            Staged {
                target: &d.target,
                landing,
                bytes,
                text: d.new_pieces(),
                tag: Some(&d.new_tag),
            }
        })
        .collect();
    let word = |e: &StoreError| front.store_warning(e);
    let recorder = Recorder {
        store,
        word: &word,
        results: front.records_result(),
    };
    let (recorded, written) =
        super::commit::commit(disk, staged, &recorder).map_err(|e| front.commit_error(e))?;
    let mut per_file: Vec<(usize, Vec<String>)> = changed.into_iter().zip(recorded).collect();
    if let (Some(warning), Some((_, first))) = (written.warning(), per_file.first_mut()) {
        first.push(warning.to_owned());
    }
    Ok((per_file, written.undo))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use hashline_core::ErrorCode;
    use hashline_state::MemoryStore;

    use super::*;
    use crate::pipeline::commit::CommitError;
    use crate::pipeline::disk::MemoryDisk;
    use hashline_core::Refusal;
    use hashline_core::{SpliceError, TextFile};

    /// A toy refusal: its code and text.
    #[derive(Debug)]
    struct Refused(ErrorCode, String);

    impl From<Refusal> for Refused {
        fn from(g: Refusal) -> Refused {
            Refused(g.code, g.message)
        }
    }

    /// A toy dialect: replace line 1 of each named file with the given row (or, when `edits`
    /// is given, make those edits of the one file named).
    struct Toy {
        files: Vec<(&'static str, &'static str)>,
        edits: Option<Vec<Edit>>,
    }

    impl FrontEnd for Toy {
        type Error = Refused;

        fn intents(&self) -> Vec<Intent> {
            let intent = |(path, _): &(&str, &str)| Intent {
                path: (*path).to_owned(),
                dest: None,
            };
            self.files.iter().map(intent).collect()
        }

        fn fs_error(&self, _i: usize, e: FsError) -> Self::Error {
            Refused(e.code(), e.to_string())
        }

        fn plan(&mut self, opened: Opened<'_>) -> Result<Plan, Self::Error> {
            let bytes = opened
                .bytes
                .ok_or(Refused(ErrorCode::FileNotFound, "missing".into()))?;
            Ok(Plan::Edit(EditPlan {
                file: TextFile::decode(bytes),
                edits: self.edits.clone().unwrap_or_else(|| {
                    vec![Edit::replace(
                        1,
                        1,
                        vec![self.files[opened.index].1.into()],
                        0,
                    )]
                }),
                spliced: None,
                land: Land::Update,
                warnings: Vec::new(),
            }))
        }

        fn splice_error(&self, e: SpliceError) -> Self::Error {
            Refused(ErrorCode::LineRange, e.to_string())
        }

        fn anchor(&self, _i: usize, lines: &[&str], n: usize) -> String {
            format!("{n}:{}", lines.get(n - 1).copied().unwrap_or(""))
        }

        fn label(&self, _i: usize, e: &Edit) -> String {
            crate::guard::op_label(e)
        }

        fn store_error(&self, e: StoreError) -> Self::Error {
            Refused(ErrorCode::Io, e.to_string())
        }

        fn store_warning(&self, e: &StoreError) -> String {
            e.to_string()
        }

        fn commit_error(&self, e: CommitError) -> Self::Error {
            Refused(e.code(), e.to_string())
        }
    }

    fn files() -> BTreeMap<String, Vec<u8>> {
        BTreeMap::from([
            ("a.txt".to_owned(), b"a\nkeep\n".to_vec()),
            ("b.txt".to_owned(), b"b\r\nkeep\r\n".to_vec()),
        ])
    }

    #[test]
    fn every_file_lands_and_is_recorded() {
        let disk = MemoryDisk::from_map(files());
        let store = MemoryStore::new();
        let mut toy = Toy {
            files: vec![("a.txt", "A"), ("./b.txt", "B")],
            edits: None,
        };
        let done = execute(&disk, &store, &mut toy, &Run::default()).expect("ok");
        assert!(done[1].new_pieces().eq_str("B\nkeep\n"));
        let map = disk.snapshot();
        assert_eq!(map["a.txt"], b"A\nkeep\n");
        assert_eq!(map["b.txt"], b"B\r\nkeep\r\n");
        let head = store.head("b.txt").expect("store").expect("recorded");
        assert_eq!(head.text, "B\nkeep\n");
    }

    #[test]
    fn beside_sees_the_checked_files_and_the_stretches_they_changed() {
        let disk = MemoryDisk::from_map(files());
        let store = MemoryStore::new();
        let mut toy = Toy {
            files: vec![("a.txt", "A"), ("b.txt", "B")],
            edits: None,
        };
        let beside = |done: &[Done]| -> Vec<(String, Option<Vec<LineChange>>)> {
            let texts = done
                .iter()
                .map(|d| (d.new_pieces().to_text().into_owned(), d.changes.clone()));
            texts.collect()
        };
        let (done, seen) =
            execute_beside(&disk, &store, &mut toy, &Run::default(), beside).expect("ok");
        assert_eq!(seen.len(), 2);
        assert!(done[0].new_pieces().eq_str(&seen[0].0));
        // Line 1 replaced: old line 0 became new line 0.
        let one = LineChange {
            old: 0..1,
            new: 0..1,
        };
        assert_eq!(seen[1].1, Some(vec![one]));
        assert_eq!(disk.snapshot()["a.txt"], b"A\nkeep\n");
        assert!(store.head("b.txt").expect("store").is_some());
    }

    #[test]
    fn a_refused_file_leaves_every_file_as_it_was() {
        let disk = MemoryDisk::from_map(files());
        let store = MemoryStore::new();
        let mut toy = Toy {
            files: vec![("a.txt", "A"), ("b.txt", "1:b")],
            edits: None,
        };
        let err = execute(&disk, &store, &mut toy, &Run::default())
            .expect_err("the guard refuses a pasted read anchor");
        assert_eq!(err.0, ErrorCode::PayloadContaminated, "{}", err.1);
        assert_eq!(disk.snapshot(), files());
        assert!(store.head("a.txt").expect("store").is_none());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// Any edits of a plain file big enough for a blob, its new text held as pieces of the
        /// old from the splice to the disk and the store (a real workspace and SQLite store):
        /// the file, the recorded text and the tag are those of the joined splice, or, refused,
        /// nothing changed.
        #[test]
        fn a_text_held_in_pieces_lands_and_is_recorded_as_joined(
            final_newline in proptest::bool::ANY,
            edits in proptest::collection::vec(
                (0u8..5, 1usize..10_001, 0usize..4, proptest::collection::vec("[a-z]{0,6}", 0..3)),
                1..6,
            ),
        ) {
            use hashline_core::{splice, EditKind};
            let mut text: String = (0..10_000).map(|i| format!("let v{i} = {i}; // pieces\n")).collect();
            if !final_newline {
                text.pop();
            }
            let edits: Vec<Edit> = edits
                .into_iter()
                .map(|(k, line, len, rows)| Edit {
                    kind: match k {
                        0 => EditKind::Replace { start: line, end: (line + len).min(10_000) },
                        1 => EditKind::InsertBefore(line),
                        2 => EditKind::InsertAfter(line),
                        3 => EditKind::Head,
                        _ => EditKind::Tail,
                    },
                    rows,
                    origin: 0,
                })
                .collect();
            let file = TextFile::from_text(&text);
            let expected = splice(&file.line_slices(), &edits).map(|out| file.render_text(&out));
            let dir = tempfile::tempdir().expect("dir");
            std::fs::write(dir.path().join("f.rs"), &text).expect("write");
            let ws = crate::fs::Workspace::new(dir.path()).expect("workspace");
            let store = hashline_state::SqliteStore::open(&dir.path().join(".state"), "s")
                .expect("store");
            let mut toy = Toy { files: vec![("f.rs", "")], edits: Some(edits) };
            let on_disk = || std::fs::read_to_string(dir.path().join("f.rs")).expect("read");
            match execute(&ws, &store, &mut toy, &Run::default()) {
                Ok(done) => {
                    let expected = expected.expect("a splice that failed was refused");
                    let d = &done[0];
                    proptest::prop_assert!(matches!(d.new_text, NewText::Spliced(_)));
                    proptest::prop_assert_eq!(on_disk(), expected.as_str());
                    let tag = hashline_anchor::tag::file_tag(&expected);
                    proptest::prop_assert_eq!(d.new_tag(), tag.as_str());
                    // A no-op (rows inserted: none) writes and records nothing.
                    let head = store.head(&d.target.key).expect("store");
                    proptest::prop_assert_eq!(head.is_none(), d.noop);
                    if let Some(head) = head {
                        proptest::prop_assert_eq!(head.text, expected);
                        proptest::prop_assert_eq!(head.tag, tag);
                    }
                }
                Err(_) => proptest::prop_assert_eq!(on_disk(), text),
            }
        }
    }

    #[test]
    fn a_dry_run_writes_nothing() {
        let disk = MemoryDisk::from_map(files());
        let run = Run {
            dry_run: true,
            ..Run::default()
        };
        let mut toy = Toy {
            files: vec![("a.txt", "A")],
            edits: None,
        };
        let done = execute(&disk, &MemoryStore::new(), &mut toy, &run).expect("ok");
        assert!(done[0].new_pieces().eq_str("A\nkeep\n"));
        assert_eq!(disk.snapshot(), files());
    }
}
