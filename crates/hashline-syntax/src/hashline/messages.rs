//! The seed's messages, verbatim (hashline.md §b "Complete message catalogue", the
//! contamination table, and the code's wording where §k says the code differs from the doc).
//!
//! Parse-time messages are returned without their `line <L>: ` prefix; [`at_line`] adds it.
//! The block-resolution and patcher messages are the engine's to raise, but live here too so
//! every seed string of the language has one home.

use super::js_text::{json_quote, json_quote_prefix, json_quote_preview};

/// The `<P>` preview length of the contamination messages (UTF-16 units).
const PREVIEW_UNITS: usize = 48;
/// How much of the first line the "input must begin" error quotes (UTF-16 units).
const FIRST_LINE_UNITS: usize = 120;

/// `line <L>: <message>`.
pub fn at_line(line: usize, message: &str) -> String {
    format!("line {line}: {message}")
}

/// A `-` row under a hunk.
pub const MINUS_ROW_REJECTED: &str = "`-` rows are not valid; hashline ranges already name the lines being changed. To insert a literal line starting with `-`, write `+-…`.";
/// A `replace N..M:` hunk with no rows.
pub const EMPTY_REPLACE: &str =
    "`replace N..M:` needs at least one `+TEXT` body row. To delete lines, use `delete N..M`.";
/// A `replace block N:` hunk with no rows.
pub const EMPTY_REPLACE_BLOCK: &str = "`replace block N:` needs at least one `+TEXT` body row. To delete a block, use `delete N..M` with the block's line range.";
/// An `insert …:` hunk with no rows.
pub const EMPTY_INSERT: &str = "`insert` needs at least one `+TEXT` body row.";
/// A body row under `delete N..M`.
pub const DELETE_TAKES_NO_BODY: &str =
    "`delete N..M` does not take body rows. Remove the body, or use `replace N..M:`.";
/// A body row under `delete block N`.
pub const DELETE_BLOCK_TAKES_NO_BODY: &str = "`delete block N` does not take body rows. Remove the body, or use `replace block N:` to replace the block.";
/// `delete N..M:` (a colon on a delete).
pub const DELETE_WITH_COLON: &str =
    "`delete N..M` has no colon and no body. Remove the colon and body rows.";
/// A unified-diff hunk header inside a section body.
pub const UNIFIED_DIFF_IN_BODY: &str = "unified-diff hunk header (`@@ -N,M +N,M @@`) is not valid in hashline. Use `replace N..M:`, `delete N..M`, or `insert before|after|head|tail:` ops.";
/// A unified-diff hunk header where the first section header belongs.
pub const UNIFIED_DIFF_FIRST_LINE: &str = "unified-diff hunk header (`@@ -N,M +N,M @@`) is not valid in hashline. File sections start with `¶path#HASH`; use `replace`, `delete`, or `insert` ops.";
/// A bare (un-prefixed) row after a blank line inside a hunk: the blank is ambiguous.
pub const BARE_ROWS_WITH_BLANKS: &str = "A bare body row follows a blank line in the same hunk: the blank line could be content or a separator, so nothing was written. Prefix every payload row with `+` (a blank row is a lone `+`) and send the patch again.";
/// The parse warning added (once) when bare rows were auto-prefixed with `+`.
pub const BARE_BODY_AUTO_PIPED_WARNING: &str = "[W_AUTO_PREFIXED] Auto-prefixed bare body row(s) with `+`. Body rows must be `+TEXT` literal lines; pasting raw code as payload is not a portable shape.";
/// The engine's error for an input that yields no section.
pub const NO_SECTIONS: &str = "No hashline sections found in input.";

/// A raw line with no pending hunk.
pub fn stray_raw_line(raw: &str) -> String {
    format!(
        "payload line has no preceding hunk header. Use `replace N..M:`, `delete N..M`, or `insert before|after|head|tail:` above the body. Got {}.",
        json_quote(raw)
    )
}

/// A `+TEXT` row with no pending hunk (no guidance sentence, as in the code).
pub fn stray_payload_line(line: &str) -> String {
    format!(
        "payload line has no preceding hunk header. Got {}.",
        json_quote(line)
    )
}

/// `replace B..A:` / `delete B..A` with `A < B`.
pub fn range_out_of_order(start: u64, end: u64) -> String {
    format!("range {start}..{end} ends before it starts.")
}

/// The same original line deleted by two hunks.
pub fn overlap(anchor: u64, earlier_header_line: usize) -> String {
    format!(
        "anchor line {anchor} is already targeted by another hunk on line {earlier_header_line}. Issue ONE hunk per range; payload is only the final desired content, never a before/after pair."
    )
}

/// A V4A file sentinel (`*** Update File:` …) inside a body.
pub fn v4a_sentinel(text: &str) -> String {
    format!(
        "apply_patch sentinel {} is not valid in hashline. File sections start with `¶path#HASH` (no `Update File:` / `Add File:` keyword). Use `replace N..M:`, `delete N..M`, or `insert before|after|head|tail:` ops.",
        json_quote_preview(text, PREVIEW_UNITS)
    )
}

/// A raw line shaped like an op header that is not one.
pub fn near_miss_header(text: &str) -> String {
    format!(
        "{} looks like an op header but is not one, so it would be written into the file. Use `replace N..M:`, `delete N..M`, or `insert before|after N:` / `insert head|tail:` (lower case, `..` between line numbers).",
        json_quote_preview(text, PREVIEW_UNITS)
    )
}

/// Any other `@@…` line.
pub fn at_bracketed_header(text: &str) -> String {
    format!(
        "`@@`-bracketed hunk header {} is not valid in hashline. Drop the `@@ ... @@` brackets and write a verb header such as `replace N..M:`.",
        json_quote_preview(text, PREVIEW_UNITS)
    )
}

/// A header that is only a number (`text` is the line without leading white space, as the
/// seed substitutes it).
pub fn bare_number_header(text: &str) -> String {
    format!(
        "hunk headers need a verb. Use `replace {text}..{text}:` to replace, or `delete {text}` to delete."
    )
}

/// A header that is only a range `N M` (`text` is the line without leading white space).
pub fn bare_range_header(text: &str, start: &str, end: &str) -> String {
    format!(
        "bare range hunk header {} is not valid. Hunk headers need a verb: write `replace {start}..{end}:` or `delete {start}..{end}`.",
        json_quote(text)
    )
}

/// The first non-blank line of the input is not a section header.
pub fn input_must_begin(first_line: &str) -> String {
    format!(
        "input must begin with \"¶PATH#HASH\" on the first non-blank line for anchored edits; got: {}. Example: \"¶src/foo.ts#0A3\" then edit ops.",
        json_quote_prefix(first_line, FIRST_LINE_UNITS)
    )
}

/// A `¶` line that is neither a strict nor a recoverable header.
pub fn bad_header(trimmed_line: &str) -> String {
    format!(
        "Input header must be ¶PATH or ¶PATH#TAG with a 4-hex content-hash tag; got {}.",
        json_quote(trimmed_line)
    )
}

/// A strict header whose path normalizes to nothing.
pub const EMPTY_HEADER: &str = "Input header \"¶\" is empty; provide a file path.";

/// Two same-path sections with different tags.
pub fn conflicting_tags(path: &str, first: &str, second: &str) -> String {
    format!(
        "Conflicting hashline snapshot tags for {path}: #{first} and #{second}. Re-read the file and retry with one current header."
    )
}

/// `replace block N:` / `delete block N` that no block resolves (engine; prefix with the
/// hunk's header line).
pub fn block_unresolved(line: u64) -> String {
    format!(
        "`replace block {line}:` could not resolve a syntactic block beginning on line {line}. The language may be unsupported, the line may be blank or a closing delimiter, or the block may not parse. Use `replace {line}..M:` with the block's explicit end line instead."
    )
}

/// A block hunk with no resolver configured (engine; prefix with the hunk's header line).
pub const BLOCK_RESOLVER_MISSING: &str = "`replace block N:` is not available here (no tree-sitter block resolver is configured). Use `replace N..M:` with an explicit range.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builders_match_the_peer_strings() {
        assert_eq!(
            at_line(1, &bare_range_header("2 3", "2", "3")),
            "line 1: bare range hunk header \"2 3\" is not valid. Hunk headers need a verb: write `replace 2..3:` or `delete 2..3`."
        );
        assert_eq!(
            at_line(1, &bare_number_header("2")),
            "line 1: hunk headers need a verb. Use `replace 2..2:` to replace, or `delete 2` to delete."
        );
        assert_eq!(
            at_line(1, &stray_payload_line("+const X = 1;")),
            "line 1: payload line has no preceding hunk header. Got \"+const X = 1;\"."
        );
        assert_eq!(
            at_line(1, &block_unresolved(3)),
            "line 1: `replace block 3:` could not resolve a syntactic block beginning on line 3. The language may be unsupported, the line may be blank or a closing delimiter, or the block may not parse. Use `replace 3..M:` with the block's explicit end line instead."
        );
        assert_eq!(
            conflicting_tags("a.ts", "1A2B", "3C4D"),
            "Conflicting hashline snapshot tags for a.ts: #1A2B and #3C4D. Re-read the file and retry with one current header."
        );
        assert_eq!(
            v4a_sentinel(&"*** Update File: ".repeat(4)),
            format!(
                "apply_patch sentinel \"{}…\" is not valid in hashline. File sections start with `¶path#HASH` (no `Update File:` / `Add File:` keyword). Use `replace N..M:`, `delete N..M`, or `insert before|after|head|tail:` ops.",
                &"*** Update File: ".repeat(4)[..48]
            )
        );
    }
}
