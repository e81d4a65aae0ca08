//! The words of a syntax issue: what an error node holds (`SyntaxIssue::what`) and the numbered
//! [`excerpt`] a refusal shows around it.

use hashline_core::excerpt::{numbered, real_lines};
use tree_sitter::Node;

/// Longest excerpt of the source quoted in `SyntaxIssue::what`, in characters.
const QUOTE_CHARS: usize = 40;

/// Lines `line - 2 ..= line + 2` of `text` (clamped), each as `NN|text`, the error line as
/// `>NN|text`: how a refusal shows where the parser stopped.
pub fn excerpt(text: &str, line: usize) -> String {
    let lines = real_lines(text);
    let lo = line.saturating_sub(2).max(1);
    let hi = (line + 2).min(lines.len().max(line));
    numbered(&lines, lo, hi, Some(line))
}

/// What an error node holds, in a few words.
pub(super) fn describe(node: &Node<'_>, text: &str) -> String {
    if node.is_missing() {
        return format!("missing {}", quote(node.kind()));
    }
    let src = text.get(node.byte_range()).unwrap_or("");
    let mut lines = src.split('\n').map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("");
    if first.is_empty() {
        "unexpected end of input".to_string()
    } else if lines.next().is_none() {
        format!("unexpected {}", quote(first))
    } else {
        format!(
            "the code from {} on does not parse (a bracket or block left open, or closed once too often?)",
            quote(first)
        )
    }
}

/// `s` in double quotes, cut to [`QUOTE_CHARS`] characters.
pub(super) fn quote(s: &str) -> String {
    let mut out: String = s.chars().take(QUOTE_CHARS).collect();
    if s.chars().count() > QUOTE_CHARS {
        out.push('…');
    }
    format!("\"{out}\"")
}
