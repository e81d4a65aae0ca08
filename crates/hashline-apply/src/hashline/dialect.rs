//! The hashline language as a [`Dialect`] of the registry: its name, detection, words and entry.

use hashline_state::SnapshotStore;

use crate::anchors::AnchorForm;
use crate::dialect::{Dialect, DialectId, RunOptions, Sniff};
use crate::{Disk, Outcome};

/// The hashline patch language (seed `000`).
pub struct Hashline;

/// The dialect's one value, listed in [`crate::registry::DIALECTS`].
pub static DIALECT: Hashline = Hashline;

impl DialectId {
    /// The hashline patch language (seed `000`).
    #[allow(non_upper_case_globals)]
    pub const Hashline: DialectId = DialectId::of(&DIALECT);
}

impl Dialect for Hashline {
    fn name(&self) -> &'static str {
        "hashline"
    }

    fn describe(&self) -> &'static str {
        "the hashline language (anchors of `read`, the default tag mode): `¶PATH#TAG` section headers, then `replace A..B:`, `insert after N:`, `insert before N:`, `insert head:`/`tail:`, `delete A..B`, `replace block N:` with `+ROW` rows; optional `*** Begin Patch` … `*** End Patch` around it. Detected: the first non-blank line starts with `¶` or is `*** Begin Patch` (not followed by a V4A header); also anything no other dialect claims."
    }

    fn prompt(&self) -> &'static str {
        PROMPT
    }

    fn detect(&self, input: &Sniff<'_>) -> u8 {
        u8::from(input.text.starts_with('\u{b6}') || input.text.starts_with("*** Begin Patch"))
    }

    fn read_form(&self) -> AnchorForm {
        AnchorForm::Tag
    }

    /// The numbered diff under the new `¶PATH#TAG` header is the next edit's anchors.
    fn shows_anchors_in_reply(&self, _reply: &Outcome) -> bool {
        true
    }

    fn edit(
        &self,
        disk: &dyn Disk,
        store: &dyn SnapshotStore,
        input: &str,
        options: &RunOptions<'_>,
    ) -> Outcome {
        if let Some(outcome) = json_lookalike(input) {
            return outcome;
        }
        let opts = super::EditOptions {
            resolver: options.resolver,
            dry_run: options.dry_run,
            guard: options.guard,
            skip_anchors: !options.fresh_anchors,
        };
        super::edit(disk, store, input, &opts)
    }
}

/// Input that starts like JSON but is not a JSON object of another dialect: say so instead of
/// letting the hashline parser complain about a missing `¶` header.
fn json_lookalike(input: &str) -> Option<Outcome> {
    let trimmed = input.trim_start_matches('\u{feff}').trim_start();
    if !trimmed.starts_with('{') {
        return None;
    }
    let reason = match serde_json::from_str::<serde_json::Value>(trimmed) {
        Ok(serde_json::Value::Object(_)) => {
            "it has neither `filePath` (lineid-json) nor `path`/`edits` (hash-json)".to_string()
        }
        Ok(_) => "it is not a JSON object".to_string(),
        Err(e) => format!("it does not parse as JSON ({e})"),
    };
    Some(Outcome::refused(
        hashline_core::ErrorCode::BadShape,
        format!(
            "The edit input looks like JSON, but {reason}. Send {{\"path\": …, \"edits\": […]}} (hash-json), \
             {{\"filePath\": …, \"edits\": […]}} (lineid-json), or a hashline patch starting with ¶PATH#TAG. Nothing was written."
        ),
    ))
}

/// The MCP `edit` tool's words for a hashline server.
const PROMPT: &str = "\
`patch` is hashline patch text: one section per file, each starting with the `¶PATH#TAG` \
header copied from the latest read (or from the last successful edit of that file), then hunks:
  replace N..M:      replace lines N..M with the `+` rows below
  delete N..M        delete lines N..M (no rows)
  insert before N:   insert the rows before line N (also `insert after N:`, `insert head:`, `insert tail:`)
  replace block N: / delete block N   the whole syntactic block that starts on line N
Every body row is `+TEXT`; `+` alone is a blank line. Line numbers refer to the file as you \
read it: do not renumber later hunks for the lines earlier hunks add or remove. There are no \
`-` rows and no context rows: to keep a line, leave it out of every range. A literal line \
that begins with `+` or `-` is written `++text` or `+-text`. Example:
¶src/a.ts#0A3B
replace 1..1:
+const X = \"b\";
insert after 5:
+console.log(X);";
