//! Large snapshot texts kept out of the database: one LZ4-framed file per distinct text under
//! `<state>/blobs/`, named by the text's content digest, written once and shared by every row
//! (and session) that records the same text.
//!
//! A blob is written and removed only inside the database's write transaction (the
//! `state_blob` table lists the files the database owns), so a concurrent process never sees a
//! row whose file is missing. A file written by a transaction that then rolled back is left over
//! unlisted: harmless, and reused when the same text is recorded again.

use lz4_flex::frame::{BlockSize, FrameInfo};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Texts at least this long go to a blob file; shorter ones stay in their row (a small read
/// costs no file of its own).
pub(crate) const BLOB_MIN_BYTES: usize = 64 * 1024;

/// The content digest of `text`: XXH3-128 and the length, as hex (`<32 hex>-<len hex>`).
pub(crate) fn digest(text: &str) -> String {
    let hash = xxhash_rust::xxh3::xxh3_128(text.as_bytes());
    format!("{hash:032x}-{:x}", text.len())
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
pub(crate) fn ensure(dir: &Path, digest: &str, text: &str) -> std::io::Result<()> {
    let target = file(dir, digest);
    if target.is_file() {
        return Ok(());
    }
    std::fs::create_dir_all(dir)?;
    let temp = dir.join(format!("{digest}.{}.tmp", std::process::id()));
    let written = (|| -> std::io::Result<()> {
        let out = std::fs::File::create(&temp)?;
        // Blocks of 256 KiB: the encoder's buffers stay in the cache (its default for a big
        // write, 4 MiB blocks, touches three fresh 4 MiB buffers: thousands of page faults).
        let info = FrameInfo::new().block_size(BlockSize::Max256KB);
        let mut encoder = lz4_flex::frame::FrameEncoder::with_frame_info(info, out);
        encoder.write_all(text.as_bytes())?;
        encoder.finish().map_err(std::io::Error::other)?;
        std::fs::rename(&temp, &target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// The text of blob `digest` in `dir`, checked against its digest.
pub(crate) fn load(dir: &Path, digest: &str) -> std::io::Result<String> {
    let path = file(dir, digest);
    let input = std::fs::File::open(&path)?;
    let mut bytes = Vec::new();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blob_round_trips_and_is_written_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let text = "fn main() {}\n".repeat(10_000);
        let d = digest(&text);
        ensure(dir.path(), &d, &text).expect("write");
        let path = file(dir.path(), &d);
        let first = std::fs::metadata(&path).expect("blob").modified().ok();
        ensure(dir.path(), &d, &text).expect("again");
        assert_eq!(
            std::fs::metadata(&path).expect("blob").modified().ok(),
            first
        );
        assert!(std::fs::metadata(&path).expect("blob").len() < text.len() as u64 / 4);
        assert_eq!(load(dir.path(), &d).expect("load"), text);
        remove(dir.path(), &d).expect("remove");
        remove(dir.path(), &d).expect("removing twice is fine");
        assert!(load(dir.path(), &d).is_err());
    }

    #[test]
    fn a_blob_that_does_not_match_its_name_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = digest("one");
        ensure(dir.path(), &d, "two").expect("write under the wrong name");
        assert!(load(dir.path(), &d).is_err());
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
