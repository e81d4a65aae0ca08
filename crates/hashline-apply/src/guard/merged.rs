//! Two lines merged into one row: a row that ends, after a `;` statement separator, with the
//! text of another line the edit replaces. It may be deliberate, so it is a warning.

use hashline_core::Edit;

use super::lexical::{code_part, is_blank, Family};
use super::Subject;

/// Warn when a row of `edit` joins two of the lines it replaces.
pub(super) fn check(s: &Subject<'_>, edit: &Edit, warnings: &mut Vec<String>) {
    let Some((start, end)) = Subject::replaced(edit) else {
        return;
    };
    if end <= start || edit.rows.len() > end - start {
        return;
    }
    let family = Family::of(s.path);
    if matches!(family, Family::Prose | Family::Data) {
        return;
    }
    let replaced: Vec<&str> = (start..=end)
        .map(|n| s.line(n).trim())
        .filter(|l| !l.is_empty())
        .collect();
    for (i, row) in edit.rows.iter().enumerate() {
        if is_blank(row) || replaced.contains(&row.trim()) {
            continue;
        }
        let code = code_part(row, family);
        let tail = code
            .match_indices(';')
            .map(|(at, _)| row.get(at + 1..).unwrap_or("").trim())
            .find(|t| !t.is_empty() && replaced.contains(t));
        if let Some(tail) = tail {
            warnings.push(format!(
                "[W_MERGED_LINES] row {} of {} joins `{tail}`, a line of its own in the range, onto \
                 the row before it; if that was not meant, send them as two rows",
                i + 1,
                (s.label)(edit)
            ));
            return;
        }
    }
}
