//! The public results of `ast-edit` and `resolve`: the [`Outcome`] fields plus the structured
//! facts `--json` consumers read.

use std::ops::Range;

use hashline_apply::Outcome;
use hashline_ast::{Rule, SkippedMatch};
use hashline_queue::PreviewId;
use serde::Serialize;

/// The result of [`Engine::ast_edit`](crate::Engine::ast_edit): the [`Outcome`] (model-facing text, per-file diffs,
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

/// What [`Engine::resolve`](crate::Engine::resolve) should do.
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

/// The result of [`Engine::resolve`](crate::Engine::resolve).
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
    /// Ids of the matches a partial apply (`--only`) left queued under the same preview id.
    pub still_pending: Vec<String>,
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
