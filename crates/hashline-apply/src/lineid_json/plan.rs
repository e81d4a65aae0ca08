//! From normalised edits to core [`Edit`]s: reference parsing, de-duplication, the peer's
//! application order, validation of every anchor, overlap checks, and the per-op lowering with
//! its autocorrections (semantics §5–§7, DEVIATIONS §3–§9).
//!
//! Overlaps are checked in [`super::overlap`]. The lowered edits are addressed in original line
//! numbers and handed to [`hashline_core::splice`], so inserts at one boundary keep request order and an insert at the
//! last line of a replaced range lands after the whole replacement (DEVIATIONS §3). An edit
//! anchored inside another edit's replaced range is refused (DEVIATIONS §4).

use std::collections::BTreeSet;

use hashline_anchor::lineid::{id_matches, legacy_line_id, line_id};
use hashline_core::{Edit, EditKind};
use hashline_syntax::lineid_json::{parse_ref, trailing_id, EditOp, EditSpec, LineRef};

use super::autocorrect::{expand_merged, restore_indent, strip_boundary_echo, Around};
use super::error::EngineError;
use super::overlap::{check_overlaps, span, Span};
use super::payload::{clean, plural};
use super::report::mismatch_report;

/// An edit with its parsed references.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Resolved {
    /// The normalised edit.
    pub spec: EditSpec,
    /// Its anchor.
    pub pos: Option<LineRef>,
    /// Its range end (replace only).
    pub end: Option<LineRef>,
}

impl Resolved {
    /// Every reference of the edit (a range end equal to its start counted once).
    pub fn refs(&self) -> impl Iterator<Item = &LineRef> {
        let end = self.end.as_ref().filter(|e| Some(*e) != self.pos.as_ref());
        self.pos.iter().chain(end)
    }
}

fn hint(raw: &str, lines: &[&str]) -> String {
    let Some(id) = trailing_id(raw) else {
        return String::new();
    };
    lines
        .iter()
        .enumerate()
        .find(|(i, l)| line_id(i + 1, l) == id || legacy_line_id(i + 1, l) == id)
        .map(|(i, l)| format!(" Did you mean \"{}#{}\"?", i + 1, line_id(i + 1, l)))
        .unwrap_or_default()
}

fn parse_one(raw: Option<&String>, lines: &[&str]) -> Result<Option<LineRef>, EngineError> {
    let Some(raw) = raw else { return Ok(None) };
    // The hint is given whatever the number of edits (DEVIATIONS §10).
    parse_ref(raw).map(Some).map_err(|e| EngineError::BadRef {
        message: format!("{e}{}", hint(raw, lines)),
    })
}

/// Parse every reference (request order) and drop exact duplicates (first kept, each drop
/// reported).
pub(crate) fn resolve(
    specs: &[EditSpec],
    lines: &[&str],
    warnings: &mut Vec<String>,
) -> Result<Vec<Resolved>, EngineError> {
    let mut out: Vec<Resolved> = Vec::with_capacity(specs.len());
    for spec in specs {
        let pos = parse_one(spec.pos.as_ref(), lines)?;
        let end = parse_one(spec.end.as_ref(), lines)?;
        let r = Resolved {
            spec: spec.clone(),
            pos,
            end,
        };
        let duplicate = out.iter().find(|o| {
            o.spec.op == r.spec.op
                && o.pos == r.pos
                && o.end == r.end
                && o.spec.lines == r.spec.lines
        });
        match duplicate {
            Some(first) => warnings.push(format!(
                "[W_AUTOCORRECT] autocorrect: dropped edits[{}]: it is an exact copy of edits[{}], applied once",
                spec.index, first.spec.index
            )),
            None => out.push(r),
        }
    }
    Ok(out)
}

/// The peer's application order: line descending (a range by its end), unanchored inserts last,
/// ties replace < append < prepend; stable.
pub(crate) fn application_order(edits: &[Resolved]) -> Vec<usize> {
    let key = |r: &Resolved| {
        let line = r
            .end
            .as_ref()
            .or(r.pos.as_ref())
            .map_or(0u128, |l| l.line as u128 + 1);
        let rank = match r.spec.op {
            EditOp::Replace => 0,
            EditOp::Append => 1,
            EditOp::Prepend => 2,
        };
        (std::cmp::Reverse(line), rank)
    };
    let mut order: Vec<usize> = (0..edits.len()).collect();
    order.sort_by_key(|&i| key(&edits[i]));
    order
}

/// Whether every reference is in bounds and names its line's current or legacy ID.
pub(crate) fn all_valid(edits: &[Resolved], lines: &[&str]) -> bool {
    edits.iter().flat_map(Resolved::refs).all(|r| {
        (1..=lines.len()).contains(&r.line) && id_matches(r.line, lines[r.line - 1], &r.id)
    })
}

/// Check every reference in application order: out of bounds throws at once; mismatches are
/// collected into the `>>>` report.
pub(crate) fn validate(
    edits: &[Resolved],
    order: &[usize],
    lines: &[&str],
) -> Result<(), EngineError> {
    let mut count = 0;
    let mut marked = BTreeSet::new();
    for &i in order {
        for r in edits[i].refs() {
            if r.line < 1 || r.line > lines.len() {
                return Err(EngineError::OutOfBounds {
                    line: r.line,
                    line_count: lines.len(),
                });
            }
            if !id_matches(r.line, lines[r.line - 1], &r.id) {
                count += 1;
                marked.insert(r.line);
            }
        }
    }
    if count > 0 {
        return Err(EngineError::Mismatch {
            report: mismatch_report(lines, count, &marked),
        });
    }
    Ok(())
}

/// The lowered batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lowered {
    /// Core edits in request order.
    pub edits: Vec<Edit>,
    /// Replaces whose rows equal the lines they replace.
    pub noops: usize,
}

fn autocorrect_replace(
    index: usize,
    original: &[&str],
    around: Around<'_>,
    mut rows: Vec<String>,
    warnings: &mut Vec<String>,
) -> Vec<String> {
    if let Some(expanded) = expand_merged(original, &rows) {
        warnings.push(format!(
            "[W_AUTOCORRECT] autocorrect: re-split the merged line of edits[{index}] into {} lines at the original line boundaries",
            expanded.len()
        ));
        rows = expanded;
    }
    let changed = restore_indent(original, &mut rows, around);
    if !changed.is_empty() {
        let list: Vec<String> = changed
            .iter()
            .collect::<BTreeSet<_>>()
            .iter()
            .map(|n| n.to_string())
            .collect();
        warnings.push(format!(
            "[W_AUTOCORRECT] autocorrect: restored the original indentation of row{} {} of edits[{index}]",
            plural(list.len()),
            list.join(", ")
        ));
    }
    rows
}

fn lower_one(
    r: &Resolved,
    lines: &[&str],
    replaced_ranges: &[(usize, usize)],
    warnings: &mut Vec<String>,
) -> Result<(Edit, bool), EngineError> {
    let index = r.spec.index;
    let raw_anchor = r.spec.pos.clone().unwrap_or_default();
    let sp = span(r);
    let mut rows = clean(index, r.spec.lines.clone(), lines, warnings)?;
    let empty = |message: String| EngineError::EmptyInsert { message };
    let edit = match sp {
        Span::Replace(s, e) => {
            if r.end.is_some() {
                let before = (s > 1).then(|| lines[s - 2]);
                let after = lines.get(e).copied();
                let (first, last) = strip_boundary_echo(&mut rows, e - s + 1, before, after);
                if first {
                    warnings.push(format!(
                        "[W_AUTOCORRECT] autocorrect: dropped row 1 of edits[{index}]: it repeats line {} just before the range",
                        s - 1
                    ));
                }
                if last {
                    warnings.push(format!(
                        "[W_AUTOCORRECT] autocorrect: dropped the last row of edits[{index}]: it repeats line {} just after the range",
                        e + 1
                    ));
                }
            }
            let replaced = &lines[s - 1..e];
            // The lines around that stay: not blank, not replaced by another edit.
            let stays = |n: &usize| {
                !lines[n - 1].trim().is_empty()
                    && !replaced_ranges.iter().any(|&(a, b)| a <= *n && *n <= b)
            };
            let around = Around {
                before: (1..s).rev().find(stays).map(|n| lines[n - 1]),
                after: (e + 1..=lines.len()).find(stays).map(|n| lines[n - 1]),
            };
            let rows = autocorrect_replace(index, replaced, around, rows, warnings);
            let noop = rows.iter().map(String::as_str).eq(replaced.iter().copied());
            return Ok((
                Edit {
                    kind: EditKind::Replace { start: s, end: e },
                    rows,
                    origin: index,
                },
                noop,
            ));
        }
        Span::After(l) => {
            // Exact comparison: `}` appended after `  }` closes another block (DEVIATIONS §9).
            // A blank row after a blank anchor is deliberate spacing, not an echo.
            if rows
                .first()
                .is_some_and(|f| f == lines[l - 1] && !f.trim().is_empty())
            {
                rows.remove(0);
                warnings.push(format!(
                    "[W_AUTOCORRECT] autocorrect: dropped row 1 of edits[{index}]: it repeats anchor line {l}"
                ));
            }
            if rows.is_empty() {
                return Err(empty(format!(
                    "append (anchored) requires non-empty text for {raw_anchor}"
                )));
            }
            Edit {
                kind: EditKind::InsertAfter(l),
                rows,
                origin: index,
            }
        }
        Span::Before(l) => {
            let echoes = rows
                .last()
                .is_some_and(|f| f == lines[l - 1] && !f.trim().is_empty());
            if echoes && rows.len() >= 2 {
                rows.pop();
                warnings.push(format!(
                    "[W_AUTOCORRECT] autocorrect: dropped the last row of edits[{index}]: it repeats anchor line {l}"
                ));
            } else if echoes {
                // A one-line prepend equal to its anchor is refused like the append case (DEVIATIONS §8).
                rows.clear();
            }
            if rows.is_empty() {
                return Err(empty(format!(
                    "prepend (anchored) requires non-empty text for {raw_anchor}"
                )));
            }
            Edit {
                kind: EditKind::InsertBefore(l),
                rows,
                origin: index,
            }
        }
        Span::Unanchored => {
            if rows.is_empty() {
                return Err(empty(format!(
                    "{} requires non-empty text",
                    r.spec.op.as_str()
                )));
            }
            let kind = if r.spec.op == EditOp::Append {
                EditKind::Tail
            } else {
                EditKind::Head
            };
            Edit {
                kind,
                rows,
                origin: index,
            }
        }
    };
    Ok((edit, false))
}

/// Range checks, overlap checks, then every edit lowered in application order (so the first
/// failing edit is the peer's); the result is in request order.
pub(crate) fn lower(
    edits: &[Resolved],
    order: &[usize],
    lines: &[&str],
    warnings: &mut Vec<String>,
) -> Result<Lowered, EngineError> {
    for &i in order {
        if let (Some(p), Some(e)) = (&edits[i].pos, &edits[i].end) {
            if p.line > e.line {
                return Err(EngineError::InvalidRange {
                    start: p.line,
                    end: e.line,
                });
            }
        }
    }
    check_overlaps(edits, order)?;
    let mut lowered: Vec<(usize, Edit)> = Vec::with_capacity(edits.len());
    let replaced_ranges: Vec<(usize, usize)> = edits
        .iter()
        .filter_map(|r| match span(r) {
            Span::Replace(a, b) => Some((a, b)),
            _ => None,
        })
        .collect();
    let mut noops = 0;
    for &i in order {
        let (edit, noop) = lower_one(&edits[i], lines, &replaced_ranges, warnings)?;
        noops += usize::from(noop);
        lowered.push((i, edit));
    }
    lowered.sort_by_key(|(i, _)| *i);
    Ok(Lowered {
        edits: lowered.into_iter().map(|(_, e)| e).collect(),
        noops,
    })
}
