//! Structural rewrites on the [`Engine`]: `ast-edit` previews and queues, `resolve` applies,
//! discards or lists the queued previews.
//!
//! Texts follow seed `002` (`ast_edit` / `resolve`); `--json` consumers get the structured
//! [`PreviewReport`] / [`ResolveReport`] beside the usual [`Outcome`] fields. Over a directory
//! the preview walks it as ripgrep does; over any other [`hashline_apply::Disk`] it walks and
//! reads through the disk (`tree.rs`).

use hashline_apply::diff::{first_changed_line, unified};
use hashline_apply::{FileOp, FileReport, Outcome};
use hashline_ast::{Preview, RewriteRequest, DEFAULT_MAX_FILES};
use hashline_core::{ErrorCode, TextFile};
use hashline_queue::{replacements_in_files, Applied, QueueError, QueuedPreview};
use hashline_state::MAX_PATHS;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::engine::Engine;

pub use hashline_ast::Rule;
pub use hashline_queue::PreviewId;

/// Options of [`Engine::ast_edit`]: `#[non_exhaustive]`, built with
/// `AstEditOptions::new().lang("ts").max_files(50)`.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AstEditOptions {
    /// Parse every file as this language (an alias such as `ts`); `None` infers it per file.
    pub lang: Option<String>,
    /// At most this many files get replacements; more sets `limit_reached`.
    pub max_files: usize,
    /// Queue rewrites that add a syntax error; without it such a call is refused with
    /// `E_SYNTAX_INTRODUCED` and nothing is queued.
    pub allow_syntax_errors: bool,
    /// Directory walks also visit hidden files and directories (ripgrep's `--hidden`).
    pub hidden: bool,
    /// Directory walks ignore `.gitignore`, `.ignore` and git excludes (ripgrep's
    /// `--no-ignore`).
    pub no_ignore: bool,
    /// Stop when this turns true (another thread sets it: an MCP client's
    /// `notifications/cancelled`): the scan parses no further file and the call is refused with
    /// `E_CANCELLED`, nothing queued. `None` runs to the end.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for AstEditOptions {
    fn default() -> Self {
        AstEditOptions {
            lang: None,
            max_files: DEFAULT_MAX_FILES,
            allow_syntax_errors: false,
            hidden: false,
            no_ignore: false,
            cancel: None,
        }
    }
}

impl AstEditOptions {
    /// The defaults: the language inferred per file, at most
    /// [`DEFAULT_MAX_FILES`](hashline_ast::DEFAULT_MAX_FILES) files changed, a new syntax
    /// error refused, hidden and ignored files skipped, no cancellation.
    pub fn new() -> AstEditOptions {
        AstEditOptions::default()
    }

    /// Parse every file as `lang` (an alias such as `ts`).
    pub fn lang(mut self, lang: impl Into<String>) -> AstEditOptions {
        self.lang = Some(lang.into());
        self
    }

    /// At most `files` files get replacements (`usize::MAX`: no cap).
    pub fn max_files(mut self, files: usize) -> AstEditOptions {
        self.max_files = files;
        self
    }

    /// See [`AstEditOptions::allow_syntax_errors`](#structfield.allow_syntax_errors).
    pub fn allow_syntax_errors(mut self, on: bool) -> AstEditOptions {
        self.allow_syntax_errors = on;
        self
    }

    /// See [`AstEditOptions::hidden`](#structfield.hidden).
    pub fn hidden(mut self, on: bool) -> AstEditOptions {
        self.hidden = on;
        self
    }

    /// See [`AstEditOptions::no_ignore`](#structfield.no_ignore).
    pub fn no_ignore(mut self, on: bool) -> AstEditOptions {
        self.no_ignore = on;
        self
    }

    /// Stop the scan when `flag` turns true (set from another thread).
    pub fn cancel(mut self, flag: Arc<AtomicBool>) -> AstEditOptions {
        self.cancel = Some(flag);
        self
    }
}

mod render;
mod report;
mod tree;

use render::*;
pub use report::{
    AstEditOutcome, MatchReport, PendingReport, PreviewReport, ResolveAction, ResolveOutcome,
    ResolveReport,
};

impl Engine {
    /// `ast-edit`: preview `rules` over `paths` (files, directories, globs under the root),
    /// write nothing, queue the preview when something matched and record the previewed files
    /// in the session (so the `¶PATH#TAG` headers work as anchors; the first
    /// [`hashline_state::MAX_PATHS`] files, as many as the session keeps).
    pub fn ast_edit(
        &self,
        rules: Vec<Rule>,
        paths: Vec<String>,
        options: &AstEditOptions,
    ) -> AstEditOutcome {
        self.ast_edit_with_progress(rules, paths, options, &|_, _| {})
    }

    /// [`Engine::ast_edit`], calling `progress(done, total)` as files are parsed.
    pub fn ast_edit_with_progress(
        &self,
        rules: Vec<Rule>,
        paths: Vec<String>,
        options: &AstEditOptions,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> AstEditOutcome {
        let mut request = RewriteRequest::new(self.root(), rules, paths);
        request.lang = options.lang.clone();
        request.max_files = options.max_files.max(1);
        request.allow_syntax_errors = options.allow_syntax_errors;
        request.hidden = options.hidden;
        request.no_ignore = options.no_ignore;
        let cancelled = || {
            options
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
        };
        if let Some(ws) = self.workspace() {
            // The state directory inside the root is never walked nor named.
            request.exclude = ws.private_dirs();
        }
        let planned = match self.workspace() {
            Some(_) => hashline_ast::preview_cancellable(&request, progress, &cancelled),
            // Any other file system: walked and read through the `Disk`.
            None => hashline_ast::preview_in(
                &request,
                &tree::DiskTree(self.disk()),
                progress,
                &cancelled,
            ),
        };
        let preview = match planned {
            Ok(_) if cancelled() => {
                let e = hashline_ast::AstError::Cancelled;
                return refused_edit(e.code(), e.to_string());
            }
            Ok(p) => p,
            Err(e) => return refused_edit(e.code(), e.to_string()),
        };
        let id = if preview.total_replacements() > 0 {
            match self.queue().and_then(|q| q.push(&request, &preview)) {
                Ok(id) => Some(id),
                Err(e) => return refused_edit(e.code(), e.to_string()),
            }
        } else {
            None
        };
        // The preview's own warnings (`[W_GRAMMAR_GAP]`) first, then the session's.
        let mut warnings = preview.warnings.clone();
        let files = preview
            .files
            .iter()
            .enumerate()
            .map(|(n, f)| {
                let before = TextFile::decode(f.original.clone());
                let after = TextFile::decode(f.rewritten.clone());
                // The store keeps MAX_PATHS paths: recording more would only evict these.
                if n < MAX_PATHS {
                    let recorded = self
                        .disk()
                        .resolve(&f.abs.to_string_lossy())
                        .map_err(|e| e.to_string())
                        .and_then(|t| {
                            self.store()
                                .record(&t.key, before.text())
                                .map_err(|e| e.to_string())
                        });
                    if let Err(e) = recorded {
                        warnings.push(format!(
                            "[W_STATE_NOT_RECORDED] {}: not recorded in the session ({e})",
                            f.path
                        ));
                    }
                }
                FileReport {
                    path: f.path.clone(),
                    new_path: None,
                    op: FileOp::Update,
                    tag: Some(f.tag.clone()),
                    diff: unified(before.text(), after.text(), &f.path),
                    first_changed_line: first_changed_line(before.text(), after.text()),
                    written: false,
                    anchors: Vec::new(),
                }
            })
            .collect();
        let mut text = preview.render();
        if let Some(id) = id {
            text = format!("{}\n\n{text}", pending_notice(id, &preview));
        }
        AstEditOutcome {
            outcome: success_with(text, warnings, files),
            preview: Some(report(id, &preview)),
        }
    }

    /// `resolve`: apply, discard or list the session's queued previews.
    pub fn resolve(&self, action: ResolveAction) -> ResolveOutcome {
        let result = self.queue().and_then(|queue| match &action {
            ResolveAction::Apply { id, only } => queue
                .apply(self.disk(), *id, only.as_deref())
                .map(|applied| self.applied(applied)),
            // Nothing queued is a refusal for `discard` as for `apply` (E_NO_PREVIEW, exit 1).
            ResolveAction::Discard { id: None } if queue.list()?.is_empty() => {
                Err(QueueError::NoPreview { id: None })
            }
            ResolveAction::Discard { id } => queue.discard(*id).map(discarded),
            ResolveAction::List => queue.list().map(|pending| listed(&pending)),
        });
        result.unwrap_or_else(|e| refused_resolve(&action, &e))
    }

    /// The outcome of a successful apply; records every written file in the session.
    fn applied(&self, applied: Applied) -> ResolveOutcome {
        let (n, m) = (applied.replacements(), applied.files.len());
        let Applied {
            preview,
            match_ids,
            files: written,
            mut warnings,
            pending,
            undo,
        } = applied;
        let mut headers = Vec::new();
        let mut files = Vec::new();
        // The written files are ours now: their bytes are decoded, not copied.
        for (n, f) in written.into_iter().enumerate() {
            let before = TextFile::decode(f.before);
            let after = TextFile::decode(f.after);
            let recorded = if n < MAX_PATHS {
                self.store().record(&f.key, after.text()).map(Some)
            } else {
                Ok(None)
            };
            let tag = match recorded {
                Ok(Some(tag)) => tag,
                Ok(None) => hashline_anchor::tag::file_tag(after.text()),
                Err(e) => {
                    let done = format!("{} was written", f.path);
                    warnings.push(hashline_apply::not_recorded(&done, &e));
                    hashline_anchor::tag::file_tag(after.text())
                }
            };
            headers.push(format!(
                "¶{}#{tag}",
                hashline_core::name::header_path(&f.path)
            ));
            files.push(FileReport {
                path: f.path.clone(),
                new_path: None,
                op: FileOp::Update,
                tag: Some(tag),
                diff: unified(before.text(), after.text(), &f.path),
                first_changed_line: first_changed_line(before.text(), after.text()),
                written: true,
                anchors: hashline_apply::anchors::regions(
                    before.text(),
                    after.text(),
                    hashline_apply::anchors::AnchorForm::Tag,
                ),
            });
        }
        let mut text = format!("Applied {}.", replacements_in_files(n, m));
        for h in &headers {
            text.push('\n');
            text.push_str(h);
        }
        if !pending.is_empty() {
            // A partial `--only` apply: the rest stays queued under the same id and match ids.
            text.push_str(&format!(
                "\nStill pending in preview {id}: {count} ({ids}). Apply them with `hashline resolve apply {id}` (or `--only` some), or drop them with `hashline resolve discard {id}`.",
                id = preview.id,
                count = replacements_in_files(pending.len(), pending_files(&pending)),
                ids = pending.join(", "),
            ));
        }
        ResolveOutcome {
            outcome: Outcome {
                undo,
                ..success_with(text, warnings, files)
            },
            resolve: ResolveReport {
                action: "apply",
                id: Some(preview.id),
                matches: match_ids,
                still_pending: pending,
                pending: Vec::new(),
            },
        }
    }
}

/// How many files the match ids `FILE:MATCH` name.
fn pending_files(ids: &[String]) -> usize {
    let mut files: Vec<&str> = ids.iter().filter_map(|i| i.split(':').next()).collect();
    files.dedup();
    files.len()
}
