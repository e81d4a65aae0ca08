//! The indentation rules on the shapes of correct real edits (silent) beside the mistakes
//! they must still catch.

use hashline_core::ErrorCode;

use crate::guard::layout;
use crate::guard::tests::{insert_after, replace, run};

const RS: &str = "fn f() {\n    if a {\n        x();\n    }\n}\n\nfn g() {}\n";

#[test]
fn restated_context_rows_are_not_edited_rows() {
    // str-replace restates `    }` and `}` around a new function: only the new rows count.
    let rows = ["    }", "}", "", "fn h() {", "    y();", "}"];
    assert_eq!(run("a.rs", RS, vec![replace(4, 5, &rows)]), Ok(vec![]));
    // The same restated lines around rows that lost their indentation: still refused.
    let lost = ["        x();", "y();", "    }"];
    assert_eq!(
        run("a.rs", RS, vec![replace(3, 4, &lost)]),
        Err(ErrorCode::Indentation)
    );
}

#[test]
fn a_closer_of_a_block_above_may_sit_at_its_level() {
    // `} else {` closes `if a {` and opens a new block; `});` closes a call opened above.
    let rows = ["        x();", "    } else {", "        z();"];
    assert_eq!(run("a.rs", RS, vec![replace(3, 3, &rows)]), Ok(vec![]));
    let call = "fn f() {\n    let e = format!(\n        \"{}\",\n        a);\n}\n";
    assert_eq!(
        run("a.rs", call, vec![replace(4, 4, &["        a", "    );"])]),
        Ok(vec![])
    );
    // A closer below the block it closes lost its indentation.
    let rows = ["        x();", "} else {", "        z();"];
    assert_eq!(
        run("a.rs", RS, vec![replace(3, 3, &rows)]),
        Err(ErrorCode::Indentation)
    );
    // Closing every block and opening a new item at column 0, back to where it was.
    let rows = ["    }", "}", "", "fn k() {", "    if b {"];
    assert_eq!(run("a.rs", RS, vec![insert_after(3, &rows)]), Ok(vec![]));
}

#[test]
fn rows_inside_multi_line_strings_are_text() {
    let py = "def f():\n    \"\"\"Doc.\n    \"\"\"\n    return 1\n";
    let doc = [
        "    \"\"\"Doc. There",
        "    are two ways:",
        "",
        "    1.  one",
        "    2.  two",
    ];
    assert_eq!(run("a.py", py, vec![replace(2, 2, &doc)]), Ok(vec![]));
    let go = "package t\n\nvar t = `NAME:\n   {{.Name}}\n`\n";
    assert_eq!(
        run("t.go", go, vec![replace(4, 4, &["   {{.Name}}", "USAGE:"])]),
        Ok(vec![])
    );
    // A code row after the docstring that lost its indentation is still refused.
    assert_eq!(
        run("a.py", py, vec![replace(4, 4, &["return 2"])]),
        Err(ErrorCode::Indentation)
    );
}

#[test]
fn an_opener_is_judged_by_its_statement() {
    // `|| c {` continues `if a`: the body sits under the statement, not under the `||`.
    let rs = "fn f() {\n    if a\n        || c {\n        x();\n    }\n}\n";
    assert_eq!(
        run("a.rs", rs, vec![replace(4, 4, &["        y();"])]),
        Ok(vec![])
    );
    // A `:` inside brackets or a wrapped signature's `:` opens no block of its own.
    let py = "def f(a,\n      b):\n    x = {\n        'k':\n            1,\n    }\n";
    assert_eq!(
        run("a.py", py, vec![replace(5, 5, &["            2,"])]),
        Ok(vec![])
    );
    // A row not indented under a real opener is still refused.
    let py = "def f():\n    if a:\n        x()\n    return 1\n";
    assert_eq!(
        run("a.py", py, vec![replace(3, 3, &["    y()"])]),
        Err(ErrorCode::Indentation)
    );
}

#[test]
fn the_line_above_may_be_another_edits_row() {
    let py = "def f():\n    with a as b:\n        b.w(c)\n\n    assert x\n";
    let edits = vec![
        replace(3, 3, &["        b.w(d)"]),
        insert_after(4, &["    # note", "    assert y"]),
    ];
    assert_eq!(run("a.py", py, edits), Ok(vec![]));
}

#[test]
fn a_python_replace_judges_its_first_changed_row() {
    // The rows close the list, add a function, and end inside a list the kept `]` closes.
    let py = "def test_a():\n    assert x == [\n        'a',\n    ]\n";
    let rows = [
        "        'a',",
        "    ]",
        "",
        "",
        "def test_b():",
        "    assert y == [",
        "        'b',",
    ];
    assert_eq!(run("t.py", py, vec![replace(3, 3, &rows)]), Ok(vec![]));
    let lost = ["        'a',", "'c',"];
    assert_eq!(
        run("t.py", py, vec![replace(3, 3, &lost)]),
        Err(ErrorCode::Indentation)
    );
}

#[test]
fn a_string_opened_far_above_the_edit_is_still_text() {
    // The docstring opens hundreds of lines above the edit (past the scanner's checkpoints).
    let mut py = String::from("def f():\n    \"\"\"Doc:\n");
    for i in 0..300 {
        py.push_str(&format!("    line {i}\n"));
    }
    py.push_str("    \"\"\"\n    return 1\n");
    let rows = ["    Keys:", "", "1.  first"];
    assert_eq!(run("a.py", &py, vec![replace(200, 200, &rows)]), Ok(vec![]));
    // The code line after it still counts.
    assert_eq!(
        run("a.py", &py, vec![replace(304, 304, &["return 2"])]),
        Err(ErrorCode::Indentation)
    );
}

#[test]
fn an_edit_deep_in_a_big_file_scans_only_the_lines_above_it() {
    // Far more lines above the docstring than the scanner walks back: what it sees from there
    // on is the same as a scan from the top.
    let mut py = String::new();
    for i in 0..(layout::SCAN_BACK + 5_000) {
        py.push_str(&format!("x{i} = {i}\n"));
    }
    let top = py.lines().count();
    py.push_str("def f():\n    \"\"\"Doc:\n    line\n    \"\"\"\n    return 1\n");
    let rows = ["Keys:"];
    assert_eq!(
        run("a.py", &py, vec![replace(top + 3, top + 3, &rows)]),
        Ok(vec![])
    );
    assert_eq!(
        run("a.py", &py, vec![replace(top + 5, top + 5, &["return 2"])]),
        Err(ErrorCode::Indentation)
    );
}

#[test]
fn a_one_line_dedent_to_the_blocks_level_is_deliberate() {
    let py = "def f(x):\n    if x:\n        a()\n        return 1\n\n\ndef g():\n    pass\n";
    // The last statement of the `if` moved out of it, to the `if`'s own level.
    assert_eq!(
        run("a.py", py, vec![replace(4, 4, &["    return 1"])]),
        Ok(vec![])
    );
    // The same row in the middle of the block (the next line stays deeper): refused.
    assert_eq!(
        run("a.py", py, vec![replace(3, 3, &["    b()"])]),
        Err(ErrorCode::Indentation)
    );
    // A row that lost its indentation (column 0) is refused.
    assert_eq!(
        run("a.py", py, vec![replace(4, 4, &["return 2"])]),
        Err(ErrorCode::Indentation)
    );
}

#[test]
fn rows_above_a_closer_sit_inside_its_block() {
    let js = "function f() {\n\tg({\n\t\ta: 1,\n\t\tb: 2,\n\t});\n}\n";
    // A new entry one level shallower, at the level of the `});` that closes its object.
    assert_eq!(
        run("a.js", js, vec![insert_after(4, &["\tc: 3,"])]),
        Err(ErrorCode::Indentation)
    );
    // At the entries' level it is inside the object.
    assert_eq!(
        run("a.js", js, vec![insert_after(4, &["\t\tc: 3,"])]),
        Ok(vec![])
    );
    // A new item after a sibling's `}`, shallower than that sibling.
    let rs = "mod t {\n    fn a() {\n        x();\n    }\n}\n";
    let lost = ["", "  fn b() {", "      y();", "  }"];
    assert_eq!(
        run("a.rs", rs, vec![insert_after(4, &lost)]),
        Err(ErrorCode::Indentation)
    );
    let rows = ["", "    fn b() {", "        y();", "    }"];
    assert_eq!(run("a.rs", rs, vec![insert_after(4, &rows)]), Ok(vec![]));
    // Rows that close the block themselves and open the next one at its level.
    let rows = ["}", "", "mod u {", "    fn b() {}"];
    assert_eq!(run("a.rs", rs, vec![insert_after(4, &rows)]), Ok(vec![]));
    // A `case` keeps the level of the `switch`.
    let c = "int f(int x) {\n    switch (x) {\n    case 1:\n        return 1;\n    }\n}\n";
    assert_eq!(
        run(
            "a.c",
            c,
            vec![insert_after(4, &["    case 2:", "        return 2;"])]
        ),
        Ok(vec![])
    );
}

#[test]
fn rows_that_open_the_block_a_closer_ends_may_sit_at_its_level() {
    // The line above is deeper than the `};` after the edit, which ends the rows' function.
    let js = "if (a)\n\tb();\nconst g = function () {\n\tx();\n};\n";
    let rows = ["const g = function (y) {", "\ty();"];
    assert_eq!(run("a.js", js, vec![replace(3, 4, &rows)]), Ok(vec![]));
}

#[test]
fn an_entry_inside_brackets_keeps_the_entries_level() {
    let py = "def f(\n    a: int,\n    b: int,\n) -> int:\n    return a\n";
    assert_eq!(
        run("a.py", py, vec![replace(2, 2, &["a: str,"])]),
        Err(ErrorCode::Indentation)
    );
    assert_eq!(
        run("a.py", py, vec![replace(2, 2, &["    a: str,"])]),
        Ok(vec![])
    );
    // The last entry, above the closer: nothing after it to compare with.
    assert_eq!(
        run("a.py", py, vec![replace(3, 3, &["    b: str,"])]),
        Ok(vec![])
    );
}

#[test]
fn the_only_body_near_the_edit_is_evidence_that_the_file_indents_bodies() {
    // The one block near the edit is the one whose body the edit rewrites at column 0.
    let js = "import x;\n\nfor (const a of b()) {\n\tf(a);\n}\n";
    let got = run("a.js", js, vec![replace(4, 4, &["g(a);"])]);
    assert_eq!(got, Err(ErrorCode::Indentation));
    assert_eq!(
        run("a.js", js, vec![replace(4, 4, &["\tg(a);"])]),
        Ok(vec![])
    );
}

#[test]
fn a_new_block_written_flat_is_refused_where_the_file_indents_blocks() {
    // The block's own lines far above the insert (beyond a few lines) are the evidence.
    let mut file = String::from("impl A for B {\n    fn next(&mut self) -> u8 {\n");
    file.push_str(&"        x();\n".repeat(20));
    file.push_str("    }\n}\n");
    let n = file.lines().count();
    let flat = [
        "",
        "impl C for B {",
        "fn len(&self) -> usize {",
        "1",
        "}",
        "}",
    ];
    assert_eq!(
        run("a.rs", &file, vec![insert_after(n, &flat)]),
        Err(ErrorCode::Indentation)
    );
    let good = [
        "",
        "impl C for B {",
        "    fn len(&self) -> usize {",
        "        1",
        "    }",
        "}",
    ];
    assert_eq!(run("a.rs", &file, vec![insert_after(n, &good)]), Ok(vec![]));
}

#[test]
fn bracket_entries_written_flat_are_refused_where_the_file_indents_them() {
    let rs = "#![allow(clippy::eq_op)]\n\nfn f() {\n    g(\n        1,\n    );\n}\n";
    let flat = [
        "#![allow(",
        "clippy::eq_op,",
        "clippy::wildcard_imports",
        ")]",
    ];
    assert_eq!(
        run("a.rs", rs, vec![replace(1, 1, &flat)]),
        Err(ErrorCode::Indentation)
    );
    let good = [
        "#![allow(",
        "    clippy::eq_op,",
        "    clippy::wildcard_imports",
        ")]",
    ];
    assert_eq!(run("a.rs", rs, vec![replace(1, 1, &good)]), Ok(vec![]));
    let go = "package a\n\nimport (\n\t\"fmt\"\n)\n\nconst x = 1\n";
    let flat = ["const (", "a = 1", "b = 2", ")"];
    assert_eq!(
        run("a.go", go, vec![replace(7, 7, &flat)]),
        Err(ErrorCode::Indentation)
    );
    let py = "from a import (\n    b,\n)\nx = 1\n";
    assert_eq!(
        run(
            "a.py",
            py,
            vec![replace(4, 4, &["from c import (", "d, e", ")"])]
        ),
        Err(ErrorCode::Indentation)
    );
}

#[test]
fn flat_bodies_the_file_itself_writes_pass() {
    // A file that writes bracket entries flat elsewhere; a `case` at its `switch`'s level;
    // a shell array (no bracket rule outside code).
    let py = "X = [\n1,\n2,\n]\ny = f(\n    3,\n)\nz = 0\n";
    assert_eq!(
        run("a.py", py, vec![replace(8, 8, &["Z = [", "0,", "]"])]),
        Ok(vec![])
    );
    let go = "package a\n\nfunc f(x int) {\n\tswitch x {\n\tcase 1:\n\t\treturn\n\t}\n}\n";
    let rows = ["\tswitch x {", "\tcase 2:", "\t\treturn", "\t}"];
    assert_eq!(run("a.go", go, vec![replace(4, 7, &rows)]), Ok(vec![]));
    let sh = "f() {\n  echo a\n}\nx=1\n";
    assert_eq!(
        run("a.sh", sh, vec![replace(4, 4, &["ARR=(", "a", "b", ")"])]),
        Ok(vec![])
    );
}

#[test]
fn a_fenced_code_row_under_its_opener_keeps_its_indentation() {
    let md = "# T\n\n```js\nfor (const a of b()) {\n\tgo(a);\n}\n```\n\nText.\n";
    assert_eq!(
        run("a.md", md, vec![replace(5, 5, &["go(a);"])]),
        Err(ErrorCode::Indentation)
    );
    assert_eq!(
        run("a.md", md, vec![replace(5, 5, &["\tgo(b);"])]),
        Ok(vec![])
    );
    // A fence without a language the check knows, and prose outside fences: left alone.
    let sh = "```\nfor a in b; do {\n\techo\n}\n```\n";
    assert_eq!(run("a.md", sh, vec![replace(3, 3, &["echo"])]), Ok(vec![]));
}

#[test]
fn comment_rows_that_lost_their_indentation_are_refused() {
    let js = "/**\n * Doc.\n * More.\n */\n\nvar a = 1;\n";
    let flat = ["/**", "* WARNING:", "*  Careful.", "*/"];
    assert_eq!(
        run("a.js", js, vec![replace(1, 4, &flat)]),
        Err(ErrorCode::Indentation)
    );
    let good = ["/**", " * WARNING:", " *  Careful.", " */"];
    assert_eq!(run("a.js", js, vec![replace(1, 4, &good)]), Ok(vec![]));
    // A file whose comments put the `*` under the `/`: its own style.
    let own = "/*\n* Doc.\n* More.\n*/\n\nvar a = 1;\n";
    assert_eq!(run("a.js", own, vec![replace(1, 4, &flat)]), Ok(vec![]));
}

#[test]
fn a_python_return_or_self_row_outside_any_function_is_refused() {
    let py = "class A:\n    def f(self, e):\n        if e:\n            return 1\n        return 2\n\n    def g(self):\n        r = get(\n            'x')\n        self.check(r)\n";
    // `return` dropped into the class body; `self.` dropped out of its method.
    assert_eq!(
        run("a.py", py, vec![replace(5, 5, &["    return 2"])]),
        Err(ErrorCode::Indentation)
    );
    assert_eq!(
        run("a.py", py, vec![replace(10, 10, &["    self.check(r)"])]),
        Err(ErrorCode::Indentation)
    );
    // At their function's level, and a class attribute: meant.
    assert_eq!(
        run("a.py", py, vec![replace(5, 5, &["        return 3"])]),
        Ok(vec![])
    );
    assert_eq!(
        run("a.py", py, vec![insert_after(1, &["    x = 1"])]),
        Ok(vec![])
    );
}

#[test]
fn a_return_below_a_wrapped_signature_or_far_down_a_function_passes() {
    // The signature's `) -> int:` closes brackets opened above: no header of its own.
    let py = "def f(\n    a,\n    b,\n) -> int:\n    x = a\n    return x\n";
    assert_eq!(
        run("a.py", py, vec![replace(6, 6, &["    return b"])]),
        Ok(vec![])
    );
    // A function longer than the lines scanned around the edit: no verdict.
    let mut long = String::from("def g():\n    \"\"\"Doc.\n\n    More.\n    \"\"\"\n");
    long.push_str(&"    x = 1\n".repeat(120));
    long.push_str("    return x\n");
    let n = long.lines().count();
    assert_eq!(
        run("a.py", &long, vec![replace(n, n, &["    return 2"])]),
        Ok(vec![])
    );
}
