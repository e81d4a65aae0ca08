//! Fresh anchors in an edit's reply (issue 13 item 3): `files[].anchors` is filled by every
//! dialect (`hashline_apply::anchors`); this decides whether the reply keeps them and whether
//! the plain text shows them (`edit --show-anchors`), where the seed's text does not already.
//! Also: a refused patch of several sections says that nothing was written.

use hashline_apply::anchors::render_block;
use hashline_apply::Outcome;

use crate::{Dialect, EditOptions};

/// The edit reply as `options` asks: with `show_anchors`, the anchors block appended to a
/// successful reply whose text shows none (the dialects leave the anchors out unless asked).
pub(crate) fn present(outcome: &mut Outcome, dialect: Dialect, options: &EditOptions) {
    // Without `fresh_anchors` the dialects computed none (`skip_anchors`).
    if !options.show_anchors || !outcome.ok || text_shows_anchors(dialect, &outcome.text) {
        return;
    }
    let mut block = String::new();
    for file in &outcome.files {
        let path = file.new_path.as_deref().unwrap_or(&file.path);
        block.push_str(&render_block(path, &file.anchors));
    }
    if block.is_empty() {
        return;
    }
    // The block follows the text's last line (Codex's summary ends with a newline).
    let had_newline = outcome.text.ends_with('\n');
    outcome
        .text
        .truncate(outcome.text.trim_end_matches('\n').len());
    outcome.text.push_str(&block);
    if had_newline {
        outcome.text.push('\n');
    }
}

/// Whether the seed's reply already holds the anchors the next edit needs: the hashline
/// language's numbered diff under the new `¶PATH#TAG`, hash-json's `--- Anchors ---` block,
/// str-replace's `cat -n` snippet. lineid-json's `Updated PATH` and apply-patch's summary show
/// none.
fn text_shows_anchors(dialect: Dialect, text: &str) -> bool {
    match dialect {
        Dialect::Hashline | Dialect::Auto => true,
        Dialect::HashJson => text.contains("--- Anchors ---"),
        Dialect::StrReplace => text.contains("Here's the result of running `cat -n`"),
        Dialect::LineidJson | Dialect::ApplyPatch => false,
    }
}

/// A refused hashline patch of several sections says that nothing was written: the refusal
/// names the one file or line at fault, and the model must not take the other files as done.
pub(crate) fn say_nothing_written(outcome: &mut Outcome, dialect: Dialect, patch: &str) {
    if outcome.ok || dialect != Dialect::Hashline {
        return;
    }
    let sections = patch.lines().filter(|l| l.starts_with('\u{b6}')).count();
    if sections < 2 || outcome.text.to_lowercase().contains("nothing was written") {
        return;
    }
    let text = outcome.text.trim_end_matches('\n').len();
    outcome.text.truncate(text);
    outcome.text.push_str(&format!(
        "\nNothing was written: the patch's {sections} sections land together or not at all."
    ));
}
