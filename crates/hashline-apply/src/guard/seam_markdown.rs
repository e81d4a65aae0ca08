//! Two Markdown lines joined into one row (see `seam`): a list item holding the next item's
//! bullet (`* Fixed a. * Added b`) where no item of the file does, or two link reference
//! definitions on one row.

use super::seam::Style;
use super::Subject;

/// The bullet of a Markdown list item (`* `, `- `, `+ `), if `line` is one.
pub(super) fn bullet(line: &str) -> Option<char> {
    let t = line.trim_start();
    let b = t.chars().next().filter(|c| matches!(c, '*' | '-' | '+'))?;
    t[1..].starts_with(' ').then_some(b)
}

/// A Markdown list item holding its bullet again after text, the next item's start
/// (`* Fixed a. * Added b`): the text after it.
pub(super) fn bullet_again(line: &str) -> Option<String> {
    let b = bullet(line)?;
    let t = line.trim();
    let again = format!(" {b} ");
    let at = t.get(2..)?.find(&again)? + 2;
    let after = &t[at + again.len()..];
    let item = t[..at].trim_end().len() > 2
        && after.starts_with(|c: char| c.is_uppercase() || c == '[' || c == '`');
    item.then(|| after.chars().take(24).collect())
}

/// Two Markdown link reference definitions on one row (`[a]: url [b]: url`): the second
/// label, which no longer defines anything.
fn link_defs_joined(line: &str) -> Option<String> {
    fn definition(t: &str) -> Option<&str> {
        let rest = t.strip_prefix('[')?;
        let close = rest.find("]:")?;
        (close > 0 && !rest[..close].contains(['[', ']'])).then(|| rest[close + 2..].trim_start())
    }
    let rest = definition(line.trim())?;
    let (_url, more) = rest.split_once(char::is_whitespace)?;
    let more = more.trim_start();
    definition(more).map(|_| more.chars().take(24).collect())
}

/// Two Markdown list items or link reference definitions on one row (outside code fences),
/// where the file's own items never hold a bullet again.
pub(super) fn markdown_seam(
    s: &Subject<'_>,
    row: &str,
    style: &dyn Fn() -> Style,
) -> Option<String> {
    if !(s.path.ends_with(".md") || s.path.ends_with(".markdown")) {
        return None;
    }
    if let Some(next) = link_defs_joined(row) {
        return Some(format!(
            "a second link reference definition `{next}` follows the first on the row"
        ));
    }
    let next = bullet_again(row)?;
    let st = style();
    (st.bullets_again == 0 && st.list_items >= MIN_LIST_ITEMS).then(|| {
        format!("the list item holds the start of another item, `{next}`, which no item of the file does")
    })
}

/// List items a Markdown file needs before its items' layout counts as a style.
const MIN_LIST_ITEMS: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_items() {
        assert_eq!(
            bullet_again("* Fixed a. * Added b"),
            Some("Added b".to_string())
        );
        assert!(bullet_again("* a * b").is_none());
        assert!(bullet_again("- `x` - y").is_none());
        assert!(bullet_again("Some * Text").is_none());
        assert!(link_defs_joined("[a]: https://x/1 [1.0]: https://x/2").is_some());
        assert!(link_defs_joined("[a]: https://x/1 \"title\"").is_none());
        assert!(link_defs_joined("[a] [b]: x").is_none());
    }
}
