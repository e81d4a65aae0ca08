//! The window of a hash-json `read` (seed 001 §3.5–§3.6): `HASH:content` rows of the requested
//! lines, the host's head truncation (2000 lines / 51200 bytes, whole lines only) and the
//! continuation hints.

use std::fmt::Write as _;

use hashline_anchor::hash_json::{push_row, LineHasher};

/// The host's caps, shared with the `tag` and `lineid` read pages: at most [`MAX_LINES`] rows
/// and [`MAX_BYTES`] UTF-8 bytes of rows (every row after the first also counts its `\n`).
pub use hashline_anchor::page::{MAX_BYTES, MAX_LINES};

/// Byte size as the host prints it: `<n>B` below 1 KiB, one decimal and `KB` below 1 MiB,
/// else one decimal and `MB` (`51200` → `50.0KB`). Rounds half up, as `toFixed` does on these
/// exactly representable quotients.
pub fn format_size(bytes: usize) -> String {
    const KIB: u128 = 1024;
    let b = bytes as u128;
    let (unit, divisor) = if b < KIB {
        return format!("{bytes}B");
    } else if b < KIB * KIB {
        ("KB", KIB)
    } else {
        ("MB", KIB * KIB)
    };
    // tenths = round_half_up(b * 10 / divisor)
    let tenths = (b * 20 + divisor) / (2 * divisor);
    format!("{}.{}{unit}", tenths / 10, tenths % 10)
}

/// A rendered window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// The model-facing text: rows and hint, or the over-long-line notice.
    pub text: String,
    /// Rows shown.
    pub shown: usize,
    /// The line to continue from, when lines after the shown ones remain in the window or file.
    pub next_offset: Option<usize>,
    /// Whether the host truncation cut the window.
    pub truncated: bool,
}

/// Renders lines `offset..=min(offset-1+limit, total)` of `text` (1-based) as `HASH:content`
/// rows with hashes of the whole text, then applies the caps and hints.
///
/// `total` is the number of visible lines; the caller guarantees `1 <= offset <= total`.
/// Lines before the window are only counted (not hashed), and nothing after the last shown
/// row is scanned.
pub fn render_window(text: &str, total: usize, offset: usize, limit: Option<usize>) -> Window {
    let end = limit.map_or(total, |l| {
        offset.saturating_add(l.saturating_sub(1)).min(total)
    });
    let window_len = end + 1 - offset;
    let mut hasher = LineHasher::new();
    let mut lines = text.split('\n');
    for line in lines.by_ref().take(offset - 1) {
        hasher.skip(line);
    }
    let mut out = String::new();
    let mut shown = 0;
    let mut by_bytes = false;
    for line in lines.take(window_len) {
        if shown == MAX_LINES {
            break;
        }
        let row_bytes = 5 + line.len() + usize::from(shown > 0);
        if out.len() + row_bytes > MAX_BYTES {
            by_bytes = true;
            break;
        }
        if shown > 0 {
            out.push('\n');
        }
        push_row(&mut out, hasher.push(line), line);
        shown += 1;
    }
    let truncated = shown < window_len;
    if shown == 0 {
        let text = format!(
            "[Line {offset} exceeds {}. Hashline output requires full lines; cannot compute hashes for a truncated preview.]",
            format_size(MAX_BYTES)
        );
        return Window {
            text,
            shown,
            next_offset: None,
            truncated: true,
        };
    }
    let last_shown = offset + shown - 1;
    let next_offset = (last_shown < total).then_some(last_shown + 1);
    if let Some(next) = next_offset {
        let limit_note = if by_bytes {
            format!(" ({} limit)", format_size(MAX_BYTES))
        } else {
            String::new()
        };
        // Writing into a String cannot fail.
        let _ = write!(
            out,
            "\n\n[Showing lines {offset}-{last_shown} of {total}{limit_note}. Use offset={next} to continue.]"
        );
    }
    Window {
        text: out,
        shown,
        next_offset,
        truncated,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashline_anchor::hash_json::{hash_lines, render_rows};

    #[test]
    fn sizes() {
        assert_eq!(format_size(51200), "50.0KB");
        assert_eq!(format_size(1023), "1023B");
        assert_eq!(format_size(1024), "1.0KB");
        assert_eq!(format_size(1536), "1.5KB");
        assert_eq!(format_size(3 * 1024 * 1024 / 2), "1.5MB");
    }

    #[test]
    fn window_rows_use_whole_file_hashes() {
        let text = "}\nx\n}\nx\n";
        let hashes = hash_lines(text);
        let w = render_window(text, 4, 3, Some(1));
        assert_eq!(
            w.text,
            format!(
                "{}\n\n[Showing lines 3-3 of 4. Use offset=4 to continue.]",
                render_rows(text, &hashes, 3, 3)
            )
        );
        assert_eq!(w.next_offset, Some(4));
        assert!(!w.truncated);
        let w = render_window(text, 4, 3, None);
        assert_eq!(w.text, render_rows(text, &hashes, 3, 4));
        assert_eq!(w.next_offset, None);
    }

    #[test]
    fn line_cap() {
        let text: String = (1..=2001).map(|i| format!("l{i}\n")).collect();
        let w = render_window(&text, 2001, 1, None);
        assert_eq!(w.shown, 2000);
        assert!(w.truncated);
        assert!(w
            .text
            .ends_with("\n\n[Showing lines 1-2000 of 2001. Use offset=2001 to continue.]"));
    }

    #[test]
    fn byte_cap_exact_fit_and_overflow() {
        // Rows of 5 + n and 5 + n + 1 bytes plus one newline fill MAX_BYTES exactly.
        let n = (MAX_BYTES - 1) / 2 - 5;
        let fits = format!("{}\n{}", "a".repeat(n), "b".repeat(n + 1));
        let w = render_window(&fits, 2, 1, None);
        assert_eq!((w.shown, w.truncated), (2, false));
        assert_eq!(w.text.len(), MAX_BYTES);
        let over = format!("{}\n{}", "a".repeat(n), "b".repeat(n + 2));
        let w = render_window(&over, 2, 1, None);
        assert_eq!((w.shown, w.truncated), (1, true));
        assert!(w
            .text
            .ends_with("[Showing lines 1-1 of 2 (50.0KB limit). Use offset=2 to continue.]"));
    }

    #[test]
    fn first_line_too_long() {
        let text = format!("short\n{}", "x".repeat(MAX_BYTES));
        let w = render_window(&text, 2, 2, None);
        assert_eq!(w.shown, 0);
        assert_eq!(
            w.text,
            "[Line 2 exceeds 50.0KB. Hashline output requires full lines; cannot compute hashes for a truncated preview.]"
        );
    }
}
