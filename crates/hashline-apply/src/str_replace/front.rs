//! The str-replace front end of the executor: `str_replace`, `insert`, `create` and
//! `undo_edit` planned on one file (text found, stale views carried over through
//! [`crate::pipeline::recorded`]), and the oracle's texts of the result.

use hashline_core::{Edit, EditKind, ErrorCode, SpliceError, TextFile};
use hashline_state::StoreError;
use hashline_syntax::str_replace::Command;

use super::matching::{edit_line, find, line_of, lower, Found};
use super::texts::{line_range, numbered, py_lines, validation};
use super::{Refusal, STRIPPED, UNREAD};
use crate::fs::FsError;
use crate::pipeline::commit::CommitError;
use crate::pipeline::execute::{EditPlan, FrontEnd, Intent, Land, Opened, Plan};
use crate::pipeline::files::{decode, is_read_only, Decoding};
use crate::pipeline::recorded::{basis, carry_onto, Basis};
use crate::Entry;

/// What the plan found, for the result's snippet.
#[derive(Debug, Default)]
pub(super) struct Placed {
    /// The disk line the change starts on (`str_replace`: the match's first line; `insert`:
    /// the line it went after).
    pub line: usize,
}

/// The front end of one request on one file.
pub(super) struct StrReplace {
    pub path: String,
    pub shown: String,
    pub command: Command,
    pub max_bytes: u64,
    /// The undo entry's `before` (`None`: the edit created the file) and `after` texts.
    pub undo: Option<hashline_state::UndoEntry>,
    pub placed: Placed,
    pub warnings: Vec<String>,
}

/// The checks the oracle makes of a file before reading it: size, then binary content; the
/// file decoded (UTF-8, or the legacy code page it is in: [`Decoding::Legacy`]).
pub(super) fn validate(bytes: Vec<u8>, shown: &str, max_bytes: u64) -> Result<TextFile, Refusal> {
    let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if size > max_bytes {
        let mb = |n: u64| n as f64 / 1024.0 / 1024.0;
        return Err(Refusal::new(
            ErrorCode::FileTooLarge,
            validation(
                shown,
                &format!(
                    "File is too large ({:.1}MB). Maximum allowed size is {}MB.",
                    mb(size),
                    max_bytes / 1024 / 1024
                ),
            ),
        ));
    }
    let file = decode(bytes, Decoding::Legacy);
    if file.bytes().contains(&0) || file.is_lossy() {
        return Err(Refusal::new(
            ErrorCode::Binary,
            validation(
                shown,
                "File appears to be binary and this file type cannot be read or edited by this tool.",
            ),
        ));
    }
    Ok(file)
}

impl StrReplace {
    fn write_denied(&self) -> Refusal {
        Refusal::new(
            ErrorCode::PermissionDenied,
            format!(
                "Ran into [Errno 13] Permission denied: '{0}' while trying to write to {0}",
                self.shown
            ),
        )
    }

    /// The edits of `str_replace` or `insert` on `text` (the version matched in).
    fn edits_on(&mut self, text: &str) -> Result<(Edit, usize), Refusal> {
        let command = self.command.clone();
        match &command {
            Command::StrReplace { old_str, new_str } => {
                let (at, old, new) = match find(text, old_str) {
                    Found::Once(at) => {
                        if let Some(line) = indented_twice(text, at, old_str, new_str) {
                            return Err(Refusal::new(
                                ErrorCode::Indentation,
                                format!(
                                    "No replacement was performed: old_str starts after the indentation of line {line}, but new_str begins with its own indentation, so line {line} would be indented twice. Include the line's leading white space in old_str (or leave it out of new_str) and send it again."
                                ),
                            ));
                        }
                        (at, old_str.as_str(), new_str.as_str())
                    }
                    Found::Many(lines) => return Err(self.many(old_str, &lines)),
                    Found::None => self.stripped(text, old_str, new_str)?,
                };
                let mut changed = String::with_capacity(text.len() + new.len());
                changed.push_str(&text[..at]);
                changed.push_str(new);
                changed.push_str(&text[at + old.len()..]);
                let edit = lower(text, &changed, at, 0).unwrap_or(Edit {
                    kind: EditKind::InsertBefore(line_of(text, at)),
                    rows: Vec::new(),
                    origin: 0,
                });
                let offset = line_of(text, at).saturating_sub(edit_line(&edit));
                Ok((edit, offset))
            }
            Command::Insert {
                insert_line,
                new_str,
            } => {
                let count = py_lines(text).len();
                let line = usize::try_from(*insert_line)
                    .ok()
                    .filter(|&l| l <= count)
                    .ok_or_else(|| {
                        Refusal::new(
                            ErrorCode::LineRange,
                            format!(
                                "Invalid `insert_line` parameter: {insert_line}. It should be within the range of allowed values: [0, {count}]"
                            ),
                        )
                    })?;
                let rows = new_str.split('\n').map(str::to_owned).collect();
                let kind = if line == 0 {
                    EditKind::InsertBefore(1)
                } else {
                    EditKind::InsertAfter(line)
                };
                Ok((
                    Edit {
                        kind,
                        rows,
                        origin: 0,
                    },
                    0,
                ))
            }
            _ => Err(Refusal::new(ErrorCode::BadOp, "not an edit command")),
        }
    }

    fn many(&self, old: &str, lines: &[usize]) -> Refusal {
        let list: Vec<String> = lines.iter().map(ToString::to_string).collect();
        Refusal::new(
            ErrorCode::AmbiguousMatch,
            format!(
                "No replacement was performed. Multiple occurrences of old_str `{old}` in lines [{}]. Please ensure it is unique.",
                list.join(", ")
            ),
        )
    }

    /// DEVIATIONS §23: the oracle retries with both strings stripped. The stripped match is
    /// used only when it is unique and `new_str` has no surrounding white space to lose.
    fn stripped<'t>(
        &mut self,
        text: &str,
        old_str: &'t str,
        new_str: &'t str,
    ) -> Result<(usize, &'t str, &'t str), Refusal> {
        let old = old_str.trim();
        let not_found = |extra: &str| {
            Refusal::new(
                ErrorCode::NoMatch,
                format!(
                    "No replacement was performed, old_str `{old}` did not appear verbatim in {}.{extra}",
                    self.shown
                ),
            )
        };
        match find(text, old) {
            Found::None => Err(not_found("")),
            Found::Many(lines) => Err(self.many(old, &lines)),
            Found::Once(at) if new_str.trim() == new_str => {
                self.warnings.push(format!(
                    "{STRIPPED} old_str was not found verbatim; it was matched without its surrounding white space, on line {}. Check the result.",
                    line_of(text, at)
                ));
                Ok((at, old, new_str))
            }
            Found::Once(at) => Err(Refusal::new(
                ErrorCode::NoMatch,
                format!(
                    "No replacement was performed, old_str `{old_str}` did not appear verbatim in {}. Without its surrounding white space it occurs once (line {}), but new_str's own surrounding white space would then be lost: send old_str exactly as the file has it.",
                    self.shown,
                    line_of(text, at)
                ),
            )),
        }
    }

    fn plan_edit(&mut self, opened: Opened<'_>) -> Result<Plan, Refusal> {
        let bytes = opened.bytes.ok_or_else(|| self.not_found())?;
        let file = validate(bytes, &self.shown, self.max_bytes)?;
        if !opened.dry_run && is_read_only(opened.disk, opened.target) {
            return Err(self.write_denied());
        }
        let live = file.text();
        let key = &opened.target.key;
        let seen = match basis(opened.store, key, live) {
            // A `read` of the anchored modes showed (and recorded) these very bytes as UTF-8,
            // with U+FFFD: the file did not change, only the decoding differs.
            Basis::Recorded(text)
                if file.charset().is_some()
                    && TextFile::decode(file.bytes().to_vec()).text() == text =>
            {
                Basis::Live
            }
            // old_str is not in the version viewed but once in the file as it is: the model
            // copied it from the disk (a formatter or a shell edit since the view, seen through
            // its shell), so it is matched there.
            Basis::Recorded(text) if self.copied_from_disk(&text, live) => Basis::Live,
            seen => seen,
        };
        if seen == Basis::Unread {
            self.warnings.push(format!(
                "{UNREAD} {} was not viewed in this session: the edit was matched in the file as it is on disk.",
                self.shown
            ));
        }
        let (edit, offset) = self.edits_on(seen.text(live))?;
        let carried = carry_onto(&seen, live, &[edit], opened.store, key, opened.dry_run)
            .map_err(|r| self.stale(live, r.near))?;
        let first = carried.first().map_or(1, edit_line);
        self.placed.line = match &self.command {
            Command::Insert { .. } => first - 1,
            _ => first + offset,
        };
        Ok(Plan::Edit(EditPlan {
            file,
            edits: carried,
            spliced: None,
            land: Land::Update,
            warnings: Vec::new(),
        }))
    }

    /// Whether `old_str` is missing from the version `viewed` but occurs once in `live`.
    fn copied_from_disk(&self, viewed: &str, live: &str) -> bool {
        match &self.command {
            Command::StrReplace { old_str, .. } => {
                find(viewed, old_str) == Found::None
                    && matches!(find(live, old_str), Found::Once(_))
            }
            _ => false,
        }
    }

    fn stale(&self, live: &str, near: usize) -> Refusal {
        let from = near.saturating_sub(4).max(1);
        let snippet = line_range(live, from, near + 4);
        Refusal::new(
            ErrorCode::StaleAnchor,
            format!(
                "No edit was performed: {0} changed since it was last viewed, and the lines this edit matched there changed too. {1}View the file again and retry on its current text.",
                self.shown,
                numbered(snippet.strip_suffix('\n').unwrap_or(&snippet), &format!("a snippet of {}", self.shown), from)
            ),
        )
    }

    fn not_found(&self) -> Refusal {
        Refusal::new(
            ErrorCode::FileNotFound,
            super::texts::invalid_path(
                &self.shown,
                &format!(
                    "The path {} does not exist. Please provide a valid path.",
                    self.shown
                ),
            ),
        )
    }
}

impl FrontEnd for StrReplace {
    type Error = Refusal;

    fn intents(&self) -> Vec<Intent> {
        vec![Intent {
            path: self.path.clone(),
            dest: None,
        }]
    }

    fn fs_error(&self, _i: usize, e: FsError) -> Refusal {
        super::fs_refusal(&e, &self.shown)
    }

    fn one_hunk_per_call(&self) -> bool {
        true
    }

    fn plan(&mut self, opened: Opened<'_>) -> Result<Plan, Refusal> {
        match &self.command {
            Command::Create { file_text } => {
                if opened.bytes.is_some() {
                    return Err(super::exists(&self.shown));
                }
                // The parent is looked up on the disk the call runs on (a `MemoryDisk`
                // has its own directories), never on the host's working directory.
                if !parent_is_directory(&opened, &self.path) {
                    return Err(Refusal::new(
                        ErrorCode::FileNotFound,
                        format!(
                            "Ran into [Errno 2] No such file or directory: '{0}' while trying to write to {0}",
                            self.shown
                        ),
                    ));
                }
                let edits = vec![Edit {
                    kind: EditKind::Head,
                    rows: file_text.split('\n').map(str::to_owned).collect(),
                    origin: 0,
                }];
                Ok(Plan::Edit(EditPlan {
                    file: TextFile::decode(Vec::new()),
                    edits,
                    spliced: None,
                    land: Land::Create,
                    warnings: Vec::new(),
                }))
            }
            Command::UndoEdit => {
                let bytes = opened.bytes.ok_or_else(|| self.not_found())?;
                let file = validate(bytes, &self.shown, self.max_bytes)?;
                let entry = self
                    .undo
                    .clone()
                    .ok_or_else(|| super::no_history(&self.shown))?;
                if file.text() != entry.after {
                    return Err(Refusal::new(
                        ErrorCode::StaleAnchor,
                        format!(
                            "The last edit to {0} was not undone: the file changed since that edit. View {0} and edit it directly.",
                            self.shown
                        ),
                    ));
                }
                if !opened.dry_run && is_read_only(opened.disk, opened.target) {
                    return Err(self.write_denied());
                }
                let Some(before) = entry.before else {
                    return Ok(Plan::Delete(file.into_bytes()));
                };
                let edits = lower(file.text(), &before, 0, 0).into_iter().collect();
                Ok(Plan::Edit(EditPlan {
                    file,
                    edits,
                    spliced: None,
                    land: Land::Update,
                    warnings: Vec::new(),
                }))
            }
            _ => self.plan_edit(opened),
        }
    }

    fn splice_error(&self, e: SpliceError) -> Refusal {
        Refusal::new(ErrorCode::LineRange, e.to_string())
    }

    fn anchor(&self, _i: usize, lines: &[&str], n: usize) -> String {
        hashline_core::excerpt::cat_n(n, lines.get(n - 1).copied().unwrap_or(""))
    }

    fn label(&self, _i: usize, _e: &Edit) -> String {
        self.path_command()
    }

    fn store_error(&self, e: StoreError) -> Refusal {
        Refusal::new(ErrorCode::Io, format!("session store: {e}"))
    }

    fn store_warning(&self, e: &StoreError) -> String {
        crate::not_recorded("The edit was written", e)
    }

    fn commit_error(&self, e: CommitError) -> Refusal {
        let CommitError::Fs(e) = e;
        super::fs_refusal(&e, &self.shown)
    }
}

impl StrReplace {
    fn path_command(&self) -> String {
        let name = match self.command {
            Command::View { .. } => "view",
            Command::Create { .. } => "create",
            Command::StrReplace { .. } => "str_replace",
            Command::Insert { .. } => "insert",
            Command::UndoEdit => "undo_edit",
        };
        format!("{name} on {}", self.shown)
    }
}

/// The 1-based line whose indentation a replacement at `at` would double: `old_str` starts
/// right after that line's indentation (white space only before it on the line, none at its
/// own start) while `new_str` starts with white space of its own, a model's habit of copying
/// the line without its indentation but writing the new one in full.
fn indented_twice(text: &str, at: usize, old_str: &str, new_str: &str) -> Option<usize> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    let blank = |c: char| c == ' ' || c == '\t';
    let after_indent = !before.is_empty() && before.chars().all(blank);
    let own_indent = !old_str.starts_with(blank) && new_str.starts_with(blank);
    (after_indent && own_indent).then(|| line_of(text, at))
}

/// Whether the directory `path` would be created in exists on the call's disk (the root always
/// does).
fn parent_is_directory(opened: &Opened<'_>, path: &str) -> bool {
    let parent = std::path::Path::new(path)
        .parent()
        .map(|p| p.to_string_lossy())
        .filter(|p| !p.is_empty());
    let Some(parent) = parent else {
        return true;
    };
    opened
        .disk
        .resolve(&parent)
        .is_ok_and(|dir| opened.disk.entry(&dir) == Entry::Directory)
}

#[cfg(test)]
mod tests {
    use super::indented_twice;

    #[test]
    fn old_str_without_the_indentation_new_str_with_it_is_caught() {
        let text = "fn f() {\n    let a = 1;\n}\n";
        let at = text.find("let a").expect("found");
        assert_eq!(
            indented_twice(text, at, "let a = 1;", "    let a = 2;"),
            Some(2)
        );
        // new_str without indentation keeps the line's: fine.
        assert_eq!(indented_twice(text, at, "let a = 1;", "let a = 2;"), None);
        // Inside a line, or from the line's start: fine.
        let mid = text.find("a = 1").expect("found");
        assert_eq!(indented_twice(text, mid, "a = 1;", "  b = 1;"), None);
        assert_eq!(
            indented_twice(text, at - 4, "    let a = 1;", "    let a = 2;"),
            None
        );
    }
}
