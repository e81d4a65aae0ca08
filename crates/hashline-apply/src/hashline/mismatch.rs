//! The stale-tag rejection (seed `000` §e): which of two headers, then the live lines around
//! every anchor (`*N:` for an anchor, ` N:` for context, `...` where numbers jump).

use std::collections::BTreeSet;

use hashline_syntax::hashline::{Hunk, HunkOp};

/// Lines of context shown on each side of an anchor.
const MISMATCH_CONTEXT: usize = 2;

/// The anchor lines of a section that exist in a file of `line_count` lines: every deleted line,
/// every before/after insert anchor, every block anchor (and its span when it was resolved).
/// Ranges are clipped to the file before they are expanded.
pub(crate) fn anchor_lines(
    hunks: &[Hunk],
    blocks: &[(usize, usize, usize)],
    line_count: usize,
) -> BTreeSet<usize> {
    let m = line_count as u64;
    let mut out = BTreeSet::new();
    let range = |s: u64, e: u64, out: &mut BTreeSet<usize>| {
        if s >= 1 && s <= m {
            out.extend(s as usize..=e.min(m) as usize);
        }
    };
    for (i, h) in hunks.iter().enumerate() {
        match h.op {
            HunkOp::Replace { start, end } | HunkOp::Delete { start, end } => {
                range(start, end, &mut out)
            }
            HunkOp::InsertBefore(n) | HunkOp::InsertAfter(n) => range(n, n, &mut out),
            HunkOp::ReplaceBlock { line } | HunkOp::DeleteBlock { line } => {
                range(line, line, &mut out);
                for &(_, s, e) in blocks.iter().filter(|(k, _, _)| *k == i) {
                    range(s as u64, e as u64, &mut out);
                }
            }
            HunkOp::InsertHead | HunkOp::InsertTail => {}
        }
    }
    out
}

/// What the session knows of a section's tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Known {
    /// The store holds a version with the tag.
    Held,
    /// A version with the tag was recorded, then evicted by the store's bounds.
    Evicted,
    /// The session never recorded it.
    Unknown,
}

/// The full rejection text for `path` bound to `tag` whose live text is `live` (tag
/// `live_tag`); `known`: what the store knows of `tag`.
pub(crate) fn message(
    path: &str,
    tag: &str,
    live_tag: &str,
    known: Known,
    live: &str,
    anchors: &BTreeSet<usize>,
) -> String {
    let mut msg = match known {
        Known::Held => format!(
            "Edit rejected for {path}: file changed between read and edit.\nSection is bound to #{tag}, but the current file hashes to #{live_tag}. If a prior edit in this session modified this file, copy the ¶path#newhash header from that edit's response; otherwise re-read the file with `read` to refresh the tag before retrying."
        ),
        Known::Evicted => format!(
            "Edit rejected for {path}: hash #{tag} was read in this session, but that version has been evicted (the session keeps the last {} versions of each file, and {} files), so the edit cannot be carried onto the current file.\nThe current file hashes to #{live_tag}. Copy the ¶path#newhash header of this session's latest edit of the file, or re-read the file with `read` to copy a current ¶path#tag header.",
            hashline_state::MAX_VERSIONS,
            hashline_state::MAX_PATHS
        ),
        Known::Unknown => format!(
            "Edit rejected for {path}: hash #{tag} is not from this session.\nThe current file hashes to #{live_tag}. Re-read the file with `read` to copy a current ¶path#tag header — never invent the tag and never reuse one from a prior session."
        ),
    };
    let lines: Vec<&str> = live.split('\n').collect();
    let mut shown = BTreeSet::new();
    for &a in anchors {
        if a >= 1 && a <= lines.len() {
            shown.extend(
                a.saturating_sub(MISMATCH_CONTEXT).max(1)..=(a + MISMATCH_CONTEXT).min(lines.len()),
            );
        }
    }
    if shown.is_empty() {
        return msg;
    }
    msg.push('\n');
    let mut prev: Option<usize> = None;
    for n in shown {
        if prev.is_some_and(|p| n > p + 1) {
            msg.push_str("\n...");
        }
        let mark = if anchors.contains(&n) { '*' } else { ' ' };
        msg.push('\n');
        msg.push(mark);
        msg.push_str(&n.to_string());
        msg.push(':');
        msg.push_str(lines[n - 1]);
        prev = Some(n);
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashline::test_support;

    fn hunk(op: HunkOp) -> Hunk {
        test_support::hunk(op, &["x"])
    }

    #[test]
    fn recognized_with_context() {
        let live = "L1\nL2\nL3\nL4\nL5\nL6-CHANGED\nL7\nL8\nL9\nL10\n";
        let anchors = anchor_lines(&[hunk(HunkOp::Replace { start: 6, end: 6 })], &[], 11);
        let m = message("a.ts", "244E", "34F2", Known::Held, live, &anchors);
        assert_eq!(
            m,
            "Edit rejected for a.ts: file changed between read and edit.\nSection is bound to #244E, but the current file hashes to #34F2. If a prior edit in this session modified this file, copy the ¶path#newhash header from that edit's response; otherwise re-read the file with `read` to refresh the tag before retrying.\n\n 4:L4\n 5:L5\n*6:L6-CHANGED\n 7:L7\n 8:L8"
        );
    }

    #[test]
    fn unrecognized_shows_final_empty_line_and_gaps() {
        let anchors = anchor_lines(&[hunk(HunkOp::Replace { start: 1, end: 1 })], &[], 2);
        let m = message(
            "a.ts",
            "FFFF",
            "1378",
            Known::Unknown,
            "current\n",
            &anchors,
        );
        assert!(
            m.ends_with("never reuse one from a prior session.\n\n*1:current\n 2:"),
            "{m}"
        );
        let live: String = (1..=20).map(|i| format!("l{i}\n")).collect();
        let anchors = anchor_lines(
            &[
                hunk(HunkOp::InsertAfter(2)),
                hunk(HunkOp::Delete {
                    start: 15,
                    end: u64::MAX,
                }),
            ],
            &[],
            21,
        );
        let m = message("f", "AAAA", "BBBB", Known::Held, &live, &anchors);
        assert!(m.contains("\n 4:l4\n...\n 13:l13\n 14:l14\n*15:l15"), "{m}");
        assert!(m.ends_with("*21:"), "{m}");
    }

    #[test]
    fn evicted_says_so_and_what_to_do() {
        let anchors = anchor_lines(&[hunk(HunkOp::Replace { start: 1, end: 1 })], &[], 2);
        let m = message("a.ts", "ABCD", "1378", Known::Evicted, "x\n", &anchors);
        assert!(
            m.starts_with("Edit rejected for a.ts: hash #ABCD was read in this session, but that version has been evicted (the session keeps the last 4 versions of each file, and 30 files)"),
            "{m}"
        );
        assert!(m.contains("re-read the file with `read`"), "{m}");
        assert!(!m.contains("not from this session"), "{m}");
    }

    #[test]
    fn no_anchor_in_file_gives_headers_only() {
        let anchors = anchor_lines(&[hunk(HunkOp::InsertBefore(50))], &[], 3);
        let m = message("f", "AAAA", "BBBB", Known::Unknown, "a\nb\n", &anchors);
        assert!(!m.contains("\n\n"));
    }
}
