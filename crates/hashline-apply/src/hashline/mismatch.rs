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

/// The full rejection text for `path` bound to `tag` whose live text is `live` (tag
/// `live_tag`). `recognized`: the store holds a version with `tag`.
pub(crate) fn message(
    path: &str,
    tag: &str,
    live_tag: &str,
    recognized: bool,
    live: &str,
    anchors: &BTreeSet<usize>,
) -> String {
    let mut msg = if recognized {
        format!(
            "Edit rejected for {path}: file changed between read and edit.\nSection is bound to #{tag}, but the current file hashes to #{live_tag}. If a prior edit in this session modified this file, copy the ¶path#newhash header from that edit's response; otherwise re-read the file with `read` to refresh the tag before retrying."
        )
    } else {
        format!(
            "Edit rejected for {path}: hash #{tag} is not from this session.\nThe current file hashes to #{live_tag}. Re-read the file with `read` to copy a current ¶path#tag header — never invent the tag and never reuse one from a prior session."
        )
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
        let m = message("a.ts", "244E", "34F2", true, live, &anchors);
        assert_eq!(
            m,
            "Edit rejected for a.ts: file changed between read and edit.\nSection is bound to #244E, but the current file hashes to #34F2. If a prior edit in this session modified this file, copy the ¶path#newhash header from that edit's response; otherwise re-read the file with `read` to refresh the tag before retrying.\n\n 4:L4\n 5:L5\n*6:L6-CHANGED\n 7:L7\n 8:L8"
        );
    }

    #[test]
    fn unrecognized_shows_final_empty_line_and_gaps() {
        let anchors = anchor_lines(&[hunk(HunkOp::Replace { start: 1, end: 1 })], &[], 2);
        let m = message("a.ts", "FFFF", "1378", false, "current\n", &anchors);
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
        let m = message("f", "AAAA", "BBBB", true, &live, &anchors);
        assert!(m.contains("\n 4:l4\n...\n 13:l13\n 14:l14\n*15:l15"), "{m}");
        assert!(m.ends_with("*21:"), "{m}");
    }

    #[test]
    fn no_anchor_in_file_gives_headers_only() {
        let anchors = anchor_lines(&[hunk(HunkOp::InsertBefore(50))], &[], 3);
        let m = message("f", "AAAA", "BBBB", false, "a\nb\n", &anchors);
        assert!(!m.contains("\n\n"));
    }
}
