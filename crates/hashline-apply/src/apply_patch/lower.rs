//! An update's chunks placed in a file and lowered to core [`Edit`]s, Codex's way
//! (`compute_replacements`) with our departures: a `+`-only chunk after an `@@` line lands
//! after that line (DEVIATIONS §21), a loose match is announced (§19) and rows the patch keeps
//! (` ` rows) keep the file's own bytes (§2), a match found twice is refused (§19).

use hashline_core::{Edit, EditKind, ErrorCode};
use hashline_syntax::apply_patch::{Chunk, Row};

use super::index::LineIndex;
use super::seek::{seek, Level, Seek};
use super::texts;
use hashline_core::Refusal;

/// Names used in messages: the path as written and as Codex prints it (absolute).
pub(crate) struct Names<'a> {
    /// The path as the patch wrote it.
    pub path: &'a str,
    /// The root joined with it.
    pub abs: &'a str,
}

/// The chunks of one update lowered against `lines` (the file's lines without the empty one
/// after a final newline): the edits in 1-based line numbers of the file (`origin` = the
/// chunk's number, counted from `first_origin`) and the warnings of loose matches.
pub(crate) fn lower(
    lines: &[&str],
    chunks: &[Chunk],
    names: &Names<'_>,
    first_origin: usize,
) -> Result<(Vec<Edit>, Vec<String>), Refusal> {
    let mut edits = Vec::new();
    let mut warnings = Vec::new();
    let mut at = 0;
    let index = LineIndex::new(lines);
    for (k, chunk) in chunks.iter().enumerate() {
        let origin = first_origin + k;
        let mut loose = Level::Exact;
        if let Some(context) = &chunk.context {
            match seek(&index, &[context.as_str()], at, false) {
                Seek::Found(i, level) => {
                    at = i + 1;
                    loose = loose.max(level);
                }
                Seek::Ambiguous(hits, _) => {
                    return Err(texts::ambiguous(names, k, &[context.as_str()], &hits));
                }
                Seek::Missing => {
                    return Err(Refusal::new(
                        ErrorCode::ContextNotFound,
                        format!("Failed to find context '{context}' in {}", names.abs),
                    ));
                }
            }
        }
        let old = chunk.old_lines();
        if old.is_empty() {
            // Codex appends a `+`-only chunk at the end (before a last blank line); after an
            // `@@` line it lands after that line instead.
            let point = match chunk.context {
                Some(_) => at,
                None if lines.last().is_some_and(|l| l.is_empty()) => lines.len() - 1,
                None => lines.len(),
            };
            edits.push(insert_at(point, lines.len(), rows_of(&chunk.rows), origin));
            continue;
        }
        let mut rows: Vec<Row> = chunk.rows.clone();
        let mut found = seek(&index, &old, at, chunk.end_of_file);
        if found == Seek::Missing && old.last().is_some_and(|l| l.is_empty()) {
            without_trailing_blank(&mut rows);
            let shorter: Vec<&str> = old[..old.len() - 1].to_vec();
            found = seek(&index, &shorter, at, chunk.end_of_file);
        }
        let start = match found {
            Seek::Found(i, level) => {
                loose = loose.max(level);
                i
            }
            Seek::Ambiguous(hits, _) => return Err(texts::ambiguous(names, k, &old, &hits)),
            Seek::Missing => {
                return Err(Refusal::new(
                    ErrorCode::ContextNotFound,
                    format!(
                        "Failed to find expected lines in {}:\n{}",
                        names.abs,
                        old.join("\n")
                    ),
                ))
            }
        };
        if loose != Level::Exact {
            warnings.push(texts::loose(names.path, k, start + 1, loose));
        }
        at = start + lower_rows(&rows, start, lines.len(), origin, &mut edits);
    }
    Ok((edits, warnings))
}

/// Codex's retry without a trailing blank old line: the last row that expects a line goes, and
/// (when that row was removed) a last blank `+` row with it.
fn without_trailing_blank(rows: &mut Vec<Row>) {
    let Some(j) = rows.iter().rposition(|r| !matches!(r, Row::Add(_))) else {
        return;
    };
    if matches!(rows.remove(j), Row::Remove(_)) {
        if let Some(k) = rows.iter().rposition(|r| !matches!(r, Row::Remove(_))) {
            if rows[k] == Row::Add(String::new()) {
                rows.remove(k);
            }
        }
    }
}

fn rows_of(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .filter_map(|r| match r {
            Row::Add(t) | Row::Context(t) => Some(t.clone()),
            Row::Remove(_) => None,
        })
        .collect()
}

/// An insert before 0-based line `point` of a file of `n` lines.
fn insert_at(point: usize, n: usize, mut rows: Vec<String>, origin: usize) -> Edit {
    let kind = if n == 0 {
        // An empty file: the rows become its lines, each ending in a line break.
        rows.push(String::new());
        EditKind::Replace { start: 1, end: 1 }
    } else if point >= n {
        EditKind::InsertAfter(n)
    } else {
        EditKind::InsertBefore(point + 1)
    };
    Edit { kind, rows, origin }
}

/// Lower `rows` matched at 0-based line `start`: each run of `-`/`+` rows between kept rows
/// becomes one replace (or insert); kept rows are not touched. Returns the lines consumed.
fn lower_rows(rows: &[Row], start: usize, n: usize, origin: usize, out: &mut Vec<Edit>) -> usize {
    let mut p = start;
    let mut removed: Option<usize> = None;
    let mut added: Vec<String> = Vec::new();
    let mut flush =
        |p: usize, removed: &mut Option<usize>, added: &mut Vec<String>| match removed.take() {
            Some(first) => out.push(Edit::replace(first + 1, p, std::mem::take(added), origin)),
            None if !added.is_empty() => out.push(insert_at(p, n, std::mem::take(added), origin)),
            None => {}
        };
    for row in rows {
        match row {
            Row::Context(_) => {
                flush(p, &mut removed, &mut added);
                p += 1;
            }
            Row::Remove(_) => {
                removed.get_or_insert(p);
                p += 1;
            }
            Row::Add(t) => added.push(t.clone()),
        }
    }
    flush(p, &mut removed, &mut added);
    p - start
}
