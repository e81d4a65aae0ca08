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
