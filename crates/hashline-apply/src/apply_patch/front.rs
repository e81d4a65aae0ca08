//! The apply-patch front end of the executor: the patch's hunks grouped per file (one intent
//! each, in order of first mention), each file's hunks played in patch order on the file as
//! read (Codex's order of effects, DEVIATIONS §16: the executor then writes all files or none),
//! and Codex's words for failures.

use std::borrow::Cow;

use hashline_core::{affix, splice, Edit, EditKind, ErrorCode, SpliceError, TextFile};
use hashline_state::StoreError;
use hashline_syntax::apply_patch::Hunk;

use super::error::ApError;
use super::lower::{lower, Names};
use super::texts;
use crate::fs::FsError;
use crate::pipeline::commit::CommitError;
use crate::pipeline::execute::{Done, EditPlan, FrontEnd, Intent, Land, Opened, Plan};
use crate::pipeline::recorded::{basis, carry_onto, Basis};
use hashline_state::SnapshotStore;

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
    failure: Option<(usize, ApError)>,
    /// Per file, each edit origin's name ("chunk 2 of a.txt").
    labels: Vec<Vec<String>>,
    /// Notes for files the session never read.
    pub notes: Vec<String>,
}

impl ApplyPatch {
    /// Group `hunks` per file (two spellings of one path, `./a` and `a`, are one file, its
    /// hunks played in patch order as Codex applies them); a file both moved and named again
    /// is refused.
    pub fn new(hunks: Vec<Hunk>, root: String, overwrite: bool) -> Result<ApplyPatch, ApError> {
        let mut groups: Vec<Group> = Vec::new();
        for (h, hunk) in hunks.iter().enumerate() {
            let path = hunk.path();
            let key = spelling(path);
            let g = match groups.iter().position(|g| g.key == key) {
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
            if group.dest.is_some() {
                return Err(texts::tangled(path));
            }
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
                    o.key == to
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
            failure: None,
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
    fn fail(&mut self, hunk: usize, e: ApError) {
        if self.failure.as_ref().is_none_or(|(h, _)| hunk < *h) {
            self.failure = Some((hunk, e));
        }
    }
}

/// Codex's view of a file's lines: the empty line after a final newline dropped; a BOM is part
/// of line 1 (as Codex reads it).
/// Only line 1 is copied, and only when there is a BOM.
fn codex_lines(file: &TextFile) -> Vec<Cow<'_, str>> {
    let mut lines: Vec<Cow<'_, str>> = file.lines().map(Cow::Borrowed).collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    if file.has_bom() {
        if let Some(first) = lines.first_mut() {
            *first = Cow::Owned(format!("\u{feff}{first}"));
        }
    }
    lines
}

/// The new file's text of `*** Add File:` rows (each followed by a line break).
fn added(lines: &[String]) -> TextFile {
    let mut text = String::new();
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    TextFile::decode(text.into_bytes())
}

/// Edits that turn `old` into `new` (whole lines; the common head and tail untouched).
fn rewrite(old: &TextFile, new: &TextFile, origin: usize) -> Vec<Edit> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let p = affix::common_prefix(&a, &b);
    let s = affix::common_suffix(&a, &b, p);
    let rows: Vec<String> = b[p..b.len() - s].iter().map(|l| (*l).to_owned()).collect();
    if p == a.len() - s {
        if rows.is_empty() {
            return Vec::new();
        }
        let kind = if p < a.len() {
            EditKind::InsertBefore(p + 1)
        } else {
            EditKind::InsertAfter(a.len())
        };
        return vec![Edit { kind, rows, origin }];
    }
    vec![Edit::replace(p + 1, a.len() - s, rows, origin)]
}

impl ApplyPatch {
    /// Play group `i`'s hunks on `file` (`None`: absent). `Ok(None)`: a hunk failed (recorded).
    fn play(&mut self, i: usize, mut file: Option<TextFile>) -> Option<Option<TextFile>> {
        let hunks = self.groups[i].hunks.clone();
        let path = self.groups[i].path.clone();
        let abs = self.abs(&path);
        for h in hunks {
            match &self.hunks[h] {
                Hunk::Add { lines, .. } => {
                    if file.is_some() && !self.overwrite {
                        self.fail(h, texts::add_exists(&path));
                        return None;
                    }
                    file = Some(added(lines));
                }
                Hunk::Delete { .. } => {
                    if file.take().is_none() {
                        self.fail(h, texts::delete_missing(&abs));
                        return None;
                    }
                }
                Hunk::Update { chunks, .. } => {
                    let Some(current) = file.take() else {
                        self.fail(h, texts::update_missing(&abs));
                        return None;
                    };
                    let names = Names {
                        path: &path,
                        abs: &abs,
                    };
                    let lines = codex_lines(&current);
                    let view: Vec<&str> = lines.iter().map(|l| &**l).collect();
                    let first = self.labels[i].len();
                    let (edits, warnings) = match lower(&view, chunks, &names, first) {
                        Ok(done) => done,
                        Err(e) => {
                            self.fail(h, e);
                            return None;
                        }
                    };
                    self.labels[i]
                        .extend((0..chunks.len()).map(|k| format!("chunk {} of {path}", k + 1)));
                    self.notes.extend(warnings);
                    let all: Vec<&str> = current.lines().collect();
                    let out = match splice(&all, &edits) {
                        Ok(out) => out,
                        Err(e) => {
                            self.fail(h, ApError::new(ErrorCode::EditConflict, e.to_string()));
                            return None;
                        }
                    };
                    file = Some(TextFile::decode(current.encode(&out)));
                }
            }
        }
        Some(file)
    }

    /// Group `i` is a single update: its edits straight on the file as read (finer edits for
    /// the guard). `None`: it failed (recorded).
    fn single_update(&mut self, i: usize, file: &TextFile) -> Option<(Vec<Edit>, Vec<String>)> {
        let h = self.groups[i].hunks[0];
        let Hunk::Update { chunks, .. } = &self.hunks[h] else {
            return None;
        };
        let path = self.groups[i].path.clone();
        let abs = self.abs(&path);
        let names = Names {
            path: &path,
            abs: &abs,
        };
        let lines = codex_lines(file);
        let view: Vec<&str> = lines.iter().map(|l| &**l).collect();
        match lower(&view, chunks, &names, 0) {
            Ok(done) => {
                self.labels[i] = (0..chunks.len())
                    .map(|k| format!("chunk {} of {path}", k + 1))
                    .collect();
                Some(done)
            }
            Err(e) => {
                self.fail(h, e);
                None
            }
        }
    }
}

/// The text the session recorded for a file, as a file (with the live file's BOM, so that
/// Codex's view of line 1 is the same in both).
fn recorded_file(text: &str, live: &TextFile) -> TextFile {
    let mut bytes = Vec::with_capacity(text.len() + 3);
    if live.has_bom() {
        bytes.extend_from_slice("\u{feff}".as_bytes());
    }
    bytes.extend_from_slice(text.as_bytes());
    TextFile::decode(bytes)
}

/// What carrying a plan onto the disk needs: the basis it was made on and the session.
struct Carry<'a> {
    seen: &'a Basis,
    store: &'a dyn SnapshotStore,
    key: &'a str,
    dry_run: bool,
}

impl ApplyPatch {
    /// `edits` (planned on `carry.seen`'s text) in the lines of `live`, through the shared
    /// merge. `None`: the lines they matched changed on disk (the refusal is recorded).
    fn carried(
        &mut self,
        i: usize,
        carry: &Carry<'_>,
        live: &TextFile,
        edits: Vec<Edit>,
    ) -> Option<Vec<Edit>> {
        let refused = match carry_onto(
            carry.seen,
            live.text(),
            &edits,
            carry.store,
            carry.key,
            carry.dry_run,
        ) {
            Ok(edits) => return Some(edits),
            Err(refused) => refused,
        };
        let path = self.groups[i].path.clone();
        let what = refused
            .stale
            .first()
            .and_then(|&k| edits.get(k))
            .filter(|_| self.groups[i].hunks.len() == 1)
            .and_then(|e| self.labels[i].get(e.origin))
            .cloned()
            .unwrap_or_else(|| format!("the patch's hunks of {path}"));
        let lines = codex_lines(live);
        let view: Vec<&str> = lines.iter().map(|l| &**l).collect();
        let first = self.groups[i].hunks[0];
        self.fail(first, texts::stale(&path, &what, &view, refused.near));
        None
    }
}

fn noop_plan(bytes: Option<Vec<u8>>) -> Plan {
    Plan::Edit(EditPlan {
        file: TextFile::decode(bytes.unwrap_or_default()),
        edits: Vec::new(),
        spliced: None,
        land: Land::Update,
        warnings: Vec::new(),
    })
}

impl FrontEnd for ApplyPatch {
    type Error = ApError;

    fn intents(&self) -> Vec<Intent> {
        self.groups
            .iter()
            .map(|g| Intent {
                path: g.path.clone(),
                dest: g.dest.clone(),
            })
            .collect()
    }

    fn fs_error(&self, i: usize, e: FsError) -> ApError {
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
        ApError::new(e.code(), message)
    }

    fn plan(&mut self, opened: Opened<'_>) -> Result<Plan, ApError> {
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
        let original = opened.bytes.clone().map(TextFile::decode);
        // Stale safety (DEVIATIONS §27): an update's contexts are matched in the version the
        // session recorded, and the result carried onto the disk text.
        let seen = match &original {
            Some(live) if updates => basis(opened.store, &opened.target.key, live.text()),
            _ => Basis::Live,
        };
        if seen == Basis::Unread {
            self.notes.push(texts::never_read(&self.groups[i].path));
        }
        let matched = match (&seen, &original) {
            (Basis::Recorded(text), Some(live)) => Some(recorded_file(text, live)),
            _ => original.clone(),
        };
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
                return Ok(noop_plan(opened.bytes));
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
        if let (true, Some(file), Some(live)) = (single, &matched, &original) {
            let Some((edits, warnings)) = self.single_update(i, file) else {
                return Ok(noop_plan(opened.bytes));
            };
            let Some(edits) = self.carried(i, &carry, live, edits) else {
                return Ok(noop_plan(opened.bytes));
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
        let Some(result) = self.play(i, matched.clone()) else {
            return Ok(noop_plan(opened.bytes));
        };
        match (opened.bytes, result) {
            (Some(bytes), None) => Ok(Plan::Delete(bytes)),
            (None, None) => Ok(noop_plan(None)),
            (bytes, result) => {
                let created = bytes.is_none();
                let old = TextFile::decode(bytes.unwrap_or_default());
                let edits = match (&result, &matched) {
                    (Some(new), Some(from)) if !created => {
                        let Some(edits) = self.carried(i, &carry, &old, rewrite(from, new, 0))
                        else {
                            return Ok(noop_plan(Some(old.bytes().to_vec())));
                        };
                        edits
                    }
                    (Some(new), _) => rewrite(&old, new, 0),
                    (None, _) => Vec::new(),
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

    fn splice_error(&self, e: SpliceError) -> ApError {
        ApError::new(
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

    fn before_commit(&self, done: &[Done]) -> Result<(), ApError> {
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

    fn store_error(&self, e: StoreError) -> ApError {
        ApError::new(ErrorCode::Io, format!("session store: {e}"))
    }

    fn store_warning(&self, e: &StoreError) -> String {
        format!("The patch was applied, but the session store could not record it: {e}")
    }

    fn commit_error(&self, e: CommitError) -> ApError {
        if let CommitError::Fs(FsError::ReadOnly { path }) = &e {
            return ApError::new(e.code(), format!("Failed to write file {}", self.abs(path)));
        }
        ApError::new(e.code(), format!("{e}. No files were modified."))
    }
}

#[cfg(test)]
mod tests {
    use super::spelling;

    #[test]
    fn spellings_of_one_path_meet() {
        assert_eq!(spelling("./a"), "a");
        assert_eq!(spelling("src//./b.rs"), "src/b.rs");
        assert_eq!(spelling("/abs/./c"), "/abs/c");
        assert_eq!(spelling("x/../a"), "x/../a");
    }
}
