//! Structural rewrites on the [`Engine`]: `ast-edit` previews and queues, `resolve` applies,
//! discards or lists the queued previews.
//!
//! Texts follow seed `002` (`ast_edit` / `resolve`); `--json` consumers get the structured
//! [`PreviewReport`] / [`ResolveReport`] beside the usual [`Outcome`] fields.

use std::ops::Range;

use hashline_apply::diff::{first_changed_line, unified};
use hashline_apply::{FileOp, FileReport, Outcome};
use hashline_ast::{Preview, RewriteRequest, SkippedMatch, DEFAULT_MAX_FILES};
use hashline_core::{ErrorCode, TextFile};
use hashline_queue::{Applied, QueueError, QueuedPreview};
use hashline_state::MAX_PATHS;
use serde::Serialize;

use crate::engine::Engine;

pub use hashline_ast::Rule;
pub use hashline_queue::PreviewId;

/// Options of [`Engine::ast_edit`].
#[derive(Debug, Clone)]
pub struct AstEditOptions {
    /// Parse every file as this language (an alias such as `ts`); `None` infers it per file.
    pub lang: Option<String>,
    /// At most this many files get replacements; more sets `limit_reached`.
    pub max_files: usize,
}

impl Default for AstEditOptions {
    fn default() -> Self {
        AstEditOptions {
            lang: None,
            max_files: DEFAULT_MAX_FILES,
        }
    }
}

/// The result of [`Engine::ast_edit`]: the [`Outcome`] (model-facing text, per-file diffs,
/// nothing written) and, unless the call was refused, the [`PreviewReport`].
#[derive(Debug, Clone, Serialize)]
pub struct AstEditOutcome {
    /// `ok`, `code`, `text`, `warnings`, `files` (one `update` report per file, `written: false`).
    #[serde(flatten)]
    pub outcome: Outcome,
    /// What would change; `None` when the call was refused.
    pub preview: Option<PreviewReport>,
}

/// The structured preview (`--json` field `preview`).
#[derive(Debug, Clone, Serialize)]
pub struct PreviewReport {
    /// Id of the queued preview; `None` when nothing matched (nothing is queued).
    pub id: Option<PreviewId>,
    /// Number of replacements.
    pub total_replacements: usize,
    /// Files with replacements.
    pub files_touched: usize,
    /// Files parsed.
    pub files_searched: usize,
    /// The file cap stopped the scan.
    pub limit_reached: bool,
    /// Files and patterns that could not be used, one line each.
    pub parse_issues: Vec<String>,
    /// Nested matches that yielded to their outer match of the same rule.
    pub skipped: Vec<SkippedMatch>,
    /// Every replacement, in preview order.
    pub matches: Vec<MatchReport>,
}

/// One replacement of a preview.
#[derive(Debug, Clone, Serialize)]
pub struct MatchReport {
    /// `FILE:MATCH`, both 1-based in preview order; what `resolve apply --only` takes.
    pub id: String,
    /// Root-relative path of the file.
    pub file: String,
    /// Index of the rule (in the order the rules were given).
    pub rule: usize,
    /// Byte range replaced in the file as previewed (`{"start": .., "end": ..}`, a BOM counts).
    pub byte_range: Range<usize>,
    /// 1-based line where the match starts.
    pub line: usize,
    /// 1-based character column where the match starts.
    pub column: usize,
    /// The matched text.
    pub before: String,
    /// The replacement text.
    pub after: String,
}

/// What [`Engine::resolve`] should do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResolveAction {
    /// Apply a preview (the newest when `id` is `None`), or only the matches in `only`.
    Apply {
        /// The preview.
        id: Option<PreviewId>,
        /// Match ids (`FILE:MATCH`) to apply; `None` = all.
        only: Option<Vec<String>>,
    },
    /// Drop a preview (the newest when `None`) without writing.
    Discard {
        /// The preview.
        id: Option<PreviewId>,
    },
    /// List the pending previews.
    List,
}

/// The result of [`Engine::resolve`].
#[derive(Debug, Clone, Serialize)]
pub struct ResolveOutcome {
    /// `ok`, `code`, `text`, `warnings`, `files` (for apply: one report per written file).
    #[serde(flatten)]
    pub outcome: Outcome,
    /// The structured facts (`--json` field `resolve`).
    pub resolve: ResolveReport,
}

/// Structured facts of a `resolve` call.
#[derive(Debug, Clone, Serialize)]
pub struct ResolveReport {
    /// `apply`, `discard` or `list`.
    pub action: &'static str,
    /// The preview applied or discarded (`None` when there was none, and for `list`).
    pub id: Option<PreviewId>,
    /// Ids of the matches written (apply).
    pub matches: Vec<String>,
    /// The pending previews, newest first (list).
    pub pending: Vec<PendingReport>,
}

/// One pending preview in a listing.
#[derive(Debug, Clone, Serialize)]
pub struct PendingReport {
    /// Its id.
    pub id: PreviewId,
    /// When it was made, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// `AST Edit: N replacements in M files`.
    pub label: String,
    /// The rules.
    pub rules: Vec<Rule>,
    /// The paths of the call.
    pub paths: Vec<String>,
    /// The files with replacements.
    pub files: Vec<String>,
    /// Number of replacements.
    pub replacements: usize,
}

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
        let preview = match hashline_ast::preview_with_progress(&request, progress) {
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
        let mut warnings = Vec::new();
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
                        .ws
                        .resolve(&f.abs.to_string_lossy())
                        .map_err(|e| e.to_string())
                        .and_then(|t| {
                            self.store()
                                .record(&t.key, before.text())
                                .map_err(|e| e.to_string())
                        });
                    if let Err(e) = recorded {
                        warnings.push(format!("{}: not recorded in the session ({e})", f.path));
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
                }
            })
            .collect();
        let mut text = preview.render();
        if let Some(id) = id {
            text = format!("{}\n\n{text}", pending_notice(id));
        }
        AstEditOutcome {
            outcome: Outcome {
                ok: true,
                code: None,
                text: with_warnings(text, &warnings),
                warnings,
                files,
            },
            preview: Some(report(id, &preview)),
        }
    }

    /// `resolve`: apply, discard or list the session's queued previews.
    pub fn resolve(&self, action: ResolveAction) -> ResolveOutcome {
        let result = self.queue().and_then(|queue| match &action {
            ResolveAction::Apply { id, only } => queue
                .apply(&self.ws, *id, only.as_deref())
                .map(|applied| self.applied(applied)),
            ResolveAction::Discard { id } => queue.discard(*id).map(discarded),
            ResolveAction::List => queue.list().map(|pending| listed(&pending)),
        });
        result.unwrap_or_else(|e| refused_resolve(&action, &e))
    }

    /// The outcome of a successful apply; records every written file in the session.
    fn applied(&self, applied: Applied) -> ResolveOutcome {
        let mut warnings = applied.warnings.clone();
        let mut headers = Vec::new();
        let mut files = Vec::new();
        for (n, f) in applied.files.iter().enumerate() {
            let before = TextFile::decode(f.before.clone());
            let after = TextFile::decode(f.after.clone());
            let recorded = if n < MAX_PATHS {
                self.store().record(&f.key, after.text()).map(Some)
            } else {
                Ok(None)
            };
            let tag = match recorded {
                Ok(Some(tag)) => tag,
                Ok(None) => hashline_anchor::tag::file_tag(after.text()),
                Err(e) => {
                    warnings.push(format!("{}: not recorded in the session ({e})", f.path));
                    hashline_anchor::tag::file_tag(after.text())
                }
            };
            headers.push(format!("¶{}#{tag}", f.path));
            files.push(FileReport {
                path: f.path.clone(),
                new_path: None,
                op: FileOp::Update,
                tag: Some(tag),
                diff: unified(before.text(), after.text(), &f.path),
                first_changed_line: first_changed_line(before.text(), after.text()),
                written: true,
            });
        }
        let (n, m) = (applied.replacements(), applied.files.len());
        let mut text = format!(
            "Applied {n} replacement{} in {m} file{}.",
            plural(n),
            plural(m)
        );
        for h in &headers {
            text.push('\n');
            text.push_str(h);
        }
        ResolveOutcome {
            outcome: Outcome {
                ok: true,
                code: None,
                text: with_warnings(text, &warnings),
                warnings,
                files,
            },
            resolve: ResolveReport {
                action: "apply",
                id: Some(applied.preview.id),
                matches: applied.match_ids,
                pending: Vec::new(),
            },
        }
    }
}

/// The first line of a queued preview: nothing is written yet, and how to apply or discard.
fn pending_notice(id: PreviewId) -> String {
    format!(
        "Staged as preview {id} — files NOT modified yet. To apply: `hashline resolve apply {id}` \
         (only some matches: `--only 1:2,2:1`, ids are FILE:MATCH counted in the order shown). \
         To discard: `hashline resolve discard {id}`."
    )
}

fn report(id: Option<PreviewId>, preview: &Preview) -> PreviewReport {
    PreviewReport {
        id,
        total_replacements: preview.total_replacements(),
        files_touched: preview.files.len(),
        files_searched: preview.files_searched,
        limit_reached: preview.limit_reached,
        parse_issues: preview
            .parse_issues
            .iter()
            .map(|i| i.message.clone())
            .collect(),
        skipped: preview.skipped.clone(),
        matches: preview
            .files
            .iter()
            .flat_map(|f| {
                f.matches.iter().map(|m| MatchReport {
                    id: m.id.clone(),
                    file: f.path.clone(),
                    rule: m.rule,
                    byte_range: m.byte_range.clone(),
                    line: m.line,
                    column: m.column,
                    before: m.before.clone(),
                    after: m.after.clone(),
                })
            })
            .collect(),
    }
}

fn discarded(preview: Option<QueuedPreview>) -> ResolveOutcome {
    let (text, id) = match preview {
        Some(p) => (
            format!(
                "Discarded: {} (preview {}). No file was changed.",
                p.label(),
                p.id
            ),
            Some(p.id),
        ),
        None => ("Nothing to discard".to_string(), None),
    };
    ResolveOutcome {
        outcome: success(text),
        resolve: ResolveReport {
            action: "discard",
            id,
            matches: Vec::new(),
            pending: Vec::new(),
        },
    }
}

/// How many file names a listing line shows.
const FILES_LISTED: usize = 3;

fn listed(pending: &[QueuedPreview]) -> ResolveOutcome {
    let now = now_ms();
    let text = if pending.is_empty() {
        "No pending previews.".to_string()
    } else {
        let mut lines = vec![format!(
            "{} pending preview{} (newest first):",
            pending.len(),
            plural(pending.len())
        )];
        for p in pending {
            let rules: Vec<String> = p
                .request
                .rules
                .iter()
                .map(|r| format!("`{}` → `{}`", r.pattern, r.rewrite))
                .collect();
            let mut files: Vec<&str> = p
                .files
                .iter()
                .take(FILES_LISTED)
                .map(|f| f.path.as_str())
                .collect();
            let more = p.files.len().saturating_sub(FILES_LISTED);
            let more = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            if files.is_empty() {
                files.push("no files");
            }
            lines.push(format!(
                "{}: {} ({}; {}{more}), {}",
                p.id,
                p.label(),
                rules.join("; "),
                files.join(", "),
                age(now.saturating_sub(p.created_ms))
            ));
        }
        lines.push(
            "Apply with `hashline resolve apply ID`, discard with `hashline resolve discard ID`."
                .to_string(),
        );
        lines.join("\n")
    };
    ResolveOutcome {
        outcome: success(text),
        resolve: ResolveReport {
            action: "list",
            id: None,
            matches: Vec::new(),
            pending: pending
                .iter()
                .map(|p| PendingReport {
                    id: p.id,
                    created_ms: p.created_ms,
                    label: p.label(),
                    rules: p.request.rules.clone(),
                    paths: p.request.paths.clone(),
                    files: p.files.iter().map(|f| f.path.clone()).collect(),
                    replacements: p.replacements(),
                })
                .collect(),
        },
    }
}

fn refused_edit(code: ErrorCode, text: String) -> AstEditOutcome {
    AstEditOutcome {
        outcome: Outcome::refused(code, text),
        preview: None,
    }
}

fn refused_resolve(action: &ResolveAction, e: &QueueError) -> ResolveOutcome {
    let (name, id) = match action {
        ResolveAction::Apply { id, .. } => ("apply", *id),
        ResolveAction::Discard { id } => ("discard", *id),
        ResolveAction::List => ("list", None),
    };
    let id = match e {
        QueueError::Stale { id, .. }
        | QueueError::Corrupt { id, .. }
        | QueueError::UnknownMatch { preview: id, .. } => Some(*id),
        _ => id,
    };
    ResolveOutcome {
        outcome: Outcome::refused(e.code(), e.to_string()),
        resolve: ResolveReport {
            action: name,
            id,
            matches: Vec::new(),
            pending: Vec::new(),
        },
    }
}

fn success(text: String) -> Outcome {
    Outcome {
        ok: true,
        code: None,
        text,
        warnings: Vec::new(),
        files: Vec::new(),
    }
}

/// `text` plus the seed's warnings block when there are warnings.
fn with_warnings(text: String, warnings: &[String]) -> String {
    if warnings.is_empty() {
        text
    } else {
        format!("{text}\n\nWarnings:\n{}", warnings.join("\n"))
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `12s ago`, `5m ago`, `3h ago`, `2d ago`.
fn age(ms: u64) -> String {
    let s = ms / 1000;
    match s {
        0..=59 => format!("{s}s ago"),
        60..=3599 => format!("{}m ago", s / 60),
        3600..=86_399 => format!("{}h ago", s / 3600),
        _ => format!("{}d ago", s / 86_400),
    }
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_read_naturally() {
        assert_eq!(age(0), "0s ago");
        assert_eq!(age(61_000), "1m ago");
        assert_eq!(age(7_200_000), "2h ago");
        assert_eq!(age(3 * 86_400_000), "3d ago");
    }

    #[test]
    fn warnings_follow_the_seed_block() {
        assert_eq!(with_warnings("x".into(), &[]), "x");
        assert_eq!(
            with_warnings("x".into(), &["a".into(), "b".into()]),
            "x\n\nWarnings:\na\nb"
        );
    }
}
