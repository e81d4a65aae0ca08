//! DEVIATIONS §1: edits resolved on a recorded older version, carried onto the file on disk
//! with zero fuzz.
//!
//! Every line an edit touches — the replaced lines, or both neighbours of an insert point — is
//! mapped through the line diff from the recorded text to the disk text. A line inside a changed
//! region has no image; a range whose images are not consecutive was split on disk. Either way
//! the edit cannot be placed with certainty and the whole request is refused with fresh anchors
//! of the disk version. No context is ever searched for.

use std::ops::Range;

use hashline_anchor::hash_json::{hash_lines, render_rows, visible_line_count};
use hashline_core::{Edit, EditKind, ErrorCode};

use crate::diff::line_hunks;

use super::refusal::Refusal;

/// Rows of fresh anchors shown around a refused edit.
const FRESH_ROWS: usize = 12;

/// Where each line of the recorded text is on disk.
struct LineMap {
    /// 1-based disk line of each recorded line (index 0 = line 1); `None` inside a change.
    image: Vec<Option<usize>>,
    /// For each recorded line, the disk line where its region starts (for fresh anchors).
    near: Vec<usize>,
    /// Disk entries.
    disk_len: usize,
}

impl LineMap {
    fn new(recorded: &str, disk: &str) -> LineMap {
        let old: Vec<&str> = recorded.split('\n').collect();
        let new: Vec<&str> = disk.split('\n').collect();
        let mut image = vec![None; old.len()];
        let mut near = vec![1; old.len()];
        let hunks = line_hunks(recorded, disk);
        let (mut o, mut n) = (0usize, 0usize);
        for h in &hunks {
            while o < h.old.start && o < old.len() {
                image[o] = Some(n + 1);
                near[o] = n + 1;
                o += 1;
                n += 1;
            }
            for slot in near
                .iter_mut()
                .take(h.old.end.min(old.len()))
                .skip(h.old.start)
            {
                *slot = h.new.start + 1;
            }
            o = h.old.end;
            n = h.new.end;
        }
        while o < old.len() {
            image[o] = Some(n + 1);
            near[o] = n + 1;
            o += 1;
            n += 1;
        }
        for h in &hunks {
            for i in sliders(&old, &new, &h.old, &h.new) {
                if let Some(slot) = image.get_mut(i) {
                    *slot = None;
                }
            }
        }
        LineMap {
            image,
            near,
            disk_len: new.len(),
        }
    }

    fn get(&self, line: usize) -> Option<usize> {
        line.checked_sub(1)
            .and_then(|i| self.image.get(i).copied().flatten())
    }

    /// Whether recorded lines `a` and `a + 1` are still adjacent on disk (a missing line past
    /// either end of the file counts as the file's edge).
    fn adjacent(&self, a: usize) -> bool {
        let old_len = self.image.len();
        match (a, a + 1) {
            (0, b) => self.get(b) == Some(1),
            (a, b) if b > old_len => self.get(a) == Some(self.disk_len),
            (a, b) => matches!((self.get(a), self.get(b)), (Some(x), Some(y)) if y == x + 1),
        }
    }

    fn map(&self, edit: &Edit) -> Option<Edit> {
        let kind = match edit.kind {
            EditKind::Replace { start, end } => {
                let s = self.get(start)?;
                let all = (start..=end)
                    .enumerate()
                    .all(|(k, l)| self.get(l) == Some(s + k));
                if !all {
                    return None;
                }
                EditKind::Replace {
                    start: s,
                    end: s + (end - start),
                }
            }
            EditKind::InsertAfter(l) => {
                if !self.adjacent(l) {
                    return None;
                }
                EditKind::InsertAfter(self.get(l)?)
            }
            EditKind::InsertBefore(l) => {
                if !self.adjacent(l - 1) {
                    return None;
                }
                EditKind::InsertBefore(self.get(l)?)
            }
            EditKind::Head | EditKind::Tail => edit.kind,
        };
        Some(Edit {
            kind,
            rows: edit.rows.clone(),
            origin: edit.origin,
        })
    }
}

/// Recorded lines (0-based) next to a hunk that another minimal alignment would place on the
/// other side of it: the hunk can "slide" over them because the lines it would swap are equal
/// (deleting the first or the second of two `}` around a block). Their image is ambiguous.
fn sliders(old: &[&str], new: &[&str], o: &Range<usize>, n: &Range<usize>) -> Vec<usize> {
    let mut out = Vec::new();
    // Slide towards the start: the lines before the hunk equal its last lines, on both sides.
    let mut k = 0;
    while k < o.start.min(n.start)
        && (o.is_empty() || old.get(o.start - k - 1) == old.get(o.end - k - 1))
        && (n.is_empty() || new.get(n.start - k - 1) == new.get(n.end - k - 1))
    {
        k += 1;
        out.push(o.start - k);
    }
    // Slide towards the end: the lines after the hunk equal its first lines, on both sides.
    let mut k = 0;
    while o.end + k < old.len()
        && n.end + k < new.len()
        && (o.is_empty() || old.get(o.start + k) == old.get(o.end + k))
        && (n.is_empty() || new.get(n.start + k) == new.get(n.end + k))
    {
        out.push(o.end + k);
        k += 1;
    }
    out
}

/// Carry `edits` (lines of `recorded`) onto `disk`. `anchors(origin)` lists the anchors of the
/// request item an edit came from, for the refusal.
pub(crate) fn rebase(
    edits: &[Edit],
    recorded: &str,
    disk: &str,
    anchors: &dyn Fn(usize) -> Vec<String>,
) -> Result<Vec<Edit>, Refusal> {
    let map = LineMap::new(recorded, disk);
    let mut out = Vec::with_capacity(edits.len());
    let mut failed: Vec<&Edit> = Vec::new();
    for edit in edits {
        match map.map(edit) {
            Some(mapped) => out.push(mapped),
            None => failed.push(edit),
        }
    }
    let Some(first) = failed.first() else {
        return Ok(out);
    };
    let names: Vec<String> = failed
        .iter()
        .flat_map(|e| anchors(e.origin))
        .map(|a| format!("\"{a}\""))
        .collect();
    let line = first.anchor_lines().first().copied().unwrap_or(1);
    let centre = map.near.get(line.saturating_sub(1)).copied().unwrap_or(1);
    let visible = visible_line_count(disk);
    let from = centre.saturating_sub(2).max(1);
    let to = (from + FRESH_ROWS - 1).min(visible);
    let mut message = format!(
        "[E_STALE_ANCHOR] {} {}: {}. The file changed on disk since the read these anchors came from, and \
         the lines they name changed or moved, so the edit cannot be placed with certainty. \
         Re-read the file to refresh.",
        names.len(),
        if names.len() == 1 { "stale anchor" } else { "stale anchors" },
        names.join(", ")
    );
    if from <= to {
        message.push_str("\n\nCurrent state (around the edit):");
        let rows = render_rows(disk, &hash_lines(disk), from, to);
        for row in rows.split('\n') {
            message.push_str("\n>>> ");
            message.push_str(row);
        }
    }
    Err(Refusal::new(ErrorCode::StaleAnchor, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(kind: EditKind) -> Edit {
        Edit {
            kind,
            rows: vec!["X".into()],
            origin: 0,
        }
    }

    fn none(_: usize) -> Vec<String> {
        vec!["AAAA".into()]
    }

    #[test]
    fn unchanged_lines_move_with_the_disk() {
        let out = rebase(
            &[edit(EditKind::Replace { start: 2, end: 3 })],
            "a\nb\nc\n",
            "new\na\nb\nc\n",
            &none,
        )
        .expect("clean merge");
        assert_eq!(out[0].kind, EditKind::Replace { start: 3, end: 4 });
        let out = rebase(
            &[edit(EditKind::InsertAfter(1))],
            "a\nb\n",
            "z\na\nb\n",
            &none,
        )
        .expect("clean merge");
        assert_eq!(out[0].kind, EditKind::InsertAfter(2));
    }

    #[test]
    fn changed_or_split_lines_are_refused() {
        let err = rebase(
            &[edit(EditKind::Replace { start: 1, end: 1 })],
            "foo\nbar\nfoo\n",
            "bar\nfoo\n",
            &none,
        )
        .expect_err("deleted line");
        assert_eq!(err.code, ErrorCode::StaleAnchor);
        assert!(err.message.contains(">>> "), "{}", err.message);
        assert!(rebase(
            &[edit(EditKind::Replace { start: 1, end: 2 })],
            "a\nb\n",
            "a\nX\nb\n",
            &none
        )
        .is_err());
        // A neighbour of the insert point changed.
        assert!(rebase(&[edit(EditKind::InsertAfter(1))], "a\nb\n", "a\nB\n", &none).is_err());
        assert!(rebase(
            &[edit(EditKind::InsertBefore(2))],
            "a\nb\n",
            "A\nb\n",
            &none
        )
        .is_err());
        // Which `}` was deleted is ambiguous: either alignment is minimal.
        let e = [edit(EditKind::Replace { start: 2, end: 2 })];
        assert!(rebase(&e, "a\n}\nb\nc\n}\n", "a\n}\n", &none).is_err());
        let e = [edit(EditKind::Replace { start: 5, end: 5 })];
        assert!(rebase(&e, "a\n}\nb\nc\n}\n", "a\n}\n", &none).is_err());
        // An insertion next to an equal line makes that line ambiguous too.
        let e = [edit(EditKind::Replace { start: 2, end: 2 })];
        assert!(rebase(&e, "a\nx\nb\n", "a\nx\nx\nb\n", &none).is_err());
    }
}
