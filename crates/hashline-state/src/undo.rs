//! The session's undo history (the text-editor tool's `undo_edit`): per path, the newest
//! [`MAX_UNDO`] edits, each as the text before it and the text it left.

/// Undo entries a store keeps per path at most (the text-editor tool keeps 10).
pub const MAX_UNDO: usize = 10;

/// One edit the session may undo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoEntry {
    /// The LF text before the edit; `None` when the edit created the file.
    pub before: Option<String>,
    /// The LF text the edit left (an undo is refused when the file no longer has it).
    pub after: String,
}
