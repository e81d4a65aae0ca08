//! [`Engine`]: one workspace root, one session's snapshot store, every dialect.

use crate::{EditOptions, ReadOptions};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use hashline_apply::fs::{FsError, Recovery, Workspace, Written};
use hashline_apply::{
    hash_json, hashline as hl, lineid_json, Change, Disk, FileOp, FileReport, Outcome, RunOptions,
};
use hashline_core::kind::FileKind;
use hashline_core::{BlockResolver, ErrorCode, TextFile};
use hashline_queue::{PreviewQueue, QueueError};
use hashline_state::{MemoryStore, SnapshotStore, StoreError};

use crate::database::Database;

use crate::dialect::{Anchors, Dialect};

/// Where the session's snapshots live.
#[derive(Debug, Clone)]
pub enum StateConfig {
    /// In this process only (tests, embedding in a long-running agent).
    Memory,
    /// On disk under `dir`, shared by every process of session `session`.
    Persistent {
        /// The state directory (`--state`).
        dir: PathBuf,
        /// The session name (`--session`).
        session: String,
    },
}

/// How to open an [`Engine`].
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// Every path is resolved against this directory and may not leave it.
    pub root: PathBuf,
    /// Where snapshots live.
    pub state: StateConfig,
}

impl EngineConfig {
    /// A config with an in-memory store.
    pub fn in_memory(root: impl Into<PathBuf>) -> EngineConfig {
        EngineConfig {
            root: root.into(),
            state: StateConfig::Memory,
        }
    }

    /// A config with the persistent store in `dir` for `session`.
    pub fn persistent(
        root: impl Into<PathBuf>,
        dir: impl Into<PathBuf>,
        session: impl Into<String>,
    ) -> EngineConfig {
        EngineConfig {
            root: root.into(),
            state: StateConfig::Persistent {
                dir: dir.into(),
                session: session.into(),
            },
        }
    }
}

/// Why an [`Engine`] could not be opened (not a refusal of a request: those are [`Outcome`]s).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The root is missing or not a directory.
    #[error("cannot use root {path}: {source}")]
    Root {
        /// The root given.
        path: PathBuf,
        /// Why.
        source: FsError,
    },
    /// The state store could not be opened (a state directory that cannot be created, a
    /// database that cannot be opened): the call stops before anything is read or written,
    /// since the journal that makes an edit crash-safe lives in the state directory too.
    #[error(
        "{0}. Nothing was read or written: the state directory also holds the journal that \
         makes every edit crash-safe. Name a directory hashline can create and write \
         (--state DIR, or HASHLINE_STATE)"
    )]
    State(#[from] StoreError),
    /// A persistent store was asked of a build without one (the `sqlite` feature).
    #[error(
        "this build keeps no state on disk (the `sqlite` feature of the `hashline` crate is off): use StateConfig::Memory"
    )]
    NoDatabase,
}

impl Error {
    /// The code a front end reports it with: `E_USAGE` for a root that cannot be used (the
    /// caller named it), `E_IO` for a state store that cannot be opened.
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::Root { .. } => ErrorCode::Usage,
            Error::State(_) => ErrorCode::Io,
            Error::NoDatabase => ErrorCode::Usage,
        }
    }
}

/// The file system an [`Engine`] runs on.
pub(crate) enum Tree {
    /// A directory on disk: confined, locked, journaled, with undo and ast-edit.
    Workspace(Workspace),
    /// An embedder's file system (e.g. a [`hashline_apply::MemoryDisk`]).
    Custom(Arc<dyn Disk>),
}

/// Reads, edits and writes files under one root, for one session.
pub struct Engine {
    pub(crate) tree: Tree,
    /// What the recovery run by [`Engine::open`] did, when it found something.
    recovered: Option<Recovery>,
    store: Arc<dyn SnapshotStore>,
    /// The persistent store, when there is one (the preview queue shares its database).
    pub(crate) sqlite: Option<Arc<Database>>,
    /// The ast-edit preview queue, opened on first use.
    queue: OnceLock<PreviewQueue>,
    resolver: hashline_ast::TreeSitterBlocks,
    /// The edit guard's parser (`E_SYNTAX_INTRODUCED`).
    syntax: hashline_ast::TreeSitterSyntax,
}

/// A session store, and the database behind it when there is one (for the preview queue and
/// `hashline state`).
type OpenedState = (Arc<dyn SnapshotStore>, Option<Arc<Database>>);

/// The session store `state` names.
fn open_state(state: &StateConfig) -> Result<OpenedState, Error> {
    Ok(match state {
        StateConfig::Memory => (Arc::new(MemoryStore::new()), None),
        #[cfg(feature = "sqlite")]
        StateConfig::Persistent { dir, session } => {
            let store = Arc::new(Database::open(dir, session)?);
            let shared: Arc<dyn SnapshotStore> = store.clone();
            (shared, Some(store))
        }
        #[cfg(not(feature = "sqlite"))]
        StateConfig::Persistent { .. } => return Err(Error::NoDatabase),
    })
}

impl Engine {
    /// Open the root and the session store.
    pub fn open(config: EngineConfig) -> Result<Engine, Error> {
        let ws = Workspace::new(&config.root).map_err(|source| Error::Root {
            path: config.root.clone(),
            source,
        })?;
        let (store, sqlite) = open_state(&config.state)?;
        let ws = match (&config.state, &sqlite) {
            #[cfg(feature = "sqlite")]
            (StateConfig::Persistent { dir, session }, Some(db)) => {
                // Bounded state: at most once an hour, sessions past the age or size bound go
                // (never this one). A state the call cannot write keeps them until one can.
                let _ = db.auto_prune(&crate::state::auto_prune_rule());
                ws.with_state_dir(dir.clone(), session.clone())
            }
            _ => ws,
        };
        // A transaction a killed process left half done is finished or undone before anything
        // else reads the tree; a failure here is reported again by `recover`.
        let recovered = ws.recover().ok().filter(|r| !r.is_empty());
        Ok(Engine::assemble(
            Tree::Workspace(ws),
            recovered,
            store,
            sqlite,
        ))
    }

    /// An engine over `disk` (an in-memory tree, or the embedder's own file system) with its
    /// snapshots in `state`. `read`, `edit`, `write`, `ast_edit` (walking and reading through
    /// the disk) and `resolve` run on it as on a directory; `undo` and `recover` need a
    /// directory and are refused (`E_NEEDS_DIRECTORY`). A persistent `state` keeps the snapshots and the preview queue
    /// in its database; locks, the journal and the undo log are the disk's business.
    pub fn with_disk(disk: Arc<dyn Disk>, state: &StateConfig) -> Result<Engine, Error> {
        let (store, sqlite) = open_state(state)?;
        Ok(Engine::assemble(Tree::Custom(disk), None, store, sqlite))
    }

    fn assemble(
        tree: Tree,
        recovered: Option<Recovery>,
        store: Arc<dyn SnapshotStore>,
        sqlite: Option<Arc<Database>>,
    ) -> Engine {
        Engine {
            tree,
            recovered,
            store,
            sqlite,
            queue: OnceLock::new(),
            resolver: hashline_ast::TreeSitterBlocks,
            syntax: hashline_ast::TreeSitterSyntax,
        }
    }

    /// The file system every command runs on.
    pub fn disk(&self) -> &dyn Disk {
        match &self.tree {
            Tree::Workspace(ws) => ws,
            Tree::Custom(disk) => disk.as_ref(),
        }
    }

    /// The directory on disk, when the engine runs on one (not over [`Engine::with_disk`]).
    pub fn workspace(&self) -> Option<&Workspace> {
        match &self.tree {
            Tree::Workspace(ws) => Some(ws),
            Tree::Custom(_) => None,
        }
    }

    /// The workspace, or the refusal of `command` on an engine without one.
    pub(crate) fn needs_directory(&self, command: &str) -> Result<&Workspace, Outcome> {
        self.workspace().ok_or_else(|| {
            Outcome::refused(
                ErrorCode::NeedsDirectory,
                format!("`{command}` needs a directory on disk, and this session runs over another file system; open the session on a directory to {command}."),
            )
        })
    }

    /// The session's ast-edit preview queue: in the state database when the engine is
    /// persistent, else in memory (for the engine's lifetime).
    pub fn queue(&self) -> Result<&PreviewQueue, QueueError> {
        if let Some(queue) = self.queue.get() {
            return Ok(queue);
        }
        let queue = match &self.sqlite {
            #[cfg(feature = "sqlite")]
            Some(store) => PreviewQueue::new(Arc::clone(store))?,
            _ => PreviewQueue::in_memory("memory")?,
        };
        Ok(self.queue.get_or_init(|| queue))
    }

    /// The `[W_STATE_CORRUPT]` warning when the state database was not a database (random
    /// bytes, another file) and was moved aside for a fresh one as the engine opened.
    pub fn state_reset(&self) -> Option<String> {
        let aside = crate::database::moved_aside(self.sqlite.as_deref()?)?;
        Some(format!(
            "[W_STATE_CORRUPT] the state database was not a database; it was moved to {} and a \
             fresh one made: the session's earlier reads, stale-anchor versions and queued \
             previews are gone (read files again before editing them)",
            aside.display()
        ))
    }

    /// What the recovery run when the engine opened did (`None`: there was nothing to recover).
    pub fn recovered(&self) -> Option<&Recovery> {
        self.recovered.as_ref()
    }

    /// `recover`: finish or undo the transactions killed processes left in the journal (also
    /// done by every call when it opens) and report what was done, including at open.
    pub fn recover(&self) -> Outcome {
        let ws = match self.needs_directory("recover") {
            Ok(ws) => ws,
            Err(refusal) => return refusal,
        };
        match ws.recover() {
            Ok(now) => {
                // A journal refused at open is still there, and refused again by `now`.
                let at_open = self.recovered.clone().map(|mut report| {
                    report.refused.clear();
                    report
                });
                let mut text = String::new();
                for report in at_open.iter().chain([&now]) {
                    if !report.is_empty() {
                        text.push_str(&report.to_string());
                        text.push('\n');
                    }
                }
                if text.is_empty() {
                    text = "nothing to recover\n".to_owned();
                }
                let mut outcome = Outcome::refused(ErrorCode::StateTampered, text);
                if now.refused.is_empty() {
                    outcome.ok = true;
                    outcome.code = None;
                }
                outcome
            }
            Err(e) => Outcome::refused(e.code(), e.to_string()),
        }
    }

    /// The canonical root (empty over [`Engine::with_disk`]: the disk has none).
    pub fn root(&self) -> &Path {
        self.workspace().map_or(Path::new(""), Workspace::root)
    }

    /// The session's snapshot store.
    pub fn store(&self) -> &dyn SnapshotStore {
        self.store.as_ref()
    }

    /// `read PATH`: the file with anchors; records what it showed in the session (always the
    /// whole text, whatever page is shown). A path that names no file but ends in `:N` or
    /// `:N-M` reads lines N.. (N..=M) of the file before the colon: the continuation hints
    /// (`Use :N to continue`) are commands that work.
    pub fn read(&self, path: &str, options: &ReadOptions) -> Outcome {
        let outcome = self.read_as_written(path, options);
        if outcome.code != Some(ErrorCode::FileNotFound) {
            return outcome;
        }
        match crate::read_range::split(path) {
            Some(ranged) => match crate::read_range::options(&ranged, options) {
                Ok(ranged_options) => self.read_as_written(ranged.path, &ranged_options),
                Err(refusal) => refusal,
            },
            None => outcome,
        }
    }

    /// [`Engine::read`] of `path` exactly as written.
    fn read_as_written(&self, path: &str, options: &ReadOptions) -> Outcome {
        match options.anchors {
            Anchors::Tag => match (
                parse_count(options.offset_text().as_deref()),
                parse_count(options.limit_text().as_deref()),
            ) {
                (Ok(offset), Ok(limit)) => hl::read(self.disk(), self.store(), path, offset, limit),
                (Err(msg), _) | (_, Err(msg)) => Outcome::refused(ErrorCode::BadShape, msg),
            },
            Anchors::Hash => hash_json::read::read(
                self.disk(),
                self.store(),
                path,
                options
                    .offset_text()
                    .as_deref()
                    .map(hash_json::read::ReadArg::Text),
                options
                    .limit_text()
                    .as_deref()
                    .map(hash_json::read::ReadArg::Text),
            ),
            Anchors::Lineid => match (
                parse_count(options.offset_text().as_deref()),
                parse_count(options.limit_text().as_deref()),
            ) {
                (Ok(offset), Ok(limit)) => {
                    lineid_json::read(self.disk(), self.store(), path, offset, limit)
                }
                (Err(msg), _) | (_, Err(msg)) => Outcome::refused(ErrorCode::BadShape, msg),
            },
        }
    }

    /// `edit`: apply one request in `dialect` (or detect it). With `dry_run`, nothing is written.
    pub fn edit(&self, input: &str, dialect: Dialect, dry_run: bool) -> Outcome {
        let options = EditOptions {
            dry_run,
            ..EditOptions::default()
        };
        self.edit_with(input, dialect, &options)
    }

    /// [`Engine::edit`] with every option.
    pub fn edit_with(&self, input: &str, dialect: Dialect, options: &EditOptions) -> Outcome {
        let guard = hashline_apply::guard::GuardOptions {
            syntax: Some(&self.syntax),
            allow_syntax_errors: options.allow_syntax_errors,
        };
        let resolver: &dyn BlockResolver = &self.resolver;
        let run = RunOptions {
            dry_run: options.dry_run,
            guard,
            resolver: Some(resolver),
            // The reply keeps fresh anchors only when asked (`--json`, MCP, `--show-anchors`):
            // otherwise no dialect computes them.
            fresh_anchors: options.fresh_anchors || options.show_anchors,
            max_file_mb: options.max_file_mb,
            overwrite: options.overwrite,
        };
        let dialect = dialect
            .resolve(input)
            .get()
            .unwrap_or(hashline_apply::registry::DIALECTS[0]);
        dialect.edit(self.disk(), self.store(), input, &run)
    }

    /// `write PATH`: create or replace the whole file with `content` (kept byte for byte), then
    /// show its anchors (the auto-read) and record it in the session.
    ///
    /// Like `read` and `edit`, it handles text only: a binary file in place is refused
    /// (`E_BINARY`), and so is binary `content` except with hash anchors (seed 001's host
    /// writes any bytes); a name holding a control character is refused (`E_UNSAFE_PATH`, see
    /// [`hashline_core::name`]).
    ///
    /// An existing file this session never read (no version of it recorded: no `read`, `edit`
    /// or `write` of it) is not replaced: `E_NOT_READ` (see [`Engine::write_with`] to allow it).
    pub fn write(&self, path: &str, content: &[u8], anchors: Anchors) -> Outcome {
        self.write_with(path, content, anchors, false)
    }

    /// [`Engine::write`]; with `overwrite` (`write --overwrite`), an existing file the session
    /// never read is replaced too.
    pub fn write_with(
        &self,
        path: &str,
        content: &[u8],
        anchors: Anchors,
        overwrite: bool,
    ) -> Outcome {
        if let Err(e) = hashline_core::name::check(path) {
            return Outcome::refused(e.code(), e.to_string());
        }
        // Seed 001's host writes any bytes and reports their count (its auto-read shows no
        // rows of them); the other modes' auto-read would have to show binary rows.
        let kind = hashline_core::kind::detect(content);
        if let (FileKind::Binary(what) | FileKind::Image(what), false) =
            (kind, anchors == Anchors::Hash)
        {
            return Outcome::refused(
                ErrorCode::Binary,
                format!("The content to write to {path} is not text ({what}). Hashline write only supports text files; nothing was written."),
            );
        }
        if path.ends_with('/') {
            let refusal = FsError::TrailingSlash {
                path: path.to_owned(),
            };
            return Outcome::refused(refusal.code(), refusal.to_string());
        }
        let disk = self.disk();
        let target = match disk.resolve(path) {
            Ok(t) => t,
            Err(e) => return Outcome::refused(e.code(), e.to_string()),
        };
        let outcome = (|| -> Result<(FileOp, Written), (ErrorCode, String)> {
            let fs = |e: FsError| (e.code(), e.to_string());
            let _guard = disk.lock(&[&target]).map_err(fs)?;
            let before = disk.read(&target).map_err(fs)?;
            if let Some(message) = before
                .as_deref()
                .and_then(|b| hashline_core::kind::refusal(path, b, "write"))
            {
                return Err((ErrorCode::Binary, message));
            }
            if before.is_some() && !overwrite {
                crate::write_rule::check_read(self.store(), &target.key, path)?;
            }
            let op = if before.is_some() {
                FileOp::Update
            } else {
                FileOp::Create
            };
            let change = Change::Write {
                target: &target,
                expected: before.map(Into::into),
                bytes: content.into(),
            };
            let written = disk.write(vec![change]).map_err(fs)?;
            Ok((op, written))
        })();
        let (op, written) = match outcome {
            Ok(done) => done,
            Err((code, message)) => return Outcome::refused(code, message),
        };
        let text = TextFile::decode(content.to_vec());
        let mut read = match anchors {
            Anchors::Hash => self.hash_auto_read(path, &target.key, content.len(), text.text()),
            _ => self.read(path, &ReadOptions::new().anchors(anchors)),
        };
        read.files = vec![FileReport {
            path: path.to_string(),
            new_path: None,
            op,
            tag: Some(hashline_anchor::tag::file_tag(text.text())),
            diff: String::new(),
            first_changed_line: Some(1),
            written: true,
            anchors: Vec::new(),
        }];
        read.undo = written.undo;
        read.warnings.extend(written.warning().map(str::to_owned));
        read
    }
}

impl Engine {
    /// What seed 001's host returns for a write: its own `Successfully wrote N bytes to PATH`
    /// and the auto-read block ([`hash_json::render_anchors`]) of the written `text`, which is
    /// recorded in the session as a read of it (so an edit with those anchors has its base).
    /// Unlike a `read`, it is never refused: the file was written whatever its content.
    fn hash_auto_read(&self, path: &str, key: &str, bytes: usize, text: &str) -> Outcome {
        let mut out = format!(
            "Successfully wrote {bytes} bytes to {path}{}",
            hash_json::render_anchors(text)
        );
        let mut warnings = Vec::new();
        if let Err(e) = self.store.record(key, text) {
            warnings.push(hashline_apply::not_recorded("The file was written", &e));
            out.push_str(&hashline_apply::warnings_block(&warnings));
        }
        Outcome {
            ok: true,
            code: None,
            text: out,
            warnings,
            files: Vec::new(),
            undo: None,
        }
    }
}

/// A count option (`--offset`, `--limit`) as a positive whole number.
fn parse_count(raw: Option<&str>) -> Result<Option<usize>, String> {
    match raw {
        None => Ok(None),
        Some(s) => match s.trim().parse::<usize>() {
            Ok(n) if n >= 1 => Ok(Some(n)),
            _ => Err(format!(
                "`{s}` is not a line count: use a whole number of 1 or more."
            )),
        },
    }
}
