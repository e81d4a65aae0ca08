//! Blank lines restated beside blank lines: judged against the file's own runs between lines
//! of the same kind (inside a block, or anywhere).

use super::tests::{insert_after, replace, run};

/// A Python module: two blank lines between top-level items, one inside functions (five
/// times), as PEP 8 and black lay it out.
const PY: &str = "def a():\n    x = 1\n\n    y = 2\n\n    return x\n\n\ndef b():\n    x = 1\n\n    y = 2\n\n    return y\n\n\ndef c():\n    z = 3\n\n    return z\n";

#[test]
fn a_blank_row_beside_a_blank_line_inside_a_block_is_warned() {
    // Line 6 (`    return x`, the last of `a`) replaced with a blank row first: line 5 is
    // blank already, so two blank lines would stand inside `a`, where the file has one between
    // indented lines (and two only at the top level, as after `a`).
    let w = run("a.py", PY, vec![replace(6, 6, &["", "    return x + 1"])]).expect("applied");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with("[W_REPEATED_LINE] row 1 of replace 6..6 repeats line 5 (a blank line) just before it: 2 blank lines in a row, where the file has at most 1"),
        "{w:?}"
    );
    // A file that has two blank lines in a row inside a function too: no echo.
    let py = PY.replacen("    z = 3\n\n", "    z = 3\n\n\n", 1);
    let w = run("a.py", &py, vec![replace(6, 6, &["", "    return x + 1"])]).expect("applied");
    assert!(w.is_empty(), "{w:?}");
}

#[test]
fn two_blank_rows_between_written_rows_are_warned_past_the_files_longest_run() {
    // gofmt never leaves two blank lines in a row.
    let go = "package m\n\nfunc a() {\n\tx()\n}\n\nfunc b() {\n\ty()\n}\n\nfunc c() {\n}\n\nfunc d() {\n}\n";
    let rows = ["", "func e() {", "\tz()", "}", "", "", "func f() {", "}"];
    let w = run("m.go", go, vec![insert_after(15, &rows)]).expect("applied");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with("[W_REPEATED_LINE] rows 5-6 of insert after 15 are 2 blank lines in a row, where the file has at most 1"),
        "{w:?}"
    );
    // Inside a Python function, two blank rows; at its top level, as the file does: no echo.
    let rows = ["    w = 0", "", "", "    return w"];
    let w = run("a.py", PY, vec![replace(20, 20, &rows)]).expect("applied");
    assert_eq!(w.len(), 1, "{w:?}");
    let rows = ["    return z", "", "", "def d():", "    pass"];
    let w = run("a.py", PY, vec![replace(20, 20, &rows)]).expect("applied");
    assert!(w.is_empty(), "{w:?}");
}
