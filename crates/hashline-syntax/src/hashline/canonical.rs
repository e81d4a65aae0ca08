//! The canonical form of a patch: the text `hashline grammar` describes (the seed's strict
//! `grammar.lark`, with quoted paths). Any patch the lenient parser accepts can be written this
//! way, so a constrained decoder that only allows the canonical form loses nothing but the
//! spelling variants.

use super::ast::{HunkOp, ParsedBody, Section};
use super::header::{strip_v4a_noise, PILCROW};
use super::js_text::is_js_space;

/// `sections` (each with its parsed body) in canonical form: `*** Begin Patch`, then per
/// section a `¶PATH#TAG` header and its hunks (`replace A..B:`, `replace block N:`,
/// `delete A..B`, `delete block N`, `insert before N:`, `insert after N:`, `insert head:`,
/// `insert tail:`; every row as `+ROW`), then `*** End Patch`, each line ending in `\n`.
///
/// `None` when a section has no tag, a path has no canonical spelling (see [`canonical_path`]),
/// or a row holds a `\r`.
pub fn canonical(sections: &[(Section, ParsedBody)]) -> Option<String> {
    let mut out = String::from("*** Begin Patch\n");
    for (section, body) in sections {
        let tag = section.tag.as_deref()?;
        out.push(PILCROW);
        out.push_str(&canonical_path(&section.path)?);
        out.push('#');
        out.push_str(tag);
        out.push('\n');
        for hunk in &body.hunks {
            let (header, colon) = match hunk.op {
                HunkOp::Replace { start, end } => (format!("replace {start}..{end}"), true),
                HunkOp::ReplaceBlock { line } => (format!("replace block {line}"), true),
                HunkOp::Delete { start, end } => (format!("delete {start}..{end}"), false),
                HunkOp::DeleteBlock { line } => (format!("delete block {line}"), false),
                HunkOp::InsertBefore(line) => (format!("insert before {line}"), true),
                HunkOp::InsertAfter(line) => (format!("insert after {line}"), true),
                HunkOp::InsertHead => ("insert head".to_string(), true),
                HunkOp::InsertTail => ("insert tail".to_string(), true),
            };
            out.push_str(&header);
            out.push_str(if colon { ":\n" } else { "\n" });
            for row in &hunk.rows {
                if row.contains('\r') {
                    return None;
                }
                out.push('+');
                out.push_str(row);
                out.push('\n');
            }
        }
    }
    out.push_str("*** End Patch\n");
    Some(out)
}

/// How `path` is written in a canonical header: bare when it can be (it neither starts nor
/// ends with white space, holds no quote), else in `"…"` or, when it holds `"`, in `'…'`.
/// `None` for a path no header can name exactly: empty, holding a control, line-separator or
/// bidirectional character (the engine refuses those names), starting with `*` or V4A
/// noise such as `Update File:` (the parser strips both, even inside quotes), or holding both
/// quotes. A path starting or ending with white space is quoted; a quoted one holding the
/// text `\u{` is written escaped (`name::escaped`), as the parser decodes it.
pub fn canonical_path(path: &str) -> Option<String> {
    // White space alone is kept inside quotes; any other noise is stripped even there.
    let noise_free = strip_v4a_noise(path).len() == path.trim_start_matches(is_js_space).len();
    if path.is_empty() || !noise_free || hashline_core::name::check(path).is_err() {
        return None;
    }
    let edge_space = path.starts_with(is_js_space) || path.ends_with(is_js_space);
    if (edge_space || path.contains(['"', '\''])) && path.contains("\\u{") {
        // In `"…"` the parser decodes `\u{…}` (`name::header_path`): written escaped.
        return Some(format!("\"{}\"", hashline_core::name::escaped(path)));
    }
    if !edge_space && !path.contains(['"', '\'']) {
        Some(path.to_string())
    } else if !path.contains('"') {
        Some(format!("\"{path}\""))
    } else if !path.contains('\'') {
        Some(format!("'{path}'"))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashline::{parse_body, split_sections, SplitOptions};

    fn round_trip(input: &str) -> Option<String> {
        let sections = split_sections(input, &SplitOptions::default()).ok()?;
        let parsed: Vec<_> = sections
            .into_iter()
            .map(|s| {
                let body = parse_body(&s.body).ok()?;
                Some((s, body))
            })
            .collect::<Option<_>>()?;
        canonical(&parsed)
    }

    #[test]
    fn lenient_spellings_become_canonical() {
        assert_eq!(
            round_trip("¶a.ts#1a2b\nreplace 2:\n+x\ndelete 3 - 4\ninsert tail\n+y\n").as_deref(),
            Some("*** Begin Patch\n¶a.ts#1A2B\nreplace 2..2:\n+x\ndelete 3..4\ninsert tail:\n+y\n*** End Patch\n")
        );
        assert_eq!(round_trip("¶a.ts\ninsert head:\n+x\n"), None, "no tag");
    }

    #[test]
    fn paths_are_quoted_only_when_needed() {
        assert_eq!(
            canonical_path("my file #1.ts").as_deref(),
            Some("my file #1.ts")
        );
        assert_eq!(
            canonical_path("naïve/日本.rs").as_deref(),
            Some("naïve/日本.rs")
        );
        assert_eq!(canonical_path("it's.ts").as_deref(), Some("\"it's.ts\""));
        assert_eq!(
            canonical_path("trailing ").as_deref(),
            Some("\"trailing \"")
        );
        assert_eq!(
            canonical_path("say \"hi\"").as_deref(),
            Some("'say \"hi\"'")
        );
        assert_eq!(canonical_path(" lead").as_deref(), Some("\" lead\""));
        // Quoted and holding `\u{`: escaped, as the parser decodes it there.
        assert_eq!(
            canonical_path(" \\u{41}").as_deref(),
            Some("\" \\\\u{41}\"")
        );
        assert_eq!(canonical_path("\\u{41}").as_deref(), Some("\\u{41}"));
        for none in [
            "",
            "*star",
            "Update File: x",
            "a\nb",
            "both\"'",
            "x\u{202E}y",
        ] {
            assert_eq!(canonical_path(none), None, "{none:?}");
        }
    }
}
