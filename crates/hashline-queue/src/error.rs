//! [`QueueError`]: why a queue operation was refused, each with a stable [`ErrorCode`] and a
//! message that tells the model what to do next.

use hashline_core::ErrorCode;
use hashline_fs::FsError;

use crate::model::PreviewId;

/// How many changed files a stale-preview message names.
const CHANGED_SHOWN: usize = 10;

/// A refused queue operation. Nothing was written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum QueueError {
    /// No pending preview (with that id) in this session.
    #[error("{}", no_preview(*.id))]
    NoPreview {
        /// The id asked for; `None` = the newest.
        id: Option<PreviewId>,
    },
    /// A file of the preview changed (or vanished) since the preview was made.
    #[error(
        "Preview {id} is stale: {} changed since it was made. Nothing was written and the preview was dropped; run ast-edit again to preview the current files.",
        list(.changed)
    )]
    Stale {
        /// The preview.
        id: PreviewId,
        /// Display paths of the files that changed, in preview order.
        changed: Vec<String>,
    },
    /// `--only` named a match the preview does not have.
    #[error(
        "Preview {preview} has no match `{id}`; its match ids are {known}. Nothing was written; pass ids as ast-edit printed them (FILE:MATCH)."
    )]
    UnknownMatch {
        /// The preview.
        preview: PreviewId,
        /// The id asked for.
        id: String,
        /// The preview's ids (abbreviated).
        known: String,
    },
    /// `--only` was given without any id.
    #[error("`--only` names no match; give match ids such as 1:1,2:3, or leave `--only` out to apply every match.")]
    NoMatchChosen,
    /// A stored preview that this build cannot read.
    #[error("Preview {id} cannot be read ({reason}); discard it with `hashline resolve discard {id}` and run ast-edit again.")]
    Corrupt {
        /// The preview.
        id: PreviewId,
        /// What went wrong.
        reason: String,
    },
    /// A file system failure (resolution, lock, read or the transactional write).
    #[error(transparent)]
    Fs(#[from] FsError),
    /// The state database failed.
    #[error("session state at {path}: {message}")]
    Db {
        /// The database location.
        path: String,
        /// What went wrong.
        message: String,
    },
}

impl QueueError {
    /// The stable code of this refusal.
    pub fn code(&self) -> ErrorCode {
        match self {
            QueueError::NoPreview { .. } => ErrorCode::NoPreview,
            QueueError::Stale { .. } => ErrorCode::StalePreview,
            QueueError::UnknownMatch { .. } => ErrorCode::BadRef,
            QueueError::NoMatchChosen => ErrorCode::BadShape,
            QueueError::Corrupt { .. } | QueueError::Db { .. } => ErrorCode::Io,
            QueueError::Fs(e) => e.code(),
        }
    }
}

fn no_preview(id: Option<PreviewId>) -> String {
    match id {
        None => "No pending ast-edit preview in this session. Run ast-edit to make one; `hashline resolve` lists pending previews.".to_string(),
        Some(id) => format!(
            "No pending preview {id} in this session: it was applied, discarded or never made. Run `hashline resolve` to list pending previews, or run ast-edit again."
        ),
    }
}

fn list(paths: &[String]) -> String {
    let mut shown: Vec<&str> = paths
        .iter()
        .take(CHANGED_SHOWN)
        .map(String::as_str)
        .collect();
    let more = paths.len().saturating_sub(CHANGED_SHOWN);
    let tail = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    if shown.is_empty() {
        shown.push("a file");
    }
    format!("{}{tail}", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_messages() {
        let id = PreviewId::new(4).expect("id");
        let e = QueueError::Stale {
            id,
            changed: vec!["a.ts".into(), "b.ts".into()],
        };
        assert_eq!(e.code().as_str(), "E_STALE_PREVIEW");
        assert!(e
            .to_string()
            .starts_with("Preview 4 is stale: a.ts, b.ts changed"));
        assert!(e.to_string().contains("run ast-edit again"));
        let many = QueueError::Stale {
            id,
            changed: (0..12).map(|i| format!("f{i}.ts")).collect(),
        };
        assert!(
            many.to_string().contains("f9.ts and 2 more changed"),
            "{many}"
        );
        assert_eq!(
            QueueError::NoPreview { id: Some(id) }.code().as_str(),
            "E_NO_PREVIEW"
        );
        assert!(QueueError::NoPreview { id: None }
            .to_string()
            .contains("No pending ast-edit preview"));
        assert_eq!(QueueError::NoMatchChosen.code().as_str(), "E_BAD_SHAPE");
    }
}
