//! What a dialect supplies the executor ([`FrontEnd`]) and what they pass each other: the
//! request's files ([`Intent`]), a file's plan ([`Plan`], [`EditPlan`]), the file as read
//! ([`Opened`]), the guarded result ([`Guarded`]) and the file done ([`Done`]).

use hashline_core::{Edit, LineChange, Pieces, SpliceError, TextFile};
use hashline_state::{SnapshotStore, StoreError};

use crate::fs::{Content, FsError, Target};
use hashline_core::Refusal;

use super::commit::CommitError;
use super::disk::Disk;
use super::new_text::NewText;
use super::stage::Spliced;

/// One file a request names.
#[derive(Debug, Clone)]
pub(crate) struct Intent {
    /// The path as the request wrote it.
    pub path: String,
    /// Where the request moves the file, as written (a move onto itself is no move).
    pub dest: Option<String>,
}

/// How a planned edit lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Land {
    /// The file is rewritten.
    Update,
    /// The file did not exist and is created.
    Create,
    /// The file moves to the intent's destination with the new text.
    Move {
        /// Replace an existing destination.
        overwrite: bool,
    },
    /// The file is deleted.
    Delete,
}

/// What a front end planned for one file: the decoded file and the edits in its numbering.
pub(crate) struct EditPlan {
    /// The file as read (empty when it is created).
    pub file: TextFile,
    /// The edits, in the numbering of `file`'s lines.
    pub edits: Vec<Edit>,
    /// The splice, when the front end already made it to decide its plan.
    pub spliced: Option<Box<Spliced>>,
    /// How the result lands.
    pub land: Land,
    /// The front end's warnings so far.
    pub warnings: Vec<String>,
}

/// A front end's plan for one file.
pub(crate) enum Plan {
    /// Delete the file, whose bytes were these.
    Delete(Vec<u8>),
    /// Edit, create or move it.
    Edit(EditPlan),
}

/// One file as the executor hands it to the front end's planning.
pub(crate) struct Opened<'a> {
    /// The file's position in the request.
    pub index: usize,
    /// The resolved file.
    pub target: &'a Target,
    /// The resolved destination of a move.
    pub dest: Option<&'a Target>,
    /// The bytes read under the lock (`None`: the file does not exist).
    pub bytes: Option<Vec<u8>>,
    /// The session's snapshots.
    pub store: &'a dyn SnapshotStore,
    /// Whether this call writes and records nothing.
    pub dry_run: bool,
    /// The file system the file is on.
    pub disk: &'a dyn Disk,
}

impl Opened<'_> {
    /// The bytes at the move's destination, `None` when there is none or it does not exist.
    pub fn read_dest(&self) -> Result<Option<Vec<u8>>, FsError> {
        match self.dest {
            Some(dest) => self.disk.read(dest),
            None => Ok(None),
        }
    }
}

/// What the front end sees of a file once spliced, guarded and encoded.
pub(crate) struct Guarded<'a> {
    /// The front end's plan.
    pub plan: &'a EditPlan,
    /// The new LF text as the next read will show it.
    pub new_text: &'a Pieces<'a>,
}

/// One file of a call, planned and checked (and written, unless the call is a dry run).
#[derive(Debug)]
pub(crate) struct Done {
    /// The resolved file (its `display` is the path as the request wrote it).
    pub target: Target,
    /// Where it moved.
    pub dest: Option<Target>,
    /// How it landed.
    pub land: Land,
    /// The LF text read.
    pub old_text: String,
    /// The new LF text as the next read shows it (empty after a delete); read it through
    /// [`Done::new_pieces`] (a plain file's is held as ranges of `old_text`).
    pub new_text: NewText,
    /// `new_text`'s tag once someone needed it (the reply's diffs beside the commit, or the
    /// record after it): hashed once for both ([`Done::new_tag`]).
    pub new_tag: std::sync::OnceLock<String>,
    /// The front end's, the guard's, the encoder's and the store's warnings, in that order.
    pub warnings: Vec<String>,
    /// The call leaves the file as it was.
    pub noop: bool,
    /// The stretches of lines the edits changed, when `new_text` is their splice of
    /// `old_text` (a claim: [`crate::diff::LineDiff::of_changed`] checks it before use).
    pub changes: Option<Vec<LineChange>>,
    /// The bytes read; `None`: those of `old_text`.
    pub(super) old_bytes: Option<Vec<u8>>,
    /// The bytes to write; `None`: those of `new_text`.
    pub(super) new_bytes: Option<Vec<u8>>,
    /// The call's undo id once it was written and recorded (the same for every file of it).
    pub undo: Option<u64>,
    /// `target` is a symlink the call deletes itself (not the file it points to).
    pub(super) link: bool,
}

impl Done {
    /// The new text, read as its pieces.
    pub(crate) fn new_pieces(&self) -> Pieces<'_> {
        self.new_text.pieces(&self.old_text)
    }

    /// The new text with its tag (hashed now unless it was before).
    pub(crate) fn new_tagged(&self) -> super::report::NewTagged<'_> {
        super::report::NewTagged {
            text: self.new_pieces(),
            tag: self.new_tag(),
        }
    }

    /// The new text's tag, hashed now unless it was before.
    pub(crate) fn new_tag(&self) -> &str {
        self.new_tag
            .get_or_init(|| hashline_anchor::tag::file_tag_pieces(&self.new_pieces()))
    }

    /// The bytes read.
    pub(super) fn old_bytes(&self) -> &[u8] {
        self.old_bytes
            .as_deref()
            .unwrap_or(self.old_text.as_bytes())
    }

    /// The bytes to write: a plain file's are its new text's pieces.
    pub(super) fn new_bytes(&self) -> Content<'_> {
        match &self.new_bytes {
            Some(bytes) => Content::from(bytes.as_slice()),
            None => Content::from(self.new_pieces()),
        }
    }
}

/// What a dialect supplies: its request's files, its checks and plans, its seed's words.
pub(crate) trait FrontEnd {
    /// The dialect's refusal (a guard's or a file-level refusal is taken over as it is).
    type Error: From<Refusal> + From<Refusal>;
    /// The files the request names, in its order.
    fn intents(&self) -> Vec<Intent>;
    /// Checks of file `i` that come before its path is resolved (a section's own parse).
    fn begin(&mut self, _i: usize) -> Result<(), Self::Error> {
        Ok(())
    }
    /// A file-system failure of file `i` in the dialect's words.
    fn fs_error(&self, i: usize, e: FsError) -> Self::Error;
    /// File `i` read: checks of the file, anchors verified, stale ones carried over, edits
    /// lowered to its numbering.
    fn plan(&mut self, opened: Opened<'_>) -> Result<Plan, Self::Error>;
    /// A splice failure in the dialect's words.
    fn splice_error(&self, e: SpliceError) -> Self::Error;
    /// Checks of the spliced text before the guard runs (a no-op refused in the seed's place).
    fn spliced(
        &mut self,
        _i: usize,
        _plan: &EditPlan,
        _spliced: &Spliced,
    ) -> Result<(), Self::Error> {
        Ok(())
    }
    /// Line `n` of file `i` (whose lines are `lines`) rendered with the dialect's read anchor.
    fn anchor(&self, i: usize, lines: &[&str], n: usize) -> String;
    /// Edit `e` of file `i` named as the request named it.
    fn label(&self, i: usize, e: &Edit) -> String;
    /// The request allows edits that add syntax errors.
    fn allow_syntax_errors(&self) -> bool {
        false
    }
    /// The dialect sends one hunk per call by design, so a multi-hunk change passes through
    /// intermediate texts (the text-editor tool).
    fn one_hunk_per_call(&self) -> bool {
        false
    }
    /// Checks of the guarded result (a file emptied); `Ok` holds the warnings that go before
    /// the guard's.
    fn checked(&mut self, _i: usize, _result: &Guarded<'_>) -> Result<Vec<String>, Self::Error> {
        Ok(Vec::new())
    }
    /// Checks across the call's files before anything is written.
    fn before_commit(&self, _done: &[Done]) -> Result<(), Self::Error> {
        Ok(())
    }
    /// Whether a call that changes nothing records the text read (the hashline seed does).
    fn records_noop(&self) -> bool {
        false
    }
    /// Whether the text an edit leaves is recorded as a version the session has seen. Only a
    /// dialect whose reply shows the new text's anchors (a tag, `HASH:` rows) may say yes: a
    /// recorded version is one that anchors may come from, and an unseen one would let a stale
    /// anchor that happens to fit it (an 8-bit line ID) land on a line the model never saw.
    fn records_result(&self) -> bool {
        true
    }
    /// A store failure that refuses the call (recording a no-op).
    fn store_error(&self, e: StoreError) -> Self::Error;
    /// A store failure after the write, worded as the dialect's warning.
    fn store_warning(&self, e: &StoreError) -> String;
    /// A failed commit in the dialect's words.
    fn commit_error(&self, e: CommitError) -> Self::Error;
}
