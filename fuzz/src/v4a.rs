//! The V4A (`apply_patch`) parser on any text.

use hashline_syntax::apply_patch::{parse_patch, Hunk, ParseError, Row};

/// A parse never panics; a refusal names a hunk line inside the text; no parsed path, row or
/// added line holds a line break; every update has a chunk and every chunk a row.
pub fn check_apply_patch(text: &str) {
    let patch = match parse_patch(text) {
        Ok(patch) => patch,
        Err(ParseError::Hunk { line, message }) => {
            assert!(line >= 2 && line <= text.lines().count(), "line {line}");
            assert!(!message.is_empty(), "empty refusal");
            return;
        }
        Err(ParseError::Patch(message)) => {
            assert!(!message.is_empty(), "empty refusal");
            return;
        }
    };
    let no_break = |s: &str| assert!(!s.contains('\n'), "line break in {s:?}");
    for hunk in &patch.hunks {
        no_break(hunk.path());
        match hunk {
            Hunk::Add { lines, .. } => lines.iter().for_each(|l| no_break(l)),
            Hunk::Delete { .. } => {}
            Hunk::Update {
                chunks, move_to, ..
            } => {
                assert!(!chunks.is_empty(), "update without chunks");
                move_to.as_deref().map(no_break);
                for chunk in chunks {
                    assert!(!chunk.rows.is_empty(), "chunk without rows");
                    for row in &chunk.rows {
                        let (Row::Context(t) | Row::Remove(t) | Row::Add(t)) = row;
                        no_break(t);
                    }
                }
            }
        }
    }
}
