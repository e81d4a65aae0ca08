//! §6: per-edit noop records, the peer's spans (for dedup and conflicts), and the lowering of
//! what remains to the core edit IR.
//!
//! Spans are the peer's character offsets on the LF text (bytes here; only their order
//! matters), so dedup keys and conflicts are exactly the peer's. Application does not use them:
//! the lowered [`Edit`]s go through [`hashline_core::splice`], which places an insert at the
//! boundary it names even when a replace ends there (DEVIATIONS §3, unlike the peer's tie bug).

use hashline_core::{Edit, EditKind, ErrorCode};
use hashline_syntax::hash_json::{EditItem, ItemOp};

use super::resolve::{Place, Version};
use hashline_core::Refusal;

/// A replace whose payload equals the lines it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NoopRecord {
    /// Request index.
    pub index: usize,
    /// The start anchor.
    pub hash: String,
    /// The (unchanged) lines, joined by `\n`.
    pub content: String,
}

/// The planned batch, in lines of the version it was resolved against.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    /// Edits to splice (deduplicated, conflict-free), in request order.
    pub edits: Vec<Edit>,
    /// Replaces that would change nothing.
    pub noops: Vec<NoopRecord>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Span {
    Replace {
        start: usize,
        end: usize,
        text: String,
    },
    Insert {
        at: usize,
        boundary: usize,
        text: String,
    },
}

/// The label the peer gives an edit in conflict messages (and we in §4a notices).
pub(crate) fn label(item: &EditItem) -> String {
    match &item.op {
        ItemOp::Replace { start, end } => format!("replace {start}-{end}"),
        ItemOp::Append { pos: Some(p) } => format!("append after {p}"),
        ItemOp::Append { pos: None } => "append at EOF".to_owned(),
        ItemOp::Prepend { pos: Some(p) } => format!("prepend before {p}"),
        ItemOp::Prepend { pos: None } => "prepend at BOF".to_owned(),
    }
}

/// Build the plan from resolved items (`places[k]` belongs to `items[k]`).
pub(crate) fn plan(items: &[EditItem], places: &[Place], v: &Version<'_>) -> Result<Plan, Refusal> {
    let starts = line_starts(v);
    let mut out = Plan::default();
    let mut kept: Vec<(&EditItem, Place, Span)> = Vec::new();
    for (item, &place) in items.iter().zip(places) {
        if let Place::Replace(s, e) = place {
            if item.lines.len() == e + 1 - s
                && item
                    .lines
                    .iter()
                    .zip(&v.lines[s - 1..e])
                    .all(|(a, b)| a == b)
            {
                if let ItemOp::Replace { start, .. } = &item.op {
                    out.noops.push(NoopRecord {
                        index: item.index,
                        hash: start.to_string(),
                        content: item.lines.join("\n"),
                    });
                }
                continue;
            }
        }
        let span = span_of(item, place, v, &starts);
        if kept.iter().any(|(_, _, k)| same_change(k, &span)) {
            continue;
        }
        kept.push((item, place, span));
    }
    for (i, (a, _, sa)) in kept.iter().enumerate() {
        for (b, _, sb) in &kept[i + 1..] {
            if let Some(reason) = conflict(sa, sb) {
                return Err(Refusal::new(
                    ErrorCode::EditConflict,
                    format!(
                        "[E_EDIT_CONFLICT] Edit {} ({}) and edit {} ({}) {reason}",
                        a.index,
                        label(a),
                        b.index,
                        label(b)
                    ),
                ));
            }
        }
    }
    out.edits = kept
        .iter()
        .map(|(item, place, _)| lower(item, *place, v))
        .collect();
    Ok(out)
}

/// The peer's dedup key: boundary and text for an insert; span and text for a replace.
fn same_change(a: &Span, b: &Span) -> bool {
    match (a, b) {
        (
            Span::Insert {
                boundary: x,
                text: tx,
                ..
            },
            Span::Insert {
                boundary: y,
                text: ty,
                ..
            },
        ) => x == y && tx == ty,
        _ => a == b,
    }
}

fn conflict(a: &Span, b: &Span) -> Option<&'static str> {
    match (a, b) {
        (Span::Insert { boundary: x, .. }, Span::Insert { boundary: y, .. }) => {
            (x == y).then_some("target the same insertion boundary.")
        }
        (
            Span::Replace {
                start: s1, end: e1, ..
            },
            Span::Replace {
                start: s2, end: e2, ..
            },
        ) => (s1 < e2 && s2 < e1).then_some("overlap on the same original line range."),
        (Span::Replace { start, end, .. }, Span::Insert { at, .. })
        | (Span::Insert { at, .. }, Span::Replace { start, end, .. }) => (start <= at && at < end)
            .then_some(
                "cannot be applied together because one inserts inside a replaced original range.",
            ),
    }
}

/// Byte offset where each entry starts, plus one past the end.
fn line_starts(v: &Version<'_>) -> Vec<usize> {
    let mut starts = Vec::with_capacity(v.n() + 1);
    let mut at = 0;
    for l in &v.lines {
        starts.push(at);
        at += l.len() + 1;
    }
    starts.push(v.text.len());
    starts
}

fn span_of(item: &EditItem, place: Place, v: &Version<'_>, starts: &[usize]) -> Span {
    let n = v.n();
    let start_of = |l: usize| starts[l - 1];
    let end_of = |l: usize| starts[l - 1] + v.lines[l - 1].len();
    let text = item.lines.join("\n");
    match place {
        Place::Replace(s, e) => {
            let (start, end) = if !item.lines.is_empty() {
                (start_of(s), end_of(e))
            } else if s == 1 && e == n {
                (0, v.text.len())
            } else if e < n {
                (start_of(s), start_of(e + 1))
            } else {
                (start_of(s).saturating_sub(1), end_of(e))
            };
            Span::Replace { start, end, text }
        }
        Place::Append(pos) => {
            let t = v.terminated();
            let at_eof = match pos {
                None => true,
                Some(l) => t && l == n,
            };
            let at = if v.text.is_empty() || at_eof {
                v.text.len()
            } else {
                pos.map_or(v.text.len(), end_of)
            };
            let boundary = match pos {
                Some(l) if !(t && l == n) => l,
                _ if t => n - 1,
                _ => n,
            };
            Span::Insert { at, boundary, text }
        }
        Place::Prepend(pos) => {
            let at = pos.map_or(0, start_of);
            Span::Insert {
                at,
                boundary: pos.map_or(0, |l| l - 1),
                text,
            }
        }
    }
}

/// Lower one resolved item to the core IR, in entries of `v` (sentinel included).
fn lower(item: &EditItem, place: Place, v: &Version<'_>) -> Edit {
    let rows = split_rows(&item.lines);
    let origin = item.index;
    let kind = match place {
        Place::Replace(s, e) => EditKind::Replace { start: s, end: e },
        // An empty file has one entry; inserting "at" it is inserting into the empty text.
        Place::Append(_) | Place::Prepend(_) if v.text.is_empty() => {
            if matches!(place, Place::Append(_)) {
                EditKind::Tail
            } else {
                EditKind::Head
            }
        }
        Place::Append(Some(l)) if !(v.terminated() && l == v.n()) => EditKind::InsertAfter(l),
        Place::Append(_) => EditKind::Tail,
        Place::Prepend(Some(l)) => EditKind::InsertBefore(l),
        Place::Prepend(None) => EditKind::Head,
    };
    Edit { kind, rows, origin }
}

/// Payload strings as rows: an element that carries line breaks (`\r\n`, `\n` or a lone `\r`)
/// becomes several rows, so every new line takes the file's ending (DEVIATIONS §2).
pub(crate) fn split_rows(lines: &[String]) -> Vec<String> {
    let mut rows = Vec::with_capacity(lines.len());
    for line in lines {
        if !line.contains(['\n', '\r']) {
            rows.push(line.clone());
            continue;
        }
        // A `\r` that ends the element is not a line break but a carriage return copied from a
        // CRLF file: it stays on the row, where the guard refuses it.
        let (body, cr) = match line.strip_suffix('\r') {
            Some(body) if !body.ends_with('\r') => (body, true),
            _ => (line.as_str(), false),
        };
        let normalized = body.replace("\r\n", "\n").replace('\r', "\n");
        rows.extend(normalized.split('\n').map(str::to_owned));
        if let (true, Some(last)) = (cr, rows.last_mut()) {
            last.push('\r');
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashline_syntax::hash_json::Anchor;

    fn item(index: usize, op: ItemOp, lines: &[&str]) -> EditItem {
        EditItem {
            index,
            op,
            lines: lines.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn a(s: &str) -> Anchor {
        Anchor(s.into())
    }

    #[test]
    fn rows_split_on_any_line_break() {
        let rows = split_rows(&["a\r\nb".into(), "c\rd\ne".into(), "".into()]);
        assert_eq!(rows, ["a", "b", "c", "d", "e", ""]);
    }

    #[test]
    fn boundaries_follow_the_peer() {
        let v = Version::new("a\nb\n");
        let eof = item(0, ItemOp::Append { pos: None }, &["X"]);
        let sentinel = item(
            1,
            ItemOp::Append {
                pos: Some(a("eWa1")),
            },
            &["Y"],
        );
        let err = plan(
            &[eof, sentinel],
            &[Place::Append(None), Place::Append(Some(3))],
            &v,
        )
        .expect_err("conflict");
        assert!(
            err.message.contains("target the same insertion boundary"),
            "{}",
            err.message
        );

        let del = item(
            0,
            ItemOp::Replace {
                start: a("gCp1"),
                end: a("gCp1"),
            },
            &[],
        );
        let after = item(
            1,
            ItemOp::Append {
                pos: Some(a("hrLI")),
            },
            &["X"],
        );
        let v = Version::new("a\nb");
        let err = plan(
            &[del, after],
            &[Place::Replace(2, 2), Place::Append(Some(1))],
            &v,
        )
        .expect_err("conflict");
        assert!(
            err.message
                .contains("inserts inside a replaced original range"),
            "{}",
            err.message
        );
    }

    #[test]
    fn identical_inserts_apply_once_and_noops_are_recorded() {
        let v = Version::new("a\nb\n");
        let x = item(0, ItemOp::Append { pos: None }, &["X"]);
        let y = item(1, ItemOp::Append { pos: None }, &["X"]);
        let same = item(
            2,
            ItemOp::Replace {
                start: a("hrLI"),
                end: a("hrLI"),
            },
            &["a"],
        );
        let p = plan(
            &[x, y, same],
            &[
                Place::Append(None),
                Place::Append(None),
                Place::Replace(1, 1),
            ],
            &v,
        )
        .expect("no conflict");
        assert_eq!(p.edits.len(), 1);
        assert_eq!(
            p.noops,
            [NoopRecord {
                index: 2,
                hash: "hrLI".into(),
                content: "a".into()
            }]
        );
        // "append after a" and "prepend before b" share a boundary: the same text applies once.
        let after = item(
            0,
            ItemOp::Append {
                pos: Some(a("hrLI")),
            },
            &["X"],
        );
        let before = item(
            1,
            ItemOp::Prepend {
                pos: Some(a("gCp1")),
            },
            &["X"],
        );
        let p = plan(
            &[after, before],
            &[Place::Append(Some(1)), Place::Prepend(Some(2))],
            &v,
        )
        .expect("deduplicated");
        assert_eq!(p.edits.len(), 1);
    }
}
