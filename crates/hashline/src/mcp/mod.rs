//! `hashline mcp`: the tools `read`, `edit`, `write`, `ast_edit`, `resolve` and `undo` over the
//! Model Context Protocol (stdio), on the official `rmcp` SDK.
//!
//! Every call runs the same [`Session`] command as the CLI and answers with its model-facing
//! text, its `--json` object less `text` as structured content, and `isError` when it was
//! refused. Calls
//! with arguments that do not fit a tool's schema are `E_BAD_SHAPE` results too, so a model
//! sees what to fix. The server keeps nothing per call: its state is the session's store.

mod bound;
mod call;
mod describe;
mod embed;
mod output;
mod progress;
mod reply;
mod screen;
mod texts;
mod tools;
mod transport;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, InitializeResult,
    ListToolsResult, PaginatedRequestParams, ProgressToken, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{Peer, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

use crate::{Dialect, ErrorCode, Outcome, Response, Session};

pub use embed::{call_tool, tool_specs, ToolReply, ToolSpec};

/// How `hashline mcp` serves.
#[derive(Debug, Clone, Copy, Default)]
pub struct McpOptions {
    /// The dialect of the tools' descriptions, of `read` anchors and of `edit` patches, unless
    /// a call names its own (`--dialect`).
    pub dialect: Dialect,
}

/// The MCP server: a [`Session`] behind the five tools.
#[derive(Clone)]
pub struct Server {
    session: Arc<Session>,
    dialect: Dialect,
    tools: Arc<Vec<Tool>>,
    /// One call at a time, as a CLI user calling one command after another would.
    gate: Arc<tokio::sync::Mutex<()>>,
}

impl Server {
    /// A server over `session`.
    pub fn new(session: Session, options: McpOptions) -> Server {
        Server::shared(Arc::new(session), options)
    }

    /// A server over a session the embedder keeps using too (its calls and the server's see
    /// the same snapshots).
    pub fn shared(session: Arc<Session>, options: McpOptions) -> Server {
        Server {
            session,
            dialect: options.dialect,
            tools: Arc::new(tools::tools(options.dialect)),
            gate: Arc::new(tokio::sync::Mutex::new(())),
        }
    }

    /// The tools as `tools/list` shows them.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// Run one tool call (on a blocking thread: the engine does file and database I/O).
    pub async fn call(
        &self,
        name: String,
        arguments: Option<rmcp::model::JsonObject>,
    ) -> CallToolResult {
        self.call_reporting(name, arguments, None, None).await
    }

    /// [`Server::call`], sending `notifications/progress` for `token` to `peer` while
    /// `ast_edit` parses files (when the client asked with `_meta.progressToken`), and stopping
    /// an `ast_edit` once `cancel` turns true (`E_CANCELLED`, nothing queued).
    async fn call_reporting(
        &self,
        name: String,
        arguments: Option<rmcp::model::JsonObject>,
        progress: Option<(Peer<RoleServer>, ProgressToken)>,
        cancel: Option<Arc<AtomicBool>>,
    ) -> CallToolResult {
        let _turn = self.gate.lock().await;
        let session = Arc::clone(&self.session);
        let dialect = self.dialect;
        let (sender, forwarder) = match progress {
            Some((peer, token)) => {
                let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
                (
                    Some(sender),
                    Some(tokio::spawn(progress::forward(peer, token, receiver))),
                )
            }
            None => (None, None),
        };
        let joined = tokio::task::spawn_blocking(move || {
            let report = progress::Throttle::new(sender);
            call::run_with_progress(
                &session,
                dialect,
                &name,
                arguments,
                &|done, total| report.send(done, total),
                cancel,
            )
        })
        .await;
        if let Some(forwarder) = forwarder {
            // The sender is gone with the blocking task: the forwarder ends after the last one.
            let _ = forwarder.await;
        }
        match joined {
            Ok(response) => call::tool_result(response),
            Err(e) => call::tool_result(Response::from_outcome(Outcome::refused(
                ErrorCode::Io,
                format!("hashline failed while running the tool ({e}); nothing more is known about what was written: read the file again."),
            ))),
        }
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("hashline", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Anchored, stale-safe file editing. `read` a file, then `edit` it with a patch \
                 against the anchors that read showed; an edit against an old read is carried \
                 over when that can be proven, else refused with fresh anchors. `write` creates \
                 or replaces whole files; `ast_edit` previews structural rewrites that \
                 `resolve` applies.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let progress = context
            .meta
            .get_progress_token()
            .map(|token| (context.peer.clone(), token));
        // The client's `notifications/cancelled` for this request cancels `context.ct` (rmcp
        // then sends no result for it); the engine, on a blocking thread, asks a flag before
        // each file, which a task sets when the token is cancelled.
        let cancel = Arc::new(AtomicBool::new(false));
        let watcher = {
            let (token, set) = (context.ct.clone(), Arc::clone(&cancel));
            tokio::spawn(async move {
                token.cancelled().await;
                set.store(true, Ordering::Relaxed);
            })
        };
        let result = self
            .call_reporting(
                request.name.into_owned(),
                request.arguments,
                progress,
                Some(cancel),
            )
            .await;
        watcher.abort();
        Ok(result.into())
    }
}

/// Why the server stopped other than at the end of its input.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum McpError {
    /// The async runtime could not start.
    #[error("cannot start the runtime: {0}")]
    Runtime(#[from] std::io::Error),
    /// The MCP handshake failed.
    #[error("MCP initialization failed: {0}")]
    Initialize(String),
    /// The service stopped abnormally.
    #[error("the MCP service stopped: {0}")]
    Service(String),
}

/// Serve `session` on standard input and output until the client closes them.
pub fn serve_stdio(session: Session, options: McpOptions) -> Result<(), McpError> {
    // The runtime's worker and the calls' blocking threads need threads; tokio panics when it
    // cannot start one, so a process that cannot (a process or memory limit) is told so here.
    std::thread::Builder::new()
        .name("hashline-probe".into())
        .spawn(|| ())?
        .join()
        .map_err(|_| McpError::Initialize("a probe thread panicked".into()))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .max_blocking_threads(4)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let server = Server::new(session, options);
        let running = server
            .serve(transport::LineTransport::new(
                tokio::io::stdin(),
                tokio::io::stdout(),
            ))
            .await
            .map_err(|e| McpError::Initialize(e.to_string()))?;
        running
            .waiting()
            .await
            .map_err(|e| McpError::Service(e.to_string()))?;
        Ok(())
    })
}
