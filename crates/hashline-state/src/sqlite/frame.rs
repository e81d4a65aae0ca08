//! A blob's LZ4 frame, written by hand (the format of `lz4 -B5 --no-frame-crc`, read by
//! [`lz4_flex::frame::FrameDecoder`]): independent blocks of [`BLOCK`] bytes, no checksums.
//!
//! Independent blocks compress alike wherever they are compressed, so two threads share the
//! work ([`Blocks`]): one claims blocks from the front and writes them straight into the blob's
//! file ([`Blocks::front`]), the other claims them from the back into a spill file
//! ([`Blocks::back`]); where they meet depends only on how fast each is, so a thread that
//! starts late (it hashed the text first) simply does fewer. [`finish`] has the kernel
//! append the back's blocks in order (`copy_file_range`: the compressed half never sits in
//! memory) and closes the frame.
//!
//! The text may be held as parts ([`Pieces`], an edited file's new text): its blocks are cut
//! across them, so the frame is byte for byte the one of the joined text, which is never
//! built.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use hashline_core::Pieces;

/// The uncompressed size of a frame's blocks: 256 KiB keeps each block's buffers in the cache
/// (lz4_flex's encoder picks 4 MiB blocks for a big write: three fresh 4 MiB buffers, thousands
/// of page faults).
pub(crate) const BLOCK: usize = 256 * 1024;

/// The most blocks the back thread claims at once (2 MiB of text): each run is one copy of its
/// spill into the blob, so a few dozen copies for 100 MB instead of one per block.
const BACK_RUN: usize = 8;

/// Texts from which a second thread compresses blocks from the back.
pub(crate) const PARALLEL_BYTES: usize = 4 << 20;

/// The frame header: magic; FLG (version 01, independent blocks, no block or content checksum,
/// no size, no dictionary); BD (blocks of at most 256 KiB); HC (the second byte of the XXH32
/// of FLG and BD).
fn header() -> [u8; 7] {
    let (flg, bd) = (0b0110_0000u8, 0b0101_0000u8);
    let hc = ((xxhash_rust::xxh32::xxh32(&[flg, bd], 0) >> 8) & 0xFF) as u8;
    [0x04, 0x22, 0x4D, 0x18, flg, bd, hc]
}

/// The blocks of one text, claimed by at most two threads from opposite ends.
///
/// The text may come in parts ([`Blocks::of`]): a block that lies inside one part is
/// compressed from it in place, one that straddles parts is first copied into its thread's
/// block buffer, so the parts are never joined.
pub(crate) struct Blocks<'t> {
    /// The slices the blocks are made of, in order: block `i` is
    /// `segments[blocks[i].clone()]` (one slice unless it straddles parts).
    segments: Vec<&'t [u8]>,
    blocks: Vec<Range<usize>>,
    /// The first block nobody claimed from the front, and one past the last nobody claimed
    /// from the back: the unclaimed blocks are `front..back`.
    free: Mutex<(usize, usize)>,
}

/// The blocks the back thread wrote into its spill file: `(offset, length)` of each run in the
/// spill, in the order it claimed them (the frame's order of the runs reversed).
pub(crate) struct Back {
    spill: File,
    parts: Vec<(u64, u64)>,
}

impl<'t> Blocks<'t> {
    /// The blocks of the text made of `parts` (in order), none claimed yet: cut every
    /// [`BLOCK`] bytes of the text, wherever its parts begin and end.
    pub(crate) fn of(parts: impl IntoIterator<Item = &'t [u8]>) -> Blocks<'t> {
        let (mut segments, mut blocks) = (Vec::new(), Vec::new());
        // `first`: the first segment of the block being cut; `room`: the bytes it still takes.
        let (mut first, mut room) = (0, BLOCK);
        for part in parts {
            let mut rest = part;
            while !rest.is_empty() {
                let (head, tail) = rest.split_at(rest.len().min(room));
                segments.push(head);
                room -= head.len();
                rest = tail;
                if room == 0 {
                    blocks.push(first..segments.len());
                    (first, room) = (segments.len(), BLOCK);
                }
            }
        }
        if first < segments.len() {
            blocks.push(first..segments.len());
        }
        let back = blocks.len();
        Blocks {
            segments,
            blocks,
            free: Mutex::new((0, back)),
        }
    }

    /// The blocks of `text`, none claimed yet.
    pub(crate) fn of_pieces(text: &Pieces<'t>) -> Blocks<'t> {
        Blocks::of(text.parts().iter().map(|p| p.as_bytes()))
    }

    /// The bytes of block `block`: borrowed from the text when it lies in one part, else
    /// copied into `joined` (the calling thread's block buffer).
    fn bytes<'b>(&'b self, block: &Range<usize>, joined: &'b mut Vec<u8>) -> &'b [u8] {
        match &self.segments[block.clone()] {
            [one] => one,
            several => {
                joined.clear();
                several.iter().for_each(|s| joined.extend_from_slice(s));
                joined
            }
        }
    }

    /// Claim the next block from the front (`true`), or the next run of blocks from the back:
    /// up to [`BACK_RUN`] of them, fewer (down to one) as the unclaimed ones run out, so the
    /// two threads still meet about when both finish. The run is in the frame's order; empty
    /// when nothing is left.
    fn claim(&self, from_front: bool) -> &[Range<usize>] {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        let (front, back) = &mut *free;
        let left = back.saturating_sub(*front);
        let (from, to) = if left == 0 {
            (0, 0)
        } else if from_front {
            *front += 1;
            (*front - 1, *front)
        } else {
            let run = (left / 4).clamp(1, BACK_RUN);
            *back -= run;
            (*back, *back + run)
        };
        &self.blocks[from..to]
    }

    /// The frame's header, then the blocks claimed from the front until none is left, into
    /// `out`.
    pub(crate) fn front(&self, out: &mut File) -> std::io::Result<()> {
        let mut w = BufWriter::with_capacity(1 << 16, out);
        w.write_all(&header())?;
        let (mut buf, mut joined) = (Vec::new(), Vec::new());
        while let [block] = self.claim(true) {
            framed_block(self.bytes(block, &mut joined), &mut buf, &mut w)?;
        }
        w.flush()
    }

    /// The blocks claimed from the back until none is left, into `spill` (created or
    /// truncated; the caller removes it).
    /// The spill file is created with the first run claimed: `None` when the front had
    /// claimed every block, or [`Blocks::close`] had been called, before.
    pub(crate) fn back(&self, spill: &Path) -> std::io::Result<Option<Back>> {
        let mut run = self.claim(false);
        if run.is_empty() {
            return Ok(None);
        }
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(spill)?;
        let mut w = BufWriter::with_capacity(1 << 16, file);
        let (mut parts, mut at) = (Vec::new(), 0u64);
        let (mut buf, mut joined) = (Vec::new(), Vec::new());
        while !run.is_empty() {
            let mut len = 0;
            for block in run {
                len += framed_block(self.bytes(block, &mut joined), &mut buf, &mut w)?;
            }
            parts.push((at, len));
            at += len;
            run = self.claim(false);
        }
        w.flush()?;
        let spill = w.into_inner().map_err(|e| e.into_error())?;
        Ok(Some(Back { spill, parts }))
    }

    /// Nothing more will be claimed: a thread that has not started claims nothing.
    pub(crate) fn close(&self) {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        free.1 = free.0;
    }
}

/// Append the back's blocks to `out` (written by [`Blocks::front`]) in the frame's order, then
/// the end mark.
pub(crate) fn finish(out: &mut File, back: Option<Back>) -> std::io::Result<()> {
    if let Some(Back { spill, parts }) = back {
        let mut spill = spill;
        for &(offset, len) in parts.iter().rev() {
            spill.seek(SeekFrom::Start(offset))?;
            let copied = std::io::copy(&mut (&spill).take(len), out)?;
            if copied != len {
                return Err(std::io::Error::other("the spilled blocks were cut short"));
            }
        }
    }
    out.write_all(&[0, 0, 0, 0])
}

/// `text` as one whole frame into `out` (the same frame whatever parts it comes in): from
/// [`PARALLEL_BYTES`] on, a second thread compresses blocks from the back into the file
/// `spill` (removed afterwards).
pub(crate) fn write(out: &mut File, text: &Pieces<'_>, spill: &Path) -> std::io::Result<()> {
    let blocks = Blocks::of_pieces(text);
    if text.len() < PARALLEL_BYTES {
        blocks.front(out)?;
        return finish(out, None);
    }
    // Without a second thread the front claims every block and the back then finds none.
    let (front, back) = hashline_core::par::both(|| blocks.front(out), || blocks.back(spill));
    let done = front.and_then(|()| finish(out, back?));
    let _ = std::fs::remove_file(spill);
    done
}

/// Write `block` to `out` as a frame's block: its size (the high bit set when it is stored
/// uncompressed, as when compression does not make it smaller) and its bytes; `buf` is scratch.
/// Returns the bytes written.
fn framed_block(block: &[u8], buf: &mut Vec<u8>, out: &mut impl Write) -> std::io::Result<u64> {
    buf.resize(lz4_flex::block::get_maximum_output_size(block.len()), 0);
    let size = lz4_flex::block::compress_into(block, buf).map_err(std::io::Error::other)?;
    let (header, data) = if size < block.len() {
        (size as u32, &buf[..size])
    } else {
        (block.len() as u32 | 0x8000_0000, block)
    };
    out.write_all(&header.to_le_bytes())?;
    out.write_all(data)?;
    Ok(4 + data.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lz4_flex::frame::{BlockSize, FrameInfo};
    use std::io::Write;

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
            write(&mut out, &Pieces::whole(&text), &spill).expect("frame");
            drop(out);
            assert!(!spill.exists(), "the spilled half is removed");
            let frame = std::fs::read(&path).expect("read");
            // The same text in three parts gives the same bytes.
            let (a, b) = (len / 3, len * 2 / 3);
            let parts = Pieces::new([&text[..a], &text[a..b], &text[b..]]);
            let mut out = File::create(&path).expect("create");
            write(&mut out, &parts, &spill).expect("frame of the parts");
            drop(out);
            assert_eq!(std::fs::read(&path).expect("read"), frame, "{len}");
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

    /// The frame `blocks` make when `first` claims before `second` (each claiming till none
    /// is left), decoded.
    fn decoded(text: &str, back_first: bool) -> Vec<u8> {
        let dir = tempfile::tempdir().expect("temp dir");
        let (path, spill) = (dir.path().join("f"), dir.path().join("back"));
        let blocks = Blocks::of([text.as_bytes()]);
        let mut out = File::create(&path).expect("create");
        let back = if back_first {
            let back = blocks.back(&spill).expect("back");
            blocks.front(&mut out).expect("front");
            back
        } else {
            blocks.front(&mut out).expect("front");
            let back = blocks.back(&spill).expect("back");
            assert!(back.is_none() && !spill.exists(), "nothing left, no spill");
            back
        };
        finish(&mut out, back).expect("finish");
        let mut decoded = Vec::new();
        lz4_flex::frame::FrameDecoder::new(&std::fs::read(&path).expect("read")[..])
            .read_to_end(&mut decoded)
            .expect("decodes");
        decoded
    }

    #[test]
    fn either_end_may_take_every_block() {
        for len in [0, 5, BLOCK + 1, 5 * BLOCK + 3, 40 * BLOCK + 1] {
            let text = mixed(len);
            assert_eq!(decoded(&text, false), text.as_bytes(), "front only, {len}");
            assert_eq!(decoded(&text, true), text.as_bytes(), "back only, {len}");
        }
    }

    #[test]
    fn closed_blocks_are_claimed_by_nobody() {
        let text = mixed(3 * BLOCK);
        let blocks = Blocks::of([text.as_bytes()]);
        blocks.close();
        let dir = tempfile::tempdir().expect("temp dir");
        let spill = dir.path().join("back");
        assert!(blocks.back(&spill).expect("back").is_none());
        assert!(!spill.exists());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

        /// However the two threads share the blocks (either may start up to 20 ms after the
        /// other), the frame decodes to the text and has the blocks lz4_flex's own encoder
        /// makes.
        #[test]
        fn any_sharing_of_the_blocks_makes_the_same_frame(
            blocks in 0usize..12,
            extra in 0usize..BLOCK,
            noisy in proptest::collection::vec(proptest::bool::ANY, 12),
            delay_back in proptest::bool::ANY,
            delay_us in 0u64..20_000,
            cuts in proptest::collection::vec(0usize..13 * BLOCK, 0..6),
        ) {
            let len = blocks * BLOCK + extra;
            let mut x = 0x2545_F491_4F6C_DD1Du64 ^ len as u64;
            let text: Vec<u8> = (0..len)
                .map(|i| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    if noisy[i / BLOCK] { (x % 256) as u8 } else { b'a' + (i % 5) as u8 }
                })
                .collect();
            let dir = tempfile::tempdir().expect("temp dir");
            let (path, spill) = (dir.path().join("f"), dir.path().join("back"));
            // The text in parts cut anywhere (a block may straddle several).
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(len)).collect();
            cuts.sort_unstable();
            let ends = cuts.iter().copied().chain([len]);
            let parts: Vec<&[u8]> = [0].into_iter().chain(cuts.iter().copied()).zip(ends)
                .map(|(a, b)| &text[a..b])
                .collect();
            let shared = Blocks::of(parts);
            let mut out = File::create(&path).expect("create");
            let pause = std::time::Duration::from_micros(delay_us);
            let (front, back) = std::thread::scope(|scope| {
                let back = scope.spawn(|| {
                    if delay_back {
                        std::thread::sleep(pause);
                    }
                    shared.back(&spill)
                });
                if !delay_back {
                    std::thread::sleep(pause);
                }
                (shared.front(&mut out), back.join().expect("back thread"))
            });
            front.expect("front");
            finish(&mut out, back.expect("back")).expect("finish");
            let frame = std::fs::read(&path).expect("read");
            let mut decoded = Vec::new();
            lz4_flex::frame::FrameDecoder::new(&frame[..])
                .read_to_end(&mut decoded)
                .expect("decodes");
            proptest::prop_assert_eq!(&decoded, &text);
            let info = FrameInfo::new().block_size(BlockSize::Max256KB);
            let mut encoder = lz4_flex::frame::FrameEncoder::with_frame_info(info, Vec::new());
            encoder.write_all(&text).expect("encode");
            proptest::prop_assert_eq!(frame.len(), encoder.finish().expect("finish").len());
            // Byte for byte the frame of the text in one part, on one thread.
            let whole = Blocks::of([&text[..]]);
            let mut one = File::create(dir.path().join("one")).expect("create");
            whole.front(&mut one).expect("front");
            finish(&mut one, None).expect("finish");
            proptest::prop_assert_eq!(&frame, &std::fs::read(dir.path().join("one")).expect("read"));
        }
    }
}
