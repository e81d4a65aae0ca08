//! The guard's rules on small texts: each mistake is caught, and its lookalike control is not.

use hashline_core::{splice, Edit, EditKind, ErrorCode, Pieces, TextFile};

use super::{check, op_label, GuardOptions, Subject};

/// Run the guard on `text` (at `path`) with `edits`: `Ok(warnings)` or the refusal's code.
pub(super) fn run(path: &str, text: &str, edits: Vec<Edit>) -> Result<Vec<String>, ErrorCode> {
    run_with(path, text, edits, &GuardOptions::default())
}

/// [`run`] with `opts`.
fn run_with(
    path: &str,
    text: &str,
    edits: Vec<Edit>,
    opts: &GuardOptions<'_>,
) -> Result<Vec<String>, ErrorCode> {
    let file = TextFile::decode(text.as_bytes().to_vec());
    let lines: Vec<&str> = file.lines().collect();
    let out = splice(&lines, &edits).expect("splice");
    let after = file.render_text(&out);
    let anchor = |n: usize| format!("{n}:{}", lines.get(n - 1).copied().unwrap_or(""));
    let after_pieces = Pieces::whole(&after);
    let s = Subject::new(
        path,
        &lines,
        &edits,
        (file.text(), &after_pieces),
        &anchor,
        &op_label,
    );
    check(&s, opts).map_err(|r| {
        assert!(r.message.contains("with fresh anchors"), "{}", r.message);
        r.code
    })
}

pub(super) fn replace(start: usize, end: usize, rows: &[&str]) -> Edit {
    Edit::replace(start, end, rows.iter().map(|r| r.to_string()).collect(), 0)
}

pub(super) fn insert_after(line: usize, rows: &[&str]) -> Edit {
    Edit {
        kind: EditKind::InsertAfter(line),
        rows: rows.iter().map(|r| r.to_string()).collect(),
        origin: 0,
    }
}

const GO: &str = "package main\n\nfunc f() int {\n\tx := 1\n\ty := 2\n\treturn x + y\n}\n";
const PY: &str = "def f(a):\n    if a:\n        return 1\n    return 2\n\n\ndef g():\n    pass\n";
const YAML: &str = "spec:\n  replicas: 2\n  template:\n    name: web\n";

#[test]
fn a_correct_edit_passes_silently() {
    assert_eq!(
        run("m.go", GO, vec![replace(5, 5, &["\ty := 3"])]),
        Ok(vec![])
    );
    assert_eq!(
        run("a.py", PY, vec![replace(3, 3, &["        return 10"])]),
        Ok(vec![])
    );
    assert_eq!(
        run("d.yaml", YAML, vec![replace(2, 2, &["  replicas: 3"])]),
        Ok(vec![])
    );
}

#[test]
fn spaces_in_a_tab_block_are_refused() {
    let got = run("m.go", GO, vec![replace(5, 5, &["    y := 3"])]);
    assert_eq!(got, Err(ErrorCode::Indentation));
}

#[test]
fn indentation_dropped_below_the_block_is_refused() {
    let got = run("a.py", PY, vec![replace(3, 3, &["return 10"])]);
    assert_eq!(got, Err(ErrorCode::Indentation));
    // Removing a wrapper (dedenting to the wrapper's own level) is fine.
    let py = "def f(a):\n    if a:\n        x = 1\n    return x\n";
    assert_eq!(
        run("a.py", py, vec![replace(2, 3, &["    x = 1"])]),
        Ok(vec![])
    );
}

#[test]
fn pasted_read_numbers_are_refused() {
    let got = run(
        "m.go",
        GO,
        vec![insert_after(5, &["6:\tz := 3", "7:\t_ = z"])],
    );
    assert_eq!(got, Err(ErrorCode::PayloadContaminated));
}

#[test]
fn diff_rows_and_headers_are_refused() {
    let got = run("m.go", GO, vec![replace(5, 5, &["-\ty := 2", "+\ty := 3"])]);
    assert_eq!(got, Err(ErrorCode::PayloadContaminated));
    let got = run(
        "m.go",
        GO,
        vec![replace(5, 5, &["@@ -5,1 +5,1 @@", "\ty := 3"])],
    );
    assert_eq!(got, Err(ErrorCode::PayloadContaminated));
    let got = run("m.go", GO, vec![replace(4, 5, &["+\tx := 1", "+\ty := 3"])]);
    assert_eq!(got, Err(ErrorCode::PayloadContaminated));
}

#[test]
fn one_row_behind_a_diff_marker_is_refused_in_code() {
    let toml = "[deps]\nregex = \"1\"\nserde = \"1\"\n";
    let got = run("Cargo.toml", toml, vec![replace(2, 2, &["+regex = \"2\""])]);
    assert_eq!(got, Err(ErrorCode::PayloadContaminated));
    let py = "X = {\n    \"a\",\n    \"b\",\n}\n";
    let got = run("a.py", py, vec![insert_after(3, &["+    \"c\","])]);
    assert_eq!(got, Err(ErrorCode::PayloadContaminated));
    // Prose and a `+` before an operand of a wrapped expression are content.
    let md = "# Votes\n\nyes\n";
    assert_eq!(run("a.md", md, vec![replace(3, 3, &["+1"])]), Ok(vec![]));
    let py = "x = (\n    1\n)\n";
    let got = run("a.py", py, vec![insert_after(2, &["+ 2"])]);
    assert!(got.is_ok(), "{got:?}");
}

#[test]
fn a_fence_joined_to_its_first_line_is_refused() {
    let md = "# Use\n\n```sh\n$ make\n```\n";
    let got = run("a.md", md, vec![replace(3, 4, &["```sh\\n$ make install"])]);
    assert_eq!(got, Err(ErrorCode::PayloadContaminated));
}

#[test]
fn markdown_plus_bullets_are_content() {
    let md = "# List\n\n- a\n- b\n";
    let got = run("README.md", md, vec![replace(3, 4, &["+ a", "+ b"])]);
    assert_eq!(got, Ok(vec![]));
}

#[test]
fn literal_newline_outside_strings_is_refused_inside_strings_kept() {
    let got = run("m.go", GO, vec![replace(5, 5, &["\ty := 2\\n\tz := 3"])]);
    assert_eq!(got, Err(ErrorCode::PayloadContaminated));
    let got = run(
        "m.go",
        GO,
        vec![replace(5, 5, &["\ty := \"a\\nb; c\\r\\n\""])],
    );
    assert_eq!(got, Ok(vec![]));
}

#[test]
fn a_carriage_return_in_a_row_is_refused() {
    let got = run("m.go", GO, vec![replace(5, 5, &["\ty := 3\r"])]);
    assert_eq!(got, Err(ErrorCode::PayloadContaminated));
}

#[test]
fn every_row_shifted_by_one_column_is_refused() {
    let got = run(
        "d.yaml",
        YAML,
        vec![replace(3, 4, &["   tmpl:", "     name: api"])],
    );
    assert_eq!(got, Err(ErrorCode::Indentation));
}

#[test]
fn a_duplicate_key_left_behind_is_refused() {
    let got = run(
        "d.yaml",
        YAML,
        vec![replace(1, 1, &["spec:", "  replicas: 3"])],
    );
    assert_eq!(got, Err(ErrorCode::RangeBoundary));
}

#[test]
fn dead_code_after_the_payload_is_refused_or_warned() {
    // `return 2` survives right after a payload that ends in a return: range one line short.
    let got = run(
        "a.py",
        PY,
        vec![replace(2, 3, &["    return 1 if a else 2"])],
    );
    assert_eq!(got, Err(ErrorCode::RangeBoundary));
    // A replace that ends in a return while other statements follow: warned.
    let got = run("m.go", GO, vec![replace(4, 4, &["\treturn 0"])]).expect("applies");
    assert!(got[0].starts_with("[W_DEAD_CODE]"), "{got:?}");
    // An inserted early return may be a deliberate stub: not even a warning.
    assert_eq!(
        run("m.go", GO, vec![insert_after(3, &["\treturn 0"])]),
        Ok(vec![])
    );
}

#[test]
fn a_swallowed_blank_separator_is_warned() {
    let got = run("a.py", PY, vec![replace(4, 5, &["    return 3"])]).expect("applies");
    assert!(got[0].starts_with("[W_SWALLOWED_BLANK]"), "{got:?}");
}

#[test]
fn merged_lines_are_warned() {
    let rs = "fn f(&mut self) -> Self {\n    self.a = 1;\n    self\n}\n";
    let got = run("a.rs", rs, vec![replace(2, 3, &["    self.a = 2; self"])]).expect("applies");
    assert!(got[0].starts_with("[W_MERGED_LINES]"), "{got:?}");
}

#[test]
fn two_lines_rewritten_as_one_that_reuses_a_word_are_no_merge() {
    // The request built on its own line is passed inline now: `request` reappears inside
    // `http.request(`, which is no line of the range pasted onto another.
    let py = "async def f(http):\n    request = Request(\"GET\", \"http://a/slow\")\n    await http.request(request)\n";
    let rows = ["    await http.request(\"GET\", \"http://a/slow\")"];
    assert_eq!(run("a.py", py, vec![replace(2, 3, &rows)]), Ok(vec![]));
    // And a joined line pasted whole after another still is one.
    let json = "{\n  \"alpha\": 1,\n  \"beta\": 2,\n  \"gamma\": 3\n}\n";
    let got = run(
        "a.json",
        json,
        vec![replace(2, 3, &["  \"alpha\": 1, \"beta\": 2,"])],
    )
    .expect("applies");
    assert!(got[0].starts_with("[W_MERGED_LINES]"), "{got:?}");
}

#[test]
fn brackets_swallowed_without_a_grammar_are_refused() {
    let conf = "a {\n  b = 1\n}\nc = 2\n";
    let got = run("x.conf", conf, vec![replace(2, 3, &["  b = 2"])]);
    assert_eq!(got, Err(ErrorCode::RangeBoundary));
    // Adding the closer an unbalanced file lacks is fine.
    let open = "a {\n  b = 1\n";
    assert_eq!(
        run("x.conf", open, vec![insert_after(2, &["}"])]),
        Ok(vec![])
    );
}

#[test]
fn a_swallowed_fence_or_document_separator_is_refused() {
    let md = "Run:\n\n```sh\nmake\n```\n\nDone.\n";
    let got = run("a.md", md, vec![replace(4, 5, &["make all"])]);
    assert_eq!(got, Err(ErrorCode::RangeBoundary));
    let yaml = "a: 1\nb: 2\n---\nc: 3\n";
    let got = run("d.yaml", yaml, vec![replace(2, 3, &["b: 3"])]);
    assert_eq!(got, Err(ErrorCode::RangeBoundary));
    // Restating the fence is fine.
    assert_eq!(
        run("a.md", md, vec![replace(4, 5, &["make all", "```"])]),
        Ok(vec![])
    );
}

#[test]
fn two_changed_statements_joined_are_warned_a_for_header_is_not() {
    let ts = "function f() {\n  const a = 1;\n  const b = 2;\n  return a + b;\n}\n";
    let got = run(
        "a.ts",
        ts,
        vec![replace(2, 3, &["  const a = 3; const b = 4;"])],
    )
    .expect("ok");
    assert!(got[0].starts_with("[W_MERGED_LINES]"), "{got:?}");
    let for_loop = vec![replace(2, 3, &["  for (let i = 0; i < 2; i++) {}"])];
    assert_eq!(run("a.ts", ts, for_loop), Ok(vec![]));
}

#[test]
fn a_line_number_counted_after_earlier_hunks_is_refused() {
    let ts = "import a from \"a\";\n\nconst limit = compute(a, 10);\nconst other = 2;\nexport default other;\n";
    let edits = vec![
        insert_after(1, &["import b from \"b\";", "import c from \"c\";"]),
        // Meant for line 3 (`const limit`), numbered as after the insert of two lines.
        replace(5, 5, &["const limit = compute(b, 20);"]),
    ];
    assert_eq!(run("a.ts", ts, edits), Err(ErrorCode::RangeBoundary));
    // The same request with the number as read is fine.
    let edits = vec![
        insert_after(1, &["import b from \"b\";", "import c from \"c\";"]),
        replace(3, 3, &["const limit = compute(b, 20);"]),
    ];
    assert_eq!(run("a.ts", ts, edits), Ok(vec![]));
}

#[test]
fn a_statement_lost_at_the_range_start_is_warned() {
    let py = "class C:\n    def __init__(self, base, token, timeout):\n        self.base = base.rstrip(\"/\")\n        self.token = token.strip()\n        self.timeout = timeout\n";
    let rows = [
        "        self.token = token",
        "        self.timeout = float(timeout)",
    ];
    let got = run("a.py", py, vec![replace(3, 5, &rows)]).expect("ok");
    assert!(
        got.iter().any(|w| w.starts_with("[W_RANGE_EDGE]")),
        "{got:?}"
    );
}

#[test]
fn a_line_rewritten_beside_the_range_or_a_binding_gone_with_its_use_is_no_loss() {
    // The binding was used only by the line the row rewrites: it goes with its use.
    let py = "def test(v):\n    body = b\"test 123\"\n    packed = compress(body)[3:]\n    check(packed)\n";
    let rows = ["    packed = b\"invalid\""];
    assert_eq!(run("a.py", py, vec![replace(2, 3, &rows)]), Ok(vec![]));
    // Still used below: the same range loses a line.
    let used = "def test(v):\n    body = b\"test 123\"\n    packed = compress(body)[3:]\n    check(packed, body)\n";
    let got = run("a.py", used, vec![replace(2, 3, &rows)]).expect("applies");
    assert!(got.iter().any(|w| w.starts_with("[W_")), "{got:?}");
    // A line diff split a rewrite into an insert and a replace: the line the replace drops is
    // rewritten by the insert beside it.
    let js = "function f(o) {\n  const {retries} = o;\n  o.retries = (iter, error) => {\n    if (iter > retries) {\n      return 0;\n    }\n  };\n}\n";
    let edits = vec![
        insert_after(2, &["  o.gotRetry.retries = (iteration, error) => {"]),
        replace(3, 4, &["    if (iteration > retries) {"]),
    ];
    assert_eq!(run("a.js", js, edits), Ok(vec![]));
    // A function header the range takes is no binding gone with its use, even when the lines
    // under it name the function.
    let header = "class C:\n    def forward(self, x):\n        \"\"\"Like forward.\"\"\"\n        return x\n";
    let rows = ["        \"\"\"Like invoke.\"\"\"", "        return x + 1"];
    // (The `return` left in the class body is refused; a warning would do too.)
    match run("a.py", header, vec![replace(2, 4, &rows)]) {
        Ok(got) => assert!(got.iter().any(|w| w.starts_with("[W_")), "{got:?}"),
        Err(code) => assert_eq!(code, ErrorCode::Indentation),
    }
}

#[test]
fn go_blank_identifiers_are_never_declared_twice() {
    let go = "package a\n\nvar _ io.Reader = &r{}\nvar _ io.Writer = &w{}\n";
    let rows = ["var _ io.Writer = &w2{}"];
    assert_eq!(run("a.go", go, vec![replace(4, 4, &rows)]), Ok(vec![]));
}

#[test]
fn keys_of_a_new_entry_after_a_closer_are_not_a_leftover() {
    let json = "{\n  \"a\": {\n    \"owner\": \"x\",\n    \"on\": true\n  },\n  \"b\": {\n    \"owner\": \"y\"\n  }\n}\n";
    let rows = ["  },", "  \"c\": {", "    \"owner\": \"z\"", "  },"];
    assert_eq!(run("f.json", json, vec![replace(5, 5, &rows)]), Ok(vec![]));
    let yaml = "volumes:\n  - name: data\n    emptyDir: {}\n  - name: tmp\n    emptyDir: {}\n";
    let rows = ["    emptyDir: {}", "  - name: cache", "    emptyDir: {}"];
    assert_eq!(run("w.yaml", yaml, vec![replace(3, 3, &rows)]), Ok(vec![]));
}

#[test]
fn lines_of_the_range_joined_on_one_row_are_warned() {
    let json = "{\n  \"a\": {\n    \"enabled\": true,\n    \"rollout\": 10,\n    \"owner\": \"x\"\n  }\n}\n";
    let rows = ["    \"enabled\": true, \"rollout\": 20,"];
    let got = run("f.json", json, vec![replace(3, 4, &rows)]).expect("applies");
    assert!(
        got.iter().any(|w| w.starts_with("[W_MERGED_LINES]")),
        "{got:?}"
    );
    // A cuddled `} else {` joined by hand is not.
    let ts = "if (a) {\n  x();\n}\nelse {\n  y();\n}\n";
    assert_eq!(
        run("a.ts", ts, vec![replace(3, 4, &["} else {"])]),
        Ok(vec![])
    );
}

#[test]
fn a_prose_continuation_left_behind_is_warned() {
    let md = "# Notes\n\n1. Check the relay logs when mail bounces: often\n   the relay rejected our sender address.\n2. Retry.\n";
    let rows = [
        "1. Check the relay logs first when mail bounces: most often",
        "   the relay rejected our sender address or its DNS.",
    ];
    let got = run("n.md", md, vec![replace(3, 3, &rows)]).expect("applies");
    assert!(
        got.iter().any(|w| w.starts_with("[W_RANGE_EDGE]")),
        "{got:?}"
    );
    // Code in a fenced block is no paragraph: an indented line under the range is code.
    let fenced =
        "Use it:\n\n```js\nconst f = (options, next) => {\n    return next(options);\n};\n```\n";
    let rows = ["const f = async (options, next) => {", "    options.x = 1;"];
    assert_eq!(run("p.md", fenced, vec![replace(4, 4, &rows)]), Ok(vec![]));
    // Rewriting only the first line of the item keeps its continuation: no warning.
    let row = ["1. Check the relay logs first when mail bounces: often"];
    assert_eq!(run("n.md", md, vec![replace(3, 3, &row)]), Ok(vec![]));
}

#[test]
fn survives_answers_for_merged_ranges() {
    let lines = ["a", "b", "c", "d", "e", "f", ""];
    let edits = vec![
        replace(4, 4, &["x"]),
        replace(2, 3, &[]),
        insert_after(6, &["y"]),
    ];
    let (anchor, label) = (|n: usize| n.to_string(), |_: &Edit| String::new());
    let after_pieces = Pieces::whole("");
    let s = Subject::new(
        "a.txt",
        &lines,
        &edits,
        ("", &after_pieces),
        &anchor,
        &label,
    );
    let kept: Vec<usize> = (1..=6).filter(|&n| s.survives(n)).collect();
    assert_eq!(kept, [1, 5, 6]);
    // The merged run 2..=4 is jumped at once, both ways; kept lines stay.
    assert_eq!(s.skip_removed(3, true), 5);
    assert_eq!(s.skip_removed(3, false), 1);
    assert_eq!(s.skip_removed(2, false), 1);
    assert_eq!(s.skip_removed(5, true), 5);
}

#[test]
fn a_row_repeating_its_neighbour_is_warned_once() {
    let text = "a\nfoo();\nc\nd\n";
    let w = run("a.txt", text, vec![replace(3, 3, &["foo();", "C"])]).expect("applied");
    assert_eq!(
        w,
        ["[W_REPEATED_LINE] row 1 of replace 3..3 repeats line 2 (\"foo();\") just before it; if that was not meant, remove the duplicate"]
    );
    let w = run("a.txt", text, vec![insert_after(1, &["x", "foo();"])]).expect("applied");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("row 2 of insert after 1 repeats line 2"),
        "{w:?}"
    );
    // One row equal to both neighbours is named once; a blank row beside a blank line is no
    // echo where the file already has that many blank lines in a row.
    let w = run("a.txt", "x\ny\nx\n", vec![replace(2, 2, &["x"])]).expect("applied");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(run("a.txt", "\n\nb\n", vec![insert_after(1, &[""])])
        .expect("applied")
        .is_empty());
}

#[test]
fn a_blank_row_beside_a_kept_blank_is_warned_only_past_the_files_longest_run() {
    // A range one line short: the payload ends with the blank it meant to replace too, so two
    // blank lines stand between functions of a file that never has two.
    let go = "func a() {\n\tx()\n}\n\nfunc b() {\n}\n";
    let w = run("m.go", go, vec![replace(2, 3, &["\ty()", "}", ""])]).expect("applied");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].starts_with("[W_REPEATED_LINE] row 3 of replace 2..3 repeats line 4 (a blank line) just after it: 2 blank lines"), "{w:?}");
    // A file that already has two blank lines in a row (Python's top level): not warned.
    let py = "def a():\n    x()\n\n\ndef b():\n    pass\n\ny = 1\n";
    let w = run(
        "a.py",
        py,
        vec![replace(5, 6, &["def b():", "    return 1", ""])],
    );
    assert_eq!(w, Ok(vec![]));
    // The range covers the blank too: one blank, as before.
    let w = run("m.go", go, vec![replace(2, 4, &["\ty()", "}", ""])]);
    assert_eq!(w, Ok(vec![]));
}

#[test]
fn fence_lines_are_counted_once_and_only_in_a_text_with_fences() {
    let text = "a\n```sh\n$ x\n```\nb\n  ~~~\nc\n";
    let lines: Vec<&str> = text.split('\n').collect();
    let (anchor, label) = (|n: usize| n.to_string(), |_: &Edit| String::new());
    let after_pieces = Pieces::whole(text);
    let s = Subject::new("a.md", &lines, &[], (text, &after_pieces), &anchor, &label);
    let counts: Vec<usize> = (0..=7).map(|n| s.fences_through(n)).collect();
    assert_eq!(counts, [0, 0, 1, 1, 2, 2, 3, 3]);
    let plain = "a\n``\nb\n";
    let lines: Vec<&str> = plain.split('\n').collect();
    let after_pieces = Pieces::whole(plain);
    let s = Subject::new("a.md", &lines, &[], (plain, &after_pieces), &anchor, &label);
    assert_eq!(s.fences_through(3), 0);
}

#[test]
fn a_refusal_is_applied_as_sent_when_asked_with_a_coded_warning() {
    let rows = ["  return 3"];
    let edits = vec![replace(4, 4, &rows)];
    let opts = GuardOptions {
        syntax: None,
        allow_syntax_errors: true,
    };
    let got = run_with("a.py", PY, edits, &opts).expect("as sent");
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with("[W_AS_SENT] applied as sent, as asked: [E_INDENTATION]"),
        "{got:?}"
    );
}

#[test]
fn two_equal_neighbouring_rows_are_warned_unless_the_file_has_them() {
    // A str-replace `new_str` that repeats its first context line.
    let got = run(
        "m.go",
        GO,
        vec![replace(4, 5, &["\tx := 1", "\tx := 1", "\ty := 3"])],
    )
    .expect("lands");
    assert!(
        got[0].starts_with("[W_REPEATED_LINE] rows 1 and 2 of replace 4..5"),
        "{got:?}"
    );
    // A file that already doubles that line: deliberate.
    let go = "func f() {\n\tt.Run()\n\tt.Run()\n}\n";
    let got = run("m.go", go, vec![replace(3, 3, &["\tt.Run()", "\tt.Run()"])]).expect("lands");
    assert!(got.is_empty(), "{got:?}");
}
