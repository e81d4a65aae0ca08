//! apply-patch as a [`Dialect`] of the registry: its name, detection, words and entry.

use hashline_state::SnapshotStore;

use crate::anchors::AnchorForm;
use crate::dialect::{Dialect, DialectId, RunOptions, Sniff};
use crate::{Disk, Outcome};

/// OpenAI's V4A `apply_patch` text.
pub struct ApplyPatch;

/// The dialect's one value, listed in [`crate::registry::DIALECTS`].
pub static DIALECT: ApplyPatch = ApplyPatch;

impl DialectId {
    /// OpenAI's V4A `apply_patch` text (`*** Begin Patch` / `*** Update File:` …).
    #[allow(non_upper_case_globals)]
    pub const ApplyPatch: DialectId = DialectId::of(&DIALECT);
}

impl Dialect for ApplyPatch {
    fn name(&self) -> &'static str {
        "apply-patch"
    }

    fn describe(&self) -> &'static str {
        "OpenAI's V4A `apply_patch` text (`*** Begin Patch`, then `*** Update File:`, \
         `*** Add File:`, `*** Delete File:`, `@@` chunks of ` `/`-`/`+` rows). Detected: \
         `*** Begin Patch` followed by such a header."
    }

    fn prompt(&self) -> &'static str {
        PROMPT
    }

    /// `*** Begin Patch` (possibly inside a `<<EOF` heredoc wrapper) followed by a V4A file
    /// header or `*** End Patch`: ahead of every other dialect.
    fn detect(&self, input: &Sniff<'_>) -> u8 {
        if is_v4a(input.text) {
            4
        } else {
            0
        }
    }

    fn read_form(&self) -> AnchorForm {
        AnchorForm::Plain
    }

    fn not_utf8(&self) -> &'static str {
        // Codex's refusal of a patch that is not UTF-8.
        "Error: apply_patch requires a UTF-8 PATCH argument."
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
            overwrite: options.overwrite,
            guard: options.guard,
            skip_anchors: !options.fresh_anchors,
        };
        super::edit(disk, store, input, &opts)
    }
}

/// `*** Begin Patch` (after an optional heredoc opener) followed by a V4A header.
fn is_v4a(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut first = lines.next();
    if matches!(first, Some("<<EOF" | "<<'EOF'" | "<<\"EOF\"")) {
        first = lines.next();
    }
    if first != Some("*** Begin Patch") {
        return false;
    }
    lines.next().is_some_and(|l| {
        ["*** Add File:", "*** Update File:", "*** Delete File:"]
            .iter()
            .any(|h| l.starts_with(h))
            || l == "*** End Patch"
    })
}

/// The MCP `edit` tool's words for an apply-patch server.
const PROMPT: &str = "\
`patch` is OpenAI's V4A patch text: `*** Begin Patch`, then per file `*** Add File: PATH` \
(every row `+TEXT`), `*** Delete File: PATH`, or `*** Update File: PATH` (optionally \
`*** Move to: NEW`) followed by chunks: an `@@` line (optionally `@@ CONTEXT` naming a line \
above the change, such as the enclosing function), then rows ` TEXT` (unchanged context, \
about three lines around each change), `-TEXT` (removed) and `+TEXT` (added); \
`*** End of File` after a chunk that ends the file; finally `*** End Patch`. Copy context \
lines exactly from the file as you last read it: context that matches more than once is \
refused, context found only after ignoring white space is applied with a warning. Every \
file of the patch lands, or none. Adding or moving onto an existing file is refused.";
