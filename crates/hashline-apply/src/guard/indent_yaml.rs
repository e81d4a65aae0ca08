//! YAML rows taken out of the block they were written into: the line above the edit opens a
//! mapping (`key:` with nothing after it) whose lines below the edit go on deeper, while the
//! edit's first row stands at the key's column or left of it. YAML parses that (the key's
//! value becomes null and the rows move up a level, or the file breaks further down), but no
//! edit means it: the rows lost their indentation.

use super::lexical::{is_blank, width};
use super::scope::{Above, Ix};

/// Whether `path` is a YAML file.
fn is_yaml(path: &str) -> bool {
    path.ends_with(".yaml") || path.ends_with(".yml")
}

/// Whether `line` is a YAML mapping key with no value on its row (`jobs:`, `- with:`), which
/// opens a block below it.
fn opens_mapping(line: &str) -> bool {
    let t = line.trim();
    let t = t.strip_prefix("- ").unwrap_or(t);
    // `key:` alone; a comment after it aside.
    let t = t.split(" #").next().unwrap_or(t).trim_end();
    t.len() > 1
        && t.ends_with(':')
        && !t.starts_with(['#', '"', '\'', '-', '{', '['])
        && !t[..t.len() - 1].contains(": ")
}

/// The first row of the edit, when it stands outside the block the line above opens while
/// that block goes on below the edit (module doc).
pub(super) fn dedented_out_of_block(ix: &Ix<'_, '_>) -> Option<String> {
    let s = ix.s;
    if !is_yaml(s.path) {
        return None;
    }
    let Some(Above::Line(above)) = ix.above() else {
        return None;
    };
    let opener = s.line(above);
    if !opens_mapping(opener) {
        return None;
    }
    let (_, after) = s.neighbours(&ix.edit);
    let below = s.line(ix.nearest(after, true)?);
    let key = width(opener, 2);
    // A list item's key opens its block at the item's text, past the `- `.
    let key = if opener.trim_start().starts_with("- ") {
        key + 2
    } else {
        key
    };
    let (i, row) = ix
        .edit
        .rows
        .iter()
        .enumerate()
        .find(|(_, r)| !is_blank(r))?;
    let t = row.trim_start();
    let at = width(row, 2);
    // A sequence may stand at its key's column (`key:` then `- item`); a comment anywhere.
    let sequence = at == key && t.starts_with("- ");
    if at > key || sequence || t.starts_with('#') || below.trim_start().starts_with('#') {
        return None;
    }
    let goes_on = width(below, 2);
    (goes_on > key).then(|| {
        format!(
            "row {} stands at column {at}, outside the block `{}` opens, whose lines below the \
             edit go on at column {goes_on}",
            i + 1,
            opener.trim()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::opens_mapping;

    #[test]
    fn mapping_openers() {
        assert!(opens_mapping("jobs:"));
        assert!(opens_mapping("  - with:"));
        assert!(opens_mapping("  bool: "));
        assert!(opens_mapping("steps: # the steps"));
        assert!(!opens_mapping("  name: x"));
        assert!(!opens_mapping("run: |"));
        assert!(!opens_mapping("# note:"));
        assert!(!opens_mapping("- a: b:"));
    }
}
