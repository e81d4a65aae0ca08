//! The apply-patch front end of the executor: the patch's hunks grouped per file (one intent
//! each, in order of first mention), each file's hunks played in patch order on the file as
//! read (Codex's order of effects, DEVIATIONS §16: the executor then writes all files or none),
//! and Codex's words for failures.

mod play;

use hashline_core::{Edit, ErrorCode, SpliceError, TextFile};
use hashline_state::StoreError;
use hashline_syntax::apply_patch::Hunk;

use super::texts;
use crate::fs::FsError;
use crate::pipeline::commit::CommitError;
use crate::pipeline::execute::{Done, EditPlan, FrontEnd, Intent, Land, Opened, Plan};
use crate::pipeline::recorded::{basis, Basis};
use hashline_core::Refusal;
use play::{recorded_file, rewrite, Carry};

/// The hunks of one file: its path as first written, its spelling without `.` components
/// (`./a` and `a` are one group), its hunks (indices into the patch), where it moves.
struct Group {
    path: String,
    key: String,
    hunks: Vec<usize>,
    dest: Option<String>,
}

/// `path` without empty and `.` components (`./src//a.rs` → `src/a.rs`): the same file
/// whatever links are on the way. `..` is kept (through a link it need not be the parent).
fn spelling(path: &str) -> String {
    let lead = if path.starts_with('/') { "/" } else { "" };
    let parts: Vec<&str> = path
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    format!("{lead}{}", parts.join("/"))
}

/// A V4A patch as the executor's front end.
pub(crate) struct ApplyPatch {
    hunks: Vec<Hunk>,
    groups: Vec<Group>,
    /// The root as Codex prints it in front of a relative path.
    root: String,
    overwrite: bool,
    /// The first failure in patch order: (hunk index, refusal).
    failure: Option<(usize, Refusal)>,
    /// Per file, each edit origin's name ("chunk 2 of a.txt").
    labels: Vec<Vec<String>>,
    /// Notes for files the session never read.
    pub notes: Vec<String>,
}

impl ApplyPatch {
    /// Group `hunks` per file (two spellings of one path, `./a` and `a`, are one file, its
    /// hunks played in patch order as Codex applies them). A file moved by `*** Move to:` is
    /// named by its new path from then on (docs/DEVIATIONS.md, "A moved file named again"):
    /// later hunks of that path join its group and play on the moved text; a later `Update` or
    /// `Delete` of the old path fails as Codex fails there (the file is gone), and what Codex
    /// would do by overwriting (an `Add` of the old path, a moved file moved again, a move onto
    /// a path another hunk names) is refused as tangled. Nothing is written either way.
    pub fn new(hunks: Vec<Hunk>, root: String, overwrite: bool) -> Result<ApplyPatch, Refusal> {
        let mut groups: Vec<Group> = Vec::new();
        let mut failure = None;
        for (h, hunk) in hunks.iter().enumerate() {
            let path = hunk.path();
            let key = spelling(path);
            let moved_here = groups
                .iter()
                .position(|g| g.dest.as_deref().map(spelling).as_deref() == Some(&key));
            if let Some(g) = moved_here {
                if matches!(
                    hunk,
                    Hunk::Update {
                        move_to: Some(_),
                        ..
                    }
                ) {
                    return Err(texts::tangled(path));
                }
                groups[g].hunks.push(h);
                continue;
            }
            let g = match groups.iter().position(|g| g.key == key) {
                Some(g) if groups[g].dest.is_some() => {
                    let abs = std::path::Path::new(&root).join(path).display().to_string();
                    let gone = match hunk {
                        Hunk::Update { .. } => texts::update_missing(&abs),
                        Hunk::Delete { .. } => texts::delete_missing(&abs),
                        Hunk::Add { .. } => return Err(texts::tangled(path)),
                    };
                    failure.get_or_insert((h, gone));
                    continue;
                }
                Some(g) => g,
                None => {
                    groups.push(Group {
                        path: path.to_owned(),
                        key,
                        hunks: Vec::new(),
                        dest: None,
                    });
                    groups.len() - 1
                }
            };
            let group = &mut groups[g];
            group.hunks.push(h);
            if let Hunk::Update {
                move_to: Some(dest),
                ..
            } = hunk
            {
                group.dest = Some(dest.clone());
            }
        }
        for g in &groups {
            if let Some(dest) = &g.dest {
                let to = spelling(dest);
                if groups.iter().any(|o| {
                    (o.key == to && !std::ptr::eq(o, g))
                        || (o.dest.as_deref().map(spelling) == Some(to.clone())
                            && !std::ptr::eq(o, g))
                }) {
                    return Err(texts::tangled(dest));
                }
            }
        }
        let labels = vec![Vec::new(); groups.len()];
        Ok(ApplyPatch {
            hunks,
            groups,
            root,
            overwrite,
            failure,
            labels,
            notes: Vec::new(),
        })
    }

    /// The parsed hunks.
    pub fn hunks(&self) -> &[Hunk] {
        &self.hunks
    }

    fn abs(&self, path: &str) -> String {
        std::path::Path::new(&self.root)
            .join(path)
            .display()
            .to_string()
    }

    /// Keep the failure that comes first in the patch.
    fn fail(&mut self, hunk: usize, e: Refusal) {
        if self.failure.as_ref().is_none_or(|(h, _)| hunk < *h) {
            self.failure = Some((hunk, e));
        }
    }
}

fn noop_plan(bytes: Option<Vec<u8>>) -> Plan {
    noop_file(bytes.map(TextFile::decode))
}

/// [`noop_plan`] of a file already decoded.
fn noop_file(file: Option<TextFile>) -> Plan {
    Plan::Edit(EditPlan {
        file: file.unwrap_or_else(|| TextFile::decode(Vec::new())),
        edits: Vec::new(),
        spliced: None,
        land: Land::Update,
        warnings: Vec::new(),
    })
}

impl FrontEnd for ApplyPatch {
    type Error = Refusal;

    fn intents(&self) -> Vec<Intent> {
        self.groups
            .iter()
            .map(|g| Intent {
                path: g.path.clone(),
                dest: g.dest.clone(),
            })
            .collect()
    }

    fn fs_error(&self, i: usize, e: FsError) -> Refusal {
        let path = self.groups.get(i).map_or("", |g| g.path.as_str());
        let abs = self.abs(path);
        let first = self.groups.get(i).map(|g| &self.hunks[g.hunks[0]]);
        let message = match (&e, first) {
            (FsError::IsDirectory { .. }, Some(Hunk::Update { .. })) => {
                format!("Failed to read file to update {abs}: path `{abs}` is not a file")
            }
            (FsError::IsDirectory { .. }, Some(Hunk::Add { .. })) => {
                format!("Failed to write file {abs}")
            }
            (FsError::IsDirectory { .. }, _) => format!("Failed to delete file {abs}"),
            _ => format!("{e}. No files were modified."),
        };
        Refusal::new(e.code(), message)
    }

    fn plan(&mut self, mut opened: Opened<'_>) -> Result<Plan, Refusal> {
        let i = opened.index;
        let first = self.groups[i].hunks[0];
        let updates = matches!(self.hunks[first], Hunk::Update { .. });
        if let (Some(bytes), true) = (&opened.bytes, updates) {
            if let Err(e) = std::str::from_utf8(bytes) {
                let abs = self.abs(&self.groups[i].path);
                self.fail(first, texts::not_utf8(&abs, &e.to_string()));
                return Ok(noop_plan(opened.bytes));
            }
        }
        // The bytes read are decoded once (a plain file's text is its bytes: no copy); a
        // refusal from here on hands them back through `noop_file`.
        let original = opened.bytes.take().map(TextFile::decode);
        // Stale safety (DEVIATIONS §27): an update's contexts are matched in the version the
        // session recorded, and the result carried onto the disk text.
        let seen = match &original {
            Some(live) if updates => basis(opened.store, &opened.target.key, live.text()),
            _ => Basis::Live,
        };
        // A patch whose context is not in the version the session read but is in the file as
        // it is was written against the disk (a formatter or a shell edit since the read, seen
        // through the model's shell): it is matched there.
        let seen = match (seen, &original) {
            (Basis::Recorded(text), Some(live))
                if self.groups[i].hunks.len() == 1
                    && self.fits(i, live)
                    && !self.fits(i, &recorded_file(&text, live)) =>
            {
                Basis::Live
            }
            (seen, _) => seen,
        };
        let recorded = match (&seen, &original) {
            (Basis::Recorded(text), Some(live)) => Some(recorded_file(text, live)),
            _ => None,
        };
        let matched = recorded.as_ref().or(original.as_ref());
        let carry = Carry {
            seen: &seen,
            store: opened.store,
            key: &opened.target.key,
            dry_run: opened.dry_run,
        };
        if let Some(dest) = opened.dest {
            if !self.overwrite
                && opened
                    .read_dest()
                    .map_err(|e| self.fs_error(i, e))?
                    .is_some()
            {
                let e = texts::move_exists(&self.groups[i].path, &dest.display);
                self.fail(first, e);
                return Ok(noop_file(original));
            }
        }
        let overwrite = self.overwrite;
        let moving = opened.dest.is_some();
        let land_of = move |created: bool| match moving {
            true => Land::Move { overwrite },
            false if created => Land::Create,
            false => Land::Update,
        };
        let single = self.groups[i].hunks.len() == 1 && updates;
        if let (true, Some(file), Some(live)) = (single, matched, &original) {
            let Some((edits, warnings)) = self.single_update(i, file) else {
                return Ok(noop_file(original));
            };
            let Some(edits) = self.carried(i, &carry, live, edits) else {
                return Ok(noop_file(original));
            };
            let land = land_of(false);
            let file = original.unwrap_or_else(|| TextFile::decode(Vec::new()));
            return Ok(Plan::Edit(EditPlan {
                file,
                edits,
                spliced: None,
                land,
                warnings,
            }));
        }
        let Some(result) = self.play(i, matched.cloned(), &carry, original.as_ref()) else {
            return Ok(noop_file(original));
        };
        drop(recorded);
        match (original, result) {
            (Some(file), None) => Ok(Plan::Delete(file.into_bytes())),
            (None, None) => Ok(noop_plan(None)),
            (file, result) => {
                let created = file.is_none();
                let old = file.unwrap_or_else(|| TextFile::decode(Vec::new()));
                // `play` matched in the recorded text and carried each hunk onto the disk's:
                // `result` is the disk's text after the hunks.
                let edits = match &result {
                    Some(new) => rewrite(&old, new, 0),
                    None => Vec::new(),
                };
                if self.labels[i].is_empty() {
                    self.labels[i].push(format!("*** Add File: {}", self.groups[i].path));
                }
                Ok(Plan::Edit(EditPlan {
                    file: old,
                    edits,
                    spliced: None,
                    land: land_of(created),
                    warnings: Vec::new(),
                }))
            }
        }
    }

    fn splice_error(&self, e: SpliceError) -> Refusal {
        Refusal::new(
            ErrorCode::EditConflict,
            format!("{e}. No files were modified."),
        )
    }

    fn anchor(&self, _i: usize, lines: &[&str], n: usize) -> String {
        format!("{n}:{}", lines.get(n - 1).copied().unwrap_or(""))
    }

    fn label(&self, i: usize, e: &Edit) -> String {
        self.labels
            .get(i)
            .and_then(|l| l.get(e.origin))
            .cloned()
            .unwrap_or_else(|| crate::guard::op_label(e))
    }

    fn before_commit(&self, done: &[Done]) -> Result<(), Refusal> {
        if let Some((_, e)) = &self.failure {
            return Err(e.clone());
        }
        let mut keys: Vec<&str> = Vec::new();
        for d in done {
            for t in std::iter::once(&d.target).chain(&d.dest) {
                if keys.contains(&t.key.as_str()) {
                    return Err(texts::one_file_twice(&t.display));
                }
                keys.push(&t.key);
            }
        }
        Ok(())
    }

    fn store_error(&self, e: StoreError) -> Refusal {
        Refusal::new(ErrorCode::Io, format!("session store: {e}"))
    }

    fn store_warning(&self, e: &StoreError) -> String {
        format!("The patch was applied, but the session store could not record it: {e}")
    }

    fn commit_error(&self, e: CommitError) -> Refusal {
        if let CommitError::Fs(FsError::ReadOnly { path }) = &e {
            return Refusal::new(e.code(), format!("Failed to write file {}", self.abs(path)));
        }
        Refusal::new(e.code(), format!("{e}. No files were modified."))
    }
}

#[cfg(test)]
mod tests {
    use super::{spelling, ApplyPatch};
    use hashline_core::ErrorCode;

    fn grouped(patch: &str) -> Result<ApplyPatch, ErrorCode> {
        let hunks = hashline_syntax::apply_patch::parse_patch(patch)
            .expect("patch parses")
            .hunks;
        ApplyPatch::new(hunks, "/r".into(), false).map_err(|e| e.code)
    }

    const MOVE: &str = "*** Update File: a\n*** Move to: b\n@@\n-x\n+y\n";

    #[test]
    fn a_moved_files_new_path_joins_its_group() {
        let p = grouped(&format!(
            "*** Begin Patch\n{MOVE}*** Update File: ./b\n@@\n-y\n+z\n*** Delete File: b\n*** End Patch"
        ))
        .expect("grouped");
        assert_eq!(p.groups.len(), 1);
        assert_eq!(p.groups[0].hunks, [0, 1, 2]);
        assert_eq!(p.groups[0].dest.as_deref(), Some("b"));
        assert!(p.failure.is_none());
    }

    #[test]
    fn the_old_path_after_a_move_fails_as_codex_fails_there() {
        let p = grouped(&format!(
            "*** Begin Patch\n{MOVE}*** Update File: a\n@@\n-x\n+z\n*** End Patch"
        ))
        .expect("grouped");
        let (hunk, e) = p.failure.expect("failure recorded");
        assert_eq!(hunk, 1);
        assert_eq!(e.code, ErrorCode::FileNotFound);
        assert!(
            e.to_string().contains("Failed to read file to update /r/a"),
            "{e}"
        );
    }

    #[test]
    fn overwrites_after_a_move_are_tangled() {
        for then in [
            "*** Add File: a\n+n\n",
            "*** Update File: b\n*** Move to: c\n@@\n-y\n+z\n",
        ] {
            let got = grouped(&format!("*** Begin Patch\n{MOVE}{then}*** End Patch"));
            assert_eq!(got.err(), Some(ErrorCode::DuplicateFile), "{then}");
        }
        // A move onto a path an earlier hunk names.
        let got = grouped(&format!(
            "*** Begin Patch\n*** Update File: b\n@@\n-q\n+r\n{MOVE}*** End Patch"
        ));
        assert_eq!(got.err(), Some(ErrorCode::DuplicateFile));
    }

    #[test]
    fn spellings_of_one_path_meet() {
        assert_eq!(spelling("./a"), "a");
        assert_eq!(spelling("src//./b.rs"), "src/b.rs");
        assert_eq!(spelling("/abs/./c"), "/abs/c");
        assert_eq!(spelling("x/../a"), "x/../a");
    }
}
