//! Property tests: the streaming implementations agree with direct restatements of the specs.

use hashline_anchor::hash_json::{canonical, hash_lines, line_hash, render_rows, LineHasher};
use hashline_anchor::tag::file_tag;
use proptest::prelude::*;

/// Lines drawn from a small alphabet so duplicates, blanks, symbols and trailing blanks occur.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("}".to_owned()),
            Just(String::new()),
            Just("  ".to_owned()),
            Just("a".to_owned()),
            Just("a \t".to_owned()),
            Just("é\u{feff}".to_owned()),
            Just("x\u{85}".to_owned()),
            "[a-c }\t\r]{0,6}",
        ],
        0..40,
    )
    .prop_map(|lines| lines.join("\n"))
}

/// Spec §a of the hashline language, restated with a regex-free scan.
fn naive_tag(text: &str) -> String {
    let mut normalized = String::new();
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            normalized.push('\n');
        }
        normalized.push_str(line.trim_end_matches([' ', '\t', '\r']));
    }
    format!(
        "{:04X}",
        xxhash_rust::xxh32::xxh32(normalized.as_bytes(), 0) & 0xFFFF
    )
}

proptest! {
    #[test]
    fn file_tag_matches_the_restated_spec(text in text()) {
        prop_assert_eq!(file_tag(&text), naive_tag(&text));
    }

    #[test]
    fn whole_text_hashes_match_counted_single_line_hashes(text in text()) {
        let lines: Vec<&str> = text.split('\n').collect();
        let hashes = hash_lines(&text);
        prop_assert_eq!(hashes.len(), lines.len());
        for (i, line) in lines.iter().enumerate() {
            let occurrence = 1 + lines[..i].iter().filter(|l| canonical(l) == canonical(line)).count();
            prop_assert_eq!(hashes[i], line_hash(line, i + 1, occurrence));
        }
    }

    #[test]
    fn skipping_then_pushing_equals_hashing_everything(text in text(), cut in 0usize..40) {
        let lines: Vec<&str> = text.split('\n').collect();
        let cut = cut.min(lines.len());
        let mut hasher = LineHasher::new();
        for line in &lines[..cut] {
            hasher.skip(line);
        }
        let tail: Vec<_> = lines[cut..].iter().map(|l| hasher.push(l)).collect();
        prop_assert_eq!(&tail[..], &hash_lines(&text)[cut..]);
    }

    #[test]
    fn rows_pair_each_line_with_its_hash(text in text()) {
        let hashes = hash_lines(&text);
        let n = hashes.len();
        let rows = render_rows(&text, &hashes, 1, n);
        let expected: Vec<String> =
            text.split('\n').zip(&hashes).map(|(l, h)| format!("{h}:{l}")).collect();
        prop_assert_eq!(rows, expected.join("\n"));
    }
}
