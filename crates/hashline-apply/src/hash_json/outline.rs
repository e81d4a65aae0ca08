//! The structure outline of `full` and `ranges` responses (§7): headings and declarations
//! found in the previewed lines.

/// Entries kept per section.
const MAX_ENTRIES: usize = 8;
/// Characters per entry, ellipsis included.
const MAX_CHARS: usize = 88;

/// Lines previewed for one section, with the label shown when there are several sections.
pub(crate) struct Section<'t> {
    /// `Range <k> (lines <a>-<b>)` when several ranges were requested.
    pub label: Option<String>,
    /// The previewed line contents.
    pub lines: Vec<&'t str>,
}

/// `\n\nStructure outline:\n- …`, or nothing when no section has an entry.
pub(crate) fn outline(sections: &[Section<'_>]) -> String {
    let mut body: Vec<String> = Vec::new();
    for section in sections {
        let entries: Vec<String> = section
            .lines
            .iter()
            .filter_map(|l| entry(l))
            .take(MAX_ENTRIES)
            .collect();
        if entries.is_empty() {
            continue;
        }
        match &section.label {
            Some(label) => {
                body.push(format!("- {label}"));
                body.extend(entries.iter().map(|e| format!("  - {e}")));
            }
            None => body.extend(entries.iter().map(|e| format!("- {e}"))),
        }
    }
    if body.is_empty() {
        String::new()
    } else {
        format!("\n\nStructure outline:\n{}", body.join("\n"))
    }
}

/// The outline entry of one line, if it is a heading or a declaration.
fn entry(line: &str) -> Option<String> {
    let t = line.trim();
    if !(is_heading(t) || is_declaration(t)) {
        return None;
    }
    let collapsed = t.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= MAX_CHARS {
        return Some(collapsed);
    }
    let mut cut: String = collapsed.chars().take(MAX_CHARS - 1).collect();
    cut.push('…');
    Some(cut)
}

/// `#{1,6} ` then text.
fn is_heading(t: &str) -> bool {
    let hashes = t.len() - t.trim_start_matches('#').len();
    (1..=6).contains(&hashes) && t[hashes..].starts_with(' ')
}

fn strip_word<'a>(t: &'a str, word: &str) -> Option<&'a str> {
    let rest = t.strip_prefix(word)?;
    let trimmed = rest.trim_start();
    (trimmed.len() < rest.len()).then_some(trimmed)
}

fn starts_with_identifier(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
}

/// `[export ][async ]function X`, `[export ]class|interface|type|enum X`, or
/// `const|let|var X = [async ](`.
fn is_declaration(t: &str) -> bool {
    let exported = strip_word(t, "export").unwrap_or(t);
    let unasync = strip_word(exported, "async").unwrap_or(exported);
    if strip_word(unasync, "function").is_some_and(starts_with_identifier) {
        return true;
    }
    if ["class", "interface", "type", "enum"]
        .iter()
        .any(|w| strip_word(exported, w).is_some_and(starts_with_identifier))
    {
        return true;
    }
    let Some(rest) = ["const", "let", "var"]
        .iter()
        .find_map(|w| strip_word(t, w))
    else {
        return false;
    };
    if !starts_with_identifier(rest) {
        return false;
    }
    let after_name = rest
        .trim_start_matches(|c: char| c.is_alphanumeric() || c == '_' || c == '$')
        .trim_start();
    let Some(value) = after_name.strip_prefix('=') else {
        return false;
    };
    let value = value.trim_start();
    let value = strip_word(value, "async").unwrap_or(value);
    value.starts_with('(')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries() {
        let lines = [
            "// header",
            "export function alpha() {",
            "  return 1;",
            "}",
            "export class Beta {}",
            "# Title",
            "const f = async (x) => x;",
            "const n = 1;",
        ];
        let text = outline(&[Section {
            label: None,
            lines: lines.to_vec(),
        }]);
        assert_eq!(
            text,
            "\n\nStructure outline:\n- export function alpha() {\n- export class Beta {}\n- # Title\n- const f = async (x) => x;"
        );
        assert_eq!(
            outline(&[Section {
                label: None,
                lines: vec!["x"]
            }]),
            ""
        );
        let long = format!("function {}", "a".repeat(100));
        assert_eq!(entry(&long).map(|e| e.chars().count()), Some(88));
    }
}
