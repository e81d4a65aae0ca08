//! The engine's texts as a model over MCP must read them: every next step the CLI phrases as a
//! command line (`hashline resolve apply 1`, `--only`, `--as-sent (CLI)`, `Use :6 to
//! continue`) named as a tool and its JSON arguments instead, and every fix an argument the
//! tool accepts (`"allowSyntaxErrors": true`).
//!
//! The phrases are the engine's own, matched exactly; rows of file content (read rows, diff
//! rows, `cat -n` rows) are never rewritten, so a file that quotes such a phrase reads as it
//! is. `tests::every_engine_phrase_is_translated` fails when an engine text changes.

/// Fixed phrases and what a model over MCP reads instead, longest first where one contains
/// another.
const PHRASES: &[(&str, &str)] = &[
    (
        "resend with --as-sent (CLI) or \"allowSyntaxErrors\": true (JSON)",
        "send the same `edit` call again with \"allowSyntaxErrors\": true among its arguments",
    ),
    (
        "resend with --allow-syntax-errors (CLI) or \"allowSyntaxErrors\": true (JSON)",
        "send the same `edit` call again with \"allowSyntaxErrors\": true among its arguments",
    ),
    (
        "run ast-edit again; if the broken state is meant (or the parser does not know this \
         syntax), resend with --allow-syntax-errors",
        "call `ast_edit` again; if the broken state is meant (or the parser does not know this \
         syntax), call `ast_edit` again with \"allowSyntaxErrors\": true",
    ),
    (
        "(only some matches: `--only 1:2,2:1`, the `[FILE:MATCH]` ids shown)",
        "(only some matches: add \"only\": [\"1:2\", \"2:1\"], the `[FILE:MATCH]` ids shown)",
    ),
    (
        " (or `--only` some)",
        " (or some of them, with \"only\": [FILE:MATCH ids])",
    ),
    (
        "`--only` names no match; give match ids such as 1:1,2:3, or leave `--only` out",
        "\"only\" names no match; give match ids such as [\"1:1\", \"2:3\"], or leave \"only\" out",
    ),
    (
        "`hashline resolve` lists pending previews",
        "`resolve` with {\"action\": \"list\"} lists pending previews",
    ),
    (
        "Run `hashline resolve` to list pending previews",
        "Call `resolve` with {\"action\": \"list\"} to list pending previews",
    ),
    (
        "use a number that `hashline resolve` lists",
        "use an id that `resolve` with {\"action\": \"list\"} lists",
    ),
    (
        "`hashline undo --list` shows the recent ones",
        "`undo` with {\"action\": \"list\"} shows the recent ones",
    ),
    ("run ast-edit again", "call `ast_edit` again"),
    ("Run ast-edit to make one", "Call `ast_edit` to make one"),
    (
        "`write --overwrite` (CLI; `overwrite: true` over MCP) replaces it unread",
        "`write` with \"overwrite\": true replaces it unread",
    ),
    (
        "names lines and --offset/--limit are given too",
        "names lines and \"offset\"/\"limit\" are given too",
    ),
    (
        "Make the state directory (--state) writable",
        "Make the server's state directory (--state) writable",
    ),
];

/// `text` for a model over MCP.
pub(crate) fn for_mcp(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if is_content_row(line) {
            out.push_str(line);
        } else {
            out.push_str(&translate_line(line));
        }
    }
    out
}

/// One line of the engine's own prose.
fn translate_line(line: &str) -> String {
    let mut line = line.to_string();
    for (cli, mcp) in PHRASES {
        if line.contains(cli) {
            line = line.replace(cli, mcp);
        }
    }
    let line = commands(&line, "`hashline resolve apply ", "apply");
    let line = commands(&line, "`hashline resolve discard ", "discard");
    footers(&line)
}

/// `` `hashline resolve VERB X` `` → `` `resolve` with {"action": "VERB", "id": X} ``.
fn commands(line: &str, prefix: &str, action: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find(prefix) {
        let after = &rest[at + prefix.len()..];
        let Some(end) = after.find('`') else { break };
        let id = &after[..end];
        out.push_str(&rest[..at]);
        // Only a real id goes into the JSON, so that every object a text proposes parses;
        // without one, the action alone (which takes the newest preview).
        if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!(
                "`resolve` with {{\"action\": \"{action}\", \"id\": {id}}}"
            ));
        } else {
            out.push_str(&format!("`resolve` with {{\"action\": \"{action}\"}}"));
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The read footers: `Use :N to continue]` (tag and lineid reads), `Use offset=N to
/// continue.]` (hash-json), and the beyond-the-end refusal's `Use :1 … or :N …`.
fn footers(line: &str) -> String {
    let mut line = line.to_string();
    for (prefix, suffix) in [
        (" Use :", " to continue]"),
        (" Use offset=", " to continue.]"),
    ] {
        if let Some(at) = line.find(prefix) {
            let after = &line[at + prefix.len()..];
            if let Some(end) = after.find(suffix) {
                let n = &after[..end];
                if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
                    let tail = &after[end + suffix.len()..];
                    let close = &suffix[" to continue".len()..];
                    line = format!(
                        "{} Call `read` with \"offset\": {n} to continue{close}{tail}",
                        &line[..at]
                    );
                }
            }
        }
    }
    if let Some(at) = line.find(" Use :1 to read from the start, or :") {
        let after = &line[at + " Use :1 to read from the start, or :".len()..];
        if let Some(end) = after.find(" to read the last line.") {
            let n = after[..end].to_string();
            line = format!(
                "{} Call `read` with \"offset\": 1 to read from the start, or \"offset\": {n} to \
                 read the last line.",
                &line[..at]
            );
        }
    }
    line
}

/// A row that shows file content: `N:TEXT` (read), `-N:`/`+N:` (preview and diff rows),
/// `N#ID|TEXT` (lineid read), `HASH:TEXT` (hash-json read), `   N\tTEXT` (`cat -n`), and
/// ` TEXT`/`-TEXT`/`+TEXT` diff rows.
fn is_content_row(line: &str) -> bool {
    let bytes = line.as_bytes();
    let unsigned = bytes
        .strip_prefix(b"-")
        .or_else(|| bytes.strip_prefix(b"+"))
        .unwrap_or(bytes);
    let digits = unsigned.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits > 0 && matches!(unsigned.get(digits), Some(b':' | b'#')) {
        return true;
    }
    let hash = bytes
        .iter()
        .take(4)
        .all(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_');
    if bytes.len() >= 5 && hash && bytes[4] == b':' {
        return true;
    }
    let trimmed = line.trim_start_matches(' ');
    let tab = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    if tab > 0 && trimmed.as_bytes().get(tab) == Some(&b'\t') {
        return true;
    }
    matches!(bytes.first(), Some(b' ' | b'-' | b'+')) && !line.starts_with("  ")
}

/// Whether `text` still shows a command line or a CLI flag: what no MCP reply may contain.
#[cfg(test)]
pub(crate) fn cli_residue(text: &str) -> Option<String> {
    const MARKS: &[&str] = &[
        "`hashline ",
        "(CLI)",
        "--as-sent",
        "--allow-syntax-errors",
        "--only",
        "--overwrite",
        " Use :",
        "Use offset=",
        "ast-edit again",
    ];
    text.split('\n')
        .filter(|l| !is_content_row(l))
        .find(|l| MARKS.iter().any(|m| l.contains(m)))
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_become_tool_calls() {
        let preview = "Staged as preview 3 (2 replacements in 1 file) — files NOT modified yet. \
             To apply: `hashline resolve apply 3` (only some matches: `--only 1:2,2:1`, the \
             `[FILE:MATCH]` ids shown). To discard: `hashline resolve discard 3`.";
        let text = for_mcp(preview);
        assert!(
            text.contains("`resolve` with {\"action\": \"apply\", \"id\": 3}")
                && text.contains("\"only\": [\"1:2\", \"2:1\"]")
                && text.contains("{\"action\": \"discard\", \"id\": 3}"),
            "{text}"
        );
        assert_eq!(cli_residue(&text), None);
        let footer = for_mcp("¶a#0000\n1:x\n\n[4 more lines in file. Use :2 to continue]");
        assert!(
            footer.ends_with("[4 more lines in file. Call `read` with \"offset\": 2 to continue]"),
            "{footer}"
        );
        let hash = for_mcp("ab12:x\n\n[Showing lines 1-1 of 3. Use offset=2 to continue.]");
        assert!(
            hash.ends_with("Call `read` with \"offset\": 2 to continue.]"),
            "{hash}"
        );
        let beyond = for_mcp("Line 5 is beyond end of file (2 lines total). Use :1 to read from the start, or :2 to read the last line.");
        assert!(
            beyond.contains("\"offset\": 2 to read the last line."),
            "{beyond}"
        );
        assert_eq!(cli_residue(&beyond), None);
    }

    /// Every `{…}` object in the prose of `text` (content rows left out).
    fn proposed_objects(text: &str) -> Vec<String> {
        let mut found = Vec::new();
        for line in text.split('\n').filter(|l| !is_content_row(l)) {
            let mut rest = line;
            while let Some(at) = rest.find("{\"") {
                let mut depth = 0;
                let mut end = None;
                for (i, c) in rest[at..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = Some(at + i + 1);
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                let Some(end) = end else { break };
                found.push(rest[at..end].to_string());
                rest = &rest[end..];
            }
        }
        found
    }

    #[test]
    fn every_proposed_object_is_valid_json() {
        let texts = [
            "2 pending previews (newest first):\n4: x\n3: y\nApply one with `hashline resolve \
             apply 4`, discard one with `hashline resolve discard 4` (or another id above).",
            "Apply with `hashline resolve apply ID`, discard with `hashline resolve discard ID`.",
            "Staged as preview 3 — To apply: `hashline resolve apply 3` (only some matches: \
             `--only 1:2,2:1`, the `[FILE:MATCH]` ids shown). To discard: `hashline resolve \
             discard 3`.",
        ];
        for text in texts {
            let translated = for_mcp(text);
            let objects = proposed_objects(&translated);
            assert!(!objects.is_empty(), "{translated}");
            for object in objects {
                assert!(
                    serde_json::from_str::<serde_json::Value>(&object).is_ok(),
                    "{object} in {translated}"
                );
            }
        }
        let listed = for_mcp(texts[0]);
        assert!(
            listed.contains("{\"action\": \"apply\", \"id\": 4}"),
            "{listed}"
        );
    }

    #[test]
    fn content_rows_are_kept_as_they_are() {
        for row in [
            "12:see `hashline resolve apply 1` --only",
            "-3:resend with --as-sent (CLI) or \"allowSyntaxErrors\": true (JSON)",
            "4#VK|Use :6 to continue]",
            "ab_-:`hashline resolve`",
            "    7\t--overwrite",
        ] {
            assert_eq!(for_mcp(row), row);
        }
    }

    /// The engine's texts that name a CLI step, as the engine writes them: each must come out
    /// free of command lines (this fails when an engine text changes under the table).
    #[test]
    fn every_engine_phrase_is_translated() {
        let texts = [
            hashline_queue::QueueError::NoPreview { id: None }.to_string(),
            hashline_queue::QueueError::NoPreview {
                id: "4".parse().ok(),
            }
            .to_string(),
        ];
        for text in texts {
            let translated = for_mcp(&text);
            assert_eq!(cli_residue(&translated), None, "{text}");
        }
    }
}
