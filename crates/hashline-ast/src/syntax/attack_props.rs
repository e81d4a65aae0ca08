//! Property tests of the many-hunk windows in Python and Rust, on files whose column-0 lines
//! are not all top-level (strings, nested comments, brackets, `else:`, decorators): the
//! windows never accept a new text in which a fresh parse finds an error.

use std::collections::BTreeSet;

use super::hunks_tests::{case_edits_with, edited};
use super::*;

/// A Python file of `blocks` blocks (22 lines, about 170 bytes each).
fn tricky_py(blocks: usize) -> String {
    (0..blocks)
        .map(|i| {
            format!(
                "import m{i}\nX{i} = \"\"\"\n\ndef fake{i}():\n    pass\n\n\"\"\"\n\n\n@deco\n\
                 def f{i}(a):\n    if a:\n        return [\n1,\n            2]\n    return 0\n\n\n\
                 if X{i}:\n    y{i} = 1\nelse:\n    y{i} = 2\n"
            )
        })
        .collect()
}

/// A Rust file of `blocks` blocks (17 lines, about 160 bytes each).
fn tricky_rs(blocks: usize) -> String {
    (0..blocks)
        .map(|i| {
            format!(
                "pub const S{i}: &str = \"\n\nfn fake{i}() {{}}\n\n\";\n\n/* outer\n/* nested */\n\n\
                 fn in_comment{i}() {{}}\n*/\n\npub fn f{i}<'a>(x: &'a str) -> char {{\n    \
                 let _ = x;\n    '\"'\n}}\n\n"
            )
        })
        .collect()
}

const PY_ROWS: &[&str] = &[
    "def g():", "    pass", "", "# note", "\"\"\"", "'''", "x = (", ")", "else:", "@deco", "if a:",
    "return 1", "  y = 2", "class C:", "x = 1 \\", "]", "with a:", "1,",
];

const RS_ROWS: &[&str] = &[
    "fn g() {}",
    "}",
    "{",
    "/*",
    "*/",
    "\"",
    "r#\"",
    "\"#",
    "let x = 1;",
    "'a'",
    "pub struct S;",
    "// note",
    "",
    "impl X {",
    "fn h(",
    ")",
    "/* c */",
];

/// The edits of a case: at each spot (modulo the line count), cut 0 or 1 lines and write the
/// picked rows (an index past `rows` writes a blank line or a comment, valid anywhere).
fn case_edits<'r>(
    lines: usize,
    spots: &BTreeSet<usize>,
    picks: &[(usize, Vec<usize>)],
    rows: &[&'r str],
    comment: &'r str,
) -> Vec<(usize, usize, Vec<&'r str>)> {
    case_edits_with(lines, spots, picks, |r| {
        rows.get(r)
            .copied()
            .unwrap_or(if r % 2 == 0 { "" } else { comment })
    })
}

/// Whether a fresh parse of all of `text` holds a syntax error.
fn parse_errs(lang: SupportLang, text: &str) -> bool {
    use ast_grep_core::tree_sitter::LanguageExt;
    let mut p = tree_sitter::Parser::new();
    p.set_language(&lang.get_ts_language()).expect("language");
    p.parse(text, None).expect("tree").root_node().has_error()
}

/// For `edits` of the clean `before`: whether the windows accept the new text (every window
/// parses cleanly: the fast path's "no error introduced"), and whether a fresh parse of it
/// finds an error (the parse, not the whole check, is the reference: see the whole-check
/// tests below).
fn check(lang: SupportLang, before: &str, edits: &[(usize, usize, Vec<&str>)]) -> (bool, bool) {
    let (after, changes) = edited(before, edits);
    let accepted = super::hunks::windows(lang, before, &after, &changes).is_some_and(|w| {
        let mut check =
            check::Check::new(lang, std::time::Instant::now() + PARSE_BUDGET).expect("grammar");
        check.clean_in(&after, &w) == Ok(true)
    });
    (accepted, parse_errs(lang, &after))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
    /// Python: the windows never accept a text a fresh parse finds an error in.
    #[test]
    fn python_windows_never_hide_an_error(
        spots in proptest::collection::btree_set(0usize..9_000, 1..6),
        picks in proptest::collection::vec(
            (0usize..2, proptest::collection::vec(0usize..PY_ROWS.len() * 4, 0..3)),
            6,
        ),
    ) {
        let before = tricky_py(400);
        let edits = case_edits(before.split('\n').count() - 1, &spots, &picks, PY_ROWS, "# c");
        let (accepted, broken) = check(SupportLang::Python, &before, &edits);
        proptest::prop_assert!(!(accepted && broken), "{:?}", edits);
    }

    /// Rust: the same.
    #[test]
    fn rust_windows_never_hide_an_error(
        spots in proptest::collection::btree_set(0usize..9_000, 1..6),
        picks in proptest::collection::vec(
            (0usize..2, proptest::collection::vec(0usize..RS_ROWS.len() * 4, 0..3)),
            6,
        ),
    ) {
        let before = tricky_rs(450);
        let edits = case_edits(before.split('\n').count() - 1, &spots, &picks, RS_ROWS, "// c");
        let (accepted, broken) = check(SupportLang::Rust, &before, &edits);
        proptest::prop_assert!(!(accepted && broken), "{:?}", edits);
    }
}

/// The tricky files are clean, big enough for the windows, and a correct edit takes them.
#[test]
fn the_tricky_files_take_the_windows() {
    for (lang, before) in [
        (SupportLang::Python, tricky_py(400)),
        (SupportLang::Rust, tricky_rs(450)),
    ] {
        assert!(before.len() > WINDOW_ABOVE);
        assert_eq!(introduced_in(lang, "", &before), None, "{lang:?}");
        let (after, changes) = edited(&before, &[(1_000, 0, vec![""])]);
        assert!(
            super::hunks::windows(lang, &before, &after, &changes).is_some(),
            "{lang:?}"
        );
    }
}

/// Found by the Rust property test: code written into a nested block comment is correct (a
/// fresh parse finds no error, and neither do the windows), but the whole check (`run`,
/// whose window of the old text starts inside the comment) reports a missing `*/`: the
/// guard would refuse a correct edit.
#[test]
fn the_whole_check_refuses_code_written_into_a_nested_comment() {
    let before = tricky_rs(450);
    let (after, changes) = edited(&before, &[(6266, 0, vec!["fn g() {}"])]);
    assert!(!parse_errs(SupportLang::Rust, &after));
    assert_eq!(
        introduced_at_in(SupportLang::Rust, &before, &after, &changes),
        None
    );
    assert_eq!(introduced_in(SupportLang::Rust, &before, &after), None);
}

/// Found by the Python property test: a lone `"""` written between two functions opens a
/// string that pairs the file's later quotes the other way round; a fresh parse finds the
/// error, the windows are refused (the scan ends inside a string), but the whole check
/// (`run`: its window of the new text, from window.rs, looks clean) reports nothing.
#[test]
fn the_whole_check_misses_a_lone_triple_quote() {
    let before = tricky_py(400);
    let (after, changes) = edited(&before, &[(1_880, 0, vec!["\"\"\""])]);
    assert!(parse_errs(SupportLang::Python, &after));
    assert!(super::hunks::windows(SupportLang::Python, &before, &after, &changes).is_none());
    assert!(introduced_in(SupportLang::Python, &before, &after).is_some());
}

/// Found by the Python property test: `else:` written after a module-level assignment. The
/// windows find the error and fall back to the whole check, which reports nothing.
#[test]
fn the_whole_check_misses_a_stray_else() {
    let before = tricky_py(400);
    let (after, changes) = edited(&before, &[(4_913, 0, vec!["else:"])]);
    assert!(parse_errs(SupportLang::Python, &after));
    assert!(introduced_at_in(SupportLang::Python, &before, &after, &changes).is_some());
}
