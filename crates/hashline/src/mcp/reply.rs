//! What a reply text over MCP must show besides the engine's text: every warning (issue 26
//! item 3). Some dialects' seed texts (lineid-json's `Updated PATH`, a V4A patch's summary)
//! leave warnings out, so they were only in the structured result; a client that forwards the
//! text alone hid them from the model. The warnings added here are bounded, and so is the
//! structured result's `warnings` array ([`bounded`]): the same count and bytes at most.

/// Warnings shown in one reply's text at most (and kept in its structured `warnings`).
const MAX_WARNINGS: usize = 20;
/// Bytes of added warnings at most (whole warnings only; the structured `warnings` too).
const MAX_WARNING_BYTES: usize = 8 * 1024;

/// The first of `warnings` that fit in [`MAX_WARNINGS`] and [`MAX_WARNING_BYTES`] (whole
/// warnings, at least the first one), and how many were left out: the structured result's
/// `warnings`, bounded as the text is (`leftOut.warnings` carries the count).
pub(crate) fn bounded(warnings: &[String]) -> (&[String], usize) {
    let mut bytes = 0;
    let mut keep = 0;
    for w in warnings.iter().take(MAX_WARNINGS) {
        if keep > 0 && bytes + w.len() > MAX_WARNING_BYTES {
            break;
        }
        bytes += w.len();
        keep += 1;
    }
    (&warnings[..keep], warnings.len() - keep)
}

/// `text` with each of `warnings` that it does not already show appended in a `Warnings:`
/// block (joined to the text's own block when it has one), at most [`MAX_WARNINGS`] and
/// [`MAX_WARNING_BYTES`]; a last line says how many were left out.
pub(crate) fn with_warnings(text: &str, warnings: &[String]) -> String {
    let missing: Vec<&String> = warnings
        .iter()
        .filter(|w| !w.is_empty() && !text.contains(w.as_str()))
        .collect();
    if missing.is_empty() {
        return text.to_string();
    }
    let mut out = text.trim_end_matches('\n').to_string();
    if out.contains("\n\nWarnings:\n") || out.starts_with("Warnings:\n") {
        out.push('\n');
    } else if out.is_empty() {
        out.push_str("Warnings:\n");
    } else {
        out.push_str("\n\nWarnings:\n");
    }
    let mut shown = 0;
    let mut bytes = 0;
    for w in &missing {
        if shown == MAX_WARNINGS || bytes + w.len() > MAX_WARNING_BYTES {
            break;
        }
        if shown > 0 {
            out.push('\n');
        }
        out.push_str(w);
        shown += 1;
        bytes += w.len();
    }
    let left = missing.len() - shown;
    if left > 0 {
        out.push_str(&format!(
            "\n[{left} more warning{} left out to keep this reply short.]",
            if left == 1 { "" } else { "s" }
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_warnings_are_added_once() {
        let w = vec![
            "[W_UNREAD] one".to_string(),
            "[W_DEAD_CODE] two".to_string(),
        ];
        assert_eq!(
            with_warnings("Updated a.txt", &w),
            "Updated a.txt\n\nWarnings:\n[W_UNREAD] one\n[W_DEAD_CODE] two"
        );
        let shown = "Done\n\nWarnings:\n[W_UNREAD] one";
        assert_eq!(
            with_warnings(shown, &w),
            "Done\n\nWarnings:\n[W_UNREAD] one\n[W_DEAD_CODE] two"
        );
        assert_eq!(
            with_warnings("x [W_UNREAD] one [W_DEAD_CODE] two", &w),
            "x [W_UNREAD] one [W_DEAD_CODE] two"
        );
    }

    #[test]
    fn the_added_warnings_are_bounded() {
        let w: Vec<String> = (0..50)
            .map(|i| format!("[W_LOOSE_CONTEXT] warning {i}"))
            .collect();
        let text = with_warnings("Updated a.txt", &w);
        assert!(
            text.contains("warning 19") && !text.contains("warning 20"),
            "{text}"
        );
        assert!(
            text.ends_with("[30 more warnings left out to keep this reply short.]"),
            "{text}"
        );
        let big: Vec<String> = (0..3)
            .map(|i| format!("[W_LOOSE_CONTEXT] {i} {}", "y".repeat(5000)))
            .collect();
        let text = with_warnings("ok", &big);
        assert!(
            text.contains("[W_LOOSE_CONTEXT] 0") && !text.contains("[W_LOOSE_CONTEXT] 1"),
            "{}",
            text.len()
        );
        assert!(text.contains("[2 more warnings left out"), "{}", text.len());
    }

    #[test]
    fn the_structured_warnings_are_bounded_alike() {
        let w: Vec<String> = (0..50).map(|i| format!("[W_X] warning {i}")).collect();
        let (kept, left) = bounded(&w);
        assert_eq!((kept.len(), left), (20, 30));
        let big: Vec<String> = (0..3)
            .map(|i| format!("[W_X] {i} {}", "y".repeat(5000)))
            .collect();
        let (kept, left) = bounded(&big);
        assert_eq!((kept.len(), left), (1, 2));
        let huge = vec!["z".repeat(20_000)];
        assert_eq!(bounded(&huge).0.len(), 1, "the first is always kept");
        assert_eq!(bounded(&[]).1, 0);
    }
}
