//! [`hash_lines`]: every entry's hash of a whole text, counting occurrences in a compact table.
//!
//! A content line's hash numbers its occurrence among the earlier identical (canonical) lines,
//! so hashing a text counts every distinct line. A map keyed by the lines (a `Cow<str>` and a
//! count: ~38 bytes an entry) held 0.9x of a 100 MB file of short lines while an edit resolved
//! its anchors. Here an entry is the number of the line it was first seen on and its count
//! (8 bytes), compared with the line found again through the entries' starts (4 bytes a line).

use std::hash::BuildHasher;

use hashbrown::HashTable;

use super::{canonical, is_symbol_only, line_hash, LineHash, LineHasher};

/// The hashes of every entry of `text.split('\n')`, sentinel included.
pub fn hash_lines(text: &str) -> Vec<LineHash> {
    let entries = memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1;
    let mut out = Vec::with_capacity(entries);
    if u32::try_from(text.len()).is_err() || u32::try_from(entries).is_err() {
        // Past what 4-byte offsets address: the map keyed by the lines themselves.
        let mut hasher = LineHasher::with_capacity(entries);
        out.extend(text.split('\n').map(|line| hasher.push(line)));
        return out;
    }
    // Seeded per process, as the map keyed by the lines was: no input makes it probe long.
    let state = foldhash::fast::RandomState::default();
    let mut starts: Vec<u32> = Vec::with_capacity(entries);
    // (entry index first seen on, occurrences so far)
    let mut seen: HashTable<(u32, u32)> = HashTable::with_capacity(entries);
    let mut at = 0usize;
    for (i, line) in text.split('\n').enumerate() {
        // Both fit: checked above.
        starts.push(at as u32);
        at += line.len() + 1;
        let canon = canonical(line);
        if is_symbol_only(&canon) {
            out.push(line_hash(line, i + 1, 1));
            continue;
        }
        let entry = |k: u32| -> &str {
            let k = k as usize;
            let start = starts.get(k).map_or(0, |&s| s as usize);
            let end = starts.get(k + 1).map_or(text.len(), |&s| s as usize - 1);
            text.get(start..end).unwrap_or("")
        };
        let hash = state.hash_one(canon.as_ref());
        let occurrence = match seen.find_mut(hash, |&(k, _)| canonical(entry(k)) == canon) {
            Some((_, count)) => {
                *count += 1;
                *count
            }
            None => {
                let rehash = |&(k, _): &(u32, u32)| state.hash_one(canonical(entry(k)).as_ref());
                seen.insert_unique(hash, (i as u32, 1), rehash);
                1
            }
        };
        out.push(line_hash(line, i + 1, occurrence as usize));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What the map keyed by the lines gives.
    fn by_lines(text: &str) -> Vec<LineHash> {
        let mut hasher = LineHasher::new();
        text.split('\n').map(|line| hasher.push(line)).collect()
    }

    proptest! {
        /// Any text hashes as the line-keyed counters hash it.
        #[test]
        fn the_compact_table_counts_as_the_map(text in super::super::test_text(60)) {
            prop_assert_eq!(hash_lines(&text), by_lines(&text));
        }
    }

    #[test]
    fn many_distinct_and_repeated_lines_grow_the_table() {
        let text: String = (0..20_000)
            .map(|i| format!("line {}\n", i % 7_000))
            .collect();
        assert_eq!(hash_lines(&text), by_lines(&text));
    }
}
