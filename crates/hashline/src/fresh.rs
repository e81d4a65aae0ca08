//! Fresh anchors in an edit's reply (issue 13 item 3): `files[].anchors` is filled by every
//! dialect (`hashline_apply::anchors`); this decides whether the reply keeps them and whether
//! the plain text shows them (`edit --show-anchors`, every MCP `edit`), where the seed's text
//! does not already, bounded over the reply's files ([`MAX_BLOCK_BYTES`]).
//! Also: a refused patch of several sections says that nothing was written.

use hashline_apply::anchors::render_block;
use hashline_apply::{FileReport, Outcome};

use crate::{Dialect, EditOptions};

/// The edit reply as `options` asks: with `show_anchors`, the anchors block appended to a
/// successful reply whose text shows none (the dialects leave the anchors out unless asked).
pub(crate) fn present(outcome: &mut Outcome, dialect: Dialect, options: &EditOptions) {
    // Without `fresh_anchors` the dialects computed none (`skip_anchors`).
    let shown = dialect
        .get()
        .is_none_or(|d| d.shows_anchors_in_reply(outcome));
    if !options.show_anchors || !outcome.ok || shown {
        return;
    }
    let block = bounded_block(&outcome.files);
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

/// Bytes of anchor blocks one reply shows at most, over all its files (each file's rows are
/// bounded already: `hashline_apply::anchors::MAX_BYTES`); the files past it are named.
pub(crate) const MAX_BLOCK_BYTES: usize = 32 * 1024;
/// Files named in the note on the files whose anchors were left out.
const FILES_NAMED: usize = 5;

/// The anchor blocks of `files`, whole files only, while they fit in [`MAX_BLOCK_BYTES`]; a
/// note then says how many files (and rows) were left out and names the first few.
fn bounded_block(files: &[FileReport]) -> String {
    let mut block = String::new();
    let mut left_out: Vec<&str> = Vec::new();
    let mut rows_left_out = 0;
    for file in files.iter().filter(|f| !f.anchors.is_empty()) {
        let path = file.new_path.as_deref().unwrap_or(&file.path);
        let rendered = render_block(path, &file.anchors);
        if left_out.is_empty() && block.len() + rendered.len() <= MAX_BLOCK_BYTES {
            block.push_str(&rendered);
        } else {
            left_out.push(path);
            rows_left_out += file.anchors.iter().map(|r| r.rows.len()).sum::<usize>();
        }
    }
    if !left_out.is_empty() {
        let named = left_out[..left_out.len().min(FILES_NAMED)].join(", ");
        let more = if left_out.len() > FILES_NAMED {
            ", …"
        } else {
            ""
        };
        block.push_str(&format!(
            "\n\n[The fresh anchors of {} more file{} ({rows_left_out} rows) were left out to keep \
             this reply short: {named}{more}. Read those files for their anchors.]",
            left_out.len(),
            if left_out.len() == 1 { "" } else { "s" },
        ));
    }
    block
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

#[cfg(test)]
mod tests {
    use super::*;
    use hashline_apply::anchors::AnchorRegion;
    use hashline_apply::FileOp;

    fn file(path: &str, rows: usize, width: usize) -> FileReport {
        FileReport {
            path: path.to_string(),
            new_path: None,
            op: FileOp::Update,
            tag: None,
            diff: String::new(),
            first_changed_line: Some(1),
            written: true,
            anchors: vec![AnchorRegion {
                first: 1,
                last: rows,
                rows: (1..=rows)
                    .map(|i| format!("{i}:{}", "x".repeat(width)))
                    .collect(),
            }],
        }
    }

    #[test]
    fn the_blocks_of_many_files_are_bounded_and_the_rest_named() {
        let files: Vec<FileReport> = (0..20).map(|i| file(&format!("f{i}.rs"), 90, 60)).collect();
        let block = bounded_block(&files);
        assert!(block.len() < MAX_BLOCK_BYTES + 512, "{}", block.len());
        assert!(
            block.contains("--- Anchors f0.rs lines 1-90 ---"),
            "{block}"
        );
        let shown = block.matches("--- Anchors ").count();
        assert!((1..20).contains(&shown), "{shown}");
        let note = format!(
            "[The fresh anchors of {} more files ({} rows) were left out",
            20 - shown,
            (20 - shown) * 90
        );
        assert!(block.contains(&note), "{block}");
        let small = bounded_block(
            &files[..2]
                .iter()
                .map(|_| file("a", 3, 1))
                .collect::<Vec<_>>(),
        );
        assert!(!small.contains("left out"), "{small}");
    }
}
