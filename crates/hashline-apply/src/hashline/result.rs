//! The tool's result text (seed `000` §f): `¶path#NEWTAG`, the compact preview, the warnings.

use crate::diff::compact_preview;
#[cfg(test)]
use crate::diff::numbered;
use crate::outcome::warnings_block;

/// Text of one changed section: `¶<path>#<tag>` + (`\n` + compact preview of `numbered`, the
/// section's [`numbered`](crate::diff::numbered) diff) + warnings block.
pub(crate) fn section_text(
    path: &str,
    new_tag: &str,
    numbered: &str,
    warnings: &[String],
) -> String {
    let mut s = format!("¶{}#{new_tag}", hashline_core::name::header_path(path));
    let preview = compact_preview(numbered);
    if !preview.is_empty() {
        s.push('\n');
        s.push_str(&preview);
    }
    s.push_str(&warnings_block(warnings));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_preview_and_warnings() {
        let t = section_text(
            "a.ts",
            "16A0",
            &numbered("l1\nl2\nl3\n", "l1\nL2\nl3\n"),
            &["w1".into(), "w2".into()],
        );
        assert_eq!(
            t,
            "¶a.ts#16A0\n 1:l1\n-2:l2\n+2:L2\n 3:l3\n\nWarnings:\nw1\nw2"
        );
        assert_eq!(
            section_text("a", "0000", &numbered("x", "x"), &[]),
            "¶a#0000"
        );
    }
}
