//! `NativeSession`: one agent session over one root. `read` and `astEdit` run as
//! [`AsyncTask`]s on the libuv pool (the event loop keeps running); the rest on the caller's
//! thread.

use std::sync::Arc;

use hashline::{
    AstEditOptions, EditOptions, EngineConfig, ErrorCode, PreviewId, ReadOptions, ResolveAction,
    Rule,
};
use napi::bindgen_prelude::{AsyncTask, Buffer, Either};
use napi::{Env, Task};
use napi_derive::napi;

use crate::result::{Reply, ToolReply};
use crate::{dialect, misuse, Misuse};

/// Options of `read`.
#[napi(object)]
pub struct ReadArgs {
    /// The first line shown (1-based).
    pub offset: Option<u32>,
    /// How many lines at most.
    pub limit: Option<u32>,
    /// The dialect whose anchors the read shows (default: `¶PATH#TAG` and `N:TEXT` rows).
    pub dialect: Option<String>,
}

/// Options of `edit`.
#[napi(object)]
pub struct EditArgs {
    /// The dialect of the request (default: detected).
    pub dialect: Option<String>,
    /// Check and show the change, write nothing.
    pub dry_run: Option<bool>,
    /// Write even when the edit leaves a syntax error the file did not have.
    pub allow_syntax_errors: Option<bool>,
    /// Let a create replace a file this session never read.
    pub overwrite: Option<bool>,
}

/// Options of `write`.
#[napi(object)]
pub struct WriteArgs {
    /// The dialect whose anchors the answer shows.
    pub dialect: Option<String>,
    /// Replace an existing file this session never read.
    pub overwrite: Option<bool>,
}

/// Options of `astEdit`.
#[napi(object)]
pub struct AstEditArgs {
    /// The language (default: from each file's extension).
    pub lang: Option<String>,
    /// The most files the rewrite may touch.
    pub max_files: Option<u32>,
    /// Queue the preview even where a rewrite leaves a syntax error.
    pub allow_syntax_errors: Option<bool>,
    /// Walk hidden files too.
    pub hidden: Option<bool>,
    /// Walk files `.gitignore` excludes too.
    pub no_ignore: Option<bool>,
}

/// A session over the directory `root`. Snapshots live in memory (`state` absent) or in the
/// state directory `state` under the session name `session` (shared with the CLI and MCP
/// server of the same state).
#[napi]
pub struct NativeSession {
    inner: Arc<hashline::Session>,
}

/// A `read` on the libuv pool.
pub struct ReadTask {
    session: Arc<hashline::Session>,
    path: String,
    options: ReadOptions,
}

impl Task for ReadTask {
    type Output = Reply;
    type JsValue = Reply;

    fn compute(&mut self) -> napi::Result<Reply> {
        Ok(Reply::from_answer(
            self.session.read(&self.path, &self.options),
        ))
    }

    fn resolve(&mut self, _env: Env, output: Reply) -> napi::Result<Reply> {
        Ok(output)
    }
}

/// An `astEdit` on the libuv pool.
pub struct AstEditTask {
    session: Arc<hashline::Session>,
    rules: Vec<Rule>,
    paths: Vec<String>,
    options: AstEditOptions,
}

impl Task for AstEditTask {
    type Output = Reply;
    type JsValue = Reply;

    fn compute(&mut self) -> napi::Result<Reply> {
        let rules = std::mem::take(&mut self.rules);
        let paths = std::mem::take(&mut self.paths);
        Ok(Reply::from_answer(self.session.ast_edit(
            rules,
            paths,
            &self.options,
        )))
    }

    fn resolve(&mut self, _env: Env, output: Reply) -> napi::Result<Reply> {
        Ok(output)
    }
}

/// The read options of `args`.
fn read_options(args: Option<ReadArgs>) -> Result<ReadOptions, Misuse> {
    let args = args.unwrap_or(ReadArgs {
        offset: None,
        limit: None,
        dialect: None,
    });
    let mut options = ReadOptions::new().anchors(dialect(args.dialect.as_deref())?.read_anchors());
    if let Some(line) = args.offset {
        options = options.offset(line as usize);
    }
    if let Some(lines) = args.limit {
        options = options.limit(lines as usize);
    }
    Ok(options)
}

/// The rules and options of an `astEdit`, or misuse.
fn ast_edit_parts(
    rules: Vec<Vec<String>>,
    paths: &[String],
    args: Option<AstEditArgs>,
) -> Result<(Vec<Rule>, AstEditOptions), Misuse> {
    if rules.is_empty() || paths.is_empty() {
        return Err(misuse(
            ErrorCode::Usage,
            "give at least one [pattern, rewrite] rule and one path",
        ));
    }
    let rules = rules
        .iter()
        .map(|pair| match pair.as_slice() {
            [pattern, rewrite] => Ok(Rule::new(pattern, rewrite)),
            _ => Err(misuse(
                ErrorCode::Usage,
                format!(
                    "a rule is a [pattern, rewrite] pair, not {} strings",
                    pair.len()
                ),
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut options = AstEditOptions::new();
    if let Some(args) = args {
        options = options
            .allow_syntax_errors(args.allow_syntax_errors.unwrap_or(false))
            .hidden(args.hidden.unwrap_or(false))
            .no_ignore(args.no_ignore.unwrap_or(false));
        if let Some(lang) = args.lang {
            options = options.lang(lang);
        }
        if let Some(files) = args.max_files {
            options = options.max_files(files as usize);
        }
    }
    Ok((rules, options))
}

#[napi]
impl NativeSession {
    /// Open a session over `root`.
    #[napi(constructor)]
    pub fn new(
        root: String,
        state: Option<String>,
        session: Option<String>,
    ) -> Result<NativeSession, Misuse> {
        let config = match state {
            None => EngineConfig::in_memory(root),
            Some(dir) => {
                EngineConfig::persistent(root, dir, session.as_deref().unwrap_or("default"))
            }
        };
        hashline::Session::open(config)
            .map(|inner| NativeSession {
                inner: Arc::new(inner),
            })
            .map_err(|e| misuse(e.code(), e.to_string()))
    }

    /// Read `path` on the libuv pool; records what it showed.
    #[napi(ts_return_type = "Promise<Reply>")]
    pub fn read(
        &self,
        path: String,
        options: Option<ReadArgs>,
    ) -> Result<AsyncTask<ReadTask>, Misuse> {
        Ok(AsyncTask::new(ReadTask {
            session: Arc::clone(&self.inner),
            path,
            options: read_options(options)?,
        }))
    }

    /// Read `path` on this thread.
    #[napi]
    pub fn read_sync(&self, path: String, options: Option<ReadArgs>) -> Result<Reply, Misuse> {
        let options = read_options(options)?;
        Ok(Reply::from_answer(self.inner.read(&path, &options)))
    }

    /// Apply `request` (a patch, or a JSON dialect's request as JSON text).
    #[napi]
    pub fn edit(&self, request: String, options: Option<EditArgs>) -> Result<Reply, Misuse> {
        let (dialect, options) = match options {
            None => (hashline::Dialect::Auto, EditOptions::new()),
            Some(args) => (
                dialect(args.dialect.as_deref())?,
                EditOptions::new()
                    .dry_run(args.dry_run.unwrap_or(false))
                    .allow_syntax_errors(args.allow_syntax_errors.unwrap_or(false))
                    .overwrite(args.overwrite.unwrap_or(false)),
            ),
        };
        Ok(Reply::from_answer(
            self.inner.edit(&request, dialect, &options),
        ))
    }

    /// Create or replace `path` with `content` (a string, or a Buffer written byte for byte).
    #[napi]
    pub fn write(
        &self,
        path: String,
        content: Either<String, Buffer>,
        options: Option<WriteArgs>,
    ) -> Result<Reply, Misuse> {
        let (anchors, overwrite) = match options {
            None => (hashline::Dialect::Auto.read_anchors(), false),
            Some(args) => (
                dialect(args.dialect.as_deref())?.read_anchors(),
                args.overwrite.unwrap_or(false),
            ),
        };
        let bytes: Vec<u8> = match content {
            Either::A(text) => text.into_bytes(),
            Either::B(buffer) => buffer.to_vec(),
        };
        Ok(Reply::from_answer(
            self.inner.write_with(&path, &bytes, anchors, overwrite),
        ))
    }

    /// Preview structural rewrites over `paths` on the libuv pool and queue the preview.
    #[napi(ts_return_type = "Promise<Reply>")]
    pub fn ast_edit(
        &self,
        rules: Vec<Vec<String>>,
        paths: Vec<String>,
        options: Option<AstEditArgs>,
    ) -> Result<AsyncTask<AstEditTask>, Misuse> {
        let (rules, options) = ast_edit_parts(rules, &paths, options)?;
        Ok(AsyncTask::new(AstEditTask {
            session: Arc::clone(&self.inner),
            rules,
            paths,
            options,
        }))
    }

    /// Preview structural rewrites on this thread.
    #[napi]
    pub fn ast_edit_sync(
        &self,
        rules: Vec<Vec<String>>,
        paths: Vec<String>,
        options: Option<AstEditArgs>,
    ) -> Result<Reply, Misuse> {
        let (rules, options) = ast_edit_parts(rules, &paths, options)?;
        Ok(Reply::from_answer(
            self.inner.ast_edit(rules, paths, &options),
        ))
    }

    /// `apply` (write a queued preview, default the newest; `only`: `FILE:MATCH` ids),
    /// `discard` it, or `list` the pending previews.
    #[napi]
    pub fn resolve(
        &self,
        action: Option<String>,
        id: Option<i64>,
        only: Option<Vec<String>>,
    ) -> Result<Reply, Misuse> {
        let action = action.unwrap_or_else(|| "list".to_string());
        let id = match id {
            None => None,
            Some(n) => Some(PreviewId::new(n).ok_or_else(|| {
                misuse(ErrorCode::Usage, format!("preview id {n} is not positive"))
            })?),
        };
        let action = match (action.as_str(), only) {
            ("apply", only) => ResolveAction::Apply { id, only },
            ("discard", None) => ResolveAction::Discard { id },
            ("list", None) if id.is_none() => ResolveAction::List,
            _ => {
                return Err(misuse(
                    ErrorCode::Usage,
                    format!(
                        "resolve takes \"apply\" (id, only), \"discard\" (id) or \"list\", not \
                         {action:?} with these arguments"
                    ),
                ))
            }
        };
        Ok(Reply::from_answer(self.inner.resolve(action)))
    }

    /// Put back the files of call `id` (default: this session's newest call that wrote).
    #[napi]
    pub fn undo(&self, id: Option<i64>) -> Result<Reply, Misuse> {
        let id =
            match id {
                None => None,
                Some(n) => Some(u64::try_from(n).map_err(|_| {
                    misuse(ErrorCode::Usage, format!("undo id {n} is not positive"))
                })?),
            };
        Ok(Reply::from_answer(self.inner.undo(id)))
    }

    /// The undoable calls of this root, newest first (the result's `text`).
    #[napi]
    pub fn undo_list(&self) -> Reply {
        Reply::from_answer(self.inner.undo_list())
    }

    /// Run MCP tool `name` with `arguments` (a JSON object as text) as the MCP server does;
    /// `dialect` is the default, as the server's `--dialect`.
    #[napi]
    pub fn call_tool(
        &self,
        name: String,
        arguments: String,
        dialect: Option<String>,
    ) -> Result<ToolReply, Misuse> {
        let dialect = self::dialect(dialect.as_deref())?;
        let arguments = match serde_json::from_str::<serde_json::Value>(&arguments) {
            Ok(serde_json::Value::Object(map)) => Some(map),
            Ok(serde_json::Value::Null) => None,
            Ok(_) | Err(_) => {
                // As the server answers arguments that do not fit: a refusal the model reads.
                let structured = serde_json::json!({
                    "schema_version": hashline::JSON_SCHEMA_VERSION,
                    "ok": false,
                    "code": ErrorCode::BadShape.as_str(),
                    "warnings": [],
                    "files": [],
                });
                return Ok(ToolReply {
                    text: format!(
                        "The `{name}` arguments are not a JSON object. Send them as one object \
                         (see the tool's input schema) and call it again. Nothing was done."
                    ),
                    is_error: true,
                    structured: structured.to_string(),
                });
            }
        };
        let reply = hashline::mcp::call_tool(&self.inner, dialect, &name, arguments);
        Ok(ToolReply {
            text: reply.text,
            is_error: reply.is_error,
            structured: reply.structured.to_string(),
        })
    }
}
