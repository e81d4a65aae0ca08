//! The seed's model-facing strings (seed `000`, `docs/dialects/hashline.md` §b/§e), verbatim.

/// Banner of a recovery from a head snapshot (the file changed outside the session).
pub const RECOVERY_EXTERNAL: &str = "[W_STALE_RECOVERED] Recovered from a stale file hash using a previous read snapshot (file changed externally between read and edit).";
/// Banner of a recovery from an older in-session snapshot.
pub const RECOVERY_SESSION_CHAIN: &str = "[W_STALE_RECOVERED] Recovered from a stale file hash using an earlier in-session snapshot (the file hash advanced after a prior edit in this session).";
/// Banner of a replay onto the live text.
pub const RECOVERY_SESSION_REPLAY: &str = "Recovered by replaying your edits onto the current file content — your previous edit in this session changed line(s) you re-targeted with a stale hash. Verify the diff matches your intent before continuing.";
/// Warning of a head/tail-only section applied despite a stale tag.
pub const HEAD_TAIL_DRIFT: &str = "Applied an `insert head:`/`insert tail:` edit onto the current file content even though the snapshot tag was stale (the file changed since your read). Head/tail position is content-independent, so the insert was not rejected — but re-read if the drift was unexpected.";
/// Refusal of an input with no section.
pub const NO_SECTIONS: &str = "No hashline sections found in input.";

/// The missing-tag refusal (the code's wording, §k).
pub fn missing_tag(path: &str) -> String {
    format!(
        "Missing hashline snapshot tag for edit to {path}; use `¶{path}#tag` from your latest read/search output. To create a new file, use the write tool."
    )
}

/// The missing-file refusal.
pub fn file_not_found(path: &str) -> String {
    format!("File not found: {path}. Use the write tool to create new files.")
}

/// The out-of-range anchor refusal.
pub fn line_range(line: u64, line_count: usize) -> String {
    format!("Line {line} does not exist (file has {line_count} lines)")
}

/// Two sections on one canonical file.
pub fn duplicate_target(first: &str, second: &str) -> String {
    format!(
        "Multiple hashline sections resolve to the same file ({first} and {second}). Merge their ops under one header before applying."
    )
}

/// The no-op diagnostic (tool text of a single no-op section; refusal in multi-section calls).
pub fn noop(path: &str) -> String {
    format!(
        "Edits to {path} parsed and applied cleanly, but produced no change: your body row(s) are byte-identical to the file at the targeted lines. The bug is somewhere else — re-read the file before issuing another edit. Do NOT widen the payload or add lines; verify the anchor first."
    )
}

/// The final preview's no-op refusal.
pub fn preview_noop(path: &str) -> String {
    format!("No changes would be made to {path}.")
}

/// A block op whose block could not be resolved (`replace block` wording for both ops).
pub fn block_unresolved(header_line: usize, line: u64) -> String {
    format!(
        "line {header_line}: `replace block {line}:` could not resolve a syntactic block beginning on line {line}. The language may be unsupported, the line may be blank or a closing delimiter, or the block may not parse. Use `replace {line}..M:` with the block's explicit end line instead."
    )
}

/// A block op with no resolver configured.
pub fn block_unavailable(header_line: usize) -> String {
    format!(
        "line {header_line}: `replace block N:` is not available here (no tree-sitter block resolver is configured). Use `replace N..M:` with an explicit range."
    )
}

/// The boundary-balance repair warning.
pub fn repaired(start: usize, action: &str) -> String {
    format!(
        "[W_AUTO_REPAIRED] Auto-repaired a delimiter-balance mismatch in the replacement at line {start}: {action}. Issue the payload as the final desired content only — never restate or omit a closing bracket bordering the range."
    )
}

/// A body row held a carriage return, or the new text starts with U+FEFF: a read shows those
/// as a line break / the byte-order mark, so the reported tag follows what a read will show.
pub use crate::pipeline::stage::REREAD_DIFFERS;
