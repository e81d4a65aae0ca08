//! The write: every staged file of a call in one [`Transaction`], all or nothing, then the
//! session store.

use std::borrow::Cow;

use hashline_core::{ErrorCode, Pieces};

use hashline_state::{SnapshotStore, StoreError};

use crate::fs::{Content, FsError, Target};

use super::disk::{Change, Disk, Written};

/// How one staged file lands on disk.
#[derive(Debug)]
pub(crate) enum Landing<'a> {
    /// Rewritten in place; the bytes read (the commit refuses if the file changed since).
    Update {
        /// The bytes read.
        expected: &'a [u8],
    },
    /// Created (it did not exist when read).
    Create,
    /// Deleted; the bytes read.
    Delete {
        /// The bytes read.
        expected: &'a [u8],
    },
    /// Moved to `dest` with the new bytes.
    Rename {
        /// The bytes read.
        expected: &'a [u8],
        /// Where the file goes.
        dest: &'a Target,
        /// Replace an existing `dest`.
        overwrite: bool,
    },
}

/// One file of a call, ready to be written.
#[derive(Debug)]
pub(crate) struct Staged<'a> {
    /// The file read.
    pub target: &'a Target,
    /// How it lands.
    pub landing: Landing<'a>,
    /// The bytes to write (unused by a delete), borrowed: one buffer or a text's parts.
    pub bytes: Content<'a>,
    /// The new LF text as the next read shows it: what the store records (unused by a delete).
    pub text: Pieces<'a>,
    /// Where `text`'s tag is kept once known (`Done::new_tag`): the record takes it from there,
    /// or fills it.
    pub tag: Option<&'a std::sync::OnceLock<String>>,
}

/// The session store a commit records in, and how the dialect words a store failure (the
/// write already happened, so a failure is a warning, not a refusal).
pub(crate) struct Recorder<'a> {
    /// The session's snapshots.
    pub store: &'a dyn SnapshotStore,
    /// The dialect's warning for a store failure.
    pub word: &'a dyn Fn(&StoreError) -> String,
    /// Whether the new text is recorded (see `FrontEnd::records_result`); a deleted or moved
    /// file's old key is forgotten either way.
    pub results: bool,
}

impl Recorder<'_> {
    /// Record `staged`'s text at `key` (the worded failure, if any), with its tag when already known (the reply's diffs
    /// hashed it beside the write) and keeping the tag it gets for the reply otherwise.
    fn record_staged(&self, key: &str, staged: &Staged<'_>) -> Option<String> {
        let known = staged.tag.and_then(|cache| cache.get()).map(String::as_str);
        let recorded = self.store.record_pieces(key, &staged.text, known);
        if let (Ok(tag), Some(cache)) = (&recorded, staged.tag) {
            // The store's tag of this very text (hashed beside its digest).
            let _ = cache.set(tag.clone());
        }
        recorded.err().map(|e| (self.word)(&e))
    }

    /// Forget `key` (the file was deleted or moved away); the worded failure, if any.
    pub fn forget(&self, key: &str) -> Option<String> {
        self.store.invalidate(key).err().map(|e| (self.word)(&e))
    }

    /// Record what `staged` left on disk: the new text under the written file's key, and the
    /// old key forgotten when the file was deleted or moved away.
    pub(crate) fn landed(&self, staged: &Staged<'_>) -> Vec<String> {
        let mut warnings: Vec<String> = Vec::new();
        if let Some(written) = staged.written().filter(|_| self.results) {
            warnings.extend(self.record_staged(&written.key, staged));
        }
        if matches!(
            staged.landing,
            Landing::Delete { .. } | Landing::Rename { .. }
        ) {
            warnings.extend(self.forget(&staged.target.key));
        }
        warnings
    }
}

impl Staged<'_> {
    /// The file that holds the new text after the commit (`None` after a delete).
    pub fn written(&self) -> Option<&Target> {
        match &self.landing {
            Landing::Delete { .. } => None,
            Landing::Rename { dest, .. } => Some(dest),
            Landing::Update { .. } | Landing::Create => Some(self.target),
        }
    }
}

/// Why a commit failed; nothing was written.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CommitError {
    /// The transaction refused or rolled back.
    #[error(transparent)]
    Fs(#[from] FsError),
}

impl CommitError {
    /// The stable code of the failure.
    pub fn code(&self) -> ErrorCode {
        match self {
            CommitError::Fs(e) => e.code(),
        }
    }
}

/// Write every file of `staged` in one [`Disk::write`] (for the [`Workspace`](crate::fs::Workspace),
/// one [`Transaction`](crate::fs::Transaction); the caller holds the files' locks), then record
/// each in the session store. Missing parent directories of created or moved-to files are
/// created by the transaction, through directory handles (and removed again when the commit
/// fails). `Ok` holds the store's worded failures, one list per staged file, and what the disk
/// said of the write (the call's undo id).
pub(crate) fn commit(
    disk: &dyn Disk,
    staged: Vec<Staged<'_>>,
    recorder: &Recorder<'_>,
) -> Result<(Vec<Vec<String>>, Written), CommitError> {
    let mut changes = Vec::with_capacity(staged.len());
    for s in &staged {
        // Borrowed bytes or a text's parts: a clone copies no text.
        let bytes = s.bytes.clone();
        let target = s.target;
        changes.push(match &s.landing {
            Landing::Update { expected } => Change::Write {
                target,
                expected: Some(Cow::Borrowed(*expected)),
                bytes,
            },
            Landing::Create => Change::Write {
                target,
                expected: None,
                bytes,
            },
            Landing::Delete { expected } => Change::Delete {
                target,
                expected: Cow::Borrowed(*expected),
            },
            Landing::Rename {
                expected,
                dest,
                overwrite,
            } => Change::Rename {
                target,
                expected: Cow::Borrowed(*expected),
                dest,
                bytes,
                overwrite: *overwrite,
            },
        });
    }
    // What the store will record is prepared (a big text compressed) while the disk writes.
    let texts: Vec<&Pieces<'_>> = staged
        .iter()
        .filter(|s| recorder.results && !matches!(s.landing, Landing::Delete { .. }))
        .map(|s| &s.text)
        .filter(|t| t.len() >= PREPARE_BYTES)
        .collect();
    let written = if texts.is_empty() {
        disk.write(changes)?
    } else {
        let store = recorder.store;
        let (written, ()) = hashline_core::par::both(
            || disk.write(changes),
            || texts.iter().for_each(|t| store.prepare_pieces(t)),
        );
        if written.is_err() {
            // Nothing will be recorded: what was prepared goes now, not at some later sweep.
            texts.iter().for_each(|t| store.discard_pieces(t));
        }
        written?
    };
    Ok((staged.iter().map(|s| recorder.landed(s)).collect(), written))
}

/// Texts (in bytes) whose recording is prepared beside the disk write: below it a thread
/// costs more than it saves.
const PREPARE_BYTES: usize = 1 << 18;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::Workspace;
    use hashline_state::MemoryStore;

    fn setup(files: &[(&str, &str)]) -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().expect("temp dir");
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).expect("write fixture");
        }
        let ws = Workspace::new(dir.path()).expect("workspace");
        (dir, ws)
    }

    fn word(e: &StoreError) -> String {
        format!("store: {e}")
    }

    fn update<'a>(target: &'a Target, old: &'a str, new: &'a str) -> Staged<'a> {
        Staged {
            target,
            landing: Landing::Update {
                expected: old.as_bytes(),
            },
            bytes: Content::from(new.as_bytes()),
            text: Pieces::whole(new),
            tag: None,
        }
    }

    /// `a.txt` holding `a`, `b.txt` holding `b_on_disk`, an empty store, both targets.
    fn two_files(b_on_disk: &str) -> (tempfile::TempDir, Workspace, MemoryStore, [Target; 2]) {
        let (dir, ws) = setup(&[("a.txt", "a\n"), ("b.txt", b_on_disk)]);
        let a = ws.resolve("a.txt").expect("a");
        let b = ws.resolve("b.txt").expect("b");
        (dir, ws, MemoryStore::new(), [a, b])
    }

    /// Both files edited as read with `a` and `b`, upper-cased, in one commit.
    fn edit_both(
        ws: &Workspace,
        store: &MemoryStore,
        [a, b]: [&Target; 2],
    ) -> Result<Vec<Vec<String>>, CommitError> {
        let recorder = Recorder {
            store,
            word: &word,
            results: true,
        };
        let staged = vec![update(a, "a\n", "A\n"), update(b, "b\n", "B\n")];
        lock_and_commit(ws, staged, &recorder)
    }

    /// Lock `staged`'s targets, then [`commit`] them.
    fn lock_and_commit(
        ws: &Workspace,
        staged: Vec<Staged<'_>>,
        recorder: &Recorder<'_>,
    ) -> Result<Vec<Vec<String>>, CommitError> {
        let targets: Vec<&Target> = staged.iter().map(|s| s.target).collect();
        let _guard = ws.lock(&targets)?;
        commit(ws, staged, recorder).map(|(recorded, _)| recorded)
    }

    #[test]
    fn every_file_is_written_and_recorded() {
        let (dir, ws, store, [a, b]) = two_files("b\n");
        let warnings = edit_both(&ws, &store, [&a, &b]).expect("commit");
        assert_eq!(warnings, vec![Vec::<String>::new(), Vec::new()]);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).expect("a"),
            "A\n"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("b.txt")).expect("b"),
            "B\n"
        );
        let head = store.head(&b.key).expect("store").expect("recorded");
        assert_eq!(head.text, "B\n");
    }

    #[test]
    fn one_changed_file_writes_and_records_nothing() {
        let (dir, ws, store, [a, b]) = two_files("changed\n");
        let err = edit_both(&ws, &store, [&a, &b]).expect_err("refused");
        assert!(
            matches!(err, CommitError::Fs(FsError::Changed { .. })),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.txt")).expect("a"),
            "a\n"
        );
        assert!(store.head(&a.key).expect("store").is_none());
    }

    #[test]
    fn directories_made_for_a_failed_commit_are_removed() {
        let (dir, ws) = setup(&[("b.txt", "changed\n")]);
        let store = MemoryStore::new();
        let created = ws.resolve("new/deep/c.txt").expect("c");
        let b = ws.resolve("b.txt").expect("b");
        let recorder = Recorder {
            store: &store,
            word: &word,
            results: true,
        };
        let staged = vec![
            Staged {
                target: &created,
                landing: Landing::Create,
                bytes: Content::from(&b"c\n"[..]),
                text: Pieces::whole("c\n"),
                tag: None,
            },
            update(&b, "b\n", "B\n"),
        ];
        assert!(lock_and_commit(&ws, staged, &recorder).is_err());
        assert!(!dir.path().join("new").exists());
    }

    #[test]
    fn a_move_records_the_destination_and_forgets_the_source() {
        let (dir, ws) = setup(&[("a.txt", "a\n")]);
        let store = MemoryStore::new();
        let a = ws.resolve("a.txt").expect("a");
        store.record(&a.key, "a\n").expect("record");
        let dest = ws.resolve("sub/b.txt").expect("b");
        let recorder = Recorder {
            store: &store,
            word: &word,
            results: true,
        };
        let staged = vec![Staged {
            target: &a,
            landing: Landing::Rename {
                expected: b"a\n",
                dest: &dest,
                overwrite: false,
            },
            bytes: Content::from(&b"b\n"[..]),
            text: Pieces::whole("b\n"),
            tag: None,
        }];
        lock_and_commit(&ws, staged, &recorder).expect("commit");
        assert!(!dir.path().join("a.txt").exists());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("sub/b.txt")).expect("b"),
            "b\n"
        );
        assert!(store.head(&a.key).expect("store").is_none());
        let head = store.head(&dest.key).expect("store").expect("recorded");
        assert_eq!(head.text, "b\n");
    }

    #[test]
    fn a_known_tag_is_recorded_as_known_and_a_new_one_is_kept_for_the_reply() {
        let (_dir, ws) = setup(&[("b.txt", "b\n"), ("c.txt", "c\n")]);
        let store = Preparing::default();
        let (b, c) = (
            ws.resolve("b.txt").expect("b"),
            ws.resolve("c.txt").expect("c"),
        );
        let recorder = Recorder {
            store: &store,
            word: &word,
            results: true,
        };
        // b's tag was hashed already (by the reply, beside the write); c's was not.
        let (known, unknown) = (std::sync::OnceLock::new(), std::sync::OnceLock::new());
        known
            .set(hashline_anchor::tag::file_tag("Bb\n"))
            .expect("set");
        let mut staged = vec![update(&b, "b\n", "Bb\n"), update(&c, "c\n", "C\n")];
        staged[0].tag = Some(&known);
        staged[1].tag = Some(&unknown);
        lock_and_commit(&ws, staged, &recorder).expect("commit");
        let log = store.log.lock().expect("log").clone();
        assert!(log.contains(&("record_tagged", 3)), "{log:?}");
        assert!(log.contains(&("record", 2)), "{log:?}");
        // The store's tag of c is kept for the reply; both are the texts' tags.
        assert_eq!(unknown.get(), Some(&hashline_anchor::tag::file_tag("C\n")));
        let head = store.head(&b.key).expect("store").expect("recorded");
        assert_eq!(
            (head.text.as_str(), head.tag),
            ("Bb\n", hashline_anchor::tag::file_tag("Bb\n"))
        );
    }

    /// A [`MemoryStore`] that logs what it is asked to prepare and discard.
    #[derive(Default)]
    struct Preparing {
        inner: MemoryStore,
        log: std::sync::Mutex<Vec<(&'static str, usize)>>,
    }

    impl SnapshotStore for Preparing {
        fn record(&self, path: &str, text: &str) -> Result<String, StoreError> {
            self.log.lock().expect("log").push(("record", text.len()));
            self.inner.record(path, text)
        }
        fn record_tagged(
            &self,
            path: &str,
            tagged: &hashline_anchor::tag::Tagged<'_>,
        ) -> Result<String, StoreError> {
            let len = tagged.text().len();
            self.log.lock().expect("log").push(("record_tagged", len));
            self.inner.record_tagged(path, tagged)
        }
        fn prepare(&self, text: &str) {
            self.log.lock().expect("log").push(("prepare", text.len()));
        }
        fn discard(&self, text: &str) {
            self.log.lock().expect("log").push(("discard", text.len()));
        }
        fn head(&self, path: &str) -> Result<Option<hashline_state::Snapshot>, StoreError> {
            self.inner.head(path)
        }
        fn by_tag(
            &self,
            path: &str,
            tag: &str,
        ) -> Result<Option<hashline_state::Snapshot>, StoreError> {
            self.inner.by_tag(path, tag)
        }
        fn versions(&self, path: &str) -> Result<Vec<hashline_state::Snapshot>, StoreError> {
            self.inner.versions(path)
        }
        fn push_undo(
            &self,
            path: &str,
            entry: &hashline_state::UndoEntry,
        ) -> Result<(), StoreError> {
            self.inner.push_undo(path, entry)
        }
        fn pop_undo(&self, path: &str) -> Result<Option<hashline_state::UndoEntry>, StoreError> {
            self.inner.pop_undo(path)
        }
        fn invalidate(&self, path: &str) -> Result<(), StoreError> {
            self.inner.invalidate(path)
        }
        fn clear(&self) -> Result<(), StoreError> {
            self.inner.clear()
        }
    }

    #[test]
    fn what_a_failed_commit_prepared_is_discarded() {
        let big = "let x = 1;\n".repeat(30_000);
        let bigger = format!("{big}let y = 2;\n");
        assert!(bigger.len() >= PREPARE_BYTES);
        let (dir, ws) = setup(&[("a.txt", "changed on disk\n")]);
        let store = Preparing::default();
        let a = ws.resolve("a.txt").expect("a");
        let recorder = Recorder {
            store: &store,
            word: &word,
            results: true,
        };
        let staged = vec![update(&a, &big, &bigger)];
        assert!(lock_and_commit(&ws, staged, &recorder).is_err());
        assert_eq!(
            *store.log.lock().expect("log"),
            vec![("prepare", bigger.len()), ("discard", bigger.len())]
        );
        // Written: prepared and recorded, never discarded.
        std::fs::write(dir.path().join("a.txt"), &big).expect("reset");
        store.log.lock().expect("log").clear();
        let staged = vec![update(&a, &big, &bigger)];
        assert!(lock_and_commit(&ws, staged, &recorder).is_ok());
        assert_eq!(
            *store.log.lock().expect("log"),
            vec![("prepare", bigger.len()), ("record", bigger.len())]
        );
        assert_eq!(
            store.head(&a.key).expect("head").map(|s| s.text),
            Some(bigger)
        );
    }
}
