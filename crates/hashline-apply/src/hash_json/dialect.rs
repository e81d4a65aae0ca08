//! hash-json as a [`Dialect`] of the registry: its name, detection, words and entry.

use hashline_state::SnapshotStore;

use crate::anchors::AnchorForm;
use crate::dialect::{Dialect, DialectId, RunOptions, Sniff};
use crate::{Disk, Outcome};

/// Hash-anchored JSON edits (seed `001`).
pub struct HashJson;

/// The dialect's one value, listed in [`crate::registry::DIALECTS`].
pub static DIALECT: HashJson = HashJson;

impl DialectId {
    /// Hash-anchored JSON edits (seed `001`).
    #[allow(non_upper_case_globals)]
    pub const HashJson: DialectId = DialectId::of(&DIALECT);
}

impl Dialect for HashJson {
    fn name(&self) -> &'static str {
        "hash-json"
    }

    fn describe(&self) -> &'static str {
        "{\"path\", \"edits\": [{\"op\": \"replace\"|\"append\"|\"prepend\", \"start\", \"end\", \"pos\", \"lines\"}]} with `HASH` anchors of `read --anchors hash`. Detected: a JSON object with `path` and `edits`."
    }

    fn prompt(&self) -> &'static str {
        PROMPT
    }

    /// A JSON object with `path` or `edits` (after the other JSON dialects).
    fn detect(&self, input: &Sniff<'_>) -> u8 {
        input.object.map_or(0, |o| {
            u8::from(o.contains_key("path") || o.contains_key("edits"))
        })
    }

    fn read_form(&self) -> AnchorForm {
        AnchorForm::Hash
    }

    /// The `--- Anchors ---` block (absent when the seed's reply omits it).
    fn shows_anchors_in_reply(&self, reply: &Outcome) -> bool {
        reply.text.contains("--- Anchors ---")
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
            skip_anchors: !options.fresh_anchors,
        };
        super::edit(disk, store, input, &opts)
    }
}

/// The MCP `edit` tool's words for a hash-json server.
const PROMPT: &str = "\
`patch` is the JSON request as one string: {\"path\": \"src/main.ts\", \"edits\": [...]}. Ops: \
{\"op\": \"replace\", \"start\": \"HASH\", \"end\": \"HASH\", \"lines\": [...]} replaces the \
inclusive range (single line: start = end; `lines: []` deletes, and so does `[\"\"]`: to leave one blank line, restate a neighbouring line beside it); {\"op\": \"append\", \"pos\": \
\"HASH\", \"lines\": [...]} inserts after pos (no pos: at the end); {\"op\": \"prepend\", ...} \
inserts before pos (no pos: at the start). Anchors are the bare 4-character HASHes of the \
latest read or of the `--- Anchors ---` block of the last edit; all edits of one call refer \
to that one version (do not adjust for earlier edits of the same call). `lines` is literal \
file content: no `HASH:` prefixes, no `+`/`-` diff markers.";
