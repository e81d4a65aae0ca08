//! Unit tests of the body parser: every catalogue message and every tolerated shape.

use super::*;
use HunkOp::*;

/// Parse `body` and compare `(op, rows)` of each hunk.
fn check(body: &str, expected: &[(HunkOp, &[&str])]) {
    let parsed = parse_body(body).unwrap_or_else(|e| panic!("{body:?} failed: {}", e.message));
    let got: Vec<(HunkOp, Vec<&str>)> = parsed
        .hunks
        .iter()
        .map(|h| (h.op, h.rows.iter().map(String::as_str).collect()))
        .collect();
    let want: Vec<(HunkOp, Vec<&str>)> = expected
        .iter()
        .map(|(op, rows)| (*op, rows.to_vec()))
        .collect();
    assert_eq!(got, want, "body {body:?}");
}

/// Parse `body` and compare the whole error message.
fn check_err(body: &str, expected: &str) {
    match parse_body(body) {
        Ok(parsed) => panic!("{body:?} parsed: {parsed:?}"),
        Err(e) => assert_eq!(e.message, expected, "body {body:?}"),
    }
}

fn warnings(body: &str) -> Vec<String> {
    parse_body(body)
        .map(|p| p.warnings)
        .unwrap_or_else(|e| panic!("{}", e.message))
}

const STRAY_GUIDANCE: &str =
    "payload line has no preceding hunk header. Use `replace N..M:`, `delete N..M`, or `insert before|after|head|tail:` above the body.";

#[test]
fn canonical_ops() {
    check(
        "replace 2..3:\n+X",
        &[(Replace { start: 2, end: 3 }, &["X"])],
    );
    check("delete 4..5", &[(Delete { start: 4, end: 5 }, &[])]);
    check(
        "insert before 5:\n+a\n+b",
        &[(InsertBefore(5), &["a", "b"])],
    );
    check("insert after 5:\n+a", &[(InsertAfter(5), &["a"])]);
    check(
        "insert head:\n+// header\ninsert tail:\n+// trailer",
        &[(InsertHead, &["// header"]), (InsertTail, &["// trailer"])],
    );
    check(
        "replace block 2:\n+  x",
        &[(ReplaceBlock { line: 2 }, &["  x"])],
    );
    check("delete block 2", &[(DeleteBlock { line: 2 }, &[])]);
}

#[test]
fn tolerated_shapes() {
    check("replace 2:\n+X", &[(Replace { start: 2, end: 2 }, &["X"])]);
    check("delete 2", &[(Delete { start: 2, end: 2 }, &[])]);
    check(
        "replace 2..3\n+X",
        &[(Replace { start: 2, end: 3 }, &["X"])],
    );
    check("insert before 2\n+X", &[(InsertBefore(2), &["X"])]);
    for header in [
        "replace 2-3:",
        "replace 2…3:",
        "replace 2 3:",
        "replace 2 .. 3 :",
    ] {
        check(
            &format!("{header}\n+X"),
            &[(Replace { start: 2, end: 3 }, &["X"])],
        );
    }
    check(
        "  replace 1..1:  \r\n+x\r\n",
        &[(Replace { start: 1, end: 1 }, &["x"])],
    );
}

#[test]
fn payload_rows_are_literal() {
    check(
        "replace 2..2:\n+\n+# not a header\n++ not an op\n+\\ not an op\n+  spaced \n+-literal",
        &[(
            Replace { start: 2, end: 2 },
            &[
                "",
                "# not a header",
                "+ not an op",
                "\\ not an op",
                "  spaced ",
                "-literal",
            ],
        )],
    );
}

#[test]
fn blank_and_whitespace_lines_are_ignored() {
    check(
        "\nreplace 2..2:\n+first\n\n+second\n   \n\t\n",
        &[(Replace { start: 2, end: 2 }, &["first", "second"])],
    );
    check("delete 2\n\n  \n", &[(Delete { start: 2, end: 2 }, &[])]);
}

#[test]
fn bare_rows_are_auto_piped_with_one_warning() {
    let body = "replace 2..2:\n  hello\n|L5\n#comment in body";
    check(
        body,
        &[(
            Replace { start: 2, end: 2 },
            &["  hello", "|L5", "#comment in body"],
        )],
    );
    assert_eq!(
        warnings(body),
        vec![messages::BARE_BODY_AUTO_PIPED_WARNING.to_string()]
    );
    assert!(warnings("replace 2..2:\n+x").is_empty());
}

#[test]
fn envelopes_and_abort() {
    check(
        "*** Begin Patch\ninsert head:\n+x\n*** End Patch\ninsert tail:\n",
        &[(InsertHead, &["x"])],
    );
    check(
        "insert after 1:\n+HELLO\n*** Abort\ninsert after 99:\n+never",
        &[(InsertAfter(1), &["HELLO"])],
    );
    check(
        "insert after 1:\n+KEPT\n*** Abort \n",
        &[(InsertAfter(1), &["KEPT"])],
    );
    // Not a marker unless the whole line is: auto-piped raw row.
    check(
        "insert after 1:\n+a\n*** Abort now",
        &[(InsertAfter(1), &["a", "*** Abort now"])],
    );
}

#[test]
fn section_header_line_flushes_the_pending_hunk() {
    check(
        "insert head:\n+a\n¶b.ts#1A2B\ninsert tail:\n+b",
        &[(InsertHead, &["a"]), (InsertTail, &["b"])],
    );
    check_err(
        "insert head:\n+a\n¶b.ts#1A2B\n+b",
        "line 4: payload line has no preceding hunk header. Got \"+b\".",
    );
    check_err(
        "insert head:\n¶b.ts",
        "line 1: `insert` needs at least one `+TEXT` body row.",
    );
}

#[test]
fn markdown_comments_before_an_op_are_skipped() {
    check(
        "# comment\n## another\nreplace 2..2:\n+BBB",
        &[(Replace { start: 2, end: 2 }, &["BBB"])],
    );
    check(
        "  # indented\nreplace 2..2:\n+BBB",
        &[(Replace { start: 2, end: 2 }, &["BBB"])],
    );
    check_err(
        "# This is a stray comment.\n\nreplace 2..2:\n+BBB",
        &format!("line 1: {STRAY_GUIDANCE} Got \"# This is a stray comment.\"."),
    );
    check_err("# c\n+x", &format!("line 1: {STRAY_GUIDANCE} Got \"# c\"."));
    check_err("# c", &format!("line 1: {STRAY_GUIDANCE} Got \"# c\"."));
    check_err(
        "# a\n# b\nwhat",
        &format!("line 1: {STRAY_GUIDANCE} Got \"# a\"."),
    );
}

#[test]
fn stray_lines() {
    check_err(
        "+const X = 1;\nreplace 2..2:",
        "line 1: payload line has no preceding hunk header. Got \"+const X = 1;\".",
    );
    check_err(
        "insert head:=NEW",
        &format!("line 1: {STRAY_GUIDANCE} Got \"insert head:=NEW\"."),
    );
    check_err(
        "replace 2..2::BBB",
        &format!("line 1: {STRAY_GUIDANCE} Got \"replace 2..2::BBB\"."),
    );
    check_err(
        "2..3:BBB",
        &format!("line 1: {STRAY_GUIDANCE} Got \"2..3:BBB\"."),
    );
    check_err("2→\nBBB", &format!("line 1: {STRAY_GUIDANCE} Got \"2→\"."));
    check_err(
        "delete block 2:",
        &format!("line 1: {STRAY_GUIDANCE} Got \"delete block 2:\"."),
    );
    check_err(
        "say \"hi\"\\\t",
        &format!("line 1: {STRAY_GUIDANCE} Got \"say \\\"hi\\\"\\\\\\t\"."),
    );
}

#[test]
fn minus_rows() {
    let minus = "`-` rows are not valid; hashline ranges already name the lines being changed. To insert a literal line starting with `-`, write `+-…`.";
    check_err("replace 2..2:\n-old\n+new", &format!("line 2: {minus}"));
    check_err("insert tail:\n+a\n   - item", &format!("line 3: {minus}"));
}

#[test]
fn empty_bodies_cite_the_header_line() {
    check_err("replace 2..2:", "line 1: `replace N..M:` needs at least one `+TEXT` body row. To delete lines, use `delete N..M`.");
    check_err(
        "insert tail:\n\n",
        "line 1: `insert` needs at least one `+TEXT` body row.",
    );
    check_err(
        "insert head:\n+x\ninsert before 3:\ndelete 4",
        "line 3: `insert` needs at least one `+TEXT` body row.",
    );
    check_err(
        "replace block 2:",
        "line 1: `replace block N:` needs at least one `+TEXT` body row. To delete a block, use `delete N..M` with the block's line range.",
    );
}

#[test]
fn delete_takes_no_body() {
    check_err(
        "delete 2\n+replacement",
        "line 2: `delete N..M` does not take body rows. Remove the body, or use `replace N..M:`.",
    );
    check_err(
        "delete 2..3\nraw",
        "line 2: `delete N..M` does not take body rows. Remove the body, or use `replace N..M:`.",
    );
    check_err(
        "delete block 2\n+X",
        "line 2: `delete block N` does not take body rows. Remove the body, or use `replace block N:` to replace the block.",
    );
    check_err(
        "delete 2:\n+X",
        "line 1: `delete N..M` has no colon and no body. Remove the colon and body rows.",
    );
}

#[test]
fn range_order() {
    check_err(
        "replace 5..2:\n+x",
        "line 1: range 5..2 ends before it starts.",
    );
    check_err(
        "insert head:\n+x\ndelete 9 3",
        "line 3: range 9..3 ends before it starts.",
    );
    // The range check comes before the previous hunk's flush.
    check_err(
        "replace 2..2:\ndelete 3..1",
        "line 2: range 3..1 ends before it starts.",
    );
}

#[test]
fn contamination_inside_a_body() {
    check_err("replace 2..2:\n*** Update File: a.ts", "line 2: apply_patch sentinel \"*** Update File: a.ts\" is not valid in hashline. File sections start with `¶path#HASH` (no `Update File:` / `Add File:` keyword). Use `replace N..M:`, `delete N..M`, or `insert before|after|head|tail:` ops.");
    check_err(
        "@@ -1,3 +1,3 @@\nreplace 2..2:\n+X",
        &format!("line 1: {}", messages::UNIFIED_DIFF_IN_BODY),
    );
    check_err("@@ replace 2 @@", "line 1: `@@`-bracketed hunk header \"@@ replace 2 @@\" is not valid in hashline. Drop the `@@ ... @@` brackets and write a verb header such as `replace N..M:`.");
    check_err("2\n+BBB", "line 1: hunk headers need a verb. Use `replace 2..2:` to replace, or `delete 2` to delete.");
    check_err("2 3\n+X", "line 1: bare range hunk header \"2 3\" is not valid. Hunk headers need a verb: write `replace 2..3:` or `delete 2..3`.");
    check_err("insert tail:\n+a\n5..7", "line 3: bare range hunk header \"5..7\" is not valid. Hunk headers need a verb: write `replace 5..7:` or `delete 5..7`.");
}

#[test]
fn overlaps() {
    let tail = "Issue ONE hunk per range; payload is only the final desired content, never a before/after pair.";
    check_err(
        "replace 2..3:\n+OLD\n+OLD2\nreplace 2..3:\n+NEW\n+NEW2",
        &format!("line 4: anchor line 2 is already targeted by another hunk on line 1. {tail}"),
    );
    check_err(
        "replace 2..4:\n+NEW1\nreplace 3..5:\n+NEW2",
        &format!("line 3: anchor line 3 is already targeted by another hunk on line 1. {tail}"),
    );
    check_err(
        "delete 5..9\ndelete 1..6",
        &format!("line 2: anchor line 5 is already targeted by another hunk on line 1. {tail}"),
    );
    // Inserts inside a replaced range and block hunks are not overlaps.
    check(
        "replace 2..3:\n+x\ninsert after 2:\n+y\ndelete block 2",
        &[
            (Replace { start: 2, end: 3 }, &["x"]),
            (InsertAfter(2), &["y"]),
            (DeleteBlock { line: 2 }, &[]),
        ],
    );
    // Huge ranges are intervals, never expanded.
    let huge =
        "replace 99999999999999999999..99999999999999999999:\n+x\ndelete 1..18446744073709551615";
    check_err(huge, &format!("line 3: anchor line 18446744073709551615 is already targeted by another hunk on line 1. {tail}"));
}

#[test]
fn error_precedence_follows_input_order() {
    // A raw stray line before an empty hunk's flush wins.
    check_err(
        "oops\nreplace 2..2:",
        &format!("line 1: {STRAY_GUIDANCE} Got \"oops\"."),
    );
    // The empty-body error (raised at the next header) beats a later minus row.
    check_err("replace 2..2:\ninsert head:\n-x", "line 1: `replace N..M:` needs at least one `+TEXT` body row. To delete lines, use `delete N..M`.");
    // Parse errors beat the overlap check.
    check_err(
        "delete 2\ndelete 2\nzzz",
        "line 3: `delete N..M` does not take body rows. Remove the body, or use `replace N..M:`.",
    );
}

#[test]
fn spans_and_lines_point_at_the_body() {
    let body = "replace 2..2:\r\n+a\r\n-b\r\n";
    let err = parse_body(body).expect_err("minus row");
    assert_eq!((err.line, &body[err.span.clone()]), (3, "-b"));
    let parsed = parse_body("\ninsert tail:\n+x").expect("parses");
    assert_eq!(parsed.hunks[0].header_line, 2);
    assert_eq!(parsed.hunks[0].header_span, 1..13);
}

#[test]
fn odd_inputs_do_not_panic() {
    for body in [
        "",
        "\n",
        "\r",
        "+",
        "¶",
        "…",
        "replace 1…",
        "insert \u{2028} head:",
        "\u{feff}replace 1:\n+x",
        "-",
        "#",
        "@@",
        "*** ",
    ] {
        let _ = parse_body(body);
    }
    assert_eq!(parse_body("").map(|p| p.hunks.len()), Ok(0));
}

#[test]
fn a_misspelled_op_header_among_bare_rows_is_refused() {
    for header in ["delet 5", "repalce 3..4:", "insrt after 5:", "delte 2-3"] {
        let body = format!("replace 1..1:\nlet x = 1;\n{header}");
        match parse_body(&body) {
            Ok(parsed) => panic!("{body:?} parsed: {parsed:?}"),
            Err(e) => assert!(
                e.message.contains("looks like an op header"),
                "{}",
                e.message
            ),
        }
    }
    // Bare rows that merely start with a similar word stay content.
    check(
        "replace 1..1:\ndeleted 5 files\ninsert(a, 5)\ndelegate 5 tasks",
        &[(
            Replace { start: 1, end: 1 },
            &["deleted 5 files", "insert(a, 5)", "delegate 5 tasks"],
        )],
    );
}
