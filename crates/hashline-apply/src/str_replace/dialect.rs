//! str-replace as a [`Dialect`] of the registry: its name, detection, words and entry.

use hashline_state::SnapshotStore;

use crate::anchors::AnchorForm;
use crate::dialect::{Dialect, DialectId, RunOptions, Sniff};
use crate::{Disk, Outcome};

/// The text-editor tool's JSON request (`command`, `path`, `old_str`, …).
pub struct StrReplace;

/// The dialect's one value, listed in [`crate::registry::DIALECTS`].
pub static DIALECT: StrReplace = StrReplace;

impl DialectId {
    /// The text-editor tool's JSON request (`command`, `path`, `old_str`, …).
    #[allow(non_upper_case_globals)]
    pub const StrReplace: DialectId = DialectId::of(&DIALECT);
}

impl Dialect for StrReplace {
    fn name(&self) -> &'static str {
        "str-replace"
    }

    fn describe(&self) -> &'static str {
        "the text-editor tool's request ({\"command\": \"str_replace\"|\"insert\"|\"create\"|\"view\"|\"undo_edit\", \"path\", \"old_str\", \"new_str\", …}). Detected: a JSON object with `command` and `path`."
    }

    fn prompt(&self) -> &'static str {
        PROMPT
    }

    /// A JSON object with `command` and `path`.
    fn detect(&self, input: &Sniff<'_>) -> u8 {
        input.object.map_or(0, |o| {
            2 * u8::from(o.contains_key("command") && o.contains_key("path"))
        })
    }

    fn read_form(&self) -> AnchorForm {
        AnchorForm::View
    }

    /// The `cat -n` snippet of the edited region.
    fn shows_anchors_in_reply(&self, reply: &Outcome) -> bool {
        reply.text.contains("Here's the result of running `cat -n`")
    }

    fn edit(
        &self,
        disk: &dyn Disk,
        store: &dyn SnapshotStore,
        input: &str,
        options: &RunOptions<'_>,
    ) -> Outcome {
        let opts = super::EditOptions {
            dry_run: options.dry_run,
            guard: options.guard,
            max_bytes: options.max_file_mb.map_or(super::DEFAULT_MAX_BYTES, |mb| {
                mb.saturating_mul(1024 * 1024)
            }),
            skip_anchors: !options.fresh_anchors,
        };
        super::edit(disk, store, input, &opts)
    }
}

/// The MCP `edit` tool's words for a str-replace server.
const PROMPT: &str = "\
`patch` is the text-editor tool's JSON request as one string: {\"command\": \"str_replace\", \
\"path\": \"src/a.ts\", \"old_str\": \"...\", \"new_str\": \"...\"} replaces the one \
occurrence of `old_str` (it must occur exactly once, white space included); \
{\"command\": \"insert\", \"path\": ..., \"insert_line\": N, \"new_str\": ...} inserts after \
line N (0: at the start); {\"command\": \"create\", \"path\": ..., \"file_text\": ...} \
creates a new file; {\"command\": \"view\", \"path\": ...} shows a file (and records it, so \
a later edit is checked against what you saw); {\"command\": \"undo_edit\", \"path\": ...} \
undoes this session's last edit of the file. Text is matched in the version you last \
viewed or read; if the file changed since, the edit is carried over or refused with the \
current lines.";
