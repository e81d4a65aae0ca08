//! Line hashes of the hash-json dialect (seed 001, pi-hashline-edit-pro 0.2.0).
//!
//! The text is split on `\n` into entries (a newline-terminated text has a final empty
//! *sentinel* entry, which `read` never shows but which is a valid anchor). For the entry at
//! 1-based line number `L`:
//!
//! 1. **Canonical form**: every `\r` deleted, then trailing whitespace stripped with the
//!    ECMAScript `trimEnd` set (which strips U+FEFF and keeps U+0085, unlike Rust's `trim_end`).
//! 2. **Symbol-only**: the canonical form holds no letter (L*) and no number (N*).
//! 3. **Discriminator**: `S{L}` for symbol-only lines; `C{k}` for content lines, where `k` is
//!    1 + the number of earlier entries with the identical canonical form.
//! 4. **Hash**: xxHash32 (seed 0) of the UTF-8 of `<disc>:<canonical>`; its top 24 bits as four
//!    characters of the URL-safe base64 alphabet, most significant group first.
//!
//! Callers pass text that is already BOM-free and LF-normalized (the dialect's line model).

mod at;
mod compact;

/// Texts for the property tests: lines drawn from a few that repeat, canonicalise alike
/// (trailing blanks, `\r`, U+00A0) or are symbol-only.
#[cfg(test)]
fn test_text(max_lines: usize) -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let rows = [
        "a", "b", " a", "a  ", "a\r", "}", "{", "", "  ", "x = 1;", "ü", "a\u{a0}",
    ];
    proptest::collection::vec(proptest::sample::select(rows.to_vec()), 0..max_lines)
        .prop_map(|rows| rows.join("\n"))
}

pub use at::hash_lines_at;
pub use compact::hash_lines;

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use unicode_general_category::{get_general_category, GeneralCategory};
use xxhash_rust::xxh32::xxh32;

/// The URL-safe base64 alphabet the 6-bit groups index.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// A 4-character line hash such as `zlID` (always ASCII from the URL-safe base64 alphabet).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineHash([u8; 4]);

impl LineHash {
    /// Encodes the top 24 bits of an xxHash32 value (`h >> 8`), most significant 6 bits first.
    pub fn from_xxh32(h: u32) -> LineHash {
        let v = h >> 8;
        let pick = |shift: u32| ALPHABET[((v >> shift) & 0x3F) as usize];
        LineHash([pick(18), pick(12), pick(6), pick(0)])
    }

    /// The hash as a string slice.
    pub fn as_str(&self) -> &str {
        // Every byte comes from ALPHABET, which is ASCII, so the bytes are valid UTF-8.
        std::str::from_utf8(&self.0).unwrap_or("????")
    }
}

impl fmt::Display for LineHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for LineHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LineHash({})", self.as_str())
    }
}

impl PartialEq<str> for LineHash {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for LineHash {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// True for the code points ECMAScript's `String.prototype.trimEnd` removes (see
/// [`hashline_core::js`]).
pub use hashline_core::js::is_js_space as is_js_whitespace;

/// The canonical form of one line: `\r` deleted, then trailing ECMAScript whitespace stripped.
/// Leading and interior whitespace is kept.
pub fn canonical(line: &str) -> Cow<'_, str> {
    if line.contains('\r') {
        let without_cr: String = line.chars().filter(|&c| c != '\r').collect();
        Cow::Owned(without_cr.trim_end_matches(is_js_whitespace).to_owned())
    } else {
        Cow::Borrowed(line.trim_end_matches(is_js_whitespace))
    }
}

/// True when `canonical` holds no letter (general category L*) and no number (N*): such a line
/// is hashed by its line number instead of its occurrence.
pub fn is_symbol_only(canonical: &str) -> bool {
    !canonical.chars().any(|c| {
        if c.is_ascii() {
            return c.is_ascii_alphanumeric(); // ASCII letters are L*, ASCII digits Nd
        }
        matches!(
            get_general_category(c),
            GeneralCategory::UppercaseLetter
                | GeneralCategory::LowercaseLetter
                | GeneralCategory::TitlecaseLetter
                | GeneralCategory::ModifierLetter
                | GeneralCategory::OtherLetter
                | GeneralCategory::DecimalNumber
                | GeneralCategory::LetterNumber
                | GeneralCategory::OtherNumber
        )
    })
}

/// Hashes `<disc>:<canonical>` where `disc` is the already formatted discriminator.
fn hash_with_discriminator(disc: fmt::Arguments<'_>, canonical: &str) -> LineHash {
    let mut input = String::with_capacity(canonical.len() + 12);
    // Writing into a String cannot fail.
    let _ = fmt::write(&mut input, disc);
    input.push(':');
    input.push_str(canonical);
    LineHash::from_xxh32(xxh32(input.as_bytes(), 0))
}

/// The hash of one line at 1-based `line_no` whose canonical form occurs for the
/// `occurrence`-th time (1-based) in the file: `S{line_no}` is used when the line is
/// symbol-only (then `occurrence` is ignored), `C{occurrence}` otherwise.
pub fn line_hash(line: &str, line_no: usize, occurrence: usize) -> LineHash {
    let canon = canonical(line);
    if is_symbol_only(&canon) {
        hash_with_discriminator(format_args!("S{line_no}"), &canon)
    } else {
        hash_with_discriminator(format_args!("C{occurrence}"), &canon)
    }
}

/// The seed's single-line helper `computeLineHash(idx, line)`: `C1` for content lines,
/// `S{idx}` for symbol-only ones. Only right for the first occurrence of a content line; use
/// [`hash_lines`] for a file.
pub fn compute_line_hash(idx: usize, line: &str) -> LineHash {
    line_hash(line, idx, 1)
}

/// Hashes the entries of a text one after another, keeping the occurrence counters, so a
/// caller can stop after the last line it needs.
#[derive(Debug, Default)]
pub struct LineHasher<'a> {
    line_no: usize,
    /// Occurrences so far per canonical line (foldhash: SipHash dominated 100 MB edits).
    seen: HashMap<Cow<'a, str>, usize, foldhash::fast::RandomState>,
}

impl<'a> LineHasher<'a> {
    /// A hasher positioned before line 1.
    pub fn new() -> LineHasher<'a> {
        LineHasher::default()
    }

    /// A hasher positioned before line 1, sized for a text of `lines` lines (a million-line
    /// file then never rehashes its counters while it grows).
    pub fn with_capacity(lines: usize) -> LineHasher<'a> {
        LineHasher {
            line_no: 0,
            seen: HashMap::with_capacity_and_hasher(lines, Default::default()),
        }
    }

    /// Advances past the next entry without hashing it, keeping the occurrence counters
    /// exactly as [`LineHasher::push`] would (for lines before a read window).
    pub fn skip(&mut self, line: &'a str) {
        self.line_no += 1;
        let canon = canonical(line);
        if is_symbol_only(&canon) {
            return;
        }
        match self.seen.get_mut(canon.as_ref()) {
            Some(count) => *count += 1,
            None => {
                self.seen.insert(canon, 1);
            }
        }
    }

    /// The hash of the next entry (line numbers count from 1).
    pub fn push(&mut self, line: &'a str) -> LineHash {
        self.line_no += 1;
        let canon = canonical(line);
        if is_symbol_only(&canon) {
            return hash_with_discriminator(format_args!("S{}", self.line_no), &canon);
        }
        let hash_for = |k: usize| hash_with_discriminator(format_args!("C{k}"), &canon);
        match self.seen.get_mut(canon.as_ref()) {
            Some(count) => {
                *count += 1;
                hash_for(*count)
            }
            None => {
                let hash = hash_for(1);
                self.seen.insert(canon, 1);
                hash
            }
        }
    }
}

/// [`hash_lines`] as strings: one per entry of `text.split('\n')`, sentinel included.
pub fn line_hashes(text: &str) -> Vec<String> {
    hash_lines(text)
        .iter()
        .map(|h| h.as_str().to_owned())
        .collect()
}

/// Number of lines `read` shows: entries minus the sentinel of a newline-terminated text;
/// `""` has 0 and `"\n"` has 1.
pub fn visible_line_count(text: &str) -> usize {
    let newlines = text.matches('\n').count();
    if text.is_empty() {
        0
    } else if text.ends_with('\n') {
        newlines
    } else {
        newlines + 1
    }
}

/// [`visible_line_count`] of the text `text` is made of, counted part by part.
pub fn visible_line_count_of(text: &hashline_core::Pieces<'_>) -> usize {
    let newlines: usize = text.parts().iter().map(|p| p.matches('\n').count()).sum();
    match text.parts().last() {
        None => 0,
        Some(last) if last.ends_with('\n') => newlines,
        Some(_) => newlines + 1,
    }
}

/// Appends one `HASH:content` row (content verbatim) to `out`.
pub fn push_row(out: &mut String, hash: LineHash, content: &str) {
    out.push_str(hash.as_str());
    out.push(':');
    out.push_str(content);
}

/// The `HASH:content` rows of 1-based lines `first..=last` of `text`, joined by `\n` (no
/// trailing newline). `hashes` are the whole-text hashes ([`hash_lines`]); lines beyond
/// either `hashes` or the text are not rendered. Used by `read` and by the edit response's
/// `--- Anchors ---` block.
pub fn render_rows(text: &str, hashes: &[LineHash], first: usize, last: usize) -> String {
    let first = first.max(1);
    let mut out = String::new();
    let rows = text.split('\n').zip(hashes).enumerate().skip(first - 1);
    for (index, (content, hash)) in rows {
        if index + 1 > last {
            break;
        }
        if index + 1 > first {
            out.push('\n');
        }
        push_row(&mut out, *hash, content);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_values_from_the_spec() {
        assert_eq!(LineHash::from_xxh32(0xce52_0329), "zlID");
        assert_eq!(line_hash("hello", 1, 1), "zlID");
        assert_eq!(line_hash("}", 3, 1), "_zlP");
        assert_eq!(line_hash("function hello() {", 9, 1), "0qH3");
        assert_eq!(hash_lines(""), vec![line_hash("", 1, 1)]);
        assert_eq!(line_hashes("")[0], "CGvG");
    }

    #[test]
    fn canonical_uses_the_ecmascript_trim_set() {
        assert_eq!(canonical("a \t\u{a0}\u{3000}\u{feff}"), "a");
        assert_eq!(canonical("a\u{85}"), "a\u{85}");
        assert_eq!(canonical("  a\r"), "  a");
        assert_eq!(canonical("a\rb"), "ab");
    }

    #[test]
    fn symbol_only_by_general_category() {
        for s in ["}", "", "---", "_", "=>", "—", "🎉", "\u{301}"] {
            assert!(is_symbol_only(s), "{s:?}");
        }
        for s in ["²", "Ⅻ", "é", "日本", "x}"] {
            assert!(!is_symbol_only(s), "{s:?}");
        }
    }

    #[test]
    fn occurrences_count_on_canonical_form_and_symbols_by_position() {
        let hashes = hash_lines("foo\nfoo  \n}\n}");
        assert_eq!(hashes[0], line_hash("foo", 1, 1));
        assert_eq!(hashes[1], line_hash("foo", 2, 2));
        assert_ne!(hashes[0], hashes[1]);
        assert_eq!(hashes[2], line_hash("}", 3, 1));
        assert_eq!(hashes[3], line_hash("}", 4, 7));
        assert_ne!(hashes[2], hashes[3]);
    }

    #[test]
    fn skipping_keeps_the_counters() {
        let text = "x\n}\nx\n}";
        let mut hasher = LineHasher::new();
        let lines: Vec<&str> = text.split('\n').collect();
        hasher.skip(lines[0]);
        hasher.skip(lines[1]);
        assert_eq!(hasher.push(lines[2]), hash_lines(text)[2]);
        assert_eq!(hasher.push(lines[3]), hash_lines(text)[3]);
    }

    #[test]
    fn visible_lines_drop_the_sentinel() {
        assert_eq!(visible_line_count(""), 0);
        assert_eq!(visible_line_count("\n"), 1);
        assert_eq!(visible_line_count("a\nb"), 2);
        assert_eq!(visible_line_count("a\nb\n"), 2);
        assert_eq!(hash_lines("a\nb\n").len(), 3);
    }

    #[test]
    fn rows_render_a_window() {
        let text = "a\nb\nc\n";
        let hashes = hash_lines(text);
        assert_eq!(
            render_rows(text, &hashes, 2, 3),
            format!("{}:b\n{}:c", hashes[1], hashes[2])
        );
        assert_eq!(
            render_rows(text, &hashes, 3, 99),
            format!("{}:c\n{}:", hashes[2], hashes[3])
        );
        assert_eq!(render_rows(text, &hashes, 5, 9), "");
    }
}
