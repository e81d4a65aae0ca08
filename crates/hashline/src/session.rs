//! [`Session`]: the object an agent holds for a whole session, and the one place the command
//! line and the MCP server run a command.
//!
//! Every call returns an [`Answer`]: a [`Reply`] or a [`Refusal`] (typed: text, coded warnings,
//! files with fresh anchors, the undo id, the `--json` object). Both front ends hand a
//! [`Session`] the arguments they parsed and present the answer as a [`Response`]: the CLI
//! prints `outcome.text` (or `report` with `--json`) and picks the exit code, the MCP server
//! returns `outcome.text` as the tool result's text and `report` as its structured content. Whatever one front end shows for a call, the other shows for the same
//! call. An embedder does the same with its own transport, over a directory
//! ([`Session::open`]) or any [`Disk`] ([`Session::with_disk`], e.g. a [`MemoryDisk`]).
//!
//! [`MemoryDisk`]: hashline_apply::MemoryDisk

use std::sync::Arc;

use hashline_apply::Disk;
use serde::Serialize;

use crate::reply::{answer, Answer, Detail};
use crate::{
    Anchors, AstEditOptions, Dialect, EditOptions, Engine, EngineConfig, Error, ErrorCode, Outcome,
    ReadOptions, ResolveAction, Rule, StateAction, StateConfig,
};

/// One answered command, as the command line and the MCP server present it (an [`Answer`]
/// converts into one).
#[derive(Debug, Clone)]
pub struct Response {
    /// The model-facing text and the refusal code, if any.
    pub outcome: Outcome,
    /// The `--json` object, built when asked for (a read's text is not escaped into a JSON
    /// string unless the caller wants it).
    json: Json,
}

/// How a [`Response`] builds its `--json` object.
#[derive(Debug, Clone)]
enum Json {
    /// Serialized already (a command's own structured report).
    Built(String),
    /// The [`Outcome`] fields, then `undo` when given.
    Outcome {
        /// The call's undo id.
        undo: Option<u64>,
    },
}

impl Response {
    /// A response whose `--json` object is `report` (a superset of `outcome`'s fields).
    pub(crate) fn new(outcome: Outcome, report: &impl Serialize) -> Response {
        let json = Json::Built(serialize(&outcome, report));
        Response { outcome, json }
    }

    /// A response that is just `outcome`.
    pub fn from_outcome(outcome: Outcome) -> Response {
        Response {
            outcome,
            json: Json::Outcome { undo: None },
        }
    }

    /// The `--json` object, serialized with its fields in the CLI's order: the [`Outcome`]
    /// fields plus the command's structured report (`preview` of `ast-edit`, `resolve` of
    /// `resolve`, `undo` of a call that wrote).
    pub fn json(&self) -> std::borrow::Cow<'_, str> {
        match &self.json {
            Json::Built(json) => std::borrow::Cow::Borrowed(json),
            Json::Outcome { undo } => std::borrow::Cow::Owned(serialize(
                &self.outcome,
                &WithUndo {
                    outcome: &self.outcome,
                    undo: *undo,
                },
            )),
        }
    }

    /// The `--json` object as a value (what the MCP server returns as structured content).
    pub fn report(&self) -> serde_json::Value {
        serde_json::from_str(&self.json()).unwrap_or(serde_json::Value::Null)
    }
}

/// The version of the `--json` objects' shape: `schema_version` of every object the CLI
/// prints and every MCP structured result (`docs/JSON.md`). A field added keeps it; a field
/// removed, renamed or retyped raises it.
pub const JSON_SCHEMA_VERSION: u32 = 1;

/// `report` with `schema_version` in front.
#[derive(Serialize)]
struct Versioned<'a, T: Serialize> {
    schema_version: u32,
    #[serde(flatten)]
    report: &'a T,
}

/// `report` as JSON text, `schema_version` first; should it not serialize, the [`Outcome`]
/// fields and a warning saying so.
fn serialize(outcome: &Outcome, report: &impl Serialize) -> String {
    let versioned = Versioned {
        schema_version: JSON_SCHEMA_VERSION,
        report,
    };
    serde_json::to_string(&versioned).unwrap_or_else(|e| {
        serde_json::json!({
            "schema_version": JSON_SCHEMA_VERSION,
            "ok": outcome.ok,
            "code": outcome.code,
            "text": outcome.text,
            "warnings": [format!("the structured report could not be built: {e}")],
            "files": [],
        })
        .to_string()
    })
}

/// An edit's or write's `--json` object: the outcome's fields, then `undo` (the call's undo
/// id) when the call was recorded in the undo log.
#[derive(Serialize)]
struct WithUndo<'a> {
    #[serde(flatten)]
    outcome: &'a Outcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    undo: Option<u64>,
}

/// A command's structured report, then `undo` (the call's undo id) when it wrote and was
/// recorded in the undo log.
#[derive(Serialize)]
struct ReportWithUndo<'a, T: Serialize> {
    #[serde(flatten)]
    report: &'a T,
    #[serde(skip_serializing_if = "Option::is_none")]
    undo: Option<u64>,
}

/// The response of a call that may have written: its `--json` object carries the undo id.
fn with_undo(outcome: Outcome, undo: Option<u64>) -> Response {
    Response {
        outcome,
        json: Json::Outcome { undo },
    }
}

/// A session over one tree: `read`, `edit`, `write`, `ast_edit`, `resolve` (and `undo`,
/// `recover`), each returning an [`Answer`]: `Ok(`[`Reply`](crate::Reply)`)` or
/// `Err(`[`Refusal`](crate::Refusal)`)`.
///
/// `Send + Sync`: share it behind an [`Arc`] between threads or async tasks (run its calls on
/// a blocking thread, e.g. `tokio::task::spawn_blocking`: they read and write files). Calls
/// on different files run in parallel; on one file they serialize on its lock (a directory)
/// or see each other's results (any [`Disk`]: a write checks the content it read). The state
/// is the [`Engine`]'s store, so two sessions (or a session and a CLI call) with the same
/// state directory and session name see the same snapshots.
pub struct Session {
    engine: Engine,
}

impl Session {
    /// Open the root directory and the session store.
    pub fn open(config: EngineConfig) -> Result<Session, Error> {
        Engine::open(config).map(Session::new)
    }

    /// A session over `disk` (a [`hashline_apply::MemoryDisk`], or the embedder's own file
    /// system) with its snapshots in `state`. Every command but `undo` and `recover` (which need
    /// a directory: `E_NEEDS_DIRECTORY`) runs on it as on a directory; `ast_edit` walks and
    /// reads the disk (hidden files, `.git` and `node_modules` skipped; ignore files are only
    /// read in a directory on disk).
    pub fn with_disk(disk: Arc<dyn Disk>, state: &StateConfig) -> Result<Session, Error> {
        Engine::with_disk(disk, state).map(Session::new)
    }

    /// A session over an opened engine.
    pub fn new(engine: Engine) -> Session {
        Session { engine }
    }

    /// The engine underneath.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// `read PATH`: the file with `options.anchors`; records what it showed.
    pub fn read(&self, path: &str, options: &ReadOptions) -> Answer {
        plain(self.engine.read(path, options))
    }

    /// `edit`: apply `input` in `dialect`. A dry run that would succeed shows the unified diff
    /// of every file instead of the model-facing result (or that result, when nothing would
    /// change).
    pub fn edit(&self, input: &str, dialect: Dialect, options: &EditOptions) -> Answer {
        // Detected once (for `auto`, a JSON parse); resolving a concrete dialect is a no-op.
        let dialect = dialect.resolve(input);
        let mut outcome = self.engine.edit_with(input, dialect, options);
        crate::fresh::present(&mut outcome, dialect, options);
        crate::fresh::say_nothing_written(&mut outcome, dialect, input);
        if options.dry_run && outcome.ok {
            let diff: String = outcome.files.iter().map(|f| f.diff.as_str()).collect();
            if !diff.is_empty() {
                outcome.text = diff;
            }
        }
        let undo = outcome.undo;
        answer(with_undo(outcome, undo), Detail::None)
    }

    /// [`Session::edit`] of input given as bytes (a file or standard input): a patch that is
    /// not UTF-8 is refused as the dialect's seed refuses it (`E_PARSE`).
    pub fn edit_bytes(&self, input: &[u8], dialect: Dialect, options: &EditOptions) -> Answer {
        match std::str::from_utf8(input) {
            Ok(text) => self.edit(text, dialect, options),
            Err(_) => {
                // In the dialect's seed's words where it has its own.
                let text = dialect
                    .get()
                    .map_or(hashline_apply::dialect::NOT_UTF8, |d| d.not_utf8());
                plain(Outcome::refused(ErrorCode::Parse, text))
            }
        }
    }

    /// `write PATH`: create or replace the file with `content`, then show its anchors. An
    /// existing file the session never read is refused (`E_NOT_READ`).
    pub fn write(&self, path: &str, content: &[u8], anchors: Anchors) -> Answer {
        self.write_with(path, content, anchors, false)
    }

    /// [`Session::write`]; with `overwrite` (`write --overwrite`) an existing file the session
    /// never read is replaced too.
    pub fn write_with(
        &self,
        path: &str,
        content: &[u8],
        anchors: Anchors,
        overwrite: bool,
    ) -> Answer {
        let outcome = self.engine.write_with(path, content, anchors, overwrite);
        let undo = outcome.undo;
        answer(with_undo(outcome, undo), Detail::None)
    }

    /// `ast-edit`: preview `rules` over `paths` and queue the preview (nothing written); the
    /// reply's [`preview`](crate::Reply::preview) has the id `resolve` takes.
    pub fn ast_edit(
        &self,
        rules: Vec<Rule>,
        paths: Vec<String>,
        options: &AstEditOptions,
    ) -> Answer {
        self.ast_edit_with_progress(rules, paths, options, &|_, _| {})
    }

    /// [`Session::ast_edit`], calling `progress(done, total)` as files are parsed.
    pub fn ast_edit_with_progress(
        &self,
        rules: Vec<Rule>,
        paths: Vec<String>,
        options: &AstEditOptions,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Answer {
        let result = self
            .engine
            .ast_edit_with_progress(rules, paths, options, progress);
        let response = Response::new(result.outcome.clone(), &result);
        answer(
            response,
            result
                .preview
                .map_or(Detail::None, |p| Detail::Preview(Box::new(p))),
        )
    }

    /// `resolve`: apply, discard or list the queued previews. An apply that wrote carries its
    /// undo id (`undo` in the `--json` object), as `edit` and `write` do.
    pub fn resolve(&self, action: ResolveAction) -> Answer {
        let result = self.engine.resolve(action);
        let report = ReportWithUndo {
            report: &result,
            undo: result.outcome.undo,
        };
        let response = Response::new(result.outcome.clone(), &report);
        answer(response, Detail::Resolve(Box::new(result.resolve)))
    }

    /// `state`: list the sessions of the state database, or prune them.
    pub fn state(&self, action: StateAction) -> Answer {
        let result = self.engine.state(action);
        let response = Response::new(result.outcome.clone(), &result);
        answer(response, Detail::State(Box::new(result)))
    }

    /// `undo [ID]`: put back the files of call `id` (`None`: this session's newest).
    pub fn undo(&self, id: Option<u64>) -> Answer {
        plain(self.engine.undo(id))
    }

    /// `undo --list`: the undoable calls of this root.
    pub fn undo_list(&self) -> Answer {
        plain(self.engine.undo_list())
    }

    /// `recover`: finish or undo the transactions killed processes left behind.
    pub fn recover(&self) -> Answer {
        plain(self.engine.recover())
    }
}

/// An [`Answer`] that is just `outcome`.
fn plain(outcome: Outcome) -> Answer {
    answer(Response::from_outcome(outcome), Detail::None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn session_is_send_and_sync() {
        assert_send_sync::<Session>();
    }

    #[test]
    fn a_patch_that_is_not_utf8_is_refused_in_each_dialects_words() {
        let disk = Arc::new(hashline_apply::MemoryDisk::with_files([("a.txt", "x\n")]));
        let session = Session::with_disk(disk.clone(), &StateConfig::Memory).expect("session");
        let bytes = b"\xff\xfe not text";
        let options = EditOptions::default();
        let refused = session
            .edit_bytes(bytes, Dialect::ApplyPatch, &options)
            .expect_err("refused");
        assert_eq!(refused.code(), ErrorCode::Parse);
        assert_eq!(
            refused.text(),
            "Error: apply_patch requires a UTF-8 PATCH argument."
        );
        let refused = session
            .edit_bytes(bytes, Dialect::Auto, &options)
            .expect_err("refused");
        assert_eq!(refused.code(), ErrorCode::Parse);
        assert!(refused.text().contains("not valid UTF-8"));
        assert_eq!(refused.report()["code"], "E_PARSE");
        assert_eq!(disk.get("a.txt").as_deref(), Some(&b"x\n"[..]));
    }

    #[test]
    fn dry_run_shows_the_diff_and_writes_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").expect("write");
        let session = Session::open(EngineConfig::in_memory(dir.path())).expect("open");
        let read = session.read("a.txt", &ReadOptions::new()).expect("read");
        let header = read.text().lines().next().expect("header").to_string();
        let patch = format!("{header}\nreplace 2..2:\n+TWO\n");
        let options = EditOptions::new().dry_run(true);
        let reply = session
            .edit(&patch, Dialect::Auto, &options)
            .expect("a dry run that would land");
        assert!(reply.text().contains("+TWO"));
        assert_eq!(reply.undo(), None);
        assert_eq!(reply.report()["ok"], serde_json::json!(true));
        let on_disk = std::fs::read_to_string(dir.path().join("a.txt")).expect("read");
        assert_eq!(on_disk, "one\ntwo\n");
    }

    #[test]
    fn an_edit_that_writes_carries_its_undo_id_and_coded_warnings() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = tempfile::tempdir().expect("state dir");
        std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").expect("write");
        let config = EngineConfig::persistent(dir.path(), state.path(), "s");
        let session = Session::open(config).expect("open");
        let read = session.read("a.txt", &ReadOptions::new()).expect("read");
        let header = read.text().lines().next().expect("header").to_string();
        let reply = session
            .edit(
                &format!("{header}\nreplace 2..2:\n+TWO\n"),
                Dialect::Auto,
                &EditOptions::new(),
            )
            .expect("lands");
        let undo = reply.undo().expect("recorded in the undo log");
        assert_eq!(reply.report()["undo"], serde_json::json!(undo));
        assert!(
            reply.files().iter().any(|f| !f.anchors.is_empty()),
            "fresh anchors"
        );
        assert!(reply.warnings().all(|w| w.code.is_some()));
        let undone = session.undo(Some(undo)).expect("undo");
        assert!(undone.text().contains("a.txt"), "{}", undone.text());
        let page = session
            .read("a.txt", &ReadOptions::new().offset(2).limit(1))
            .expect("read a line");
        assert!(page.text().ends_with("\n2:two"), "{}", page.text());
        let zero = session
            .read("a.txt", &ReadOptions::new().offset(0))
            .expect_err("line 0");
        assert_eq!(zero.code(), ErrorCode::BadShape);
    }
}
