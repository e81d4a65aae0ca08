//! `ast_edit` replies bounded over MCP (issue 26 item 4): a preview over thousands of files
//! would fill a model's context (541 KB of text and 2.9 MB of structured content over 3,300
//! files). A reply over the bound keeps the staging notice, a per-file summary and the first
//! matches, says how many were left out, and names the `resolve` call that pages through the
//! rest (`{"action": "list", "id": N, "offset": K}`, [`show`]). The queued preview keeps every
//! match: applying it applies them all.

use hashline_ast::preview::side_rows;
use serde_json::{json, Value};

use crate::{ErrorCode, Outcome, PreviewId, Response, Session};

/// Bytes of reply text at most (the text of a bounded `ast_edit` reply and of a page).
pub(crate) const MAX_TEXT: usize = 64 * 1024;
/// Bytes of structured content above which an `ast_edit` reply is cut too.
const MAX_STRUCTURED: usize = 256 * 1024;
/// Bytes of the matches and file reports a cut structured content keeps.
const STRUCTURED_BYTES: usize = 160 * 1024;
/// Bytes of the per-file summary.
const SUMMARY_BYTES: usize = 12 * 1024;
/// Bytes of match rows in a bounded reply.
const ROW_BYTES: usize = 40 * 1024;
/// Bytes of what follows the rows (skipped matches, parse issues, warnings).
const TAIL_BYTES: usize = 6 * 1024;
/// Bytes of match rows in a page.
const PAGE_BYTES: usize = 56 * 1024;

/// One match as a page shows it.
pub(crate) struct Row<'a> {
    file: &'a str,
    tag: &'a str,
    id: &'a str,
    line: usize,
    before: &'a str,
    after: &'a str,
}

/// `rows[offset..]` rendered (a `¶PATH#TAG` header where the file changes) while they fit in
/// `budget` bytes (at least one row); returns the text and the index after the last shown.
fn page(rows: &[Row<'_>], offset: usize, budget: usize) -> (String, usize) {
    let mut out = String::new();
    let mut file: Option<&str> = None;
    let mut end = offset;
    for row in rows.iter().skip(offset) {
        let mut block = String::new();
        if file != Some(row.file) {
            if !out.is_empty() {
                block.push_str("\n\n");
            }
            block.push_str(&format!(
                "¶{}#{}",
                hashline_core::name::header_path(row.file),
                row.tag
            ));
        }
        block.push_str(&format!("\n[{}]", row.id));
        let mut sides = Vec::new();
        side_rows('-', row.line, row.before, &mut sides);
        side_rows('+', row.line, row.after, &mut sides);
        for r in sides {
            block.push('\n');
            block.push_str(&r);
        }
        if end > offset && out.len() + block.len() > budget {
            break;
        }
        out.push_str(&block);
        file = Some(row.file);
        end += 1;
    }
    (out.trim_start_matches('\n').to_string(), end)
}

/// `text` cut at a line boundary to at most `max` bytes, with a note when cut.
fn cut_lines(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    // The note itself takes up to 60 bytes.
    let max = max.saturating_sub(60);
    let mut out = String::new();
    let mut left = 0;
    for line in text.lines() {
        if left > 0 || out.len() + line.len() + 1 > max {
            left += 1;
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    let s = if left == 1 { "" } else { "s" };
    format!("{out}[{left} more line{s} left out to keep this reply short.]")
}

/// How many of `matches` (with the reports of their files) fit in `budget` bytes of JSON (at
/// least one).
fn fitting(matches: &[Value], files: &[Value], budget: usize) -> usize {
    let size = |v: &Value| serde_json::to_string(v).map_or(0, |s| s.len() + 1);
    let mut used = 0;
    let mut file: Option<&str> = None;
    for (n, m) in matches.iter().enumerate() {
        let mut cost = size(m);
        let this = m["file"].as_str();
        if this != file {
            let report = files.iter().find(|f| f["path"].as_str() == this);
            cost += report.map_or(0, size);
            file = this;
        }
        if n > 0 && used + cost > budget {
            return n;
        }
        used += cost;
    }
    matches.len()
}

/// An `ast_edit` reply's `text` and structured `report`, bounded: unchanged when both fit,
/// else the notice, a per-file summary, the first matches and the way to the rest, and the
/// structured content cut to the same matches (`leftOut` says what was cut).
pub(crate) fn ast_edit(text: String, mut report: Value) -> (String, Value) {
    let structured = serde_json::to_string(&report).map_or(0, |s| s.len());
    if text.len() <= MAX_TEXT && structured <= MAX_STRUCTURED {
        return (text, report);
    }
    let Some(id) = report["preview"]["id"].as_i64() else {
        return (cut_lines(&text, MAX_TEXT), report);
    };
    let matches = report["preview"]["matches"].as_array().cloned();
    let matches = matches.unwrap_or_default();
    let files_report = report["files"].as_array().cloned().unwrap_or_default();
    let tags: std::collections::HashMap<&str, &str> = files_report
        .iter()
        .filter_map(|f| Some((f["path"].as_str()?, f["tag"].as_str()?)))
        .collect();
    let rows: Vec<Row<'_>> = matches
        .iter()
        .filter_map(|m| {
            let file = m["file"].as_str()?;
            Some(Row {
                file,
                tag: tags.get(file).copied().unwrap_or(""),
                id: m["id"].as_str()?,
                line: usize::try_from(m["line"].as_u64()?).ok()?,
                before: m["before"].as_str()?,
                after: m["after"].as_str()?,
            })
        })
        .collect();
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for row in &rows {
        match counts.last_mut() {
            Some((file, n)) if *file == row.file => *n += 1,
            _ => counts.push((row.file, 1)),
        }
    }
    let cap = fitting(&matches, &files_report, STRUCTURED_BYTES);
    let (rows_text, shown) = page(&rows[..cap.min(rows.len())], 0, ROW_BYTES);
    let files_shown = {
        let mut files: Vec<&str> = rows[..shown].iter().map(|r| r.file).collect();
        files.dedup();
        files.len()
    };
    let (total, files) = (rows.len(), counts.len());
    let paragraphs: Vec<&str> = text.split("\n\n").collect();
    let notice = paragraphs.first().copied().unwrap_or_default();
    let tail: Vec<&str> = paragraphs
        .iter()
        .skip(1)
        // The rows, and the rendering's own count of rows it left out: both are redone here.
        .filter(|p| !p.starts_with('¶') && !p.starts_with("… "))
        .copied()
        .collect();
    let mut summary = String::from("Files (matches in each):");
    let mut listed = 0;
    for (file, n) in &counts {
        let line = format!("\n{file}: {n}");
        if summary.len() + line.len() > SUMMARY_BYTES {
            break;
        }
        summary.push_str(&line);
        listed += 1;
    }
    if listed < files {
        summary.push_str(&format!("\n… and {} more files.", files - listed));
    }
    let left = total - shown;
    let mut out = format!(
        "{notice}\n\nShown below: matches 1–{shown} of {total} ({files_shown} of {files} files); \
         {left} matches in {} files are left out to keep this reply under 64 KiB. The preview \
         holds every match: `resolve` with {{\"action\": \"apply\", \"id\": {id}}} applies them \
         all; `resolve` with {{\"action\": \"list\", \"id\": {id}, \"offset\": {shown}}} shows \
         the next ones.\n\n{summary}\n\n{rows_text}",
        files - files_shown
    );
    if !tail.is_empty() {
        out.push_str("\n\n");
        out.push_str(&cut_lines(&tail.join("\n\n"), TAIL_BYTES));
    }
    let kept: std::collections::HashSet<&str> = rows[..shown].iter().map(|r| r.file).collect();
    if let Some(files) = report["files"].as_array_mut() {
        files.retain(|f| f["path"].as_str().is_some_and(|p| kept.contains(p)));
    }
    if let Some(list) = report["preview"]["matches"].as_array_mut() {
        list.truncate(shown);
    }
    if let Some(object) = report.as_object_mut() {
        object.insert(
            "leftOut".into(),
            json!({"matches": left, "files": files - files_shown, "nextOffset": shown}),
        );
    }
    (out, report)
}

/// Any other reply bounded: its text cut at a line boundary to [`MAX_TEXT`], its `files`
/// reports (a `resolve` apply over thousands of files) cut to fit [`STRUCTURED_BYTES`], with
/// `leftOut` saying how many.
pub(crate) fn other(text: String, mut report: Value) -> (String, Value) {
    let text = cut_lines(&text, MAX_TEXT - 100);
    let structured = serde_json::to_string(&report).map_or(0, |s| s.len());
    if structured <= MAX_STRUCTURED {
        return (text, report);
    }
    let mut left = 0;
    if let Some(files) = report["files"].as_array_mut() {
        let mut used = 0;
        let mut keep = files.len();
        for (n, f) in files.iter().enumerate() {
            used += serde_json::to_string(f).map_or(0, |s| s.len() + 1);
            if n > 0 && used > STRUCTURED_BYTES {
                keep = n;
                break;
            }
        }
        left = files.len() - keep;
        files.truncate(keep);
    }
    if let (Some(object), true) = (report.as_object_mut(), left > 0) {
        object.insert("leftOut".into(), json!({"files": left}));
    }
    (text, report)
}

/// `resolve` `{"action": "list", "id": ID, "offset": K}`: preview `id`'s matches from the
/// `offset`-th (0-based) on, as many as fit in a reply.
pub(crate) fn show(session: &Session, id: PreviewId, offset: usize) -> Response {
    let preview = match session.engine().queue().and_then(|q| q.get(Some(id))) {
        Ok(p) => p,
        Err(e) => return Response::from_outcome(Outcome::refused(e.code(), e.to_string())),
    };
    let rows: Vec<Row<'_>> = preview
        .files
        .iter()
        .flat_map(|f| {
            f.matches.iter().map(|m| Row {
                file: &f.path,
                tag: &f.tag,
                id: &m.id,
                line: m.line,
                before: &m.before,
                after: &m.after,
            })
        })
        .collect();
    let total = rows.len();
    if offset >= total {
        return Response::from_outcome(Outcome::refused(
            ErrorCode::BadShape,
            format!(
                "Preview {id} has {total} matches: `offset` {offset} is past the last; use 0 to \
                 {}. Nothing was done.",
                total.saturating_sub(1)
            ),
        ));
    }
    let (rows_text, end) = page(&rows, offset, PAGE_BYTES);
    let mut text = format!(
        "Preview {id} ({}): matches {}–{end} of {total}, nothing written yet.\n\n{rows_text}\n\n",
        preview.label(),
        offset + 1
    );
    if end < total {
        text.push_str(&format!(
            "Next: `resolve` with {{\"action\": \"list\", \"id\": {id}, \"offset\": {end}}}. "
        ));
    }
    text.push_str(&format!(
        "Apply: `resolve` with {{\"action\": \"apply\", \"id\": {id}}} (only some matches: add \
         \"only\": [\"1:2\"], the `[FILE:MATCH]` ids shown)."
    ));
    let ids: Vec<&str> = rows[offset..end].iter().map(|r| r.id).collect();
    let outcome = Outcome::success(text);
    let report = json!({
        "ok": true,
        "code": null,
        "text": outcome.text,
        "warnings": [],
        "files": [],
        "resolve": {
            "action": "list",
            "id": id.get(),
            "matches": ids,
            "still_pending": [],
            "pending": [],
        },
        "page": {"offset": offset, "nextOffset": (end < total).then_some(end), "total": total},
    });
    Response::new(outcome, &report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row<'a>(file: &'a str, id: &'a str) -> Row<'a> {
        Row {
            file,
            tag: "AB",
            id,
            line: 1,
            before: "console.log(x)",
            after: "logger.log(x)",
        }
    }

    #[test]
    fn a_page_groups_rows_by_file_and_stops_at_its_budget() {
        let rows = [row("a.ts", "1:1"), row("a.ts", "1:2"), row("b.ts", "2:1")];
        let (text, end) = page(&rows, 0, 10_000);
        assert_eq!(end, 3);
        assert_eq!(
            text,
            "¶a.ts#AB\n[1:1]\n-1:console.log(x)\n+1:logger.log(x)\n[1:2]\n-1:console.log(x)\n\
             +1:logger.log(x)\n\n¶b.ts#AB\n[2:1]\n-1:console.log(x)\n+1:logger.log(x)"
        );
        let (text, end) = page(&rows, 1, 10);
        assert_eq!(end, 2, "{text}");
        assert!(text.starts_with("¶a.ts#AB\n[1:2]"), "{text}");
    }

    #[test]
    fn cut_text_says_how_much_was_left_out() {
        let text = format!("a\nb\n{}\nd", "c".repeat(100));
        assert_eq!(cut_lines(&text, 200), text);
        assert_eq!(
            cut_lines(&text, 64),
            "a\nb\n[2 more lines left out to keep this reply short.]"
        );
    }
}
