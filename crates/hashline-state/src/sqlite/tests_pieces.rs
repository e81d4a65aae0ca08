//! Recording a text held as parts ([`SnapshotStore::record_pieces`]): the same state as
//! recording the joined text, its blob written from the parts.

use std::path::{Path, PathBuf};

use hashline_core::Pieces;
use proptest::prelude::*;

use super::{blob, SqliteStore};
use crate::SnapshotStore;

/// The blob files of a state directory and their contents, by name.
fn blobs(state: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(blob::dir(state))
        .map(|dir| {
            dir.filter_map(|e| e.ok())
                .map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    (name, std::fs::read(e.path()).expect("read blob"))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// A text of about `len` bytes of lines of varied length (some with trailing blanks, some
/// repeated, some not: blocks that compress and blocks that do not), from `seed`.
fn text(len: usize, seed: u64) -> String {
    let mut x = seed | 1;
    let mut out = String::with_capacity(len + 200);
    while out.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let width = (x % 120) as usize;
        if x.is_multiple_of(3) {
            out.extend((0..width).map(|i| (b'a' + ((x >> (i % 50)) % 26) as u8) as char));
        } else {
            out.push_str(&"let value = compute(1);"[..width.min(23)]);
        }
        out.push_str(if x.is_multiple_of(11) { " \t\n" } else { "\n" });
    }
    out
}

/// `text` cut at the offsets `cuts` (each moved to just after the `\n` before it when
/// `aligned`: line-aligned parts).
fn cut<'a>(text: &'a str, cuts: &[usize], aligned: bool) -> Pieces<'a> {
    let mut at: Vec<usize> = cuts
        .iter()
        .map(|&c| {
            let c = c.min(text.len());
            match aligned {
                true => text[..c].rfind('\n').map_or(0, |i| i + 1),
                false => (c..=text.len())
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap_or(text.len()),
            }
        })
        .collect();
    at.sort_unstable();
    let ends = at.iter().copied().chain([text.len()]);
    Pieces::new(
        [0].into_iter()
            .chain(at.iter().copied())
            .zip(ends)
            .map(|(a, b)| &text[a..b]),
    )
}

/// Two stores, each in its own state directory.
fn two_stores() -> (
    tempfile::TempDir,
    SqliteStore,
    tempfile::TempDir,
    SqliteStore,
) {
    let (a, b) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    let (sa, sb) = (
        SqliteStore::open(a.path(), "s").expect("open"),
        SqliteStore::open(b.path(), "s").expect("open"),
    );
    (a, sa, b, sb)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// Recording a text's parts leaves the state recording the joined text leaves: the same
    /// tag, head text and blob file (byte for byte), and the two fuse as one version.
    #[test]
    fn recording_the_parts_is_recording_the_joined_text(
        len in 64usize * 1024..2 << 20,
        seed in any::<u64>(),
        cuts in proptest::collection::vec(0usize..2 << 20, 1..12),
        aligned in proptest::bool::weighted(0.8),
        tag_given in any::<bool>(),
    ) {
        let text = text(len, seed);
        let parts = cut(&text, &cuts.iter().map(|c| c % text.len()).collect::<Vec<_>>(), aligned);
        prop_assert!(parts.eq_str(&text));
        prop_assert_eq!(blob::digest_pieces(&parts), blob::digest(&text));
        let (a, whole, b, pieces) = two_stores();
        let tag = whole.record("/f", &text).expect("record");
        let given = tag_given.then_some(tag.as_str());
        prop_assert_eq!(&pieces.record_pieces("/f", &parts, given).expect("record parts"), &tag);
        let head = pieces.head("/f").expect("head").expect("recorded");
        prop_assert_eq!((head.text == text, head.tag), (true, tag.clone()));
        let files = blobs(a.path());
        prop_assert_eq!(files.len(), 1);
        prop_assert!(files == blobs(b.path()), "the blob files differ");
        // Read fusion, both ways: one version each.
        prop_assert_eq!(&pieces.record("/f", &text).expect("again whole"), &tag);
        prop_assert_eq!(&whole.record_pieces("/f", &parts, None).expect("again parts"), &tag);
        prop_assert_eq!(pieces.versions("/f").expect("versions").len(), 1);
        prop_assert_eq!(whole.versions("/f").expect("versions").len(), 1);
    }
}

#[test]
fn a_small_text_in_parts_is_recorded_in_its_row() {
    let (a, whole, b, pieces) = two_stores();
    let text = "fn a() {}  \r\nlet b = 1;\n".repeat(100);
    let parts = cut(&text, &[7, 800, 801], false);
    assert!(parts.parts().len() > 1);
    let tag = whole.record("/f", &text).expect("record");
    assert_eq!(
        pieces.record_pieces("/f", &parts, None).expect("parts"),
        tag
    );
    assert_eq!(
        pieces.head("/f").expect("head").map(|s| (s.text, s.tag)),
        Some((text.clone(), tag))
    );
    pieces.record("/f", &text).expect("again");
    assert_eq!(pieces.versions("/f").expect("versions").len(), 1);
    assert!(blobs(a.path()).is_empty() && blobs(b.path()).is_empty());
}

/// The modification time of the one blob of `state`.
fn blob_written(state: &Path) -> (PathBuf, Option<std::time::SystemTime>) {
    let file = std::fs::read_dir(blob::dir(state))
        .expect("blob dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .next()
        .expect("a blob");
    let written = std::fs::metadata(&file).and_then(|m| m.modified()).ok();
    (file, written)
}

#[test]
fn prepared_parts_are_placed_by_their_record_and_discarded_without_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path(), "s").expect("open");
    let text = text(5 << 20, 7);
    let parts = cut(&text, &[100_000, 2 << 20, 2 << 20, 4 << 20], true);
    assert_eq!(parts.parts().len(), 4);
    store.prepare_pieces(&parts);
    assert_eq!(blobs(dir.path()).len(), 1);
    let (file, written) = blob_written(dir.path());
    // The record finds the prepared blob: not written again.
    let tag = store.record_pieces("/a", &parts, None).expect("record");
    assert_eq!(blob_written(dir.path()), (file, written));
    assert_eq!(
        store
            .by_tag("/a", &tag)
            .expect("by_tag")
            .map(|s| s.text == text),
        Some(true)
    );
    // Prepared, then discarded (the write failed): gone, unless a row uses it.
    let other = text.replacen("let", "var", 1);
    let other_parts = cut(&other, &[3 << 20], true);
    store.prepare_pieces(&other_parts);
    assert_eq!(blobs(dir.path()).len(), 2);
    store.discard_pieces(&other_parts);
    assert_eq!(blobs(dir.path()).len(), 1);
    store.discard_pieces(&parts);
    assert_eq!(blobs(dir.path()).len(), 1, "recorded: kept");
}
