//! A control-flow block a range leaves empty (`W_EMPTIED_BLOCK`): the edit's last row (or the
//! kept line above a deletion) opens an `if`, `else`, `for` or `while` block with `{`, the kept
//! line right below closes it with `}`, and the range took the code that stood between them.
//! A block with nothing in it does nothing: a model that meant to drop that code drops the
//! header too, while a range one line long swallows the block's only statement.

use hashline_core::Edit;

use super::lexical::{code_part, indent, is_blank, Family};
use super::Subject;

/// Warn about `edit` (see the module doc).
pub(super) fn check(s: &Subject<'_>, edit: &Edit, warnings: &mut Vec<String>) {
    let family = Family::of(s.path);
    if !matches!(family, Family::CLike | Family::Rust) {
        return;
    }
    let Some((start, end)) = Subject::replaced(edit) else {
        return;
    };
    let below = end + 1;
    if below > s.line_count() || !s.survives(below) {
        return;
    }
    let opener = match edit.rows.iter().rev().find(|r| !is_blank(r)) {
        Some(row) => row.as_str(),
        None if start > 1 && s.survives(start - 1) => s.line(start - 1),
        None => return,
    };
    let close = code_part(s.line(below), family);
    let close = close.trim();
    if !(close == "}" || close.starts_with("} else"))
        || !is_control_opener(&code_part(opener, family))
    {
        return;
    }
    // The range held code of the block: a line indented deeper than its `}`, not a comment.
    let depth = indent(s.line(below)).len();
    let held = (start..=end).map(|n| s.line(n)).find(|l| {
        let code = code_part(l, family);
        !code.trim().is_empty() && indent(l).len() > depth
    });
    let Some(held) = held else {
        return;
    };
    if s.lexer_before(below).feed(s.line(below)).text {
        return;
    }
    warnings.push(format!(
        "[W_EMPTIED_BLOCK] {}: the block `{}` is left empty; the range took `{}`, its code; \
         if the range was not meant to cover that line, shorten it",
        (s.label)(edit),
        opener.trim(),
        held.trim()
    ));
}

/// A line that opens an `if`, `else`, `for` or `while` block (`{` last).
fn is_control_opener(code: &str) -> bool {
    let t = code.trim();
    if !t.ends_with('{') {
        return false;
    }
    let t = t.trim_start_matches('}').trim_start();
    ["if ", "if(", "else", "for ", "for(", "while ", "while("]
        .iter()
        .any(|k| t.starts_with(k))
}
