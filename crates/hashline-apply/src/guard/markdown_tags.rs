//! HTML block tags in Markdown (`markdown`): a range one line off that takes a `<p>` or a
//! `<div>` line and keeps its closing tag (or the reverse) leaves the element unpaired, and
//! everything up to the next such tag renders inside it or not at all
//! (`W_UNBALANCED_FENCE`).

/// The block elements counted: the ones Markdown files open on a line of their own.
/// How many tags are counted.
pub(super) const TAG_COUNT: usize = 14;

const TAGS: [&str; TAG_COUNT] = [
    "p",
    "div",
    "details",
    "summary",
    "table",
    "tr",
    "td",
    "center",
    "picture",
    "ul",
    "ol",
    "dl",
    "blockquote",
    "section",
];

/// How many block elements each tag opens less closes on `line`, a line outside code
/// fences (code spans aside).
pub(super) fn count(line: &str) -> [isize; TAG_COUNT] {
    let mut out = [0isize; TAG_COUNT];
    if !line.contains('<') {
        return out;
    }
    let text = without_code_spans(line).to_ascii_lowercase();
    for (i, tag) in TAGS.iter().enumerate() {
        out[i] = opens(&text, tag) - closes(&text, tag);
    }
    out
}

/// The tag's name at `i`, for the warning.
pub(super) fn name(i: usize) -> &'static str {
    TAGS.get(i).copied().unwrap_or("p")
}

/// `line` with its `` `code` `` spans removed (an HTML tag there is text).
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut code = false;
    for c in line.chars() {
        if c == '`' {
            code = !code;
        } else if !code {
            out.push(c);
        }
    }
    out
}

/// How many `<tag` open an element in `text` (followed by `>`, white space or `/`; a
/// self-closing `<tag/>` opens none).
fn opens(text: &str, tag: &str) -> isize {
    let pat = format!("<{tag}");
    let mut n = 0;
    for (at, _) in text.match_indices(&pat) {
        let rest = &text[at + pat.len()..];
        let ends = rest.starts_with(['>', ' ', '\t']) || rest.is_empty();
        let self_closing = rest.split('>').next().is_some_and(|a| a.ends_with('/'));
        if ends && !self_closing {
            n += 1;
        }
    }
    n
}

/// How many `</tag>` close an element in `text`.
fn closes(text: &str, tag: &str) -> isize {
    isize::try_from(text.matches(&format!("</{tag}>")).count()).unwrap_or(isize::MAX)
}
