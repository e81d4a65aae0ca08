//! The mistakes models make, injected into one edit of a real change: which kinds each
//! dialect gets, which of a case's hunks each lands on, and what the model meant.
//!
//! A mistake is the correct edits ([`super::request::edits`]) with one of them mutated (its
//! range or its rows), or an outside change written over the file after the read, or a change
//! the dialect's builder cannot say (a [`Tweak`] of the built request, `mistake_tweak.rs`).
//! Applied as written by [`apply`] (or, for str-replace, by [`str_replace_as_written`]), a mistake must not give the
//! intended file: one that does is no mistake and is not sent.

use super::mistake_tweak::{dedent, indent_unit, outside, str_replace_as_written, tweak, Tweak};
use super::request::{self, Edit, Request};

/// The kinds of mistake, in the table's order.
pub const KINDS: [&str; 21] = [
    "range-end-long",
    "range-end-short",
    "range-start-long",
    "range-start-short",
    "echo-before",
    "echo-after",
    "indent-dropped",
    "indent-reduced",
    "tabs-as-spaces",
    "merged-lines",
    "literal-backslash-n",
    "anchors-pasted",
    "diff-plus-markers",
    "stale-line-above",
    "stale-line-inside",
    "new-str-dedented",
    "old-str-ambiguous",
    "old-str-lstrip",
    "context-dedented",
    "minus-mismatch",
    "chunks-swapped",
];

/// The kinds a dialect gets. apply-patch's "`+` lines de-indented" is `indent-reduced` (its
/// rows are the `+` lines); anchors are pasted only where the read shows them (apply-patch reads
/// nothing); a line inserted above the edit is a mistake only where anchors address lines
/// (str-replace's `old_str` and apply-patch's context find the text wherever it moved, so that
/// request, applied as written, lands what the model meant).
pub fn kinds(dialect: &str) -> Vec<&'static str> {
    let common = &KINDS[..11];
    let mut out: Vec<&str> = common.to_vec();
    match dialect {
        "str-replace" => {
            out.extend(["anchors-pasted", "diff-plus-markers", "stale-line-inside"]);
            out.extend(["new-str-dedented", "old-str-ambiguous", "old-str-lstrip"]);
        }
        "apply-patch" => {
            out.push("stale-line-inside");
            out.extend(["context-dedented", "minus-mismatch", "chunks-swapped"]);
        }
        _ => out.extend(&KINDS[11..15]),
    }
    out
}

/// One mistake, ready to build and send.
#[derive(Debug, Clone)]
pub struct Mistake {
    /// Its kind (one of [`KINDS`]).
    pub kind: &'static str,
    /// The index of the edit it lands on.
    pub hunk: usize,
    /// The edits as the model writes them, one of them mutated.
    pub edits: Vec<Edit>,
    /// A change of the built request.
    pub tweak: Tweak,
    /// The file at edit time when something changed it after the read, else `None`.
    pub disk: Option<Vec<String>>,
    /// What the model meant; `None` where only a refusal is right (an outside change inside
    /// the edit's range, an ambiguous `old_str`).
    pub intended: Option<Vec<String>>,
}

/// A small deterministic hash (FNV-1a) for the seeded choices.
pub fn seed(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// `old` with `edits` applied as written (sorted, disjoint ranges of `old`).
pub fn apply(old: &[String], edits: &[Edit]) -> Vec<String> {
    let mut out = Vec::new();
    let mut at = 0;
    for e in edits {
        out.extend_from_slice(&old[at..e.old.start]);
        out.extend(e.lines.iter().cloned());
        at = e.old.end;
    }
    out.extend_from_slice(&old[at..]);
    out
}

/// One case in one dialect, as [`plan`] sees it.
pub struct Target<'a> {
    /// The case's id.
    pub id: &'a str,
    /// The case's place among the cases run.
    pub ordinal: usize,
    /// The dialect.
    pub dialect: &'a str,
    /// The file's path.
    pub path: &'a str,
    /// The lines read.
    pub old: &'a [String],
    /// Whether the file read ends with a newline.
    pub final_newline: bool,
}

/// The mistakes of one case in one dialect: up to `count` kinds, taken in turn from the
/// dialect's list starting at a place that moves with the case (so each kind gets its share
/// over the corpus), each on the first hunk, in an order seeded by the case and the kind, where
/// it applies and is a real mistake. Kinds that fit none of the hunks are passed over.
pub fn plan(t: &Target, correct: &[Edit], count: usize) -> Vec<Mistake> {
    let Target {
        id,
        ordinal,
        dialect,
        path,
        old,
        final_newline,
    } = *t;
    let kinds = kinds(dialect);
    let mut out = Vec::new();
    for k in 0..kinds.len() {
        if out.len() == count {
            break;
        }
        let kind = kinds[(ordinal * count + k) % kinds.len()];
        let s = seed(&[id, dialect, kind]);
        let n = correct.len();
        let found = (0..n).find_map(|i| {
            let hunk = (s as usize + i) % n;
            let m = inject(kind, hunk, s, old, correct)?;
            is_mistake(&m, dialect, path, old, final_newline).then_some(m)
        });
        out.extend(found);
    }
    out
}

/// Whether `m`, applied as written, gives something other than what the model meant (and,
/// for str-replace and apply-patch, whether its request can be built).
fn is_mistake(m: &Mistake, dialect: &str, path: &str, old: &[String], final_newline: bool) -> bool {
    let disk = m.disk.as_deref().unwrap_or(old);
    let old_s: Vec<&str> = old.iter().map(String::as_str).collect();
    let plain = matches!(dialect, "str-replace" | "apply-patch");
    let built = build_plain(dialect, path, &old_s, final_newline, &m.edits);
    if plain && built.is_none() {
        return false;
    }
    let built = built.unwrap_or_default();
    let sent = tweak(&m.tweak, dialect, &old_s, &m.edits, m.hunk, &built);
    match (dialect, &m.tweak, &m.intended) {
        ("str-replace", Tweak::AmbiguousOldStr, _) => {
            sent != built && str_replace_as_written(disk, final_newline, &sent).is_none()
        }
        (_, _, None) => true,
        (_, Tweak::None, Some(want)) => &apply(disk, &m.edits) != want,
        ("str-replace", _, Some(want)) => {
            str_replace_as_written(disk, final_newline, &sent).as_ref() != Some(want)
        }
        // A patch whose context or `-` lines are not in the file, or whose chunks are out of
        // order, does not apply as written.
        ("apply-patch", _, _) => sent != built,
        // Pasted anchors always change the rows.
        _ => true,
    }
}

/// The request built from `edits` without a read (str-replace and apply-patch need none).
fn build_plain(
    dialect: &str,
    path: &str,
    old: &[&str],
    final_newline: bool,
    edits: &[Edit],
) -> Option<Vec<Vec<u8>>> {
    let r = match dialect {
        "str-replace" => request::str_replace(path, old, final_newline, edits),
        "apply-patch" => request::apply_patch(path, old, edits),
        _ => return None,
    };
    match r {
        Request::Calls(c) => Some(c),
        Request::Excluded(_) => None,
    }
}

/// One kind injected into edit `hunk`, or `None` where it does not fit there.
fn inject(
    kind: &'static str,
    hunk: usize,
    s: u64,
    old: &[String],
    correct: &[Edit],
) -> Option<Mistake> {
    let e = &correct[hunk];
    let mut edits = correct.to_vec();
    let intended = Some(apply(old, correct));
    let mut m = Mistake {
        kind,
        hunk,
        edits: Vec::new(),
        tweak: Tweak::None,
        disk: None,
        intended,
    };
    let rows = &mut edits[hunk].lines;
    let unit = indent_unit(old);
    // A pair of neighbouring non-blank rows, from a seeded start.
    let pair = |rows: &[String]| {
        let n = rows.len().checked_sub(1)?;
        (0..n)
            .map(|i| (s as usize + i) % n)
            .find(|&i| !rows[i].trim().is_empty() && !rows[i + 1].trim().is_empty())
    };
    match kind {
        "range-end-long" => {
            let next = correct.get(hunk + 1).map_or(old.len(), |n| n.old.start);
            (e.old.end < next).then_some(())?;
            edits[hunk].old.end += 1;
        }
        "range-end-short" => {
            (e.old.len() >= 2).then_some(())?;
            edits[hunk].old.end -= 1;
        }
        "range-start-long" => {
            let prev = hunk.checked_sub(1).map_or(0, |p| correct[p].old.end);
            (e.old.start > prev && !e.old.is_empty()).then_some(())?;
            edits[hunk].old.start -= 1;
        }
        "range-start-short" => {
            (e.old.len() >= 2).then_some(())?;
            edits[hunk].old.start += 1;
        }
        "echo-before" => rows.insert(0, old.get(e.old.start.checked_sub(1)?)?.clone()),
        "echo-after" => rows.push(old.get(e.old.end)?.clone()),
        "indent-dropped" => {
            for r in rows.iter_mut() {
                *r = r.trim_start().to_string();
            }
        }
        "indent-reduced" => {
            for r in rows.iter_mut() {
                *r = dedent(r, &unit);
            }
        }
        "tabs-as-spaces" => {
            (unit == "\t").then_some(())?;
            for r in rows.iter_mut() {
                let tabs = r.len() - r.trim_start_matches('\t').len();
                *r = format!("{}{}", "    ".repeat(tabs), &r[tabs..]);
            }
        }
        "merged-lines" | "literal-backslash-n" => {
            let i = pair(&rows[..])?;
            let next = rows.remove(i + 1);
            rows[i] = if kind == "merged-lines" {
                format!("{} {}", rows[i].trim_end(), next.trim_start())
            } else {
                format!("{}\\n{next}", rows[i])
            };
        }
        "anchors-pasted" => {
            (!rows.is_empty()).then_some(())?;
            m.tweak = Tweak::PasteAnchors;
        }
        "diff-plus-markers" => {
            for r in rows.iter_mut() {
                *r = format!("+{r}");
            }
        }
        "stale-line-above" => {
            // A blank line inserted above the edit, below the edit before it; what the model
            // meant is every edit on top of it.
            let lo = hunk.checked_sub(1).map_or(0, |p| correct[p].old.end + 1);
            let hi = if e.old.is_empty() {
                e.old.start.checked_sub(1)?
            } else {
                e.old.start
            };
            (lo <= hi).then_some(())?;
            let at = e.old.start.saturating_sub(2).clamp(lo, hi);
            let mut disk = old.to_vec();
            disk.insert(at, String::new());
            let moved: Vec<Edit> = correct
                .iter()
                .map(|c| {
                    let mut c = c.clone();
                    if c.old.start >= at {
                        c.old = c.old.start + 1..c.old.end + 1;
                    }
                    c
                })
                .collect();
            m.intended = Some(apply(&disk, &moved));
            m.disk = Some(disk);
        }
        "stale-line-inside" => {
            // The non-blank line nearest the middle of the range (a changed blank line at the
            // edge of an `old_str` would still match).
            let mid = e.old.start + e.old.len() / 2;
            let at = e
                .old
                .clone()
                .filter(|&i| !old[i].trim().is_empty())
                .min_by_key(|&i| i.abs_diff(mid))?;
            let mut disk = old.to_vec();
            disk[at] = outside(&disk[at]);
            m.disk = Some(disk);
            m.intended = None;
        }
        "new-str-dedented" => m.tweak = Tweak::DedentNewStr,
        "old-str-ambiguous" => {
            (!e.old.is_empty()).then_some(())?;
            let text = old.join("\n");
            let cut = old[e.old.clone()].join("\n");
            let cut = cut.trim_start();
            (!cut.trim().is_empty() && text.matches(cut).count() >= 2).then_some(())?;
            m.tweak = Tweak::AmbiguousOldStr;
            m.intended = None;
        }
        "old-str-lstrip" => m.tweak = Tweak::LstripOldStr,
        "context-dedented" => m.tweak = Tweak::DedentContext,
        "minus-mismatch" => {
            (!e.old.is_empty()).then_some(())?;
            m.tweak = Tweak::MinusMismatch;
        }
        "chunks-swapped" => {
            let gap = 2 * request::CONTEXT;
            (request::groups(correct, gap).len() >= 2).then_some(())?;
            m.tweak = Tweak::SwapChunks;
        }
        _ => return None,
    }
    m.edits = edits;
    Some(m)
}
