//! The parser: Codex 0.169.0's rules and texts, written from its observed behaviour.
//!
//! The text is trimmed and split into lines (a `\r` before each `\n` dropped). The first and
//! last lines, trimmed, must be `*** Begin Patch` and `*** End Patch`; failing that, a heredoc
//! wrapper (`<<EOF`, `<<'EOF'` or `<<"EOF"` first, a last line ending in `EOF`, at least four
//! lines) is peeled off and the markers checked inside it. Hunk headers are matched trimmed;
//! blank lines between chunks are skipped; a line starting with `***` ends an update; the first
//! chunk of an update may omit its `@@` line; a `*** End Patch` where a hunk would start ends
//! the patch.

use super::model::{Chunk, Hunk, Patch, Row};

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File: ";
const DELETE: &str = "*** Delete File: ";
const UPDATE: &str = "*** Update File: ";
const MOVE: &str = "*** Move to: ";
const END_OF_FILE: &str = "*** End of File";

/// Why a patch does not parse; its `Display` is Codex's error text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The patch as a whole is malformed (its markers).
    #[error("Invalid patch: {0}")]
    Patch(String),
    /// A hunk is malformed.
    #[error("Invalid patch hunk on line {line}: {message}")]
    Hunk {
        /// 1-based line of the patch (after the wrapper is removed).
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// Parse `text` as Codex does (its lenient mode). A patch with no hunks parses; applying it is
/// the caller's refusal.
pub fn parse_patch(text: &str) -> Result<Patch, ParseError> {
    let all: Vec<&str> = text.trim().lines().collect();
    let lines = match check_markers(&all) {
        Ok(()) => &all[..],
        Err(e) => unwrap_heredoc(&all).ok_or(e)??,
    };
    let body = &lines[1..lines.len() - 1];
    let mut hunks = Vec::new();
    let mut at = 0;
    while at < body.len() {
        if body[at].trim() == END {
            // An earlier `*** End Patch` ends the patch; what follows it is ignored.
            break;
        }
        let (hunk, used) = parse_hunk(&body[at..], at + 2)?;
        hunks.push(hunk);
        at += used;
    }
    Ok(Patch { hunks })
}

fn check_markers(lines: &[&str]) -> Result<(), ParseError> {
    let first = lines.first().map(|l| l.trim());
    let last = lines.last().map(|l| l.trim());
    if first == Some(BEGIN) && last == Some(END) && lines.len() >= 2 {
        return Ok(());
    }
    if first != Some(BEGIN) && first.is_some() {
        return Err(ParseError::Patch(
            "The first line of the patch must be '*** Begin Patch'".into(),
        ));
    }
    Err(ParseError::Patch(
        "The last line of the patch must be '*** End Patch'".into(),
    ))
}

/// The lines inside a heredoc wrapper (`None`: there is none), checked for the markers.
fn unwrap_heredoc<'a, 'b>(lines: &'b [&'a str]) -> Option<Result<&'b [&'a str], ParseError>> {
    let (first, last) = (lines.first()?, lines.last()?);
    let opener = matches!(*first, "<<EOF" | "<<'EOF'" | "<<\"EOF\"");
    if !opener || !last.ends_with("EOF") || lines.len() < 4 {
        return None;
    }
    let inner = &lines[1..lines.len() - 1];
    Some(check_markers(inner).map(|()| inner))
}

/// One hunk at the start of `lines` (`line` = the patch line of `lines[0]`): the hunk and the
/// number of lines it took.
fn parse_hunk(lines: &[&str], line: usize) -> Result<(Hunk, usize), ParseError> {
    let header = lines[0].trim();
    if let Some(path) = header.strip_prefix(ADD) {
        let rows: Vec<String> = lines[1..]
            .iter()
            .map_while(|l| l.strip_prefix('+'))
            .map(str::to_owned)
            .collect();
        let used = rows.len() + 1;
        let hunk = Hunk::Add {
            path: path.to_owned(),
            lines: rows,
        };
        return Ok((hunk, used));
    }
    if let Some(path) = header.strip_prefix(DELETE) {
        let hunk = Hunk::Delete {
            path: path.to_owned(),
        };
        return Ok((hunk, 1));
    }
    if let Some(path) = header.strip_prefix(UPDATE) {
        return parse_update(path, lines, line);
    }
    Err(ParseError::Hunk {
        line,
        message: format!(
            "'{header}' is not a valid hunk header. Valid hunk headers: '*** Add File: {{path}}', '*** Delete File: {{path}}', '*** Update File: {{path}}'"
        ),
    })
}

fn parse_update(path: &str, lines: &[&str], line: usize) -> Result<(Hunk, usize), ParseError> {
    let mut used = 1;
    let move_to = lines.get(1).and_then(|l| l.strip_prefix(MOVE));
    if move_to.is_some() {
        used += 1;
    }
    let mut chunks = Vec::new();
    while let Some(next) = lines.get(used) {
        if next.trim().is_empty() {
            used += 1;
            continue;
        }
        if next.starts_with("***") {
            break;
        }
        let (chunk, taken) = parse_chunk(&lines[used..], line + used, chunks.is_empty())?;
        chunks.push(chunk);
        used += taken;
    }
    if chunks.is_empty() {
        return Err(ParseError::Hunk {
            line,
            message: format!("Update file hunk for path '{path}' is empty"),
        });
    }
    let hunk = Hunk::Update {
        path: path.to_owned(),
        move_to: move_to.map(str::to_owned),
        chunks,
    };
    Ok((hunk, used))
}

fn no_lines(line: usize) -> ParseError {
    ParseError::Hunk {
        line,
        message: "Update hunk does not contain any lines".into(),
    }
}

/// One chunk at the start of `lines` (non-empty; `first` = the update's first chunk, which may
/// omit its `@@` line).
fn parse_chunk(lines: &[&str], line: usize, first: bool) -> Result<(Chunk, usize), ParseError> {
    let (context, start) = match lines[0] {
        "@@" => (None, 1),
        l => match l.strip_prefix("@@ ") {
            Some(c) => (Some(c.to_owned()), 1),
            None if first => (None, 0),
            None => {
                return Err(ParseError::Hunk {
                    line,
                    message: format!(
                        "Expected update hunk to start with a @@ context marker, got: '{l}'"
                    ),
                })
            }
        },
    };
    if start >= lines.len() {
        return Err(no_lines(line + start));
    }
    let mut chunk = Chunk {
        context,
        rows: Vec::new(),
        end_of_file: false,
    };
    let mut taken = 0;
    for row in &lines[start..] {
        if *row == END_OF_FILE {
            if taken == 0 {
                return Err(no_lines(line + start));
            }
            chunk.end_of_file = true;
            taken += 1;
            break;
        }
        let parsed = match row.chars().next() {
            None => Row::Context(String::new()),
            Some(' ') => Row::Context(row[1..].to_owned()),
            Some('+') => Row::Add(row[1..].to_owned()),
            Some('-') => Row::Remove(row[1..].to_owned()),
            Some(_) if taken == 0 => {
                return Err(ParseError::Hunk {
                    line: line + start,
                    message: format!(
                        "Unexpected line found in update hunk: '{row}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)"
                    ),
                })
            }
            Some(_) => break,
        };
        chunk.rows.push(parsed);
        taken += 1;
    }
    Ok((chunk, taken + start))
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
