//! lineid-json as a [`Dialect`] of the registry: its name, detection, words and entry.

use hashline_state::SnapshotStore;

use crate::anchors::AnchorForm;
use crate::dialect::{Dialect, DialectId, RunOptions, Sniff};
use crate::{Disk, Outcome};

/// `LINE#ID` JSON edits (seed `004`).
pub struct LineidJson;

/// The dialect's one value, listed in [`crate::registry::DIALECTS`].
pub static DIALECT: LineidJson = LineidJson;

impl DialectId {
    /// `LINE#ID` JSON edits (seed `004`).
    #[allow(non_upper_case_globals)]
    pub const LineidJson: DialectId = DialectId::of(&DIALECT);
}

impl Dialect for LineidJson {
    fn name(&self) -> &'static str {
        "lineid-json"
    }

    fn describe(&self) -> &'static str {
        "{\"filePath\", \"edits\": [{\"op\", \"pos\": \"N#ID\", \"end\", \"lines\"}], \"delete\"?, \"rename\"?} with anchors of `read --anchors lineid`. Detected: a JSON object with `filePath`."
    }

    fn prompt(&self) -> &'static str {
        PROMPT
    }

    /// A JSON object with `filePath`.
    fn detect(&self, input: &Sniff<'_>) -> u8 {
        input
            .object
            .map_or(0, |o| 3 * u8::from(o.contains_key("filePath")))
    }

    fn read_form(&self) -> AnchorForm {
        AnchorForm::Lineid
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
            fresh_anchors: options.fresh_anchors,
        };
        super::edit(disk, store, input, &opts)
    }
}

/// The MCP `edit` tool's words for a lineid-json server.
const PROMPT: &str = "\
`patch` is the JSON request as one string: {\"filePath\": \"src/a.ts\", \"edits\": [...]}. Ops: \
{\"op\": \"replace\", \"pos\": \"LINE#ID\", \"end\": \"LINE#ID\", \"lines\": [...]} replaces \
pos..end inclusive (pos only: one line; `lines: []` or null deletes); {\"op\": \"append\", \
\"pos\": \"LINE#ID\", \"lines\": [...]} inserts after the anchor, {\"op\": \"prepend\", ...} \
before it; without anchors they insert at the end or start (and create a missing file). \
Anchors are `LINE#ID` copied exactly from the latest read, or from the `--- Anchors` block \
of the last edit's result; every edit of one call refers to that version (do not adjust line \
numbers for earlier edits of the call). `lines` is plain content: no `LINE#ID|` prefixes, no \
`+`/`-` diff markers. For lines outside the anchors shown, read the file again first.";
