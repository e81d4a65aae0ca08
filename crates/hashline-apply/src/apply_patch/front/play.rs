//! How one file's hunks are played: Codex's view of the lines, each hunk matched and lowered in
//! patch order, and — when the session read an older text than the disk's — each hunk carried
//! onto the disk text by the one merge (DEVIATIONS §27, docs/DEVIATIONS.md "Stale apply-patch
//! updates are carried chunk by chunk"), or the chunks whose lines changed named.

use hashline_core::{affix, splice, Edit, EditKind, ErrorCode, OutLine, TextFile};
use hashline_state::SnapshotStore;
use hashline_syntax::apply_patch::Hunk;

use super::ApplyPatch;
use crate::apply_patch::lower::{lower, Names};
use crate::apply_patch::texts;
use crate::apply_patch::Refusal;
use crate::pipeline::recorded::{carry_between, carry_onto, forget, Basis};

/// Codex's view of a file's lines: the empty line after a final newline dropped; a BOM is part
/// of line 1 (as Codex reads it). The lines are borrowed; only line 1 is copied (into
/// `bom_line`), and only when there is a BOM.
fn codex_view<'a>(file: &'a TextFile, bom_line: &'a mut Option<String>) -> Vec<&'a str> {
    // Sized up front: a million-line file's list would grow by doubling.
    let mut lines: Vec<&'a str> = Vec::with_capacity(file.line_count());
    lines.extend(file.lines());
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    if file.has_bom() {
        if let Some(first) = lines.first() {
            let with_bom = format!("\u{feff}{first}");
            lines[0] = bom_line.insert(with_bom).as_str();
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
pub(super) fn rewrite(old: &TextFile, new: &TextFile, origin: usize) -> Vec<Edit> {
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

/// The disk side of a play on a recorded text (DEVIATIONS §27): each hunk, matched in the
/// recorded text as the hunks before it left it, is carried by the one merge onto the disk
/// text as the hunks before it left it.
struct DiskSide<'a> {
    /// The file on disk when the call started.
    live: &'a TextFile,
    /// The disk text after the hunks played so far (`None`: deleted).
    now: Option<TextFile>,
    /// For each line of `now`, the line (0-based) of `live` it is, if it is one.
    from: Vec<Option<usize>>,
}

impl DiskSide<'_> {
    /// The `live` line (1-based) nearest at or before line `near` (1-based) of `now`.
    fn live_line(&self, near: usize) -> usize {
        self.from[..near.min(self.from.len())]
            .iter()
            .rev()
            .find_map(|l| *l)
            .map_or(1, |l| l + 1)
    }
}

impl ApplyPatch {
    /// Play group `i`'s hunks on `file` (`None`: absent), the text contexts are matched in.
    /// When that is an older recorded text than the disk's (`carry.seen`), each hunk's edits
    /// are carried onto the disk text `live` (see [`DiskSide`]) and the disk's result comes
    /// back. `Ok(None)`: a hunk failed (recorded).
    pub(super) fn play(
        &mut self,
        i: usize,
        mut file: Option<TextFile>,
        carry: &Carry<'_>,
        live: Option<&TextFile>,
    ) -> Option<Option<TextFile>> {
        let hunks = self.groups[i].hunks.clone();
        let total: usize = hunks
            .iter()
            .map(|&h| match &self.hunks[h] {
                Hunk::Update { chunks, .. } => chunks.len(),
                _ => 0,
            })
            .sum();
        let mut disk = match (carry.seen, live) {
            (Basis::Recorded(_), Some(live)) => Some(DiskSide {
                live,
                now: Some(live.clone()),
                from: (0..live.line_count()).map(Some).collect(),
            }),
            _ => None,
        };
        for h in hunks {
            let path = self.hunks[h].path().to_owned();
            let abs = self.abs(&path);
            match &self.hunks[h] {
                Hunk::Add { lines, .. } => {
                    if file.is_some() && !self.overwrite {
                        self.fail(h, texts::add_exists(&path));
                        return None;
                    }
                    let new = added(lines);
                    if let Some(d) = &mut disk {
                        d.from = vec![None; new.line_count()];
                        d.now = Some(new.clone());
                    }
                    file = Some(new);
                }
                Hunk::Delete { .. } => {
                    if file.take().is_none() {
                        self.fail(h, texts::delete_missing(&abs));
                        return None;
                    }
                    if let Some(d) = &mut disk {
                        d.now = None;
                        d.from.clear();
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
                    let mut bom_line = None;
                    let view = codex_view(&current, &mut bom_line);
                    let first = self.labels[i].len();
                    let (edits, warnings) = match lower(&view, chunks, &names, first) {
                        Ok(done) => done,
                        Err(e) => {
                            self.fail(h, e);
                            return None;
                        }
                    };
                    // Chunks are numbered across the file's hunks (one name per chunk).
                    self.labels[i].extend(
                        (0..chunks.len()).map(|k| format!("chunk {} of {path}", first + k + 1)),
                    );
                    self.notes.extend(warnings);
                    let all: Vec<&str> = current.lines().collect();
                    let out = match splice(&all, &edits) {
                        Ok(out) => out,
                        Err(e) => {
                            self.fail(h, Refusal::new(ErrorCode::EditConflict, e.to_string()));
                            return None;
                        }
                    };
                    if let Some(d) = &mut disk {
                        if let Err(e) = self.carry_hunk(i, total, carry, d, &current, &edits) {
                            self.fail(h, e);
                            return None;
                        }
                    }
                    file = Some(TextFile::decode(current.encode(&out)));
                }
            }
        }
        Some(match disk {
            Some(d) => d.now,
            None => file,
        })
    }

    /// One hunk's `edits`, planned on `matched` (the recorded text as the hunks before left
    /// it), carried onto `d.now` through the one merge; a refusal names the chunks whose lines
    /// changed on disk, with the disk's lines around each. `total`: how many chunks the file
    /// has in all.
    fn carry_hunk(
        &self,
        i: usize,
        total: usize,
        carry: &Carry<'_>,
        d: &mut DiskSide<'_>,
        matched: &TextFile,
        edits: &[Edit],
    ) -> Result<(), Refusal> {
        let path = &self.groups[i].path;
        let now = d.now.take().unwrap_or_else(|| TextFile::decode(Vec::new()));
        match carry_between(matched.text(), now.text(), edits) {
            Ok(carried) => {
                let lines: Vec<&str> = now.lines().collect();
                let out = splice(&lines, &carried).map_err(|e| {
                    Refusal::new(
                        ErrorCode::EditConflict,
                        format!("{e}. No files were modified."),
                    )
                })?;
                d.from = out
                    .iter()
                    .map(|o| match o {
                        OutLine::Kept(j) => d.from.get(*j).copied().flatten(),
                        OutLine::New { .. } => None,
                    })
                    .collect();
                d.now = Some(TextFile::decode(now.encode(&out)));
                Ok(())
            }
            Err(refused) => {
                forget(carry.store, carry.key, d.live.text(), carry.dry_run);
                d.now = Some(now);
                let stale =
                    self.named_stale(i, path, edits, &refused.stale, &refused.nears, |near| {
                        d.live_line(near)
                    });
                let mut bom_line = None;
                let view = codex_view(d.live, &mut bom_line);
                Err(texts::stale(path, &stale, total, &view))
            }
        }
    }

    /// Group `i`'s first hunk, an update, lowered on `file` as Codex sees it; `None` when that
    /// hunk is no update.
    fn lowered(&self, i: usize, file: &TextFile) -> Option<Result<Lowered, Refusal>> {
        let Hunk::Update { chunks, .. } = &self.hunks[*self.groups[i].hunks.first()?] else {
            return None;
        };
        let path = &self.groups[i].path;
        let abs = self.abs(path);
        let names = Names { path, abs: &abs };
        let mut bom_line = None;
        let view = codex_view(file, &mut bom_line);
        Some(lower(&view, chunks, &names, 0))
    }

    /// Whether group `i`'s update finds every chunk in `file` (nothing recorded).
    pub(super) fn fits(&self, i: usize, file: &TextFile) -> bool {
        matches!(self.lowered(i, file), Some(Ok(_)))
    }

    /// Group `i` is a single update: its edits straight on the file as read (finer edits for
    /// the guard). `None`: it failed (recorded).
    pub(super) fn single_update(
        &mut self,
        i: usize,
        file: &TextFile,
    ) -> Option<(Vec<Edit>, Vec<String>)> {
        let h = self.groups[i].hunks[0];
        match self.lowered(i, file)? {
            Ok(done) => {
                let chunks = match &self.hunks[h] {
                    Hunk::Update { chunks, .. } => chunks.len(),
                    _ => 0,
                };
                let path = &self.groups[i].path;
                self.labels[i] = (0..chunks)
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

/// An update's edits and the warnings of its loose matches.
type Lowered = (Vec<Edit>, Vec<String>);

/// The text the session recorded for a file, as a file (with the live file's BOM, so that
/// Codex's view of line 1 is the same in both).
pub(super) fn recorded_file(text: &str, live: &TextFile) -> TextFile {
    let mut bytes = Vec::with_capacity(text.len() + 3);
    if live.has_bom() {
        bytes.extend_from_slice("\u{feff}".as_bytes());
    }
    bytes.extend_from_slice(text.as_bytes());
    TextFile::decode(bytes)
}

/// What carrying a plan onto the disk needs: the basis it was made on and the session.
pub(super) struct Carry<'a> {
    pub seen: &'a Basis,
    pub store: &'a dyn SnapshotStore,
    pub key: &'a str,
    pub dry_run: bool,
}

impl ApplyPatch {
    /// `edits` (planned on `carry.seen`'s text) in the lines of `live`, through the shared
    /// merge. `None`: the lines they matched changed on disk (the refusal is recorded).
    pub(super) fn carried(
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
        let stale = self.named_stale(i, &path, &edits, &refused.stale, &refused.nears, |n| n);
        let total = self.labels[i].len();
        let mut bom_line = None;
        let view = codex_view(live, &mut bom_line);
        let first = self.groups[i].hunks[0];
        self.fail(first, texts::stale(&path, &stale, total, &view));
        None
    }
}

impl ApplyPatch {
    /// The stale `edits` (indices `stale`, each near line `nears`, placed by `line`) of group
    /// `i` named by their chunk, each chunk once, in order.
    fn named_stale(
        &self,
        i: usize,
        path: &str,
        edits: &[Edit],
        stale: &[usize],
        nears: &[usize],
        line: impl Fn(usize) -> usize,
    ) -> Vec<(String, usize)> {
        let named = stale.iter().zip(nears).map(|(&k, &near)| {
            let what = edits
                .get(k)
                .and_then(|e| self.labels[i].get(e.origin))
                .cloned()
                .unwrap_or_else(|| format!("the patch's hunks of {path}"));
            (what, line(near))
        });
        dedup(named.collect())
    }
}

/// `stale` with each chunk named once (a chunk lowers to several edits), in order.
fn dedup(stale: Vec<(String, usize)>) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for (what, near) in stale {
        if !out.iter().any(|(w, _)| *w == what) {
            out.push((what, near));
        }
    }
    out
}
