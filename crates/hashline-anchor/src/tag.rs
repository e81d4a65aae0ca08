//! The whole-file snapshot tag of the hashline language (seed 000) and its `read` rendering.
//!
//! The tag is a fingerprint of the whole file: XXH32 (seed 0) over the UTF-8 bytes of the text
//! after every maximal run of spaces, tabs and carriage returns that sits immediately before a
//! `\n` or at the very end of the text is deleted; the low 16 bits are rendered as four
//! upper-case hex digits. Nothing else is normalized here: callers pass text that is already
//! BOM-free and CR/LF-normalized (the text recorded in the snapshot store).

use std::fmt::Write as _;

use hashline_core::Pieces;
use xxhash_rust::xxh32::Xxh32;

use crate::page::{digits, Budget};

/// True for the bytes deleted before a `\n` or at the end of the text.
fn is_trailing_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

/// `bytes` without its trailing run of spaces, tabs and carriage returns.
fn trim_trailing_blanks(bytes: &[u8]) -> &[u8] {
    let mut end = bytes.len();
    while end > 0 && is_trailing_blank(bytes[end - 1]) {
        end -= 1;
    }
    &bytes[..end]
}

/// The 4-hex whole-file tag of `text` (`""` → `5D05`, `"a\nb\n"` → `9A46`).
///
/// Streams the normalized bytes into the hasher without building a copy of the text: runs of
/// lines without trailing blanks go in as one slice (their newlines included), so the hasher
/// sees a few large updates, not one per line.
pub fn file_tag(text: &str) -> String {
    let mut hasher = Xxh32::new(0);
    // The blanks the text ends with are deleted.
    let _ = hash_held_back(&mut hasher, text.as_bytes());
    render(&hasher)
}

/// [`file_tag`] of the text `text` is made of, read part by part without joining it: the
/// same tag for any cut of a text into parts (a run of trailing blanks may go on from one
/// part into the next: the blanks a part ends with are held back until what follows them
/// says whether they end a line).
pub fn file_tag_pieces(text: &Pieces<'_>) -> String {
    let mut hasher = Xxh32::new(0);
    // The blanks read but not hashed yet, in order: they end every part since the last
    // non-blank byte (parts of nothing but blanks included).
    let mut held: Vec<&[u8]> = Vec::new();
    for part in text.parts() {
        let bytes = part.as_bytes();
        match bytes.iter().position(|&b| !is_trailing_blank(b)) {
            // Blanks only: whether they end a line is still open.
            None => {
                held.push(bytes);
                continue;
            }
            // The held blanks (and the part's first) sit before a `\n`: deleted.
            Some(first) if bytes[first] == b'\n' => held.clear(),
            // Text follows them: they are kept.
            Some(_) => held.drain(..).for_each(|blanks| hasher.update(blanks)),
        }
        held.push(hash_held_back(&mut hasher, bytes));
    }
    // The blanks the text ends with are deleted.
    render(&hasher)
}

/// Hash `bytes` into `hasher` normalized, except the run of trailing blanks it ends with,
/// which is returned (the caller deletes it at the end of the text, or hashes it when text
/// follows). Runs of lines without trailing blanks go in as one slice.
fn hash_held_back<'b>(hasher: &mut Xxh32, bytes: &'b [u8]) -> &'b [u8] {
    // `from`: the first byte not hashed yet; `line`: where the current line starts.
    let mut from = 0;
    let mut line = 0;
    for newline in memchr::memchr_iter(b'\n', bytes) {
        if newline > line && is_trailing_blank(bytes[newline - 1]) {
            hasher.update(&bytes[from..line + trim_trailing_blanks(&bytes[line..newline]).len()]);
            // The newline starts the next run.
            from = newline;
        }
        line = newline + 1;
    }
    let end = line + trim_trailing_blanks(&bytes[line..]).len();
    hasher.update(&bytes[from..end]);
    &bytes[end..]
}

/// The tag a hasher's digest renders as: its low 16 bits in four upper-case hex digits.
fn render(hasher: &Xxh32) -> String {
    format!("{:04X}", hasher.digest() & 0xFFFF)
}

/// A text and its whole-file tag ([`file_tag`]), hashed once: whoever is handed one (the
/// store recording the text, the report showing its tag) takes the tag from it instead of
/// hashing the text again, which for a big file is a pass over all of it.
#[derive(Debug, Clone)]
pub struct Tagged<'t> {
    text: &'t str,
    tag: std::borrow::Cow<'t, str>,
}

impl<'t> Tagged<'t> {
    /// `text`, hashed now.
    pub fn of(text: &'t str) -> Tagged<'t> {
        Tagged {
            text,
            tag: std::borrow::Cow::Owned(file_tag(text)),
        }
    }

    /// `text` with the tag kept in `cache`, which holds this very text's tag or nothing yet:
    /// hashed by whichever thread asks first, the others wait for that answer.
    pub fn cached(text: &'t str, cache: &'t std::sync::OnceLock<String>) -> Tagged<'t> {
        let tag = cache.get_or_init(|| file_tag(text));
        debug_assert_eq!(tag, &file_tag(text), "a tag cache of another text");
        Tagged {
            text,
            tag: std::borrow::Cow::Borrowed(tag),
        }
    }

    /// The text.
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// Its tag.
    pub fn tag(&self) -> &str {
        &self.tag
    }
}

/// Why a hashline `read` range cannot be shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadRangeError {
    /// The first requested line lies past the last line of the file.
    #[error("Line {offset} is beyond end of file ({total} lines total). Use :1 to read from the start, or :{total} to read the last line.")]
    BeyondEnd {
        /// The requested first line (1-based).
        offset: usize,
        /// Number of lines in the file.
        total: usize,
    },
}

impl ReadRangeError {
    /// The stable error code of this refusal.
    pub fn code(&self) -> hashline_core::ErrorCode {
        match self {
            ReadRangeError::BeyondEnd { .. } => hashline_core::ErrorCode::LineRange,
        }
    }
}

/// Checks that a read starting at 1-based line `offset` (default 1; `0` is read as 1) shows at
/// least one line of `text`.
pub fn check_read_range(text: &str, offset: Option<usize>) -> Result<(), ReadRangeError> {
    let total = line_count(text);
    let start = offset.unwrap_or(1).max(1);
    if start > total {
        return Err(ReadRangeError::BeyondEnd {
            offset: start,
            total,
        });
    }
    Ok(())
}

/// Number of lines the hashline language sees in `text`: the pieces of `text.split('\n')`, so
/// a newline-terminated file has a final empty line and `""` has one empty line.
pub fn line_count(text: &str) -> usize {
    memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1
}

/// Renders a hashline `read`: `¶<display_path>#<TAG>` and then one `N:TEXT` row per shown line.
///
/// * `text` is the BOM-free, LF-normalized file text; the tag is always that of the whole text.
/// * `offset` is the 1-based first line to show (default 1; `0` is read as 1), `limit` the
///   maximum number of lines (default: all; `0` is read as 1). Either way one page shows at most
///   the [read budget](crate::page) (whole rows only).
/// * The final empty line of a newline-terminated file is shown as `N:`.
/// * When lines of the file remain after the shown ones ([`more_lines`]), a footer
///   `[<k> more lines in file. Use :<n> to continue]` follows the rows (the seed's text; the
///   CLI's `read PATH:<n>` continues there).
/// * A start beyond the end yields the seed's refusal text
///   ([`ReadRangeError::BeyondEnd`]); use [`check_read_range`] to tell that case apart.
///
/// Rows are separated by `\n`; the result has no trailing newline.
pub fn render_read(
    display_path: &str,
    text: &str,
    offset: Option<usize>,
    limit: Option<usize>,
) -> String {
    render_read_tagged(display_path, text, &file_tag(text), offset, limit)
}

/// [`render_read`] with the tag of `text` already known (`tag` must be [`file_tag`] of `text`):
/// a caller that recorded the text has it, and a large file is hashed once.
pub fn render_read_tagged(
    display_path: &str,
    text: &str,
    tag: &str,
    offset: Option<usize>,
    limit: Option<usize>,
) -> String {
    render_read_counted(display_path, text, tag, line_count(text), offset, limit)
}

/// [`render_read_tagged`] with the line count known too (`total` must be [`line_count`] of
/// `text`): a caller that checked the range first counts the lines of a large file once.
pub fn render_read_counted(
    display_path: &str,
    text: &str,
    tag: &str,
    total: usize,
    offset: Option<usize>,
    limit: Option<usize>,
) -> String {
    let start = offset.unwrap_or(1).max(1);
    if start > total {
        return ReadRangeError::BeyondEnd {
            offset: start,
            total,
        }
        .to_string();
    }
    let count = limit.map_or(total, |l| l.max(1));
    let mut out =
        String::with_capacity(text.len().min(crate::page::MAX_BYTES * 2) + display_path.len() + 64);
    out.push('¶');
    out.push_str(&hashline_core::name::header_path(display_path));
    out.push('#');
    out.push_str(tag);
    let mut last = start - 1;
    let mut budget = Budget::new();
    for (index, line) in text.split('\n').enumerate().skip(start - 1).take(count) {
        if !budget.admit(2 + digits(index + 1) + line.len()) {
            break;
        }
        // Writing into a String cannot fail.
        let _ = write!(out, "\n{}:{}", index + 1, line);
        last = index + 1;
    }
    let more = more_lines(text, total, last);
    if more > 0 {
        let _ = write!(
            out,
            "\n\n[{more} more lines in file. Use :{} to continue]",
            last + 1
        );
    }
    out
}

/// How many lines of the file follow row `last` of `rows` rows: the empty row after a final
/// newline is a row (an anchor) but not a line, so a 5,000-line file read to row 2,000 has
/// 3,000 more lines in every read mode, and a page that ends on the last line has no footer.
pub fn more_lines(text: &str, rows: usize, last: usize) -> usize {
    let lines = if text.ends_with('\n') { rows - 1 } else { rows };
    lines.saturating_sub(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tagged_text_is_hashed_once_whoever_asks() {
        let text = "fn a() {}  \nlet b = 1;\n";
        assert_eq!(Tagged::of(text).tag(), file_tag(text));
        let cache = std::sync::OnceLock::new();
        let tags: Vec<String> = std::thread::scope(|scope| {
            let asks: Vec<_> = (0..4)
                .map(|_| scope.spawn(|| Tagged::cached(text, &cache).tag().to_owned()))
                .collect();
            asks.into_iter().map(|a| a.join().expect("ask")).collect()
        });
        assert!(tags.iter().all(|t| *t == file_tag(text)));
        assert_eq!(
            cache.get().map(String::as_str),
            Some(file_tag(text).as_str())
        );
    }
    use crate::page::{MAX_BYTES, MAX_LINES};

    #[test]
    fn spec_examples() {
        assert_eq!(file_tag(""), "5D05");
        assert_eq!(file_tag("a"), "7456");
        assert_eq!(file_tag("a\nb\n"), "9A46");
        assert_eq!(file_tag("a\nb"), "6540");
        assert_eq!(file_tag("a  \nb\t\n"), "9A46");
        assert_eq!(file_tag("a\r\nb\r\n"), "9A46");
    }

    /// The run-wise hashing equals hashing the normalized text line by line.
    #[test]
    fn whole_runs_hash_as_the_normalized_text() {
        let reference = |text: &str| {
            let normalized: Vec<&[u8]> = text
                .split('\n')
                .map(|l| trim_trailing_blanks(l.as_bytes()))
                .collect();
            let joined = normalized.join(&b'\n');
            format!("{:04X}", xxhash_rust::xxh32::xxh32(&joined, 0) & 0xFFFF)
        };
        for text in [
            "",
            "\n",
            " \n\t",
            "a \nb\nc\t\r\n\nd  ",
            "x\n\n \n  \t\n",
            "lead\n  indented  \n\ttab\nend\r",
            "no newline at all   ",
        ] {
            assert_eq!(file_tag(text), reference(text), "{text:?}");
        }
    }

    /// A text cut anywhere into pieces has the tag of the whole text, however its trailing
    /// blanks fall on the cuts.
    #[test]
    fn pieces_cut_anywhere_have_the_tag_of_the_whole() {
        for text in [
            "a \t\r\nb  \n\nc \r",
            " \n\t",
            "x  y \n",
            "  ",
            "a\r\r\n \n",
        ] {
            for i in 0..=text.len() {
                for j in i..=text.len() {
                    let p = Pieces::new([&text[..i], &text[i..j], &text[j..]]);
                    assert_eq!(
                        file_tag_pieces(&p),
                        file_tag(text),
                        "{text:?} cut at {i}, {j}"
                    );
                }
            }
        }
        assert_eq!(file_tag_pieces(&Pieces::default()), file_tag(""));
        assert_eq!(
            file_tag_pieces(&Pieces::new([" ", "\t", "\r"])),
            file_tag("")
        );
        assert_eq!(
            file_tag_pieces(&Pieces::new(["a ", " ", "b"])),
            file_tag("a  b")
        );
    }

    proptest::proptest! {
        /// Any parts, line-aligned or not, tag as the text they join into.
        #[test]
        fn any_parts_tag_as_their_joined_text(
            parts in proptest::collection::vec("[a \t\r\n]{0,6}", 0..12),
        ) {
            let joined = parts.concat();
            let pieces = Pieces::new(parts.iter().map(String::as_str));
            proptest::prop_assert_eq!(file_tag_pieces(&pieces), file_tag(&joined));
        }
    }

    #[test]
    fn trailing_blanks_at_end_are_dropped_but_interior_cr_kept() {
        assert_eq!(file_tag("a\nb \t\r"), file_tag("a\nb"));
        assert_ne!(file_tag("a\rb\n"), file_tag("ab\n"));
        assert_eq!(file_tag(" \n"), file_tag("\n"));
    }

    #[test]
    fn whole_read_shows_final_empty_line() {
        assert_eq!(
            render_read("a.txt", "a\nb\n", None, None),
            "¶a.txt#9A46\n1:a\n2:b\n3:"
        );
        assert_eq!(
            render_read("e", "", None, None),
            format!("¶e#{}\n1:", file_tag(""))
        );
    }

    #[test]
    fn range_read_keeps_whole_file_tag_and_adds_footer() {
        let text = "l1\nl2\nl3\nl4";
        let tag = file_tag(text);
        assert_eq!(
            render_read("f", text, Some(2), Some(2)),
            format!("¶f#{tag}\n2:l2\n3:l3\n\n[1 more lines in file. Use :4 to continue]")
        );
        assert_eq!(
            render_read("f", text, Some(4), Some(9)),
            format!("¶f#{tag}\n4:l4")
        );
    }

    #[test]
    fn a_page_stops_at_the_budget_and_names_the_next_line() {
        let text = "x\n".repeat(5000);
        let page = render_read("f", &text, None, None);
        assert_eq!(
            page.lines().filter(|l| l.ends_with(":x")).count(),
            MAX_LINES
        );
        assert!(page.ends_with("\n2000:x\n\n[3000 more lines in file. Use :2001 to continue]"));
        let wide = format!("{}\n", "y".repeat(1000)).repeat(100);
        let page = render_read("f", &wide, Some(3), Some(1000));
        assert!(page.len() <= MAX_BYTES + 100, "{}", page.len());
        assert!(page.ends_with("[47 more lines in file. Use :54 to continue]"));
        let long = "z".repeat(MAX_BYTES * 2) + "\nshort";
        let page = render_read("f", &long, None, None);
        assert!(page.ends_with("[1 more lines in file. Use :2 to continue]"));
        assert!(page.contains(&format!("\n1:{}\n", "z".repeat(MAX_BYTES * 2))));
    }

    #[test]
    fn beyond_end_is_refused() {
        let err = check_read_range("a\nb", Some(5)).expect_err("line 5 of 2 is beyond the end");
        assert_eq!(err.code(), hashline_core::ErrorCode::LineRange);
        assert_eq!(
            render_read("f", "a\nb", Some(5), None),
            "Line 5 is beyond end of file (2 lines total). Use :1 to read from the start, or :2 to read the last line."
        );
    }
}
