//! HTML block tags in Markdown (`markdown`): a range one line off that takes a `<p>` or a
//! `<div>` line and keeps its closing tag (or the reverse) leaves the element unpaired, and
//! everything up to the next such tag renders inside it or not at all
//! (`W_UNBALANCED_FENCE`).

use super::{is_fence, Subject};

/// The block elements counted: the ones Markdown files open on a line of their own.
const TAGS: [&str; 14] = [
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

/// Per tag, opening less closing tags in `lines` outside code fences and code spans; the
/// first line inside a fenced block when `inside`.
pub(super) fn tally<'l>(lines: impl Iterator<Item = &'l str>, mut inside: bool) -> [isize; 14] {
    let mut out = [0isize; 14];
    for line in lines {
        if is_fence(line) {
            inside = !inside;
            continue;
        }
        if inside || !line.contains('<') {
            continue;
        }
        let text = without_code_spans(line).to_ascii_lowercase();
        for (i, tag) in TAGS.iter().enumerate() {
            out[i] += opens(&text, tag) - closes(&text, tag);
        }
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

/// The first tag the request unpairs where the text read paired it: the edits' changes to
/// its tally (rows less range) do not sum to zero while the file's tally is zero. Returns
/// the first edit that changes that tally, and the tag's index.
pub(super) fn unpaired(s: &Subject<'_>) -> Option<(usize, usize)> {
    let file = tally((1..=s.line_count()).map(|n| s.line(n)), false);
    if file.iter().all(|&n| n != 0) {
        return None;
    }
    let deltas: Vec<[isize; 14]> = s
        .edits
        .iter()
        .map(|e| {
            let (top, _) = s.neighbours(e);
            let inside = s.fences_through(top) % 2 == 1;
            let rows = tally(e.rows.iter().map(String::as_str), inside);
            let range = Subject::replaced(e)
                .map_or([0; 14], |(a, b)| tally((a..=b).map(|n| s.line(n)), inside));
            std::array::from_fn(|i| rows[i] - range[i])
        })
        .collect();
    let tag = (0..TAGS.len())
        .find(|&i| file[i] == 0 && deltas.iter().map(|d| d[i]).sum::<isize>() != 0)?;
    let edit = deltas.iter().position(|d| d[tag] != 0)?;
    Some((edit, tag))
}
