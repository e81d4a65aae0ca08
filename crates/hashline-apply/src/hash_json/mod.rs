//! The hash-anchored JSON dialect (seed `001`, `../shared/docs/dialects/hash-json.md`): `read`
//! and `edit`.
//!
//! `edit` runs the peer's pipeline in the peer's order — request shape ([`hashline_syntax`]),
//! file checks, item shape, anchor resolution (`resolve`), payload checks (`checks`), noop
//! records, dedup and conflicts (`plan`), application, E_WOULD_EMPTY, noop classification,
//! write, response (`response`) — with the departures `../shared/conformance/DEVIATIONS.md`
//! asks for:
//! * §1: anchors that fit a version the session recorded rather than the file on disk are
//!   applied to that version and carried onto the disk text with zero fuzz (`rebase`), or
//!   refused with fresh anchors. They never land on another line that hashes the same.
//! * §2: the result is built by [`hashline_core::splice`] and encoded by
//!   [`hashline_core::TextFile`], so the BOM and every untouched line's bytes and ending survive.
//! * §3: inserts land at the boundary they name (the core's per-line order), not where the
//!   peer's tie between an insert and a replace end puts them.
//! * §4a: a payload row that repeats the line next to it is reported (`repeats line`).
//! * §12: the retired `oldText`/`replace_text` shape is `E_LEGACY_SHAPE` with a correct message.

mod checks;
mod dialect;
mod engine;
mod outline;
mod plan;
pub mod read;
mod rebase;
mod resolve;
mod response;

pub use dialect::DIALECT;
pub use engine::{edit, EditOptions};
pub use hashline_core::Refusal;

use hashline_anchor::hash_json::{hash_lines, render_rows, visible_line_count};

/// Lines the auto-read block shows at most.
const AUTO_READ_LINES: usize = 2000;

/// The auto-read block `hashline write` appends after writing `text` (the tool's "auto-read
/// after write"): `\n\n--- Auto-read (hashline anchors) ---\n` and a `HASH:content` row per
/// visible line, capped at 2000 lines with a continuation hint. Empty when the text has no
/// visible line.
///
/// `text` is the written content, BOM-free and LF-normalized (unlike the peer, which hashes a
/// BOM into line 1 and so prints an anchor `edit` rejects).
pub fn render_anchors(text: &str) -> String {
    let visible = visible_line_count(text);
    if visible == 0 {
        return String::new();
    }
    let shown = visible.min(AUTO_READ_LINES);
    let mut out = format!(
        "\n\n--- Auto-read (hashline anchors) ---\n{}",
        render_rows(text, &hash_lines(text), 1, shown)
    );
    if visible > shown {
        out.push_str(&format!(
            "\n\n[Showing lines 1-{shown} of {visible}. Use offset={} to continue.]",
            shown + 1
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_read_block() {
        assert_eq!(render_anchors(""), "");
        assert_eq!(
            render_anchors("aaa\nbbb\n"),
            "\n\n--- Auto-read (hashline anchors) ---\n0CFv:aaa\n0WIr:bbb"
        );
        let big: String = (0..2001).map(|i| format!("l{i}\n")).collect();
        assert!(render_anchors(&big)
            .ends_with("\n\n[Showing lines 1-2000 of 2001. Use offset=2001 to continue.]"));
    }
}
