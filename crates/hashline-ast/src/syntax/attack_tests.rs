//! Attacks on the many-hunk windows (`hunks`): edits for which the windows of the new text
//! parse cleanly on their own while the whole check finds an error the edit added. A window
//! starts and ends at lines that *look* like top-level item starts; the tests below put such
//! lines where they are not (inside a string, comment, heredoc or an unindented block).

use super::*;

/// `head` (a file header), then 40 KiB of filler items of `filler` (`{i}` replaced by the
/// number) before and after `snippet`, so that the file is over [`WINDOW_ABOVE`]; and the row
/// where `snippet` starts.
fn padded(head: &str, filler: &str, snippet: &str) -> (String, usize) {
    let items = (40 << 10) / filler.len();
    let fill = |from: usize| -> String {
        (from..from + items)
            .map(|i| filler.replace("{i}", &i.to_string()))
            .collect()
    };
    let top = format!("{head}{}", fill(0));
    let row = top.matches('\n').count();
    let text = format!("{top}{snippet}{}", fill(items));
    assert!(text.len() > WINDOW_ABOVE, "{} bytes", text.len());
    (text, row)
}

/// `before` with lines `line..line + cut` replaced by `rows`, and the [`LineChange`] saying so.
fn edited(before: &str, line: usize, cut: usize, rows: &[&str]) -> (String, Vec<LineChange>) {
    let mut lines: Vec<&str> = before.split('\n').collect();
    lines.splice(line..line + cut, rows.iter().copied());
    let change = LineChange {
        old: line..line + cut,
        new: line..line + rows.len(),
    };
    (lines.join("\n"), vec![change])
}

/// The whole check's and the windowed check's answers (whether each finds an error) for
/// replacing lines `at..at + cut` of `snippet` (padded as in [`padded`]) by `rows`. Before
/// the `lexed` scan, the windows were taken in every one of these cases.
fn both(
    lang: SupportLang,
    (head, filler): (&str, &str),
    snippet: &str,
    (at, cut, rows): (usize, usize, &[&str]),
) -> (bool, bool) {
    let (before, row) = padded(head, filler, snippet);
    assert_eq!(
        introduced_in(lang, "", &before),
        None,
        "the padded file parses"
    );
    let (after, changes) = edited(&before, row + at, cut, rows);
    let whole = introduced_in(lang, &before, &after).is_some();
    assert_eq!(
        whole,
        full_parse_errs(lang, &after),
        "the whole check agrees with a parse"
    );
    let windowed = introduced_at_in(lang, &before, &after, &changes).is_some();
    (whole, windowed)
}

const TS: (&str, &str) = ("", "export const f{i} = {i};\n\n");
const PY: (&str, &str) = ("", "v{i} = {i}\n\n");
const RS: (&str, &str) = ("", "pub const C{i}: u32 = {i};\n\n");
const GO: (&str, &str) = ("package main\n\n", "var v{i} = {i}\n\n");
const SH: (&str, &str) = ("", "echo {i}\n\n");
const C: (&str, &str) = ("", "int v{i} = {i};\n\n");

/// Commented-out code with blank lines between its functions; a doc comment added above one
/// of them ends the block comment early (`/*` does not nest), and its `*/` is left dangling.
#[test]
fn a_doc_comment_added_inside_a_block_comment() {
    let snippet =
        "/*\n\nfunction old() {\n  return 1;\n}\n\nfunction older() {\n  return 2;\n}\n\n*/\n\n";
    let got = both(
        SupportLang::TypeScript,
        TS,
        snippet,
        (2, 0, &["/** Old. */"]),
    );
    assert_eq!(got, (true, true));
}

/// A template literal holding code-like lines; a line comment holding a backtick is clean on
/// its own, but in the file it closes the template.
#[test]
fn a_backtick_in_a_comment_inside_a_template() {
    let snippet = "export const page = `\n\nrender();\n\nfinish();\n`;\n\n";
    let got = both(
        SupportLang::TypeScript,
        TS,
        snippet,
        (2, 1, &["render(); // `"]),
    );
    assert_eq!(got, (true, true));
}

/// Rust: a raw string of Rust code (a test fixture); `"#` in a comment ends the raw string.
#[test]
fn a_raw_string_closer_in_a_comment() {
    let snippet = "pub const SRC: &str = r#\"\n\nfn a() {}\n\nfn b() {}\n\"#;\n\n";
    let got = both(
        SupportLang::Rust,
        RS,
        snippet,
        (2, 1, &["fn a() {} // \"#"]),
    );
    assert_eq!(got, (true, true));
}

/// Python: a triple-quoted string of code; `"""` in a comment ends it.
#[test]
fn a_triple_quote_in_a_comment() {
    let snippet = "SRC = \"\"\"\n\nrun()\n\nstop()\n\"\"\"\n\n";
    let got = both(
        SupportLang::Python,
        PY,
        snippet,
        (2, 1, &["run()  # \"\"\""]),
    );
    assert_eq!(got, (true, true));
}

/// Go: a raw string literal (an embedded template); a backtick in a comment ends it.
#[test]
fn a_backtick_in_a_comment_inside_a_go_raw_string() {
    let snippet = "var page = `\n\nhello()\n\nbye()\n`\n\n";
    let got = both(SupportLang::Go, GO, snippet, (2, 1, &["var x = 1 // `"]));
    assert_eq!(got, (true, true));
}

/// Bash: a heredoc whose body is at column 0; a line that is the delimiter ends it early.
#[test]
fn a_heredoc_ended_early() {
    let snippet = "cat <<EOF\n\nhello\n\nbye (\nEOF\n\n";
    let got = both(SupportLang::Bash, SH, snippet, (2, 1, &["EOF"]));
    assert_eq!(got, (true, true));
}

/// An object literal written at column 0: a statement written into it is clean on its own.
#[test]
fn a_statement_in_an_unindented_object() {
    let snippet = "export const table = {\n\na: 1,\n\nb: 2,\n};\n\n";
    let got = both(SupportLang::TypeScript, TS, snippet, (2, 1, &["a();"]));
    assert_eq!(got, (true, true));
}

/// C: a struct whose fields are at column 0; a statement is no field.
#[test]
fn a_statement_in_an_unindented_struct() {
    let snippet = "struct S {\n\nint a;\n\nint b;\n};\n\n";
    let got = both(SupportLang::C, C, snippet, (2, 1, &["a = 1;"]));
    assert_eq!(got, (true, true));
}

/// Code between two template literals, both holding column-0 lines: the window runs from a
/// line of the first template to a line of the second, so on its own it reads the code
/// between them as a (tagged) template, and any error there goes unseen.
#[test]
fn code_between_two_templates() {
    let snippet =
        "export const a = `\n\nhello\n\n`; render(); export const b = `\n\nworld\n\n`;\n\n";
    let got = both(
        SupportLang::TypeScript,
        TS,
        snippet,
        (4, 1, &["`; render(1 2); export const b = `"]),
    );
    assert_eq!(got, (true, true));
}

/// JSON: an array whose items are at column 0; a dropped comma (held: a window of two
/// values is no JSON document).
#[test]
fn a_dropped_comma_in_an_unindented_json_array() {
    let items: String = (0..6_000).map(|i| format!("{i},\n\n")).collect();
    let before = format!("[\n{items}1\n]\n");
    assert_eq!(introduced_in(SupportLang::Json, "", &before), None);
    let (after, changes) = edited(&before, 1 + 2 * 3_000, 1, &["3000"]);
    let whole = introduced_in(SupportLang::Json, &before, &after).is_some();
    let windowed = introduced_at_in(SupportLang::Json, &before, &after, &changes).is_some();
    assert_eq!((whole, windowed), (true, true));
}

/// Python: `else:` at column 0 after a blank line looks like an item start; an `if` turned
/// into a `with` (which takes no `else`) is clean in a window that stops before the `else`.
#[test]
fn an_if_with_an_else_turned_into_a_with() {
    let snippet = "if ready:\n    go()\n\nelse:\n    wait()\n\n";
    let got = both(SupportLang::Python, PY, snippet, (0, 1, &["with ready:"]));
    assert_eq!(got, (true, true));
}

/// Python: a blank line between a decorator and its function; the function replaced by an
/// assignment leaves the decorator decorating nothing.
#[test]
fn a_decorated_function_replaced_by_an_assignment() {
    let snippet = "@cache\n\ndef f():\n    return 1\n\n";
    let got = both(SupportLang::Python, PY, snippet, (2, 2, &["x = 1"]));
    assert_eq!(got, (true, true));
}

/// TypeScript at top level in Stroustrup style: `else` at column 0 after `}` looks like an
/// item start; an `if` turned into a `while` is clean in its window.
#[test]
fn an_if_with_an_else_turned_into_a_while() {
    let snippet = "if (ready) {\n  go();\n}\nelse {\n  wait();\n}\n\n";
    let got = both(
        SupportLang::TypeScript,
        TS,
        snippet,
        (0, 1, &["while (ready) {"]),
    );
    assert_eq!(got, (true, true));
}

/// TypeScript: a dropped `;` before a line starting with a regex: in the file the regex is
/// read as two divisions; the window (ending before it) relies on automatic semicolons.
#[test]
fn a_dropped_semicolon_before_a_regex_line() {
    let snippet = "export const k = a;\n\n/x/.test(s);\n\n";
    let got = both(
        SupportLang::TypeScript,
        TS,
        snippet,
        (0, 1, &["export const k = a"]),
    );
    assert_eq!(got, (true, true));
}

/// An edit that removes the opener of a template: the window around it is clean, but the
/// lines after it (not in any window, the same bytes as before) are now read as code.
#[test]
fn a_removed_template_opener_exposes_the_text_after_it() {
    let snippet = "export const t = `\n\na b // `;\n\n";
    let got = both(
        SupportLang::TypeScript,
        TS,
        snippet,
        (0, 1, &["export const t = 1;"]),
    );
    assert_eq!(got, (true, true));
}

/// An expression continued over a blank line (`a +`, then the operand at column 0).
#[test]
fn a_label_after_an_open_binary_expression() {
    let snippet = "export const x = a +\n\nb;\n\n";
    let got = both(SupportLang::TypeScript, TS, snippet, (2, 1, &["c: 1;"]));
    assert_eq!(got, (true, true));
}

/// A regex literal holding a backtick (which the scan cannot tell from a division) inverts
/// the scan's reading until another backtick (here in a comment) restores it: the lines of
/// the template in between look like code.
#[test]
fn a_backtick_in_a_regex_before_a_template() {
    let snippet =
        "export const re = /`/;\n\nexport const t = `\n\nfoo();\n\nbar baz;\n`;\n\n// `\n\n";
    let got = both(
        SupportLang::TypeScript,
        TS,
        snippet,
        (4, 1, &["foo(); // `"]),
    );
    assert_eq!(got, (true, true));
}

/// Whether a fresh parse of all of `text` holds a syntax error.
fn full_parse_errs(lang: SupportLang, text: &str) -> bool {
    use ast_grep_core::tree_sitter::LanguageExt;
    let mut p = tree_sitter::Parser::new();
    p.set_language(&lang.get_ts_language()).expect("language");
    p.parse(text, None).expect("tree").root_node().has_error()
}

/// The benchmark's shape (100,000 lines of `export const vN = f(N, "kM");`, 1,000 one-line
/// hunks): the scans find every line at top level and the windows are still taken.
#[test]
fn a_thousand_hunks_still_take_the_windows() {
    let before: String = (0..100_000)
        .map(|n| format!("export const v{n} = f({n}, \"k{}\");\n", n % 7))
        .collect();
    let mut lines: Vec<String> = before.lines().map(str::to_string).collect();
    let changes: Vec<LineChange> = (0..1_000)
        .map(|k| {
            let row = k * 100 + 50;
            lines[row] = format!("export const v{row} = f({row}, \"x\");");
            LineChange {
                old: row..row + 1,
                new: row..row + 1,
            }
        })
        .collect();
    let after = lines.join("\n") + "\n";
    let t = Instant::now();
    let w = super::hunks::windows(SupportLang::TypeScript, &before, &after, &changes);
    let scanned = t.elapsed();
    assert_eq!(w.map(|w| w.len()), Some(1_000));
    let t = Instant::now();
    assert_eq!(
        introduced_at_in(SupportLang::TypeScript, &before, &after, &changes),
        None
    );
    let whole = t.elapsed();
    let t = Instant::now();
    let rows = super::lexed::top_rows(SupportLang::TypeScript, &after).map(|r| r.len());
    assert_eq!(rows, Some(100_001));
    eprintln!(
        "windows {scanned:?} (one scan {:?}), introduced_at_in {whole:?}",
        t.elapsed()
    );
}

#[test]
fn a_stray_quote_in_rust_keeps_the_scan_row_for_row() {
    // A quote, a newline, a quote: no char literal spans lines, so each row keeps its flag.
    for text in [
        "let a = '\n';\nfn b() {}\n",
        "let a = '\\\nx';\nfn b() {}\n",
    ] {
        let rows = super::lexed::top_rows(SupportLang::Rust, text).map(|r| r.len());
        assert!(
            rows.is_none_or(|n| n == text.split('\n').count()),
            "{text:?}: {rows:?}"
        );
    }
}
