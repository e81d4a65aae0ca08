//! The model-facing texts of `ast-edit` and `resolve` (seed `002`) and the reports built from a
//! preview.

use super::*;
use hashline_apply::warnings_block;

/// The first line of a queued preview: nothing is written yet, and how to apply or discard.
pub(super) fn pending_notice(id: PreviewId, preview: &Preview) -> String {
    let (n, files) = (preview.total_replacements(), preview.files.len());
    format!(
        "Staged as preview {id} ({n} replacement{} in {files} file{}) — files NOT modified yet. \
         To apply: `hashline resolve apply {id}` (only some matches: `--only 1:2,2:1`, the \
         `[FILE:MATCH]` ids shown). To discard: `hashline resolve discard {id}`.",
        plural(n),
        plural(files)
    )
}

pub(super) fn report(id: Option<PreviewId>, preview: &Preview) -> PreviewReport {
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

pub(super) fn discarded(preview: Option<QueuedPreview>) -> ResolveOutcome {
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
            still_pending: Vec::new(),
            pending: Vec::new(),
        },
    }
}

/// How many file names a listing line shows.
pub(super) const FILES_LISTED: usize = 3;

pub(super) fn listed(pending: &[QueuedPreview]) -> ResolveOutcome {
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
        // A real id (the newest), so the step can be taken as written, here and over MCP.
        let id = pending
            .first()
            .map(|p| p.id.to_string())
            .unwrap_or_default();
        lines.push(format!(
            "Apply one with `hashline resolve apply {id}`, discard one with \
             `hashline resolve discard {id}` (or another id above)."
        ));
        lines.join("\n")
    };
    ResolveOutcome {
        outcome: success(text),
        resolve: ResolveReport {
            action: "list",
            id: None,
            matches: Vec::new(),
            still_pending: Vec::new(),
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

pub(super) fn refused_edit(code: ErrorCode, text: String) -> AstEditOutcome {
    AstEditOutcome {
        outcome: Outcome::refused(code, text),
        preview: None,
    }
}

pub(super) fn refused_resolve(action: &ResolveAction, e: &QueueError) -> ResolveOutcome {
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
            still_pending: Vec::new(),
            pending: Vec::new(),
        },
    }
}

pub(super) fn success(text: String) -> Outcome {
    success_with(text, Vec::new(), Vec::new())
}

/// A success whose text ends with the warnings block, with per-file reports.
pub(super) fn success_with(text: String, warnings: Vec<String>, files: Vec<FileReport>) -> Outcome {
    Outcome {
        ok: true,
        code: None,
        text: with_warnings(text, &warnings),
        warnings,
        files,
        undo: None,
    }
}

/// `text` plus the seed's warnings block when there are warnings.
pub(super) fn with_warnings(text: String, warnings: &[String]) -> String {
    text + &warnings_block(warnings)
}

pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `12s ago`, `5m ago`, `3h ago`, `2d ago`.
pub(super) fn age(ms: u64) -> String {
    let s = ms / 1000;
    match s {
        0..=59 => format!("{s}s ago"),
        60..=3599 => format!("{}m ago", s / 60),
        3600..=86_399 => format!("{}h ago", s / 3600),
        _ => format!("{}d ago", s / 86_400),
    }
}

pub(super) fn now_ms() -> u64 {
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
