//! Lines that are not UTF-8, and texts that read back differently from how they were written:
//! what an edit may give back and what it must announce.
//!
//! A read shows such a line with U+FFFD in place of each bad sequence. A model that copies the
//! line into its edit sends those U+FFFD characters back; writing them would replace the
//! original bytes for good. So a new line whose text is exactly the shown text of such an
//! original line is written with that line's bytes, and a new line that still holds U+FFFD in
//! a file with such lines is reported, so the loss is never silent.

use std::borrow::Cow;

use super::{OutLine, TextFile};

impl TextFile {
    /// The original line (0-based) whose bytes a new line with `text` stands for: a line that is
    /// not UTF-8 and whose shown text is `text`. `like` (the line the new one replaces at its
    /// position) wins among several; otherwise several are fine only when their bytes agree.
    /// `None` when `text` has no U+FFFD or no such line exists.
    pub fn restorable(&self, text: &str, like: Option<usize>) -> Option<usize> {
        if self.lossy.is_empty() || !text.contains('\u{FFFD}') {
            return None;
        }
        let candidates: Vec<usize> = self
            .lossy
            .iter()
            .copied()
            .filter(|&i| self.shown(i) == text)
            .collect();
        if let Some(l) = like.filter(|l| candidates.contains(l)) {
            return Some(l);
        }
        let first = *candidates.first()?;
        let bytes = |i: usize| &self.bytes()[self.lines.range(i)];
        candidates
            .iter()
            .all(|&i| bytes(i) == bytes(first))
            .then_some(first)
    }

    /// 1-based positions in `out` of the new lines that will be written with U+FFFD although
    /// the file has lines that are not UTF-8: the bytes those characters stood for are lost.
    /// Empty for UTF-8 files (a U+FFFD a model writes there is its own choice).
    pub fn lost_bytes(&self, out: &[OutLine]) -> Vec<usize> {
        if self.lossy.is_empty() {
            return Vec::new();
        }
        out.iter()
            .enumerate()
            .filter_map(|(k, line)| match line {
                OutLine::New { text, like } => (text.contains('\u{FFFD}')
                    && self.restorable(text, *like).is_none())
                .then_some(k + 1),
                OutLine::Kept(_) => None,
            })
            .collect()
    }

    /// The warning for [`TextFile::lost_bytes`], `None` when nothing is lost.
    pub fn lost_bytes_warning(&self, out: &[OutLine]) -> Option<String> {
        let lines = self.lost_bytes(out);
        if lines.is_empty() {
            return None;
        }
        let list: Vec<String> = lines.iter().map(usize::to_string).collect();
        Some(format!(
            "This file is not valid UTF-8 everywhere: the read showed U+FFFD for bytes it could not \
             decode. New line(s) {} contain U+FFFD and were written as UTF-8, so the original bytes \
             there are gone. To keep them, leave those lines out of the edit.",
            list.join(", ")
        ))
    }

    /// What a read will show of `bytes`, the encoding of `text`, when that differs from
    /// `text`: a `\r` inside a new line reads as a line break, and a U+FEFF that starts the file
    /// reads as its byte-order mark. `None` in every other case (no decoding is done then).
    pub fn reread_text(text: &str, bytes: &[u8]) -> Option<String> {
        if !text.contains('\r') && !text.starts_with('\u{FEFF}') {
            return None;
        }
        let shown = TextFile::decode(bytes.to_vec()).text().to_owned();
        (shown != text).then_some(shown)
    }

    /// Line `i` as a read shows it.
    fn shown(&self, i: usize) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.bytes()[self.lines.range(i)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LATIN1: &[u8] = b"caf\xe9\nplain\nna\xefve\n";

    #[test]
    fn an_echoed_line_keeps_its_bytes() {
        let f = TextFile::decode(LATIN1.to_vec());
        let shown: Vec<&str> = f.lines().collect();
        assert_eq!(shown[0], "caf\u{FFFD}");
        // Replace lines 1..2 with line 1 echoed and line 2 changed.
        let out = [
            OutLine::New {
                text: shown[0].to_string(),
                like: Some(0),
            },
            OutLine::New {
                text: "PLAIN".into(),
                like: Some(1),
            },
            OutLine::Kept(2),
            OutLine::Kept(3),
        ];
        assert_eq!(f.encode(&out), b"caf\xe9\nPLAIN\nna\xefve\n");
        assert!(f.lost_bytes(&out).is_empty());
        assert_eq!(f.lost_bytes_warning(&out), None);
    }

    #[test]
    fn a_changed_line_with_replacement_characters_is_announced() {
        let f = TextFile::decode(LATIN1.to_vec());
        let out = [
            OutLine::New {
                text: "caf\u{FFFD} au lait".into(),
                like: Some(0),
            },
            OutLine::Kept(1),
            OutLine::Kept(2),
            OutLine::Kept(3),
        ];
        assert_eq!(
            f.encode(&out),
            b"caf\xef\xbf\xbd au lait\nplain\nna\xefve\n"
        );
        assert_eq!(f.lost_bytes(&out), [1]);
        assert!(f
            .lost_bytes_warning(&out)
            .is_some_and(|w| w.contains("line(s) 1 ")));
    }

    #[test]
    fn carriage_returns_and_a_leading_bom_read_back_differently() {
        assert_eq!(TextFile::reread_text("a\nb", b"a\nb"), None);
        assert_eq!(
            TextFile::reread_text("a\rb\nc", b"a\rb\nc").as_deref(),
            Some("a\nb\nc")
        );
        assert_eq!(
            TextFile::reread_text("\u{FEFF}x", "\u{FEFF}x".as_bytes()).as_deref(),
            Some("x")
        );
    }

    #[test]
    fn ambiguous_echoes_are_not_guessed() {
        // Two lines shown alike with different bytes: only the positional one may be restored.
        let f = TextFile::decode(b"a\xe9\na\xe8\n".to_vec());
        assert_eq!(f.restorable("a\u{FFFD}", Some(1)), Some(1));
        assert_eq!(f.restorable("a\u{FFFD}", None), None);
        let same = TextFile::decode(b"a\xe9\na\xe9\n".to_vec());
        assert_eq!(same.restorable("a\u{FFFD}", None), Some(0));
        // UTF-8 files never restore or announce.
        let utf8 = TextFile::decode("a\u{FFFD}\n".as_bytes().to_vec());
        assert_eq!(utf8.restorable("a\u{FFFD}", Some(0)), None);
        let out = [OutLine::New {
            text: "x\u{FFFD}".into(),
            like: None,
        }];
        assert!(utf8.lost_bytes(&out).is_empty());
    }
}
