//! [`LineMap`]: where each line of a recorded version is in the disk version, when that is
//! certain.
//!
//! The forward line diff ([`crate::diff`], chunked on large inputs so runs of identical lines stay
//! linear) gives every line outside a changed region an image. An image is kept only when no
//! other reasonable alignment would move it:
//!
//! * **Sliders.** A changed region next to lines equal to its own first or last lines can slide
//!   over them (deleting the first or the second of two `}`; inserting `a, X` or `X, a` after an
//!   `a`): every line it can slide over is ambiguous.
//! * **Reverse agreement.** The same diff of both texts read backwards prefers the other end of
//!   every tie (which copy of a repeated line was changed, removed or kept); a line whose image
//!   differs between the two is ambiguous.
//! * **Copy counts.** Between two lines that are unique in both texts and matched, a text whose
//!   number of copies differs on the two sides (one of two `}` replaced, a blank line added) has
//!   no provable image for any of its copies there.
//!
//! A line inside a changed region has no image. Building the map costs two diffs and linear work;
//! nothing is searched for.

use std::collections::HashMap;
use std::ops::Range;

use xxhash_rust::xxh3::xxh3_64;

use crate::diff::{hunks_of, DiffHunk};

/// Where each line of a recorded text is on disk (1-based lines in and out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineMap {
    /// 0-based disk index of each recorded line, `None` when changed, gone or ambiguous.
    image: Vec<Option<usize>>,
    /// 0-based disk index where the region of each recorded line is now (for fresh anchors).
    near: Vec<usize>,
    /// Lines of the disk text.
    disk_len: usize,
}

impl LineMap {
    /// The map from `recorded` to `disk` (both in the same line model).
    pub fn new(recorded: &[&str], disk: &[&str]) -> LineMap {
        let forward = hunks_of(recorded, disk);
        let (mut image, near) = walk(recorded.len(), disk.len(), &forward);
        if !forward.is_empty() {
            let backward = reversed_hunks(recorded, disk);
            let (other, _) = walk(recorded.len(), disk.len(), &backward);
            for (slot, theirs) in image.iter_mut().zip(other) {
                if *slot != theirs {
                    *slot = None;
                }
            }
            for hunks in [&forward, &backward] {
                for i in sliders(recorded, disk, hunks) {
                    if let Some(slot) = image.get_mut(i) {
                        *slot = None;
                    }
                }
            }
            copy_counts(recorded, disk, &mut image);
        }
        LineMap {
            image,
            near,
            disk_len: disk.len(),
        }
    }

    /// Lines of the recorded text.
    pub fn recorded_len(&self) -> usize {
        self.image.len()
    }

    /// Lines of the disk text.
    pub fn disk_len(&self) -> usize {
        self.disk_len
    }

    /// The disk line of recorded line `line` (1-based), when it survived unchanged and its place
    /// is certain.
    pub fn image(&self, line: usize) -> Option<usize> {
        let i = line.checked_sub(1)?;
        self.image.get(i).copied().flatten().map(|j| j + 1)
    }

    /// The disk line (1-based) where the region of recorded line `line` is now: its image, or the
    /// start of the change that replaced it. For showing fresh anchors near a refused edit.
    pub fn near(&self, line: usize) -> usize {
        let i = line
            .saturating_sub(1)
            .min(self.near.len().saturating_sub(1));
        self.near.get(i).map_or(1, |j| j + 1)
    }

    /// Whether recorded lines `lo..=hi` all survived, in order and still adjacent (nothing
    /// inserted between them): `Ok` with the disk line of `lo`, else `Err` with the first line
    /// that did not.
    pub fn run(&self, lo: usize, hi: usize) -> Result<usize, usize> {
        let start = self.image(lo).ok_or(lo)?;
        for (k, line) in (lo..=hi).enumerate() {
            if self.image(line) != Some(start + k) {
                return Err(line);
            }
        }
        Ok(start)
    }

    /// Whether the boundary after recorded line `after` (0: the start of the file) is intact:
    /// both neighbours survived and nothing was inserted between them. The start and the end of
    /// the file count as neighbours. `Err` names the first recorded line that broke it.
    pub fn boundary(&self, after: usize) -> Result<(), usize> {
        let len = self.recorded_len();
        if len == 0 {
            return if self.disk_len == 0 { Ok(()) } else { Err(1) };
        }
        if after == 0 {
            return match self.image(1) {
                Some(1) => Ok(()),
                _ => Err(1),
            };
        }
        if after >= len {
            return match self.image(len) {
                Some(j) if j == self.disk_len => Ok(()),
                _ => Err(len),
            };
        }
        self.run(after, after + 1).map(|_| ())
    }
}

/// Images (0-based) and regions of every old line for `hunks` of `old_len` → `new_len` lines.
fn walk(old_len: usize, new_len: usize, hunks: &[DiffHunk]) -> (Vec<Option<usize>>, Vec<usize>) {
    let mut image = vec![None; old_len];
    let mut near = vec![0; old_len];
    let (mut o, mut n) = (0usize, 0usize);
    let end = DiffHunk {
        old: old_len..old_len,
        new: new_len..new_len,
    };
    for h in hunks.iter().chain(std::iter::once(&end)) {
        while o < h.old.start && o < old_len && n < new_len {
            image[o] = Some(n);
            near[o] = n;
            o += 1;
            n += 1;
        }
        for slot in near.iter_mut().take(h.old.end).skip(h.old.start) {
            *slot = h.new.start.min(new_len.saturating_sub(1));
        }
        o = o.max(h.old.end);
        n = n.max(h.new.end);
    }
    (image, near)
}

/// The hunks of the diff of both texts read backwards, in forward positions.
fn reversed_hunks(old: &[&str], new: &[&str]) -> Vec<DiffHunk> {
    let old_rev: Vec<&str> = old.iter().rev().copied().collect();
    let new_rev: Vec<&str> = new.iter().rev().copied().collect();
    let flip = |r: &Range<usize>, len: usize| len - r.end..len - r.start;
    let mut hunks: Vec<DiffHunk> = hunks_of(&old_rev, &new_rev)
        .iter()
        .map(|h| DiffHunk {
            old: flip(&h.old, old.len()),
            new: flip(&h.new, new.len()),
        })
        .collect();
    hunks.reverse();
    hunks
}

/// Old lines (0-based) that some hunk of `hunks` can slide over: the lines before a hunk equal
/// its last lines on both sides (or after it, its first lines), so another alignment of the same
/// cost maps them elsewhere. A slide stops at the neighbouring hunk, so the work is linear.
fn sliders(old: &[&str], new: &[&str], hunks: &[DiffHunk]) -> Vec<usize> {
    let mut out = Vec::new();
    for (k, h) in hunks.iter().enumerate() {
        let (floor_o, floor_n) = match k.checked_sub(1).and_then(|p| hunks.get(p)) {
            Some(p) => (p.old.end, p.new.end),
            None => (0, 0),
        };
        let (ceil_o, ceil_n) = match hunks.get(k + 1) {
            Some(q) => (q.old.start, q.new.start),
            None => (old.len(), new.len()),
        };
        let same = |side: &[&str], r: &Range<usize>, a: usize, b: usize| {
            r.is_empty() || side.get(a).is_some_and(|x| side.get(b) == Some(x))
        };
        // Towards the start: the line entering the hunk equals the one leaving it.
        let mut s = 0;
        while h.old.start > floor_o + s
            && h.new.start > floor_n + s
            && same(
                old,
                &h.old,
                h.old.start - s - 1,
                h.old.end.wrapping_sub(s + 1),
            )
            && same(
                new,
                &h.new,
                h.new.start - s - 1,
                h.new.end.wrapping_sub(s + 1),
            )
        {
            s += 1;
            out.push(h.old.start - s);
        }
        // Towards the end.
        let mut s = 0;
        while h.old.end + s < ceil_o
            && h.new.end + s < ceil_n
            && same(old, &h.old, h.old.start + s, h.old.end + s)
            && same(new, &h.new, h.new.start + s, h.new.end + s)
        {
            out.push(h.old.end + s);
            s += 1;
        }
    }
    out
}

/// Line texts → copies in the old and in the new text.
type Counts<'a> = HashMap<&'a str, (usize, usize), foldhash::fast::RandomState>;

fn count<'a>(old: &[&'a str], new: &[&'a str]) -> Counts<'a> {
    let mut counts = Counts::default();
    for l in old {
        counts.entry(l).or_default().0 += 1;
    }
    for l in new {
        counts.entry(l).or_default().1 += 1;
    }
    counts
}

/// Copies in the old text (given as its lines' XXH3-64) and in the new text of every line,
/// keyed by the XXH3-64 of its text: on a
/// whole file (a million lines) hashing once and counting integers in a table sized up front is
/// several times cheaper than a table of strings that grows. Two texts sharing a hash count as
/// one, which can only make a line look repeated: it is then no sync point, and the stretch
/// around it is judged by exact counts (`count`), never more leniently.
fn hashed_counts(
    old: &[u64],
    new: &[&str],
) -> HashMap<u64, (u32, u32), foldhash::fast::RandomState> {
    let mut counts = HashMap::with_capacity_and_hasher(
        old.len().max(new.len()),
        foldhash::fast::RandomState::default(),
    );
    for &h in old {
        let c: &mut (u32, u32) = counts.entry(h).or_default();
        c.0 = c.0.saturating_add(1);
    }
    for l in new {
        let c: &mut (u32, u32) = counts.entry(xxh3_64(l.as_bytes())).or_default();
        c.1 = c.1.saturating_add(1);
    }
    counts
}

/// Clears the image of every old line whose text has a different number of copies in the old
/// and the new side of its stretch. Stretches run between *sync points*: matched lines whose
/// text occurs exactly once in each whole text. Each line is counted in one stretch, so the work
/// is linear; unchanged stretches are skipped.
fn copy_counts(old: &[&str], new: &[&str], image: &mut [Option<usize>]) {
    // Each old line hashed once: for the counts and for the sync points.
    let old_hashes: Vec<u64> = old.iter().map(|l| xxh3_64(l.as_bytes())).collect();
    let whole = hashed_counts(&old_hashes, new);
    let syncs: Vec<(usize, usize)> = image
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let j = (*m)?;
            let hash = old_hashes.get(i)?;
            (whole.get(hash) == Some(&(1, 1))).then_some((i, j))
        })
        .collect();
    let (mut vs, mut cs) = (0usize, 0usize);
    for (i, j) in syncs
        .into_iter()
        .chain(std::iter::once((old.len(), new.len())))
    {
        if let (Some(a), Some(b)) = (old.get(vs..i), new.get(cs..j)) {
            if a != b {
                let local = count(a, b);
                for (k, text) in a.iter().enumerate() {
                    let tied = local.get(text).is_some_and(|(x, y)| x != y);
                    if let (true, Some(slot)) = (tied, image.get_mut(vs + k)) {
                        *slot = None;
                    }
                }
            }
        }
        (vs, cs) = (i + 1, j + 1);
    }
}
