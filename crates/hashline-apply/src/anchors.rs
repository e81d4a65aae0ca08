//! Fresh anchors of an edit's changed regions ([`AnchorRegion`]): what the next edit needs
//! without a re-read, rendered as the dialect's own read renders its rows ([`AnchorForm`]).
//!
//! Every written, non-deleting change reports them in `files[].anchors` (`--json`, the MCP
//! structured result); the plain text shows them only where the seed's text does (or behind
//! `edit --show-anchors`). The windows are bounded: [`CONTEXT`] lines around each changed
//! region, a region longer than [`MAX_REGION_ROWS`] shown as its head and its tail, at most
//! [`MAX_REGIONS`] regions, [`MAX_ROWS`] rows and [`MAX_BYTES`] bytes per file.

use serde::Serialize;

use hashline_anchor::hash_json::{hash_lines_at, visible_line_count_of};
use hashline_anchor::lineid::render_row;
use hashline_core::Pieces;

use crate::diff::line_hunks_of;

/// Unchanged lines shown on each side of a changed region.
pub const CONTEXT: usize = 2;
/// Rows of one region at most; a longer one is shown as its first and last half.
pub const MAX_REGION_ROWS: usize = 24;
/// Regions per file at most.
pub const MAX_REGIONS: usize = 8;
/// Rows per file at most.
pub const MAX_ROWS: usize = 96;
/// Bytes of rows per file at most (whole rows only).
pub const MAX_BYTES: usize = 16 * 1024;

/// How a dialect's read renders a row, and which lines it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnchorForm {
    /// The hashline language (`read --anchors tag`): `N:TEXT`, with the final empty line of a
    /// newline-terminated file.
    Tag,
    /// hash-json (`read --anchors hash`): `HASH:TEXT`, without the final empty line.
    Hash,
    /// lineid-json (`read --anchors lineid`): `N#ID|TEXT`.
    Lineid,
    /// The text-editor tool (`view`): `cat -n` rows, `{N:6}\tTEXT`.
    View,
    /// A V4A patch (no anchors: context rows are the lines themselves): `TEXT`, without the
    /// final empty line.
    Plain,
}

/// One window of the new text around a changed region, in the dialect's anchor form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnchorRegion {
    /// First line shown (1-based, the new text's numbering).
    pub first: usize,
    /// Last line shown.
    pub last: usize,
    /// The rows of lines `first..=last`, as the dialect's read renders them.
    pub rows: Vec<String>,
}

/// The fresh anchors of the change `old` → `new` (LF texts), bounded as the module says.
pub fn regions(old: &str, new: &str, form: AnchorForm) -> Vec<AnchorRegion> {
    regions_of(old, &Pieces::whole(new), form)
}

/// [`regions`] of a new text held in pieces (joined only for hash-json's line hashes).
pub fn regions_of(old: &str, new: &Pieces<'_>, form: AnchorForm) -> Vec<AnchorRegion> {
    // The windows come in increasing order: their lines are found in one forward walk, never
    // collected for the whole file.
    let line_count = new.lf_lines().count();
    let mut walk = new.lf_lines();
    let mut next = 1usize;
    let mut line_at = move |n: usize| -> &str {
        if n < next {
            return new.lf_lines().nth(n - 1).unwrap_or("");
        }
        let line = walk.nth(n - next).unwrap_or("");
        next = n + 1;
        line
    };
    let shown = match form {
        AnchorForm::Tag | AnchorForm::View => line_count,
        AnchorForm::Lineid if new.is_empty() => 0,
        AnchorForm::Lineid => line_count,
        AnchorForm::Hash | AnchorForm::Plain => visible_line_count_of(new),
    };
    if shown == 0 || new.eq_str(old) {
        return Vec::new();
    }
    let windows = windows(old, new, shown);
    // hash-json's rows: only the lines shown are hashed (their counters only).
    let hashes = (form == AnchorForm::Hash).then(|| {
        let wanted: Vec<usize> = windows.iter().flat_map(|&(a, b)| a..=b).collect();
        let at = hash_lines_at(new.lf_lines(), &wanted);
        wanted
            .into_iter()
            .zip(at)
            .collect::<std::collections::HashMap<_, _>>()
    });
    let mut render = |n: usize| -> String {
        let line = line_at(n);
        match form {
            AnchorForm::Tag => format!("{n}:{line}"),
            AnchorForm::Hash => match hashes.as_ref().and_then(|h| h.get(&n)) {
                Some(hash) => format!("{}:{line}", hash.as_str()),
                None => line.to_owned(),
            },
            AnchorForm::Lineid => render_row(n, line),
            AnchorForm::View => hashline_core::excerpt::cat_n(n, line),
            AnchorForm::Plain => line.to_owned(),
        }
    };
    let (mut rows_left, mut bytes_left) = (MAX_ROWS, MAX_BYTES);
    let mut out = Vec::new();
    'windows: for (first, last) in windows {
        if out.len() == MAX_REGIONS {
            break;
        }
        let mut region = AnchorRegion {
            first,
            last: first,
            rows: Vec::new(),
        };
        for n in first..=last {
            let row = render(n);
            if rows_left == 0 || row.len() + 1 > bytes_left {
                if !region.rows.is_empty() {
                    out.push(region);
                }
                break 'windows;
            }
            rows_left -= 1;
            bytes_left -= row.len() + 1;
            region.last = n;
            region.rows.push(row);
        }
        out.push(region);
    }
    out
}

/// The 1-based windows (`first..=last`, within `1..=shown`) around the changed regions of
/// `new`, merged where they touch; a window longer than [`MAX_REGION_ROWS`] becomes its head
/// and its tail.
fn windows(old: &str, new: &Pieces<'_>, shown: usize) -> Vec<(usize, usize)> {
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for hunk in line_hunks_of(&Pieces::whole(old), new) {
        // 0-based half-open `hunk.new` → 1-based inclusive, widened by the context; a pure
        // deletion (empty range) shows the lines around the point where it was.
        let first = (hunk.new.start + 1).saturating_sub(CONTEXT).max(1);
        let last = (hunk.new.end + CONTEXT).min(shown);
        if first > last {
            continue;
        }
        match merged.last_mut() {
            Some(prev) if first <= prev.1 + 1 => prev.1 = prev.1.max(last),
            _ => merged.push((first, last)),
        }
    }
    let half = MAX_REGION_ROWS / 2;
    merged
        .into_iter()
        .flat_map(|(first, last)| {
            if last + 1 - first <= MAX_REGION_ROWS {
                vec![(first, last)]
            } else {
                vec![(first, first + half - 1), (last + 1 - half, last)]
            }
        })
        .collect()
}

/// The plain-text block of `regions` of `path` (`edit --show-anchors`): a blank line, then per
/// region `--- Anchors PATH lines A-B ---` and its rows.
pub fn render_block(path: &str, regions: &[AnchorRegion]) -> String {
    let mut out = String::new();
    for r in regions {
        out.push_str(&format!(
            "\n\n--- Anchors {path} lines {}-{} ---",
            r.first, r.last
        ));
        for row in &r.rows {
            out.push('\n');
            out.push_str(row);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(n: usize) -> String {
        (1..=n).map(|i| format!("l{i}\n")).collect()
    }

    #[test]
    fn one_replaced_line_has_context_in_every_form() {
        let old = text(10);
        let new = old.replace("l5\n", "L5\n");
        let tag = regions(&old, &new, AnchorForm::Tag);
        assert_eq!(tag.len(), 1);
        assert_eq!((tag[0].first, tag[0].last), (3, 7));
        assert_eq!(tag[0].rows, ["3:l3", "4:l4", "5:L5", "6:l6", "7:l7"]);
        let lineid = regions(&old, &new, AnchorForm::Lineid);
        assert_eq!(lineid[0].rows[2], render_row(5, "L5"));
        let hash = regions(&old, &new, AnchorForm::Hash);
        assert!(hash[0].rows[2].ends_with(":L5"), "{:?}", hash[0].rows);
        let view = regions(&old, &new, AnchorForm::View);
        assert_eq!(view[0].rows[2], "     5\tL5");
        let plain = regions(&old, &new, AnchorForm::Plain);
        assert_eq!(plain[0].rows[2], "L5");
    }

    #[test]
    fn deletion_shows_the_lines_around_it_and_the_end_is_clipped() {
        let old = text(5);
        let new = old.replace("l3\n", "");
        let r = regions(&old, &new, AnchorForm::Tag);
        assert_eq!(r[0].rows, ["1:l1", "2:l2", "3:l4", "4:l5"]);
        let new = old.replace("l5\n", "");
        let r = regions(&old, &new, AnchorForm::Hash);
        assert_eq!((r[0].first, r[0].last), (3, 4));
        let r = regions(&old, &new, AnchorForm::Tag);
        assert_eq!((r[0].first, r[0].last), (3, 5), "the final empty line");
    }

    #[test]
    fn near_regions_merge_far_ones_stay_apart_and_long_ones_split() {
        let old = text(100);
        let new = old
            .replace("l10\n", "X\n")
            .replace("l13\n", "Y\n")
            .replace("l60\n", "Z\n");
        let r = regions(&old, &new, AnchorForm::Plain);
        let spans: Vec<_> = r.iter().map(|r| (r.first, r.last)).collect();
        assert_eq!(spans, [(8, 15), (58, 62)]);
        let long: String = (1..=50).map(|i| format!("new{i}\n")).collect();
        let new = old.replacen("l20\n", &long, 1);
        let r = regions(&old, &new, AnchorForm::Tag);
        let spans: Vec<_> = r.iter().map(|r| (r.first, r.last)).collect();
        assert_eq!(spans, [(18, 29), (60, 71)]);
    }

    #[test]
    fn bounded_in_rows_regions_and_bytes() {
        let old = text(2000);
        let new: String = old
            .split_inclusive('\n')
            .enumerate()
            .map(|(i, l)| {
                if i % 50 == 0 {
                    "changed\n".to_owned()
                } else {
                    l.to_owned()
                }
            })
            .collect();
        let r = regions(&old, &new, AnchorForm::Tag);
        assert_eq!(r.len(), MAX_REGIONS);
        let wide = "x".repeat(4000);
        let old = text(10);
        let new = format!("{wide}\n{wide}\n{wide}\n{wide}\n{wide}\n{old}");
        let r = regions(&old, &new, AnchorForm::Plain);
        let bytes: usize = r.iter().flat_map(|r| &r.rows).map(|s| s.len() + 1).sum();
        assert!(bytes <= MAX_BYTES, "{bytes}");
        assert_eq!(r[0].rows.len(), 4);
    }

    #[test]
    fn nothing_for_an_emptied_or_unchanged_file() {
        assert!(regions("a\n", "", AnchorForm::Lineid).is_empty());
        assert!(regions("a\n", "", AnchorForm::Hash).is_empty());
        assert!(regions("a\n", "a\n", AnchorForm::Tag).is_empty());
    }

    #[test]
    fn block_names_path_and_lines() {
        let r = regions("a\nb\n", "a\nB\n", AnchorForm::Tag);
        assert_eq!(
            render_block("f.txt", &r),
            "\n\n--- Anchors f.txt lines 1-3 ---\n1:a\n2:B\n3:"
        );
    }
}
