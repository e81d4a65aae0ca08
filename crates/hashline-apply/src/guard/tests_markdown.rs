//! Markdown structure a range one line off breaks ([`super::markdown`]).

use super::tests::{replace, run};

/// Whether `got` holds a warning with `code`.
fn warns(got: &[String], code: &str) -> bool {
    got.iter().any(|w| w.starts_with(code))
}

const MD: &str =
    "# T\n\nRun:\n\n```sh\nmake\n```\n\nThen:\n\n<!-- {\n  \"a\": 1\n} -->\n```go\nx\n```\n";

#[test]
fn a_fence_or_comment_closer_swallowed_is_warned() {
    // A deletion one line long takes the closing fence.
    let got = run("r.md", MD, vec![replace(6, 7, &[])]).expect("ok");
    assert!(warns(&got, "[W_UNBALANCED_FENCE]"), "{got:?}");
    // The comment's `} -->` swallowed: the rest of the document is hidden.
    let got = run("r.md", MD, vec![replace(12, 13, &["  \"a\": 2"])]).expect("ok");
    assert!(warns(&got, "[W_UNBALANCED_FENCE]"), "{got:?}");
    // A whole block removed, a block rewritten, an arrow in a diagram: all paired.
    assert_eq!(run("r.md", MD, vec![replace(5, 8, &[])]), Ok(vec![]));
    let rows = ["```console", "$ make", "```"];
    assert_eq!(run("r.md", MD, vec![replace(5, 7, &rows)]), Ok(vec![]));
    let rows = ["```mermaid", "A --> B", "```"];
    assert_eq!(
        run("r.md", MD, vec![replace(15, 15, &rows[1..2])]),
        Ok(vec![])
    );
}

#[test]
fn a_heading_leftover_beside_its_new_form_is_warned() {
    let md = "Click Concepts\n==============\n\nText.\n";
    let got = run("r.md", md, vec![replace(1, 1, &["# Click Concepts"])]).expect("ok");
    assert!(warns(&got, "[W_HEADING_LEFTOVER]"), "{got:?}");
    let got = run("r.md", md, vec![replace(2, 2, &["# Click Concepts"])]).expect("ok");
    assert!(warns(&got, "[W_HEADING_LEFTOVER]"), "{got:?}");
    assert_eq!(
        run("r.md", md, vec![replace(1, 2, &["# Click Concepts"])]),
        Ok(vec![])
    );
}

const LOG: &str = "# Log\n\n- Fixed a.\n\n2.22.0 (2019-05-15)\n-------------------\n\n- Fixed b.\n";

#[test]
fn a_setext_title_taken_without_its_underline_is_warned() {
    // A range one line long takes the title and keeps `-----`, which turns into a rule.
    let got = run("c.md", LOG, vec![replace(3, 5, &["- Fixed c."])]).expect("ok");
    assert!(warns(&got, "[W_HEADING_LEFTOVER]"), "{got:?}");
    // The underline taken, the title kept as a paragraph.
    let got = run("c.md", LOG, vec![replace(6, 8, &["- Fixed d."])]).expect("ok");
    assert!(warns(&got, "[W_HEADING_LEFTOVER]"), "{got:?}");
    // A new title for the underline, and the whole heading removed: meant.
    assert_eq!(
        run("c.md", LOG, vec![replace(5, 5, &["2.22.1 (2019-05-16)"])]),
        Ok(vec![])
    );
    assert_eq!(run("c.md", LOG, vec![replace(5, 7, &[])]), Ok(vec![]));
}

const HTML: &str =
    "# T\n\n<p align=\"center\">\n  <img src=\"a.png\" />\n</p>\n\nText `<p>` here.\n";

#[test]
fn an_html_block_tag_left_unpaired_is_warned() {
    let got = run("h.md", HTML, vec![replace(2, 3, &[""])]).expect("ok");
    assert!(warns(&got, "[W_UNBALANCED_FENCE]"), "{got:?}");
    // The whole element removed, or rewritten: paired.
    assert_eq!(run("h.md", HTML, vec![replace(3, 5, &[])]), Ok(vec![]));
    let rows = [
        "<div align=\"center\">",
        "  <img src=\"b.png\" />",
        "</div>",
    ];
    assert_eq!(run("h.md", HTML, vec![replace(3, 5, &rows)]), Ok(vec![]));
}
