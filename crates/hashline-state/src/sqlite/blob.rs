//! Large snapshot texts kept out of the database: one LZ4-framed file per distinct text under
//! `<state>/blobs/`, named by the text's content digest, written once and shared by every row
//! (and session) that records the same text.
//!
//! A blob is written and removed only inside the database's write transaction (the
//! `state_blob` table lists the files the database owns), so a concurrent process never sees a
//! row whose file is missing. A file written by a transaction that then rolled back is left over
//! unlisted: harmless, and reused when the same text is recorded again.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
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
        let mut out = std::fs::File::create(&temp)?;
        let spill = dir.join(format!("{digest}.{}.half.tmp", std::process::id()));
        write_frame(&mut out, text.as_bytes(), &spill)?;
        std::fs::rename(&temp, &target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// The uncompressed size of a frame's blocks: 256 KiB keeps each block's buffers in the cache
/// (lz4_flex's encoder picks 4 MiB blocks for a big write: three fresh 4 MiB buffers, thousands
/// of page faults).
const BLOCK: usize = 256 * 1024;

/// Texts from which the blocks of the second half are compressed on another thread.
const PARALLEL_BYTES: usize = 4 << 20;

/// `bytes` as one LZ4 frame into `out` (the format of `lz4 -B5 --no-frame-crc`, read by
/// [`lz4_flex::frame::FrameDecoder`]): independent blocks of [`BLOCK`] bytes, no checksums.
/// Independent blocks compress alike wherever they are compressed: from [`PARALLEL_BYTES`] on,
/// the second half's are compressed on another thread into the file `spill` while the first
/// half's are written, then copied after them by the kernel (`copy_file_range`: the compressed
/// half never sits in memory) and `spill` removed.
fn write_frame(out: &mut File, bytes: &[u8], spill: &Path) -> std::io::Result<()> {
    // FLG: version 01, independent blocks, no block or content checksum, no size, no dict.
    // BD: a block holds at most 256 KiB. HC: the second byte of the XXH32 of both.
    let (flg, bd) = (0b0110_0000u8, 0b0101_0000u8);
    let hc = ((xxhash_rust::xxh32::xxh32(&[flg, bd], 0) >> 8) & 0xFF) as u8;
    let blocks: Vec<&[u8]> = bytes.chunks(BLOCK).collect();
    let split = if bytes.len() < PARALLEL_BYTES {
        blocks.len()
    } else {
        blocks.len() / 2
    };
    let (first, second) = blocks.split_at(split);
    let blocks_to = |file: &mut File, blocks: &[&[u8]], head: &[u8]| -> std::io::Result<()> {
        let mut w = BufWriter::with_capacity(1 << 16, file);
        w.write_all(head)?;
        let mut buf = Vec::new();
        for block in blocks {
            framed_block(block, &mut buf, &mut w)?;
        }
        w.flush()
    };
    let head = [0x04, 0x22, 0x4D, 0x18, flg, bd, hc];
    if second.is_empty() {
        blocks_to(out, first, &head)?;
    } else {
        let halves = std::thread::scope(|scope| {
            let later = scope.spawn(|| -> std::io::Result<File> {
                let mut half = File::options()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .open(spill)?;
                blocks_to(&mut half, second, &[])?;
                Ok(half)
            });
            let here = blocks_to(out, first, &head);
            let later = later
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (here, later)
        });
        let copied = (|| -> std::io::Result<()> {
            halves.0?;
            let mut half = halves.1?;
            half.seek(SeekFrom::Start(0))?;
            std::io::copy(&mut half, out).map(drop)
        })();
        let _ = std::fs::remove_file(spill);
        copied?;
    }
    // The end mark.
    out.write_all(&[0, 0, 0, 0])
}

/// Write `block` to `out` as a frame's block: its size (the high bit set when it is stored
/// uncompressed, as when compression does not make it smaller) and its bytes; `buf` is scratch.
fn framed_block(block: &[u8], buf: &mut Vec<u8>, out: &mut impl Write) -> std::io::Result<()> {
    buf.resize(lz4_flex::block::get_maximum_output_size(block.len()), 0);
    let size = lz4_flex::block::compress_into(block, buf).map_err(std::io::Error::other)?;
    let (header, data) = if size < block.len() {
        (size as u32, &buf[..size])
    } else {
        (block.len() as u32 | 0x8000_0000, block)
    };
    out.write_all(&header.to_le_bytes())?;
    out.write_all(data)
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

    /// A text of `len` bytes that compresses poorly in places (so some blocks are stored
    /// uncompressed) and well in others.
    fn mixed(len: usize) -> String {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        (0..len)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if (i / BLOCK) % 3 == 1 {
                    (b'a' + (x % 26) as u8) as char
                } else {
                    (b'a' + (i % 7) as u8) as char
                }
            })
            .collect()
    }

    #[test]
    fn frames_on_one_or_two_threads_decode_and_agree_with_the_lz4_format() {
        for len in [
            0,
            1,
            BLOCK - 1,
            BLOCK,
            3 * BLOCK + 5,
            PARALLEL_BYTES + 2 * BLOCK + 7,
        ] {
            let text = mixed(len);
            let dir = tempfile::tempdir().expect("temp dir");
            let (path, spill) = (dir.path().join("f"), dir.path().join("half"));
            let mut out = File::create(&path).expect("create");
            write_frame(&mut out, text.as_bytes(), &spill).expect("frame");
            drop(out);
            assert!(!spill.exists(), "the spilled half is removed");
            let frame = std::fs::read(&path).expect("read");
            let mut back = Vec::new();
            lz4_flex::frame::FrameDecoder::new(&frame[..])
                .read_to_end(&mut back)
                .expect("decodes");
            assert_eq!(back, text.as_bytes(), "{len}");
            // The same blocks as lz4_flex's own encoder makes with this frame's settings.
            let info = FrameInfo::new().block_size(BlockSize::Max256KB);
            let mut encoder = lz4_flex::frame::FrameEncoder::with_frame_info(info, Vec::new());
            encoder.write_all(text.as_bytes()).expect("encode");
            let theirs = encoder.finish().expect("finish");
            assert_eq!(frame.len(), theirs.len(), "{len}");
        }
    }

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
