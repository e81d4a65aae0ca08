//! `undo`: putting back the files of a recorded call, and listing the undoable ones.

use hashline_apply::fs::UndoneFile;
use hashline_apply::{FileOp, FileReport, Outcome};
use hashline_core::TextFile;

use crate::engine::Engine;

impl Engine {
    /// `undo [ID]`: restores the exact prior bytes and mode of every file call `id` (`None`:
    /// this session's newest) changed, all or nothing, refusing if any changed since; records
    /// the restored texts in the session.
    pub fn undo(&self, id: Option<u64>) -> Outcome {
        let ws = match self.needs_directory("undo") {
            Ok(ws) => ws,
            Err(refusal) => return refusal,
        };
        let undone = match ws.undo(id) {
            Ok(undone) => undone,
            Err(e) => return Outcome::refused(e.code(), e.to_string()),
        };
        let mut warnings = Vec::new();
        let mut parts = Vec::new();
        let mut files = Vec::new();
        for UndoneFile { target, restored } in &undone.files {
            let (stored, op, tag) = match restored {
                Some(bytes) => {
                    let text = TextFile::decode(bytes.clone());
                    let tag = hashline_anchor::tag::file_tag(text.text());
                    parts.push(format!("{} restored (#{tag})", target.display));
                    let op = FileOp::Update;
                    (
                        self.store().record(&target.key, text.text()).map(|_| ()),
                        op,
                        Some(tag),
                    )
                }
                None => {
                    parts.push(format!("{} removed", target.display));
                    (self.store().invalidate(&target.key), FileOp::Delete, None)
                }
            };
            if let Err(e) = stored {
                warnings.push(format!(
                    "[W_STATE_NOT_RECORDED] The session state was not updated for {} ({e}); read it before editing it.",
                    target.display
                ));
            }
            files.push(FileReport {
                path: target.display.clone(),
                new_path: None,
                op,
                tag,
                diff: String::new(),
                first_changed_line: None,
                written: true,
                anchors: Vec::new(),
            });
        }
        let mut text = format!("Undid call {}: {}.", undone.id, parts.join(", "));
        text.push_str(&hashline_apply::warnings_block(&warnings));
        Outcome {
            ok: true,
            code: None,
            text,
            warnings,
            files,
            undo: None,
        }
    }

    /// `undo --list`: the undoable calls of this root, newest first, one per line.
    pub fn undo_list(&self) -> Outcome {
        let now = crate::state::now_secs();
        let mut text = String::new();
        let ws = match self.needs_directory("undo") {
            Ok(ws) => ws,
            Err(refusal) => return refusal,
        };
        if ws.undo_blocked() {
            text.push_str(
                "-\t-\t-\tcannot be undone: [E_UNDO_NOT_RECORDED] this session's last change \
                 landed without an undo record; `hashline undo` refuses rather than revert an \
                 older call (undo one below by its id on purpose)\n",
            );
        }
        for entry in ws.undo_list() {
            if let Some(refused) = &entry.refused {
                text.push_str(&format!(
                    "{}\t-\t-\tcannot be undone: [E_STATE_TAMPERED] {refused}\n",
                    entry.id
                ));
                continue;
            }
            let files: Vec<String> = entry
                .files
                .iter()
                .map(|(path, what)| format!("{path} ({what})"))
                .collect();
            text.push_str(&format!(
                "{}\t{}\t{}\t{}\n",
                entry.id,
                entry.session,
                age(now.saturating_sub(entry.created)),
                files.join(", ")
            ));
        }
        if text.is_empty() {
            text = "nothing to undo\n".to_owned();
        }
        Outcome::success(text)
    }
}

/// `42s ago`, `5m ago`, `3h ago`, `2d ago`.
pub(crate) fn age(secs: u64) -> String {
    match secs {
        0..60 => format!("{secs}s ago"),
        60..3600 => format!("{}m ago", secs / 60),
        3600..86400 => format!("{}h ago", secs / 3600),
        _ => format!("{}d ago", secs / 86400),
    }
}
