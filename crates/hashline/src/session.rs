//! [`Session`]: the one place the command line and the MCP server run a command.
//!
//! Both front ends hand a [`Session`] the arguments they parsed and present the [`Response`]
//! it returns: the CLI prints `outcome.text` (or `report` with `--json`) and picks the exit
//! code, the MCP server returns `outcome.text` as the tool result's text and `report` as its
//! structured content. Whatever one front end shows for a call, the other shows for the same
//! call.

use serde::Serialize;

use crate::{
    Anchors, AstEditOptions, Dialect, EditOptions, Engine, EngineConfig, Error, Outcome,
    ReadOptions, ResolveAction, Rule, StateAction,
};

/// One answered command.
#[derive(Debug, Clone)]
pub struct Response {
    /// The model-facing text and the refusal code, if any.
    pub outcome: Outcome,
    /// The `--json` object, serialized with its fields in the CLI's order: the [`Outcome`]
    /// fields plus the command's structured report (`preview` of `ast-edit`, `resolve` of
    /// `resolve`).
    pub json: String,
}

impl Response {
    /// A response whose `--json` object is `report` (a superset of `outcome`'s fields).
    fn new(outcome: Outcome, report: &impl Serialize) -> Response {
        let json = serialize(&outcome, report);
        Response { outcome, json }
    }

    /// A response that is just `outcome`.
    pub fn from_outcome(outcome: Outcome) -> Response {
        let json = serialize(&outcome, &outcome);
        Response { outcome, json }
    }

    /// The `--json` object as a value (what the MCP server returns as structured content).
    pub fn report(&self) -> serde_json::Value {
        serde_json::from_str(&self.json).unwrap_or(serde_json::Value::Null)
    }
}

/// `report` as JSON text; should it not serialize, the [`Outcome`] fields and a warning saying so.
fn serialize(outcome: &Outcome, report: &impl Serialize) -> String {
    serde_json::to_string(report).unwrap_or_else(|e| {
        serde_json::json!({
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

/// The response of a call that may have written: its `--json` object carries the undo id.
fn with_undo(outcome: Outcome, undo: Option<u64>) -> Response {
    let json = serialize(
        &outcome,
        &WithUndo {
            outcome: &outcome,
            undo,
        },
    );
    Response { outcome, json }
}

/// A session over one root: `read`, `edit`, `write`, `ast_edit`, `resolve`, each returning a
/// [`Response`]. `Send + Sync`; the state is the [`Engine`]'s store, so two sessions (or a
/// session and a CLI call) with the same state directory and session name see the same
/// snapshots.
pub struct Session {
    engine: Engine,
}

impl Session {
    /// Open the root and the session store.
    pub fn open(config: EngineConfig) -> Result<Session, Error> {
        Engine::open(config).map(Session::new)
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
    pub fn read(&self, path: &str, options: &ReadOptions) -> Response {
        Response::from_outcome(self.engine.read(path, options))
    }

    /// `edit`: apply `input` in `dialect`. A dry run that would succeed shows the unified diff
    /// of every file instead of the model-facing result (or that result, when nothing would
    /// change).
    pub fn edit(&self, input: &str, dialect: Dialect, options: &EditOptions) -> Response {
        let mut outcome = self.engine.edit_with(input, dialect, options);
        crate::fresh::present(&mut outcome, dialect.resolve(input), options);
        if options.dry_run && outcome.ok {
            let diff: String = outcome.files.iter().map(|f| f.diff.as_str()).collect();
            if !diff.is_empty() {
                outcome.text = diff;
            }
        }
        with_undo(outcome, self.engine.last_undo())
    }

    /// `write PATH`: create or replace the file with `content`, then show its anchors. An
    /// existing file the session never read is refused (`E_NOT_READ`).
    pub fn write(&self, path: &str, content: &[u8], anchors: Anchors) -> Response {
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
    ) -> Response {
        let outcome = self.engine.write_with(path, content, anchors, overwrite);
        with_undo(outcome, self.engine.last_undo())
    }

    /// `ast-edit`: preview `rules` over `paths` and queue the preview (nothing written);
    /// `progress(done, total)` is called as files are parsed.
    pub fn ast_edit(
        &self,
        rules: Vec<Rule>,
        paths: Vec<String>,
        options: &AstEditOptions,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Response {
        let result = self
            .engine
            .ast_edit_with_progress(rules, paths, options, progress);
        Response::new(result.outcome.clone(), &result)
    }

    /// `resolve`: apply, discard or list the queued previews.
    pub fn resolve(&self, action: ResolveAction) -> Response {
        let result = self.engine.resolve(action);
        Response::new(result.outcome.clone(), &result)
    }

    /// `state`: list the sessions of the state database, or prune them.
    pub fn state(&self, action: StateAction) -> Response {
        let result = self.engine.state(action);
        Response::new(result.outcome.clone(), &result)
    }
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
    fn dry_run_shows_the_diff_and_writes_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.txt"), "one\ntwo\n").expect("write");
        let session = Session::open(EngineConfig::in_memory(dir.path())).expect("open");
        let read = session.read("a.txt", &ReadOptions::default());
        let header = read
            .outcome
            .text
            .lines()
            .next()
            .expect("header")
            .to_string();
        let patch = format!("{header}\nreplace 2..2:\n+TWO\n");
        let options = EditOptions {
            dry_run: true,
            ..EditOptions::default()
        };
        let response = session.edit(&patch, Dialect::Auto, &options);
        assert!(response.outcome.ok, "{}", response.outcome.text);
        assert!(response.outcome.text.contains("+TWO"));
        assert_eq!(response.report()["ok"], serde_json::json!(true));
        let on_disk = std::fs::read_to_string(dir.path().join("a.txt")).expect("read");
        assert_eq!(on_disk, "one\ntwo\n");
    }
}
