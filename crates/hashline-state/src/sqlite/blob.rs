//! Large snapshot texts kept out of the database: one LZ4-framed file per distinct text under
//! `<state>/blobs/`, named by the text's content digest, written once and shared by every row
//! (and session) that records the same text.
//!
//! A blob is written and removed only inside the database's write transaction (the
//! `state_blob` table lists the files the database owns), so a concurrent process never sees a
//! row whose file is missing. A file written by a transaction that then rolled back is left over
//! unlisted: harmless, and reused when the same text is recorded again.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use hashline_anchor::tag::file_tag_pieces;
use hashline_core::Pieces;

/// Texts at least this long go to a blob file; shorter ones stay in their row (a small read
/// costs no file of its own).
pub(crate) const BLOB_MIN_BYTES: usize = 64 * 1024;

/// The content digest of `text`: XXH3-128 and the length, as hex (`<32 hex>-<len hex>`).
pub(crate) fn digest(text: &str) -> String {
    named(xxhash_rust::xxh3::xxh3_128(text.as_bytes()), text.len())
}

/// [`digest`] of the text `text` is made of, hashed part by part (streaming XXH3-128, the
/// same hash as of the joined text) unless it is one part.
pub(crate) fn digest_pieces(text: &Pieces<'_>) -> String {
    if let Some(whole) = text.as_whole() {
        return digest(whole);
    }
    let mut hasher = xxhash_rust::xxh3::Xxh3Default::new();
    text.parts()
        .iter()
        .for_each(|p| hasher.update(p.as_bytes()));
    named(hasher.digest128(), text.len())
}

/// A digest's text: the hash and the length.
fn named(hash: u128, len: usize) -> String {
    format!("{hash:032x}-{len:x}")
}

/// The length in bytes of the text a digest names (the digest ends in it, in hex).
pub(crate) fn text_len(digest: &str) -> Option<u64> {
    let (_, len) = digest.rsplit_once('-')?;
    u64::from_str_radix(len, 16).ok()
}

/// The blob directory of a state directory.
pub(crate) fn dir(state_dir: &Path) -> PathBuf {
    state_dir.join("blobs")
}

/// The file of `digest` in `dir`.
fn file(dir: &Path, digest: &str) -> PathBuf {
    dir.join(format!("{digest}.lz4"))
}

/// Make sure the blob of `text` (whose digest is `digest`) exists in `dir`: compressed into a
/// temporary file beside it, then renamed into place. Nothing is written when it exists.
pub(crate) fn ensure(dir: &Path, digest: &str, text: &Pieces<'_>) -> std::io::Result<()> {
    stage(dir, digest, text)?.map_or(Ok(()), Staged::place)
}

/// The blob of `text` (whose digest is `digest`) compressed into a temporary file in `dir`,
/// to be [placed](Staged::place) inside a write transaction; `None` when `dir` holds it.
pub(crate) fn stage(
    dir: &Path,
    digest: &str,
    text: &Pieces<'_>,
) -> std::io::Result<Option<Staged>> {
    let target = file(dir, digest);
    if target.is_file() {
        return Ok(None);
    }
    std::fs::create_dir_all(dir)?;
    let n = next_temp();
    let staged = Staged {
        temp: dir.join(format!("{digest}.{}.{n}.tmp", std::process::id())),
        target,
        placed: false,
    };
    let mut out = File::create(&staged.temp)?;
    let spill = dir.join(format!("{digest}.{}.{n}.half.tmp", std::process::id()));
    super::frame::write(&mut out, text, &spill)?;
    Ok(Some(staged))
}

/// [`Staged::place`] of `staged`, or, when nothing was staged (the blob existed then, or
/// staging failed), [`ensure`] of the blob now: inside the write transaction that lists it.
pub(crate) fn place_or_ensure(
    staged: Option<Staged>,
    dir: &Path,
    digest: &str,
    text: &Pieces<'_>,
) -> std::io::Result<()> {
    match staged {
        Some(staged) => staged.place(),
        None => ensure(dir, digest, text),
    }
}

/// A number for this process's temporary file names, never the same twice (threads of one
/// process may write blobs at once).
fn next_temp() -> usize {
    static TEMPS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    TEMPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// A large text's blob compressed into a temporary file before its record's transaction;
/// [`Staged::place`] renames it into place, dropping it removes the file.
#[derive(Debug)]
pub(crate) struct Staged {
    temp: PathBuf,
    target: PathBuf,
    placed: bool,
}

impl Staged {
    /// Rename the blob into place (a blob already there holds the same text: replaced).
    pub(crate) fn place(mut self) -> std::io::Result<()> {
        std::fs::rename(&self.temp, &self.target)?;
        self.placed = true;
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.placed {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// What [`hash_and_stage`] found.
pub(crate) struct Hashed {
    /// The text's whole-file tag.
    pub(crate) tag: String,
    /// Its content digest.
    pub(crate) digest: String,
    /// Its blob, compressed meanwhile, when `dir` did not hold it (`None` also when staging
    /// failed: the record writes it then, and reports a failure).
    pub(crate) staged: Option<Staged>,
}

/// The tag (unless `tag` gives it) and the digest of a large `text`, and its blob, compressed
/// at the same time on two cores unless `dir` holds it already: another thread hashes the tag
/// (or has it) and then joins the compression from the back, while this one takes the digest, looks for the blob and
/// compresses from the front ([`super::frame::Blocks`]). A read of a file recorded before
/// compresses nothing (its blob exists); the blob is ready before the record's write
/// transaction, which then only renames it. A text held as parts is hashed and compressed
/// from them, never joined.
pub(crate) fn hash_and_stage(dir: &Path, text: &Pieces<'_>, tag: Option<&str>) -> Hashed {
    let n = next_temp();
    let spill = dir.join(format!("back.{}.{n}.tmp", std::process::id()));
    let blocks = super::frame::Blocks::of_pieces(text);
    // The directory first: the helper may open its spill file in it before this thread has
    // taken the digest (staging then failed, and the record compressed the text again).
    let writable = std::fs::create_dir_all(dir).is_ok();
    if !writable {
        blocks.close();
    }
    // Without a second thread the front claims every block, and the tag is hashed after it.
    let ((digest, front), (tag, back)) = hashline_core::par::both(
        || {
            let digest = digest_pieces(text);
            let target = file(dir, &digest);
            if !writable || target.is_file() {
                blocks.close();
                return (digest, None);
            }
            // Whatever happens next, the temporary file goes unless it is placed.
            let staged = Staged {
                temp: dir.join(format!("{digest}.{}.{n}.tmp", std::process::id())),
                target,
                placed: false,
            };
            let out = File::create(&staged.temp).and_then(|mut out| {
                blocks.front(&mut out)?;
                Ok(out)
            });
            if out.is_err() {
                blocks.close();
            }
            (digest, Some((out, staged)))
        },
        || {
            let tag = tag.map_or_else(|| file_tag_pieces(text), str::to_owned);
            (tag, blocks.back(&spill))
        },
    );
    let staged = front.and_then(|(out, staged)| {
        let mut out = out.ok()?;
        super::frame::finish(&mut out, back.ok()?).ok()?;
        Some(staged)
    });
    let _ = std::fs::remove_file(&spill);
    Hashed {
        tag,
        digest,
        staged,
    }
}

/// The text of blob `digest` in `dir`, checked against its digest.
pub(crate) fn load(dir: &Path, digest: &str) -> std::io::Result<String> {
    let path = file(dir, digest);
    let input = std::fs::File::open(&path)?;
    // Sized up front from the length the name records (no LZ4 frame expands its file more
    // than 255 times): grown by doubling, a 100 MB text took 134 MB.
    let packed = input.metadata()?.len();
    let len = text_len(digest)
        .unwrap_or(0)
        .min(packed.saturating_mul(255));
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    lz4_flex::frame::FrameDecoder::new(std::io::BufReader::new(input)).read_to_end(&mut bytes)?;
    let text = String::from_utf8(bytes).map_err(std::io::Error::other)?;
    if self::digest(&text) != digest {
        return Err(std::io::Error::other(format!(
            "snapshot file {} does not hold the text it is named for",
            path.display()
        )));
    }
    Ok(text)
}

/// Remove the blob `digest` from `dir` (already gone is fine).
pub(crate) fn remove(dir: &Path, digest: &str) -> std::io::Result<()> {
    match std::fs::remove_file(file(dir, digest)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// How old a temporary file of the blob directory must be before [`sweep_temps`] takes it
/// for the leftover of a killed process: a live writer's is seconds old.
pub(crate) const STALE_TEMP: std::time::Duration = std::time::Duration::from_secs(3600);

/// Remove the temporary files (`….tmp`: a blob being written, a spilled half) in `dir` last
/// changed more than `older_than` ago: what a process killed mid-write left. Best effort.
pub(crate) fn sweep_temps(dir: &Path, older_than: std::time::Duration) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = std::time::SystemTime::now();
    for entry in entries.flatten() {
        let is_temp = entry.file_name().to_string_lossy().ends_with(".tmp");
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age > older_than);
        if is_temp && stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lz4_flex::frame::{BlockSize, FrameInfo};
    use std::io::Write;

    /// The files in `dir`, by name.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_text_is_hashed_and_its_blob_staged_at_once_unless_it_exists() {
        let dir = tempfile::tempdir().expect("temp dir");
        let blobs = dir.path().join("blobs");
        for text in [
            "fn main() {}  \n".repeat(7_000),
            "let x = 1;\n".repeat(600_000),
        ] {
            let d = digest(&text);
            let hashed = hash_and_stage(&blobs, &Pieces::whole(&text), None);
            assert_eq!(
                (hashed.tag.as_str(), hashed.digest.as_str()),
                (crate::file_tag(&text).as_str(), d.as_str())
            );
            let staged = hashed.staged.expect("a new text's blob is staged");
            assert_eq!(
                names(&blobs).len(),
                1,
                "only the staged file: {:?}",
                names(&blobs)
            );
            staged.place().expect("place");
            assert_eq!(names(&blobs), vec![format!("{d}.lz4")]);
            assert_eq!(load(&blobs, &d).expect("load"), text);
            // Hashed again: the blob exists, nothing is compressed or left behind.
            let again = hash_and_stage(&blobs, &Pieces::whole(&text), None);
            assert!(again.staged.is_none());
            assert_eq!(again.digest, d);
            assert_eq!(names(&blobs), vec![format!("{d}.lz4")]);
            remove(&blobs, &d).expect("remove");
        }
        // A staged blob that is not placed leaves nothing.
        let text = "abc\n".repeat(50_000);
        drop(
            hash_and_stage(&blobs, &Pieces::whole(&text), None)
                .staged
                .expect("staged"),
        );
        assert!(names(&blobs).is_empty());
    }

    #[test]
    fn a_first_text_in_a_fresh_directory_is_always_staged() {
        // The helper thread hashes a small text quickly and may reach its spill file before
        // this thread has made the directory.
        let text = "x = 1\n".repeat(12_000);
        for _ in 0..40 {
            let dir = tempfile::tempdir().expect("temp dir");
            let blobs = dir.path().join("a").join("blobs");
            let staged = hash_and_stage(&blobs, &Pieces::whole(&text), None).staged;
            assert!(staged.is_some(), "a new text's blob is staged");
            drop(staged);
            assert!(names(&blobs).is_empty());
        }
    }

    /// XXH3 takes other paths for short and long inputs: the streaming digest of any cut
    /// equals the one-shot digest of the joined text at every length class.
    #[test]
    fn a_text_in_parts_has_the_digest_of_the_joined_text() {
        let long: String = (0..5000)
            .map(|i| (b'a' + (i * 7 % 26) as u8) as char)
            .collect();
        for len in [0, 1, 16, 17, 128, 129, 240, 241, 1024, 1025, 5000] {
            let text = &long[..len];
            for (a, b) in [
                (0, len),
                (len / 2, len / 2),
                (1.min(len), len / 3 * 2),
                (len / 4, len),
            ] {
                let (a, b) = (a.min(b), a.max(b));
                let parts = Pieces::new([&text[..a], &text[a..b], &text[b..]]);
                assert_eq!(digest_pieces(&parts), digest(text), "{len}: {a}, {b}");
            }
        }
    }

    #[test]
    fn a_blob_round_trips_and_is_written_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let text = "fn main() {}\n".repeat(10_000);
        let d = digest(&text);
        ensure(dir.path(), &d, &Pieces::whole(&text)).expect("write");
        let path = file(dir.path(), &d);
        let first = std::fs::metadata(&path).expect("blob").modified().ok();
        ensure(dir.path(), &d, &Pieces::whole(&text)).expect("again");
        assert_eq!(
            std::fs::metadata(&path).expect("blob").modified().ok(),
            first
        );
        assert!(std::fs::metadata(&path).expect("blob").len() < text.len() as u64 / 4);
        let loaded = load(dir.path(), &d).expect("load");
        assert_eq!(loaded, text);
        assert_eq!(
            loaded.capacity(),
            text.len(),
            "sized from the name, never grown"
        );
        remove(dir.path(), &d).expect("remove");
        remove(dir.path(), &d).expect("removing twice is fine");
        assert!(load(dir.path(), &d).is_err());
    }

    #[test]
    fn a_blob_that_does_not_match_its_name_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = digest("one");
        ensure(dir.path(), &d, &Pieces::whole("two")).expect("write under the wrong name");
        assert!(load(dir.path(), &d).is_err());
        // A name claiming a huge length: refused, no huge allocation up front.
        let (hash, _) = d.rsplit_once('-').expect("a digest names its length");
        let huge = format!("{hash}-ffffffffffff");
        ensure(dir.path(), &huge, &Pieces::whole("two")).expect("write under a lying name");
        assert!(load(dir.path(), &huge).is_err());
    }

    #[test]
    fn a_blob_of_4_mib_blocks_still_loads() {
        // Blobs written before the 256 KiB blocks: the encoder's default (4 MiB blocks for a
        // big write), and independent blocks with a content checksum.
        let dir = tempfile::tempdir().expect("temp dir");
        let text: String = (0..600_000).map(|i| format!("line {i}\n")).collect();
        assert!(text.len() > 4 << 20);
        let d = digest(&text);
        for info in [
            None,
            Some(FrameInfo::new().block_size(BlockSize::Max4MB)),
            Some(
                FrameInfo::new()
                    .block_size(BlockSize::Max4MB)
                    .block_mode(lz4_flex::frame::BlockMode::Linked)
                    .content_checksum(true),
            ),
        ] {
            let out = std::fs::File::create(file(dir.path(), &d)).expect("create");
            let mut encoder = match info {
                None => lz4_flex::frame::FrameEncoder::new(out),
                Some(info) => lz4_flex::frame::FrameEncoder::with_frame_info(info, out),
            };
            encoder.write_all(text.as_bytes()).expect("write");
            encoder.finish().expect("finish");
            assert_eq!(load(dir.path(), &d).expect("load"), text);
        }
        // A blob cut short (a partial file) is refused, never taken for the text.
        let path = file(dir.path(), &d);
        let len = std::fs::metadata(&path).expect("blob").len();
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .expect("open");
        f.set_len(len / 2).expect("truncate");
        assert!(load(dir.path(), &d).is_err());
    }
}
