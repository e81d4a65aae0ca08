//! The dialect's texts: Codex's success summary and error texts, and our own for the
//! departures (DEVIATIONS §16–21).

use hashline_core::ErrorCode;
use hashline_syntax::apply_patch::Hunk;

use super::lower::Names;
use super::seek::Level;
use hashline_core::Refusal;

/// Codex's summary of an applied patch: added, then modified (a move under its destination),
/// then deleted files, each in patch order, paths as written.
pub(crate) fn summary(hunks: &[Hunk]) -> String {
    let mut out = String::from("Success. Updated the following files:\n");
    let rows = |kind: char, out: &mut String| {
        for hunk in hunks {
            let path = match (kind, hunk) {
                ('A', Hunk::Add { path, .. }) | ('D', Hunk::Delete { path }) => path,
                ('M', Hunk::Update { path, move_to, .. }) => move_to.as_ref().unwrap_or(path),
                _ => continue,
            };
            out.push_str(&format!("{kind} {path}\n"));
        }
    };
    for kind in ['A', 'M', 'D'] {
        rows(kind, &mut out);
    }
    out
}

/// Codex's refusal of a patch without hunks.
pub(crate) fn no_hunks() -> Refusal {
    Refusal::new(ErrorCode::Noop, "No files were modified.")
}

/// Codex's text for an update of a missing file.
pub(crate) fn update_missing(abs: &str) -> Refusal {
    Refusal::new(
        ErrorCode::FileNotFound,
        format!("Failed to read file to update {abs}: No such file or directory (os error 2)"),
    )
}

/// Codex's text for a delete of a missing file.
pub(crate) fn delete_missing(abs: &str) -> Refusal {
    Refusal::new(
        ErrorCode::FileNotFound,
        format!("Failed to delete file {abs}"),
    )
}

/// Codex's text for an update of a file that is not UTF-8 (`why`: the decoder's words).
pub(crate) fn not_utf8(abs: &str, why: &str) -> Refusal {
    Refusal::new(
        ErrorCode::Binary,
        format!("Failed to read file to update {abs}: {why}"),
    )
}

/// Ours: `*** Add File:` onto a file that exists (DEVIATIONS §18).
pub(crate) fn add_exists(path: &str) -> Refusal {
    Refusal::new(
        ErrorCode::FileExists,
        format!(
            "Refusing to add {path}: it already exists and *** Add File: would replace it. \
             Use *** Update File: {path} to change it, or resend with --overwrite to replace it. \
             No files were modified."
        ),
    )
}

/// Ours: `*** Move to:` onto a file that exists (DEVIATIONS §18).
pub(crate) fn move_exists(path: &str, dest: &str) -> Refusal {
    Refusal::new(
        ErrorCode::FileExists,
        format!(
            "Refusing to move {path} to {dest}: {dest} already exists and would be replaced. \
             Choose another destination, or resend with --overwrite to replace it. \
             No files were modified."
        ),
    )
}

/// Ours: a chunk's lines (or its `@@` line) occur more than once (DEVIATIONS §19).
pub(crate) fn ambiguous(
    names: &Names<'_>,
    chunk: usize,
    lines: &[&str],
    hits: &[usize],
) -> Refusal {
    let at: Vec<String> = hits.iter().map(|h| (h + 1).to_string()).collect();
    let more = if hits.len() > 2 { " and more" } else { "" };
    Refusal::new(
        ErrorCode::AmbiguousContext,
        format!(
            "Chunk {} of {} matches more than once (at lines {}{more}):\n{}\n\
             Add context lines (or an @@ line naming the enclosing function or class) so the chunk \
             matches exactly one place. No files were modified.",
            chunk + 1,
            names.path,
            at.join(", "),
            lines.join("\n")
        ),
    )
}

/// Ours: a chunk found only after relaxing white space or Unicode (DEVIATIONS §19).
pub(crate) fn loose(path: &str, chunk: usize, line: usize, level: Level) -> String {
    format!(
        "[W_LOOSE_CONTEXT] chunk {} of {path} matched line {line} only after ignoring {}; \
         the lines it keeps keep the file's text, check the lines it changed",
        chunk + 1,
        level.relaxed()
    )
}

/// Ours: the file changed since the session read it, and the lines each of `stale` ("chunk 2 of
/// a.txt", and the 1-based disk line to show context around) matched in the version read were
/// changed, removed or repeated on disk (DEVIATIONS §27); the other chunks would carry over.
/// `total`: how many chunks the patch has for the file; `lines`: the disk's lines.
pub(crate) fn stale(
    path: &str,
    stale: &[(String, usize)],
    total: usize,
    lines: &[&str],
) -> Refusal {
    let names: Vec<&str> = stale.iter().map(|(what, _)| what.as_str()).collect();
    let what = match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    };
    let mut shown = String::new();
    let mut blocks: Vec<(usize, usize)> = Vec::new();
    for &(_, near) in stale {
        let from = near.saturating_sub(4).max(1);
        let to = (near + 4).min(lines.len());
        if blocks.iter().any(|&(f, t)| from <= t && f <= to) {
            continue;
        }
        blocks.push((from, to));
        shown.push_str(&format!("Lines {from}-{to} of {path} now read:\n"));
        if from > to {
            shown.push_str("(the file is now empty)\n");
        }
        for n in from..=to {
            shown.push_str(&hashline_core::excerpt::cat_n(n, lines[n - 1]));
            shown.push('\n');
        }
    }
    let others = if total > stale.len() {
        "Only those lines changed: the patch's other chunks would carry over as written. "
    } else {
        ""
    };
    Refusal::new(
        ErrorCode::StaleAnchor,
        format!(
            "{path} changed since it was read in this session, and the lines {what} matched \
             there were changed, removed or repeated on disk. {shown}{others}\
             Read the file again and resend the patch with context copied from its current \
             text. No files were modified."
        ),
    )
}

/// Ours: two hunks whose files cannot be applied one after the other in one call.
pub(crate) fn tangled(path: &str) -> Refusal {
    Refusal::new(
        ErrorCode::DuplicateFile,
        format!(
            "{path} is named by a *** Move to: and by another hunk of the same patch. \
             Send the move in a patch of its own. No files were modified."
        ),
    )
}

/// Ours: two paths of the patch that the file system resolves to one file (a link, or a move
/// onto a file another hunk names).
pub(crate) fn one_file_twice(path: &str) -> Refusal {
    Refusal::new(
        ErrorCode::DuplicateFile,
        format!(
            "{path} is reached by two different paths of this patch (through a link, or as a \
             *** Move to: destination); its changes cannot be applied one after the other in \
             one call. Name the file by one path, or send the hunks in separate patches. No \
             files were modified."
        ),
    )
}
