//! Range and line-shape rules on the shapes of correct real edits: each false-alarm shape passes
//! silently, and the mistake the rule was built for is still caught.

use hashline_core::ErrorCode;

use super::tests::{replace, run};

/// Whether `got` holds a warning with `code`.
fn warns(got: &[String], code: &str) -> bool {
    got.iter().any(|w| w.starts_with(code))
}

const PY: &str = "def f(a):\n    if a:\n        return 1\n    return 2\n\n\ndef g():\n    pass\n";

#[test]
fn a_blank_swallowed_between_items_is_still_warned() {
    // Two blank lines between functions thinned to one (the range ends one line late).
    let got = run(
        "a.py",
        PY,
        vec![replace(2, 5, &["    return 1 if a else 2"])],
    )
    .expect("ok");
    assert!(warns(&got, "[W_SWALLOWED_BLANK]"), "{got:?}");
    // A Go function glued to the next one.
    let go = "func a() {\n\tx()\n}\n\nfunc b() {\n}\n";
    let got = run("m.go", go, vec![replace(2, 4, &["\ty()", "}"])]).expect("ok");
    assert!(warns(&got, "[W_SWALLOWED_BLANK]"), "{got:?}");
}

#[test]
fn a_blank_removed_inside_a_body_or_at_a_block_edge_is_not_warned() {
    // Between two statements of one body.
    let go = "func a() {\n\terr = f()\n\n\tif err != nil {\n\t\tx()\n\t}\n\treturn err\n}\n";
    let got = run("m.go", go, vec![replace(3, 6, &["\tcheck(err)"])]);
    assert_eq!(got, Ok(vec![]));
    // Padding right after an opener.
    let go = "func a() {\n\n\tx := 1\n\treturn x\n}\n";
    let got = run("m.go", go, vec![replace(2, 3, &["\tx := 2"])]);
    assert_eq!(got, Ok(vec![]));
    // A blank line deleted and nothing else (str-replace lowers it so).
    let py = "def f():\n    a = 1\n\n    if a:\n        pass\n";
    let got = run("a.py", py, vec![replace(2, 3, &["    a = 1"])]);
    assert_eq!(got, Ok(vec![]));
    // The blank restated elsewhere in the rows: moved, not lost.
    let py = "import a\n\n\ndef f():\n    pass\n";
    let rows = ["import a", "", "X = 1"];
    assert_eq!(run("a.py", py, vec![replace(1, 2, &rows)]), Ok(vec![]));
}

#[test]
fn a_blank_before_a_line_the_request_also_removes_is_not_warned() {
    let py = "def a():\n    x = 1\n    y = 2\n\n\ndef b():\n    z = 3\n";
    let edits = vec![replace(3, 4, &["    y = 3"]), replace(6, 6, &[])];
    assert_eq!(run("a.py", py, edits), Ok(vec![]));
}

#[test]
fn a_deleted_decorator_is_not_refused_a_lost_one_is() {
    let py = "x = 1\n\n\n@mark\ndef t():\n    pass\n";
    // The blank above restated, the decorator dropped: a deletion on purpose.
    assert_eq!(run("a.py", py, vec![replace(3, 4, &[""])]), Ok(vec![]));
    // A range rewriting the code above that ends on the decorator loses it.
    let got = run("a.py", py, vec![replace(1, 4, &["x = 2"])]);
    assert_eq!(got, Err(ErrorCode::RangeBoundary));
}

#[test]
fn a_fence_rewritten_as_a_fence_is_not_refused() {
    let md = "Text.\n\n````{caution}\nOld words.\n\nMore.\n````\n";
    let rows = ["````{note}", "New words."];
    assert_eq!(run("a.md", md, vec![replace(3, 4, &rows)]), Ok(vec![]));
    // A fence replaced by text is still a lost delimiter.
    let got = run("a.md", md, vec![replace(3, 4, &["New words."])]);
    assert_eq!(got, Err(ErrorCode::RangeBoundary));
}

#[test]
fn a_go_if_with_an_init_statement_is_not_a_merge() {
    let go = "func a() {\n\terr := f()\n\tif err == nil {\n\t\tx()\n\t}\n}\n";
    let rows = ["\tif err := f(); err == nil {"];
    assert_eq!(run("m.go", go, vec![replace(2, 3, &rows)]), Ok(vec![]));
    // Two statements joined by `;` are still warned.
    let go = "func a() {\n\tx := f()\n\ty := g()\n\th(x, y)\n}\n";
    let got = run("m.go", go, vec![replace(2, 3, &["\tx := f(); y := g(1)"])]).expect("ok");
    assert!(warns(&got, "[W_MERGED_LINES]"), "{got:?}");
}

#[test]
fn a_wrapped_expression_or_a_re_marked_heading_joined_is_not_a_merge() {
    let py = "def f(i):\n    g = (str(el)\n         for el in i)\n    return g\n";
    let rows = ["    g = (repr(el) for el in i)"];
    assert_eq!(run("a.py", py, vec![replace(2, 3, &rows)]), Ok(vec![]));
    let md = "Click Concepts\n==============\n\nText.\n";
    assert_eq!(
        run("a.md", md, vec![replace(1, 2, &["# Click Concepts"])]),
        Ok(vec![])
    );
    // Two JSON entries joined on one row are still warned.
    let json = "{\n  \"a\": {\n    \"enabled\": true,\n    \"rollout\": 10,\n    \"owner\": \"x\"\n  }\n}\n";
    let rows = ["    \"enabled\": true, \"rollout\": 20,"];
    let got = run("f.json", json, vec![replace(3, 4, &rows)]).expect("ok");
    assert!(warns(&got, "[W_MERGED_LINES]"), "{got:?}");
}

#[test]
fn a_dropped_entry_is_not_a_lost_statement() {
    let go = "var C = Command{\n\tName:   \"help\",\n\tUsage:  \"old\",\n\tAction: Show,\n}\n";
    let rows = ["\tUsage:  \"new\","];
    assert_eq!(run("m.go", go, vec![replace(3, 4, &rows)]), Ok(vec![]));
}

#[test]
fn rows_restating_their_own_lines_are_no_echo() {
    let py = "x = [\n    '',\n    '',\n    'a',\n]\n";
    // Row 1 restates line 2 in place; line 1 above it differs, line 2 equals line 3.
    let rows = ["    '',", "    'b',"];
    assert_eq!(run("a.py", py, vec![replace(3, 4, &rows)]), Ok(vec![]));
    // A row that repeats the line before the range is still an echo.
    let py = "def f():\n    a = 1\n    b = 2\n";
    let got = run("a.py", py, vec![replace(3, 3, &["    a = 1", "    b = 3"])]).expect("ok");
    assert!(warns(&got, "[W_REPEATED_LINE]"), "{got:?}");
}

#[test]
fn a_reflowed_docstring_reusing_a_word_is_not_a_merge() {
    let py = "def t():\n    \"\"\"Opens the file and yields the\n    wrapper. The caller writes to a\n    binary handle and fails.\n    \"\"\"\n";
    let rows = [
        "    Regression: the caller wrote to a binary handle,",
        "    which fails.",
    ];
    assert_eq!(run("a.py", py, vec![replace(2, 4, &rows)]), Ok(vec![]));
    // Bullets joined on one row are still warned.
    let md = "# N\n\n- alpha item one\n- beta item two\n- gamma\n";
    let rows = ["- alpha item one - beta item two"];
    let got = run("n.md", md, vec![replace(3, 4, &rows)]).expect("ok");
    assert!(warns(&got, "[W_MERGED_LINES]"), "{got:?}");
}

#[test]
fn a_blank_swallowed_above_a_commented_item_is_still_warned() {
    // The blank run before `# helpers` / `def g` thinned: the comment heads an item.
    let py = "X = 1\nY = 2\n\n\n# helpers\ndef g():\n    pass\n";
    let got = run("a.py", py, vec![replace(2, 3, &["Y = 3"])]).expect("ok");
    assert!(warns(&got, "[W_SWALLOWED_BLANK]"), "{got:?}");
    // A comment heading the next statement of a body is a paragraph break.
    let go = "func a() {\n\tx()\n\n\ty := 1\n\tz(y)\n}\n";
    let rows = ["\t// then y", "\ty := 2"];
    assert_eq!(run("m.go", go, vec![replace(3, 4, &rows)]), Ok(vec![]));
}

#[test]
fn a_header_replaced_without_its_body_is_refused() {
    // A deletion one line long: `except` swallowed, its handler joins the `try` body.
    let py = "try:\n    import a\nexcept ImportError:\n    a = None\n";
    let got = run("a.py", py, vec![replace(2, 3, &[])]);
    assert_eq!(got, Err(ErrorCode::RangeBoundary));
    // An `else:` swallowed: its branch would run with the `if` branch.
    let py = "def f(a):\n    if a:\n        x = 1\n    else:\n        x = 2\n    return x\n";
    let got = run("a.py", py, vec![replace(3, 4, &["        x = 3"])]);
    assert_eq!(got, Err(ErrorCode::RangeBoundary));
    // A YAML key swallowed: its children move to the key above.
    let yml = "a:\n  x: 1\nb:\n  y: 2\n";
    let got = run("c.yml", yml, vec![replace(2, 3, &["  x: 3"])]);
    assert_eq!(got, Err(ErrorCode::RangeBoundary));
}

#[test]
fn a_header_rewritten_or_with_its_body_passes() {
    let py = "def f(a):\n    return a\n\n\ndef g():\n    return 2\n";
    // The header rewritten: the body keeps a header.
    let got = run("a.py", py, vec![replace(5, 5, &["def g(b=1):"])]).expect("renamed");
    assert!(got.is_empty(), "{got:?}");
    // A header inside a docstring is text.
    let doc = "def f():\n    \"\"\"Usage:\n\n    Example:\n        f()\n    \"\"\"\n";
    let got = run("a.py", doc, vec![replace(4, 4, &["    Examples:"])]).expect("doc");
    assert!(got.is_empty(), "{got:?}");
    // Two functions merged on purpose: the second's header removed, its body joins the first.
    let merged = "def f(a):\n    x = a\n\ndef g():\n    return x\n";
    let got = run("a.py", merged, vec![replace(3, 4, &[])]).expect("merged");
    assert!(got.is_empty(), "{got:?}");
    // The else dropped and its body re-indented in the same edit.
    let py = "def f(a):\n    if a:\n        x = 1\n    else:\n        x = 2\n    return x\n";
    let got = run("a.py", py, vec![replace(4, 5, &["    x = 2"])]);
    assert!(got.is_ok(), "{got:?}");
}

#[test]
fn a_deletion_that_takes_the_blank_lines_on_both_sides_is_warned() {
    // `ignore = true` and the blank after it go, but so does the one before: the two tables
    // meet with no blank line between them.
    let toml = "[a]\nx = 1\n\ny = 2\n\n[b]\nz = 3\n";
    let got = run("p.toml", toml, vec![replace(3, 5, &[])]).expect("ok");
    assert!(warns(&got, "[W_SWALLOWED_BLANK]"), "{got:?}");
    // One blank line taken with the block: the other still separates.
    assert_eq!(run("p.toml", toml, vec![replace(4, 5, &[])]), Ok(vec![]));
    // A deleted blank line on its own is meant.
    assert_eq!(run("p.toml", toml, vec![replace(3, 3, &[])]), Ok(vec![]));
    // Two statements of one body that meet: a paragraph break a deletion may drop.
    let go = "func a() {\n\tx()\n\n\ty()\n\n\tz()\n}\n";
    assert_eq!(run("m.go", go, vec![replace(3, 5, &[])]), Ok(vec![]));
}

#[test]
fn a_blank_between_import_groups_is_a_separator() {
    let go = "import (\n\t\"time\"\n\n\t\"github.com/urfave/cli\"\n)\n";
    let got = run("m.go", go, vec![replace(3, 4, &["\t\"github.com/x/cli\""])]).expect("ok");
    assert!(warns(&got, "[W_SWALLOWED_BLANK]"), "{got:?}");
    let rs = "use std::fmt;\n\nuse crate::a;\nuse crate::b;\n";
    let got = run("a.rs", rs, vec![replace(2, 3, &["use crate::c;"])]).expect("ok");
    assert!(warns(&got, "[W_SWALLOWED_BLANK]"), "{got:?}");
    // The other group replaced by a standard-library import joins the first on purpose.
    let go = "import (\n\t\"time\"\n\n\t\"golang.org/x/net/context\"\n)\n";
    assert_eq!(
        run("m.go", go, vec![replace(3, 4, &["\t\"context\""])]),
        Ok(vec![])
    );
}

#[test]
fn items_joined_as_the_file_already_joins_them_are_its_style() {
    // This Go file cuddles its methods (`}` then `func` with no blank line): a deletion that
    // takes a blank line between two of them follows its style.
    let go = "func (b *w) a() {\n}\nfunc (b *w) b() {\n}\n\nconst x = 1\n\nfunc (b *w) c() int {\n\treturn 1\n}\n";
    assert_eq!(run("m.go", go, vec![replace(5, 7, &[])]), Ok(vec![]));
    // Where the file keeps a blank line between its functions, the same deletion is warned.
    let spaced = "func (b *w) a() {\n}\n\nfunc (b *w) b() {\n}\n\nconst x = 1\n\nfunc (b *w) c() int {\n\treturn 1\n}\n";
    let got = run("m.go", spaced, vec![replace(6, 8, &[])]).expect("ok");
    assert!(warns(&got, "[W_SWALLOWED_BLANK]"), "{got:?}");
    // A doc comment stands right above its own function in every file: it is no style of
    // joining items.
    let doc = "// A does a.\nfunc a() {\n}\n\n// B does b.\nfunc b() {\n}\n";
    let got = run("m.go", doc, vec![replace(2, 4, &[])]).expect("ok");
    assert!(warns(&got, "[W_SWALLOWED_BLANK]"), "{got:?}");
}

#[test]
fn a_blank_run_longer_than_any_in_the_file_is_warned() {
    // Two blank lines between functions, one inside: the range stops one line short of the
    // blank line it meant to take, and three blank lines remain.
    let py = "import a\n\n\ndef f():\n    x = 1\n\n    return x\n\n\ndef g():\n    pass\n\n\ndef h():\n    pass\n";
    let got = run("a.py", py, vec![replace(10, 11, &[])]).expect("ok");
    assert!(warns(&got, "[W_BLANK_RUN]"), "{got:?}");
    // Taking the blank lines too leaves the file's own rule.
    assert_eq!(run("a.py", py, vec![replace(10, 13, &[])]), Ok(vec![]));
    // A file with too few runs has no rule yet.
    let short = "def f():\n    pass\n\n\ndef g():\n    pass\n";
    assert_eq!(run("a.py", short, vec![replace(5, 6, &[])]), Ok(vec![]));
}

#[test]
fn a_body_whose_docstring_lost_its_def_is_refused() {
    let py = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    \"\"\"Doc.\"\"\"\n    return 3\n";
    // Deleting `b` and, one line too far, `def c():`.
    let got = run("a.py", py, vec![replace(5, 9, &[])]);
    assert_eq!(got, Err(ErrorCode::RangeBoundary));
    // Deleting `b` alone is fine, and so is a payload that gives the body a new header.
    assert_eq!(run("a.py", py, vec![replace(5, 8, &[])]), Ok(vec![]));
    let rows = ["def b():", "    return 2", "", "", "def c2():"];
    assert_eq!(run("a.py", py, vec![replace(5, 9, &rows)]), Ok(vec![]));
    // A comment put between the header and its docstring keeps the header.
    let rows = ["def c():", "    # fmt: off"];
    assert_eq!(run("a.py", py, vec![replace(9, 9, &rows)]), Ok(vec![]));
    // A payload whose last function has statements cannot take the docstring.
    let rows = ["def b2():", "    return 4"];
    let got = run("a.py", py, vec![replace(5, 9, &rows)]);
    assert_eq!(got, Err(ErrorCode::RangeBoundary));
    // A signature rewritten over several rows is a header all the same.
    let rows = ["def c() -> Iterable[", "    Tuple[str, int]", "]:"];
    assert_eq!(run("a.py", py, vec![replace(9, 9, &rows)]), Ok(vec![]));
    // A wrapped row that closes a bracket of something else is not.
    let rows = ["x = f(", "    1", "):"];
    let got = run("a.py", py, vec![replace(9, 9, &rows)]);
    assert_eq!(got, Err(ErrorCode::RangeBoundary));
}

#[test]
fn rows_that_follow_a_kept_return_are_warned() {
    // The range starts on the header of the method it rewrites, so its rows follow the
    // return of the method above.
    let py = "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        x = 1\n        return x\n";
    let got = run("a.py", py, vec![replace(5, 6, &["        x = 2"])]).expect("ok");
    assert!(warns(&got, "[W_DEAD_CODE]"), "{got:?}");
    // A new method after the return resumes.
    let rows = ["    def h(self):", "        x = 2"];
    assert_eq!(run("a.py", py, vec![replace(5, 6, &rows)]), Ok(vec![]));
}

#[test]
fn a_declaration_the_range_takes_while_its_name_is_used_is_warned() {
    // `output := …` goes with the line above it; `output` is used right below.
    let go = "func t() {\n\tf := flag()\n\toutput := f.String()\n\n\tif output != \"x\" {\n\t\tfail()\n\t}\n}\n";
    let got = run("m.go", go, vec![replace(2, 3, &["\tf := newFlag()"])]).expect("ok");
    assert!(warns(&got, "[W_UNDECLARED_NAME]"), "{got:?}");
    // Declared again by the payload, or bound elsewhere in the file: no warning.
    let rows = ["\tf := newFlag()", "\toutput := f.Text()"];
    assert_eq!(run("m.go", go, vec![replace(2, 3, &rows)]), Ok(vec![]));
    let py = "import click\n\n\ndef f(click):\n    return click\n";
    assert_eq!(run("a.py", py, vec![replace(1, 1, &[])]), Ok(vec![]));
    // A polyfill of a builtin removed: the builtin is still there.
    let js = "var Promise = require('es6-promise').Promise;\nvar x = 1;\n\nfunction f() {\n  return new Promise(g);\n}\n";
    assert_eq!(run("a.js", js, vec![replace(1, 1, &[])]), Ok(vec![]));
}

#[test]
fn a_declaration_kept_beside_its_new_version_is_warned() {
    // The range starts one line late: the old `use` stays above its new version.
    let rs =
        "use serde_json as json;\nuse counter::CounterWriter;\nuse crate::jsont;\n\nfn f() {}\n";
    let rows = ["use crate::counter::CounterWriter;", "use crate::jsont;"];
    let got = run("a.rs", rs, vec![replace(3, 3, &rows)]).expect("ok");
    assert!(warns(&got, "[W_REDECLARED]"), "{got:?}");
    let fixed = ["use crate::counter::CounterWriter;"];
    assert_eq!(run("a.rs", rs, vec![replace(2, 2, &fixed)]), Ok(vec![]));
}

#[test]
fn a_sentence_cut_by_the_range_is_warned() {
    // The range takes the first line of a wrapped comment: its second line is left starting
    // mid-sentence under the new code.
    let go = "}\n\n// Names looks up the value of a flag, returns\n// nil if not found\nfunc Names() {}\n";
    let got = run("m.go", go, vec![replace(2, 3, &["", "func New() {}", ""])]).expect("ok");
    assert!(warns(&got, "[W_RANGE_EDGE]"), "{got:?}");
    // Rewriting the line, still carrying the sentence on, is fine; so is a new sentence that
    // replaces both lines.
    let rows = ["// Names finds the value of a flag, returns"];
    assert_eq!(run("m.go", go, vec![replace(3, 3, &rows)]), Ok(vec![]));
    let rows = ["// Names finds a flag's value."];
    assert_eq!(run("m.go", go, vec![replace(3, 4, &rows)]), Ok(vec![]));
    // Code in a doc comment (a doc test) is no sentence to cut.
    let rs = "/// ```\n/// use bytes::BufMut;\n/// let buf = vec![];\n/// ```\nfn f() {}\n";
    let rows = ["/// let mut buf = vec![].writer();"];
    assert_eq!(run("a.rs", rs, vec![replace(3, 3, &rows)]), Ok(vec![]));
}

#[test]
fn a_comment_dropped_by_a_rewrite_is_no_lost_line() {
    let rs =
        "fn f() {\n    // Allocate the memory\n    let v = Vec::with_capacity(n);\n    g(v);\n}\n";
    let rows = ["    let v = vec![0; n];"];
    assert_eq!(run("a.rs", rs, vec![replace(2, 3, &rows)]), Ok(vec![]));
    // A doc comment of an item the range rewrites is not dropped on purpose: still warned.
    let doc = "/// The default capacity.\nconst CAP: usize = 8;\nconst MAX: usize = 64;\n";
    let got = run(
        "a.rs",
        doc,
        vec![replace(1, 2, &["const CAP: usize = 16;"])],
    )
    .expect("ok");
    assert!(warns(&got, "[W_RANGE_EDGE]"), "{got:?}");
}

#[test]
fn a_yaml_item_line_taken_with_its_keys_kept_is_refused() {
    let yml = "steps:\n  - name: Harden\n    uses: a/b@v1\n\n  - name: \"Checkout\"\n    uses: \"c/d@v2\"\n    with:\n      x: 1\n";
    // A range one line long takes the item's `- name:` line above the key it rewrites.
    assert_eq!(
        run("w.yml", yml, vec![replace(5, 6, &["    uses: \"c/d@v3\""])]),
        Err(ErrorCode::RangeBoundary)
    );
    // The item rewritten from its `-` line, or removed whole: meant.
    let rows = ["  - uses: \"c/d@v3\""];
    assert_eq!(run("w.yml", yml, vec![replace(5, 6, &rows)]), Ok(vec![]));
    assert_eq!(run("w.yml", yml, vec![replace(4, 8, &[])]), Ok(vec![]));
}
