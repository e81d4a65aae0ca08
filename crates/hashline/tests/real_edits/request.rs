//! The correct request of each dialect for one change, built as a careful model would: from
//! what it read and a line diff of before → after (the protocol of `../shared/real-edits`).

use std::ops::Range;

use serde_json::json;

use super::diff::Hunk;
use super::read::Read;

/// One edit as the model writes it: the `old` lines of the text it read (0-based, half-open;
/// empty where lines are inserted) become `lines`. The correct edits are the diff's hunks
/// ([`edits`]); the mistakes test sends mutated ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// Lines of the text read.
    pub old: Range<usize>,
    /// What the model writes in their place.
    pub lines: Vec<String>,
}

/// The correct edits: each hunk's old lines become its new lines.
pub fn edits(new: &[&str], hunks: &[Hunk]) -> Vec<Edit> {
    hunks
        .iter()
        .map(|h| Edit {
            old: h.old.clone(),
            lines: new[h.new.clone()].iter().map(|l| l.to_string()).collect(),
        })
        .collect()
}

/// What one dialect sends for a change: one or more calls to `edit` (str-replace sends one
/// call per hunk), or why the change cannot be said in that dialect.
pub enum Request {
    /// The calls, in order.
    Calls(Vec<Vec<u8>>),
    /// The dialect cannot express this change (counted as excluded).
    Excluded(&'static str),
}

/// hashline: one `¶PATH#TAG` section, every hunk in the original numbering.
pub fn hashline(path: &str, read: &Read, edits: &[Edit]) -> Request {
    let mut out = format!("¶{path}#{}\n", read.tag);
    for h in edits {
        let rows = || -> String { h.lines.iter().map(|l| format!("+{l}\n")).collect() };
        if h.old.is_empty() {
            match h.old.start {
                0 => out.push_str("insert head:\n"),
                n => out.push_str(&format!("insert after {n}:\n")),
            }
            out.push_str(&rows());
        } else if h.lines.is_empty() {
            out.push_str(&format!("delete {}..{}\n", h.old.start + 1, h.old.end));
        } else {
            out.push_str(&format!("replace {}..{}:\n", h.old.start + 1, h.old.end));
            out.push_str(&rows());
        }
    }
    Request::Calls(vec![out.into_bytes()])
}

/// hash-json: replace/append/prepend edits with the `HASH` anchors read. A replace by one
/// blank line (`[""]`, which the dialect documents as a deletion) restates a neighbouring line.
pub fn hash_json(path: &str, read: &Read, old: &[&str], edits: &[Edit]) -> Request {
    let hunks = edits;
    let mut edits = Vec::new();
    for h in hunks {
        let mut lines: Vec<&str> = h.lines.iter().map(String::as_str).collect();
        let anchor = |line: usize| read.anchors[line].clone();
        if h.old.is_empty() {
            if h.old.start == 0 {
                if read.anchors.is_empty() {
                    edits.push(json!({"op": "prepend", "lines": lines}));
                } else {
                    edits.push(json!({"op": "prepend", "pos": anchor(0), "lines": lines}));
                }
            } else {
                edits.push(json!({"op": "append", "pos": anchor(h.old.start - 1), "lines": lines}));
            }
        } else {
            let (mut start, mut end) = (h.old.start, h.old.end);
            if lines == [""] {
                if end < old.len() {
                    lines.push(old[end]);
                    end += 1;
                } else if start > 0 {
                    lines.insert(0, old[start - 1]);
                    start -= 1;
                } else {
                    return Request::Excluded("a whole file replaced by one blank line");
                }
            }
            edits.push(json!({
                "op": "replace",
                "start": anchor(start),
                "end": anchor(end - 1),
                "lines": lines,
            }));
        }
    }
    let req = json!({"path": path, "edits": edits});
    Request::Calls(vec![req.to_string().into_bytes()])
}

/// lineid-json: replace (`pos`, or `pos` + `end`)/append/prepend edits with the `N#ID`
/// anchors read.
pub fn lineid_json(path: &str, read: &Read, edits: &[Edit]) -> Request {
    let hunks = edits;
    let mut edits = Vec::new();
    for h in hunks {
        let lines = &h.lines;
        let anchor = |line: usize| read.anchors[line].clone();
        if h.old.is_empty() {
            if h.old.start == 0 {
                edits.push(json!({"op": "prepend", "pos": anchor(0), "lines": lines}));
            } else {
                edits.push(json!({"op": "append", "pos": anchor(h.old.start - 1), "lines": lines}));
            }
        } else if h.old.len() == 1 {
            edits.push(json!({"op": "replace", "pos": anchor(h.old.start), "lines": lines}));
        } else {
            edits.push(json!({
                "op": "replace",
                "pos": anchor(h.old.start),
                "end": anchor(h.old.end - 1),
                "lines": lines,
            }));
        }
    }
    let req = json!({"filePath": path, "edits": edits});
    Request::Calls(vec![req.to_string().into_bytes()])
}

/// str-replace: one `str_replace` per hunk, top to bottom, `old_str` widened by whole context
/// lines until it occurs once in the current text.
pub fn str_replace(path: &str, old: &[&str], final_newline: bool, hunks: &[Edit]) -> Request {
    let mut current: Vec<String> = old.iter().map(|l| l.to_string()).collect();
    let mut calls = Vec::new();
    let mut shift: isize = 0;
    for h in hunks {
        let start = (h.old.start as isize + shift) as usize;
        let end = (h.old.end as isize + shift) as usize;
        let replacement: Vec<String> = h.lines.clone();
        let (mut a, mut b) = (start, end);
        let text = current.join("\n") + if final_newline { "\n" } else { "" };
        let pick = |a: usize, b: usize| -> (String, String) {
            let mut rows: Vec<String> = current[a..start].to_vec();
            rows.extend(replacement.iter().cloned());
            rows.extend(current[end..b].iter().cloned());
            (current[a..b].join("\n"), rows.join("\n"))
        };
        // A pure insertion or deletion needs a line of context to carry the newline.
        if a == b || replacement.is_empty() {
            if a > 0 {
                a -= 1;
            } else if b < current.len() {
                b += 1;
            } else {
                return Request::Excluded("no context line");
            }
        }
        let mut below = true;
        loop {
            let (o, _) = pick(a, b);
            if !o.is_empty() && text.matches(o.as_str()).count() == 1 {
                break;
            }
            let can_below = b < current.len();
            let can_above = a > 0;
            match (below && can_below, can_above) {
                (true, _) => b += 1,
                (false, true) => a -= 1,
                (false, false) if can_below => b += 1,
                _ => return Request::Excluded("old_str never unique"),
            }
            below = !below;
        }
        let (o, n) = pick(a, b);
        calls.push(
            json!({"command": "str_replace", "path": path, "old_str": o, "new_str": n})
                .to_string()
                .into_bytes(),
        );
        current.splice(start..end, replacement.iter().cloned());
        shift += h.lines.len() as isize - h.old.len() as isize;
    }
    Request::Calls(calls)
}

/// apply-patch's lines of context each side of a change.
pub const CONTEXT: usize = 3;

/// apply-patch: one V4A patch, `@@` chunks with 3 context lines (merged where they touch); a
/// chunk whose lines occur more than once in the file gets more context until they occur once.
pub fn apply_patch(path: &str, old: &[&str], hunks: &[Edit]) -> Request {
    let mut out = format!("*** Begin Patch\n*** Update File: {path}\n");
    // Where the previous chunk ended: a chunk is searched from there on, so its context never
    // reaches above it and needs to be unique only below it.
    let mut floor = 0;
    for group in groups(hunks, 2 * CONTEXT) {
        let (first, last) = (&group[0], &group[group.len() - 1]);
        let text = format!("\n{}\n", old[floor..].join("\n"));
        let mut context = CONTEXT;
        let (before, after) = loop {
            let before = first
                .old
                .start
                .saturating_sub(context)
                .max(floor.min(first.old.start));
            let after = (last.old.end + context).min(old.len());
            let chunk = format!("\n{}\n", old[before..after].join("\n"));
            let whole = before <= floor && after == old.len();
            if whole || text.matches(chunk.as_str()).count() <= 1 {
                break (before, after);
            }
            context += 1;
        };
        floor = after;
        out.push_str("@@\n");
        let mut at = before;
        for part in &group {
            for l in &old[at..part.old.start] {
                out.push_str(&format!(" {l}\n"));
            }
            for l in &old[part.old.clone()] {
                out.push_str(&format!("-{l}\n"));
            }
            for l in &part.lines {
                out.push_str(&format!("+{l}\n"));
            }
            at = part.old.end;
        }
        for l in &old[at..after] {
            out.push_str(&format!(" {l}\n"));
        }
        if after == old.len() {
            out.push_str("*** End of File\n");
        }
    }
    out.push_str("*** End Patch\n");
    Request::Calls(vec![out.into_bytes()])
}

/// The edits in runs whose neighbours are at most `gap` lines apart (apply-patch's `@@`
/// chunks: [`CONTEXT`] lines each side, merged where they touch).
pub fn groups(hunks: &[Edit], gap: usize) -> Vec<Vec<Edit>> {
    let mut out: Vec<Vec<Edit>> = Vec::new();
    for h in hunks {
        match out.last_mut() {
            Some(run) if h.old.start <= run[run.len() - 1].old.end + gap => run.push(h.clone()),
            _ => out.push(vec![h.clone()]),
        }
    }
    out
}

/// `dialect`'s request for `edits` of the file at `path` (lines `old`), from what its model
/// read (`None` for the dialects that read no anchors).
pub fn build(
    dialect: &str,
    path: &str,
    read: Option<&Read>,
    old: &[&str],
    final_newline: bool,
    edits: &[Edit],
) -> Request {
    match (dialect, read) {
        ("apply-patch", _) => apply_patch(path, old, edits),
        ("str-replace", _) => str_replace(path, old, final_newline, edits),
        ("hash-json", Some(read)) => hash_json(path, read, old, edits),
        ("lineid-json", Some(read)) => lineid_json(path, read, edits),
        (_, Some(read)) => hashline(path, read, edits),
        (_, None) => Request::Excluded("no read"),
    }
}
