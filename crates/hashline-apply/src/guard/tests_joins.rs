//! Two lines joined into one row where the file's own layout or the language tells: a literal
//! `\n` before a fence, a link definition, a comment's closer or a docstring's hanging line; a
//! `}` after a statement; a Markdown item holding the next one.

use hashline_core::ErrorCode;

use super::tests::{insert_after, replace, run};

#[test]
fn a_literal_newline_before_a_closing_fence_is_refused() {
    let md = "# Use\n\n```\n$ make\n```\n\nThen run it.\n";
    let got = run("a.md", md, vec![replace(4, 5, &["$ make install\\n```"])]);
    assert_eq!(got, Err(ErrorCode::PayloadContaminated));
    // Code inside the fence that prints a `\n` is content.
    let got = run("a.md", md, vec![replace(4, 4, &["$ printf 'a\\nb'"])]);
    assert_eq!(got, Ok(vec![]));
}

#[test]
fn a_literal_newline_before_a_link_definition_is_refused() {
    let md = "# Log\n\nSee [1.0].\n\n[0.9]: https://x.y/0.9\n";
    let rows = ["[1.0]: https://x.y/1.0\\n[0.9]: https://x.y/0.9"];
    let got = run("CHANGELOG.md", md, vec![replace(5, 5, &rows)]);
    assert_eq!(got, Err(ErrorCode::PayloadContaminated));
}

#[test]
fn a_literal_newline_before_a_comment_closer_is_refused() {
    let ts = "export type A = {\n\t/**\n\tThe value.\n\t*/\n\tvalue: string;\n};\n";
    let got = run(
        "a.d.ts",
        ts,
        vec![replace(3, 4, &["\tThe value, or none.\\n\t*/"])],
    );
    assert_eq!(got, Err(ErrorCode::PayloadContaminated));
    // In a string, `\n */` is text the program writes.
    let got = run(
        "a.ts",
        "const a = 1;\n",
        vec![replace(1, 1, &["const a = \"x\\n */\";"])],
    );
    assert_eq!(got, Ok(vec![]));
}

#[test]
fn a_literal_newline_before_a_docstring_hanging_line_is_refused() {
    let py =
        "def f(err):\n    \"\"\"Print.\n\n    :param err: where to.\n    \"\"\"\n    return err\n";
    let rows = ["    :param err: if true, to ``stderr``\\n                instead of ``stdout``."];
    let got = run("a.py", py, vec![replace(4, 4, &rows)]);
    assert_eq!(got, Err(ErrorCode::PayloadContaminated));
    // On a code row, a string's `\n` before a deeper indentation is the program's text.
    let rows = ["    return \"usage:\\n                f\""];
    let got = run("a.py", py, vec![replace(6, 6, &rows)]);
    assert_eq!(got, Ok(vec![]));
}

/// A Go file whose blocks each close on a row of their own (gofmt).
const GO: &str = "package m\n\nfunc a() int {\n\tx := f(1)\n\treturn x\n}\n\nfunc b() {\n\tif g(2) {\n\t\th(3)\n\t}\n}\n\nfunc c() {\n\tk(4)\n\tk(5)\n\tk(6)\n\tk(7)\n}\n";

#[test]
fn a_closer_after_a_statement_is_warned_where_the_file_never_has_one() {
    let got = run(
        "m.go",
        GO,
        vec![insert_after(
            12,
            &["", "func d() {", "\tk(8)", "\treturn }"],
        )],
    )
    .expect("applied");
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with("[W_MERGED_LINES] row 4 of insert after 12"),
        "{got:?}"
    );
    // A one-line block is closed on its own row: no seam.
    let got = run("m.go", GO, vec![replace(15, 15, &["\tif k(4) { return }"])]);
    assert_eq!(got, Ok(vec![]));
    // A file that closes blocks so elsewhere writes in that style.
    let go = GO.replacen("\tk(7)\n}", "\tk(7) }", 1);
    let got = run(
        "m.go",
        &go,
        vec![insert_after(
            12,
            &["", "func d() {", "\tk(8)", "\treturn }"],
        )],
    );
    assert_eq!(got, Ok(vec![]));
}

/// A Markdown changelog: one item per row.
const LOG: &str = "# Log\n\n## 1.1\n\n* Fixed a thing.\n* Added b.\n* Removed c.\n\n## 1.0\n\n* Initial d.\n* Added e.\n";

#[test]
fn a_list_item_holding_the_next_is_warned_where_no_item_does() {
    let rows = ["* Fixed f. * Added g."];
    let got = run("CHANGELOG.md", LOG, vec![insert_after(4, &rows)]).expect("applied");
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with("[W_MERGED_LINES] row 1 of insert after 4"),
        "{got:?}"
    );
    // A file whose items hold a bullet so already.
    let log = LOG.replacen("* Removed c.", "* Removed c. * Kept h.", 1);
    let got = run("CHANGELOG.md", &log, vec![insert_after(4, &rows)]);
    assert_eq!(got, Ok(vec![]));
    // Two link definitions on one row.
    let rows = ["[1.1]: https://x.y/1.1 [1.0]: https://x.y/1.0"];
    let got = run("CHANGELOG.md", LOG, vec![insert_after(12, &["", rows[0]])]).expect("applied");
    assert_eq!(got.len(), 1, "{got:?}");
}

/// A YAML mapping whose first key's block the edit rewrites.
const YAML: &str =
    "flag_types:\n  bool:\n    fields:\n      - count\n  float64: {}\n  int64:\n    value: 1\n";

#[test]
fn yaml_rows_dedented_out_of_a_block_that_goes_on_are_refused() {
    let rows = ["bool:", "  fields:", "    - count", "    - total"];
    let got = run("flags.yml", YAML, vec![replace(2, 4, &rows)]);
    assert_eq!(got, Err(ErrorCode::Indentation));
    // The same rows at the block's column land.
    let rows = ["  bool:", "    fields:", "      - count", "      - total"];
    assert_eq!(
        run("flags.yml", YAML, vec![replace(2, 4, &rows)]),
        Ok(vec![])
    );
    // A sequence at its key's column is YAML's compact style.
    let yaml = "steps:\n- name: a\n  run: x\n- name: b\n  run: y\n";
    let got = run("ci.yml", yaml, vec![replace(2, 2, &["- name: a2"])]);
    assert_eq!(got, Ok(vec![]));
    // A new top-level key after a block that ends: nothing goes on below.
    let got = run("flags.yml", YAML, vec![insert_after(7, &["other: 2"])]);
    assert_eq!(got, Ok(vec![]));
}

/// Whether `got` warns of merged lines.
fn merged_warned(got: &Result<Vec<String>, hashline_core::ErrorCode>) -> bool {
    got.as_ref()
        .is_ok_and(|w| w.iter().any(|w| w.starts_with("[W_MERGED_LINES]")))
}

#[test]
fn an_attribute_with_its_item_on_the_row_is_a_merge_where_the_file_never_has_one() {
    let rs = "#[inline]\nfn a() {}\n\n#[cfg(test)]\nmod t {}\n\n#[derive(Debug)]\nstruct S;\n\nfn b() {}\n";
    let got = run("a.rs", rs, vec![replace(10, 10, &["#[inline] fn b() {}"])]);
    assert!(merged_warned(&got), "{got:?}");
    assert_eq!(
        run(
            "a.rs",
            rs,
            vec![replace(10, 10, &["#[inline]", "fn b() {}"])]
        ),
        Ok(vec![])
    );
    // An attribute on a statement may share its row.
    let stmt = "fn f() {\n    #[cfg(unix)]\n    a();\n}\n";
    assert_eq!(
        run(
            "a.rs",
            &format!("{rs}{stmt}"),
            vec![replace(12, 13, &["    #[cfg(unix)] b()?;"])]
        ),
        Ok(vec![])
    );
    // A file that writes `#[test] fn` on one row.
    let own = "#[test] fn a() {}\n#[test]\nfn b() {}\n#[test]\nfn c() {}\nfn d() {}\n";
    assert_eq!(
        run("a.rs", own, vec![replace(6, 6, &["#[test] fn d() {}"])]),
        Ok(vec![])
    );
}

#[test]
fn a_comment_ending_in_a_statement_is_a_merge_where_no_comment_does() {
    let js = "// One\na();\n// Two\nb();\n// Three\nc();\n// Four\nd();\n// Five\ne();\n";
    let got = run(
        "a.js",
        js,
        vec![replace(9, 10, &["// Expose e axios.e = e;"])],
    );
    assert!(merged_warned(&got), "{got:?}");
    // Commented-out code, and a comment of words: meant.
    assert_eq!(
        run("a.js", js, vec![replace(9, 9, &["// const x = f();"])]),
        Ok(vec![])
    );
    assert_eq!(
        run("a.js", js, vec![replace(9, 9, &["// Expose e as well."])]),
        Ok(vec![])
    );
}

#[test]
fn a_block_comment_row_holding_the_next_rows_star_is_a_merge() {
    let js = "/**\n * One.\n * Two.\n * Three.\n * Four.\n * Five.\n */\nvar a = 1;\n";
    let got = run("a.js", js, vec![replace(2, 3, &[" * One. * Two."])]);
    assert!(merged_warned(&got), "{got:?}");
    assert_eq!(
        run("a.js", js, vec![replace(2, 2, &[" * One: a * b."])]),
        Ok(vec![])
    );
}
