//! Hunks → core [`Edit`]s against one text: block resolution, bounds (checked on the numbers as
//! written, before anything is expanded), boundary repair.

use std::path::Path;

use hashline_core::{BlockResolver, Edit, EditKind};
use hashline_syntax::hashline::{Hunk, HunkOp};

use super::error::HashlineError;
use super::{messages, repair};

/// What block ops resolve against.
#[derive(Clone, Copy)]
pub(crate) struct BlockCtx<'a> {
    /// The configured resolver, if any.
    pub resolver: Option<&'a dyn BlockResolver>,
    /// The file's path (the resolver picks the language from it).
    pub path: &'a Path,
}

/// The region of the edited text an edit depends on; a recovery refuses when it changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Guard {
    /// Lines `lo..=hi` (1-based) must survive unchanged and stay adjacent.
    Lines {
        /// First line.
        lo: usize,
        /// Last line.
        hi: usize,
    },
    /// The boundary before 0-based line `p` (between lines `p` and `p + 1`, 1-based): both
    /// neighbours must survive unchanged, with nothing inserted between them.
    Point(usize),
    /// Head/tail: position-independent.
    Free,
}

/// Hunks lowered to the core IR.
#[derive(Debug, Clone, Default)]
pub(crate) struct Lowered {
    /// Edits in hunk order, in the numbering of the text they were lowered against.
    pub edits: Vec<Edit>,
    /// One guard per edit.
    pub guards: Vec<Guard>,
    /// Repair warnings, in hunk order.
    pub warnings: Vec<String>,
}

/// A span resolved for a block hunk, or the refusal.
fn resolve_block(
    lines_text: &str,
    line: u64,
    header_line: usize,
    ctx: BlockCtx<'_>,
) -> Result<(usize, usize), HashlineError> {
    let Some(resolver) = ctx.resolver else {
        return Err(HashlineError::BlockUnresolved(messages::block_unavailable(
            header_line,
        )));
    };
    let unresolved =
        || HashlineError::BlockUnresolved(messages::block_unresolved(header_line, line));
    let n = usize::try_from(line).map_err(|_| unresolved())?;
    match resolver.resolve(ctx.path, lines_text, n) {
        Some(span) if span.start >= 1 && span.start <= span.end => Ok((span.start, span.end)),
        _ => Err(unresolved()),
    }
}

/// Resolve every block hunk of `hunks` against `text` (hunk index, start, end).
pub(crate) fn resolve_blocks(
    text: &str,
    hunks: &[Hunk],
    ctx: BlockCtx<'_>,
) -> Result<Vec<(usize, usize, usize)>, HashlineError> {
    let mut out = Vec::new();
    for (i, h) in hunks.iter().enumerate() {
        if let HunkOp::ReplaceBlock { line } | HunkOp::DeleteBlock { line } = h.op {
            let (s, e) = resolve_block(text, line, h.header_line, ctx)?;
            out.push((i, s, e));
        }
    }
    Ok(out)
}

/// The concrete range a hunk names: `(start, end)` as written, or its resolved block.
fn range_of(i: usize, h: &Hunk, blocks: &[(usize, usize, usize)]) -> Option<(u64, u64)> {
    match h.op {
        HunkOp::Replace { start, end } | HunkOp::Delete { start, end } => Some((start, end)),
        HunkOp::ReplaceBlock { .. } | HunkOp::DeleteBlock { .. } => blocks
            .iter()
            .find(|(k, _, _)| *k == i)
            .map(|&(_, s, e)| (s as u64, e as u64)),
        _ => None,
    }
}

/// Bounds of every anchor, in hunk order, on the numbers as written: the first line of the first
/// offending hunk that lies outside `1..=line_count` is reported.
fn check_bounds(
    hunks: &[Hunk],
    blocks: &[(usize, usize, usize)],
    line_count: usize,
) -> Result<(), HashlineError> {
    let m = line_count as u64;
    for (i, h) in hunks.iter().enumerate() {
        let bad = match h.op {
            HunkOp::InsertBefore(n) | HunkOp::InsertAfter(n) => (n == 0 || n > m).then_some(n),
            HunkOp::InsertHead | HunkOp::InsertTail => None,
            _ => match range_of(i, h, blocks) {
                Some((s, _)) if s == 0 || s > m => Some(s),
                Some((_, e)) if e > m => Some(m + 1),
                _ => None,
            },
        };
        if let Some(line) = bad {
            return Err(HashlineError::LineRange(messages::line_range(
                line, line_count,
            )));
        }
    }
    Ok(())
}

/// Lower `hunks` against `lines` (the LF lines of `text`, final empty piece included).
pub(crate) fn lower(
    text: &str,
    lines: &[&str],
    hunks: &[Hunk],
    ctx: BlockCtx<'_>,
) -> Result<Lowered, HashlineError> {
    let blocks = resolve_blocks(text, hunks, ctx)?;
    check_bounds(hunks, &blocks, lines.len())?;
    let mut out = Lowered::default();
    let balanced = keeps_balance(lines, hunks, &blocks);
    for (i, h) in hunks.iter().enumerate() {
        let rows = h.rows.clone();
        match h.op {
            HunkOp::InsertHead => push(&mut out, EditKind::Head, rows, i, Guard::Free),
            HunkOp::InsertTail => push(&mut out, EditKind::Tail, rows, i, Guard::Free),
            HunkOp::InsertBefore(n) => {
                let n = n as usize; // bounds-checked above: n <= line_count
                push(
                    &mut out,
                    EditKind::InsertBefore(n),
                    rows,
                    i,
                    Guard::Point(n - 1),
                );
            }
            HunkOp::InsertAfter(n) => {
                let n = n as usize;
                push(&mut out, EditKind::InsertAfter(n), rows, i, Guard::Point(n));
            }
            HunkOp::Delete { .. } | HunkOp::DeleteBlock { .. } => {
                let Some((s, e)) = range_of(i, h, &blocks) else {
                    continue;
                };
                let (s, e) = (s as usize, e as usize);
                push(
                    &mut out,
                    EditKind::Replace { start: s, end: e },
                    Vec::new(),
                    i,
                    Guard::Lines { lo: s, hi: e },
                );
            }
            HunkOp::Replace { .. } | HunkOp::ReplaceBlock { .. } => {
                let Some((s, e)) = range_of(i, h, &blocks) else {
                    continue;
                };
                let (s, e) = (s as usize, e as usize);
                // A request whose hunks together keep the file's delimiters balanced is applied
                // as sent: one hunk may open what another closes (a block unwrapped, a function
                // split), and a repair would then break a correct edit.
                let fixed = if balanced {
                    repair::Repaired::unchanged(e, &rows)
                } else {
                    repair::repair(lines, s, e, &rows)
                };
                out.warnings.extend(fixed.warning.clone());
                let (lo, hi) = match &fixed.consulted {
                    Some(c) => (s.min(*c.start()), e.max(*c.end())),
                    None => (s, e),
                };
                if fixed.end >= s {
                    push(
                        &mut out,
                        EditKind::Replace {
                            start: s,
                            end: fixed.end,
                        },
                        fixed.rows,
                        i,
                        Guard::Lines { lo, hi },
                    );
                } else {
                    push(
                        &mut out,
                        EditKind::InsertBefore(s),
                        fixed.rows,
                        i,
                        Guard::Point(s - 1),
                    );
                }
            }
        }
    }
    Ok(out)
}

/// Whether the hunks, applied as sent, leave the delimiter balance of the file as it was (the
/// sum of every hunk's rows minus the lines it replaces or deletes).
fn keeps_balance(lines: &[&str], hunks: &[Hunk], blocks: &[(usize, usize, usize)]) -> bool {
    let mut total = [0i64; 3];
    for (i, h) in hunks.iter().enumerate() {
        let added = repair::balance(h.rows.iter().map(String::as_str));
        let removed = match h.op {
            HunkOp::Replace { .. }
            | HunkOp::ReplaceBlock { .. }
            | HunkOp::Delete { .. }
            | HunkOp::DeleteBlock { .. } => match range_of(i, h, blocks) {
                Some((s, e)) if s >= 1 && s <= e && (e as usize) <= lines.len() => {
                    repair::balance(lines[s as usize - 1..e as usize].iter().copied())
                }
                _ => [0; 3],
            },
            _ => [0; 3],
        };
        for k in 0..3 {
            total[k] += added[k] - removed[k];
        }
    }
    total == [0; 3]
}

fn push(out: &mut Lowered, kind: EditKind, rows: Vec<String>, origin: usize, guard: Guard) {
    out.edits.push(Edit { kind, rows, origin });
    out.guards.push(guard);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashline::test_support::{ctx, hunk};
    use hashline_core::BlockSpan;

    struct NextLine;
    impl BlockResolver for NextLine {
        fn resolve(&self, _: &Path, _: &str, line: usize) -> Option<BlockSpan> {
            Some(BlockSpan {
                start: line,
                end: line + 1,
            })
        }
    }

    #[test]
    fn bounds_use_numbers_before_expansion() {
        let text = "a\nb\n";
        let lines: Vec<&str> = text.split('\n').collect();
        let huge = hunk(
            HunkOp::Replace {
                start: 99_999_999_999,
                end: 99_999_999_999,
            },
            &["x"],
        );
        let err = lower(text, &lines, &[huge], ctx()).expect_err("out of range");
        assert_eq!(
            err.to_string(),
            "Line 99999999999 does not exist (file has 3 lines)"
        );
        let tail_over = hunk(
            HunkOp::Delete {
                start: 2,
                end: u64::MAX,
            },
            &[],
        );
        let err = lower(text, &lines, &[tail_over], ctx()).expect_err("out of range");
        assert_eq!(err.to_string(), "Line 4 does not exist (file has 3 lines)");
        let ins = hunk(HunkOp::InsertBefore(4), &["x"]);
        assert!(lower(text, &lines, &[ins], ctx()).is_err());
    }

    #[test]
    fn blocks_need_a_resolver() {
        let text = "a\nb\nc";
        let lines: Vec<&str> = text.split('\n').collect();
        let h = hunk(HunkOp::ReplaceBlock { line: 2 }, &["X"]);
        let err = lower(text, &lines, std::slice::from_ref(&h), ctx()).expect_err("no resolver");
        assert!(err.to_string().contains("is not available here"));
        let with = BlockCtx {
            resolver: Some(&NextLine),
            path: Path::new("x.ts"),
        };
        let l = lower(text, &lines, &[h], with).expect("resolved");
        assert_eq!(l.edits[0].kind, EditKind::Replace { start: 2, end: 3 });
    }

    #[test]
    fn a_request_balanced_as_a_whole_is_not_repaired() {
        // Unwrapping a block: one hunk drops the opener, another the closer.
        let text = "fn a() {\n    x();\n}\ny();\n";
        let lines: Vec<&str> = text.split('\n').collect();
        let opener = hunk(HunkOp::Replace { start: 1, end: 1 }, &["// a"]);
        let closer = hunk(HunkOp::Replace { start: 2, end: 3 }, &["z();"]);
        let l = lower(text, &lines, &[opener, closer.clone()], ctx()).expect("lowered");
        assert!(l.warnings.is_empty(), "{:?}", l.warnings);
        assert_eq!(l.edits[1].kind, EditKind::Replace { start: 2, end: 3 });
        // The same closer hunk alone unbalances the file: the seed's repair keeps the `}`.
        let l = lower(text, &lines, &[closer], ctx()).expect("lowered");
        assert_eq!(l.warnings.len(), 1, "{:?}", l.warnings);
        assert_eq!(l.edits[0].kind, EditKind::Replace { start: 2, end: 2 });
    }
}
