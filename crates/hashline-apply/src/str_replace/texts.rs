//! The oracle's texts (openhands-aci 0.3.3 `OHEditor`): numbered views, snippets, notices and
//! the messages of its refusals, with paths as the request gave them.

/// The most characters a view shows before it is clipped.
pub(crate) const MAX_CHARS: usize = 16_000;
/// Lines of context shown on each side of an edit.
pub(crate) const CONTEXT: usize = 4;
/// The notice after a clipped file view.
pub(crate) const FILE_CLIPPED: &str = "<response clipped><NOTE>Due to the max output limit, only part of this file has been shown to you. You should retry this tool after you have searched inside the file with `grep -n` in order to find the line numbers of what you are looking for.</NOTE>";
/// The notice after a clipped directory listing.
pub(crate) const DIR_CLIPPED: &str = "<response clipped><NOTE>Due to the max output limit, only part of this directory has been shown to you. You should use `ls -la` instead to view large directories incrementally.</NOTE>";
/// The end of a `str_replace` result.
pub(crate) const REVIEW: &str =
    "Review the changes and make sure they are as expected. Edit the file again if necessary.";
/// The end of an `insert` result.
pub(crate) const REVIEW_INSERT: &str = "Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.";

/// The path as the oracle prints it: `.` and empty components dropped, no trailing slash;
/// the root itself is `.`.
pub(crate) fn display(path: &str) -> String {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    if parts.is_empty() {
        ".".into()
    } else {
        let lead = if path.starts_with('/') { "/" } else { "" };
        format!("{lead}{}", parts.join("/"))
    }
}

/// `text` clipped to [`MAX_CHARS`] characters, `notice` appended when clipped.
pub(crate) fn clip(text: &str, notice: &str) -> String {
    match text.char_indices().nth(MAX_CHARS) {
        Some((at, _)) => format!("{}{notice}", &text[..at]),
        None => text.to_owned(),
    }
}

/// The lines of an LF text as Python iterates a file: each with its `\n`.
pub(crate) fn py_lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// Lines `from..=to` (1-based) of `text`, joined as read.
pub(crate) fn line_range(text: &str, from: usize, to: usize) -> String {
    py_lines(text)
        .into_iter()
        .skip(from.saturating_sub(1))
        .take((to + 1).saturating_sub(from.max(1)))
        .collect()
}

/// `Here's the result of running `cat -n` on {what}:` and the numbered lines of `content`.
pub(crate) fn numbered(content: &str, what: &str, first: usize) -> String {
    let content = clip(content, FILE_CLIPPED);
    let mut out = format!("Here's the result of running `cat -n` on {what}:\n");
    for (i, line) in content.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&hashline_core::excerpt::cat_n(i + first, line));
    }
    out.push('\n');
    out
}

/// `Invalid `path` parameter: {path}. {why}`.
pub(crate) fn invalid_path(path: &str, why: &str) -> String {
    format!("Invalid `path` parameter: {path}. {why}")
}

/// `File validation failed for {path}: {why}`.
pub(crate) fn validation(path: &str, why: &str) -> String {
    format!("File validation failed for {path}: {why}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_number_like_cat_n() {
        assert_eq!(
            numbered("a\nb\n", "f", 1),
            "Here's the result of running `cat -n` on f:\n     1\ta\n     2\tb\n     3\t\n"
        );
        assert_eq!(line_range("a\nb\nc\n", 2, 3), "b\nc\n");
        assert_eq!(display("./a//b/"), "a/b");
        assert_eq!(display(""), ".");
    }
}
