//! The syntax check on small files of each language, on big files (window, incremental
//! reparse, fallback to the whole text) and on any edit (never panics).

use super::check::GaveUp;
use super::span::Span;
use super::*;

/// The issue [`TreeSitterSyntax`] finds for `path` edited from `before` to `after`.
fn check(path: &str, before: &str, after: &str) -> Option<SyntaxIssue> {
    TreeSitterSyntax.introduced(Path::new(path), before, after)
}

/// `(line, what)` of the issue, for short assertions.
fn at(issue: Option<SyntaxIssue>) -> Option<(usize, String)> {
    issue.map(|i| (i.line, i.what))
}

const TS: &str = "function f(x: number) {\n  if (x > 1) {\n    y();\n  }\n  z();\n}\n\nfunction g() {\n  return 1;\n}\n";
const RS: &str =
    "fn f() {\n    if x {\n        y();\n    }\n    z();\n}\n\nfn g() -> u8 {\n    1\n}\n";
const GO: &str =
    "package a\n\nfunc f() {\n\tif x {\n\t\ty()\n\t}\n\tz()\n}\n\nfunc g() int {\n\treturn 1\n}\n";
const PY: &str = "class A:\n    def f(self, x):\n        if x:\n            return 1\n        return 2\n\n\ndef g():\n    pass\n";

#[test]
fn covers_compiled_in_grammars_only() {
    assert!(TreeSitterSyntax.covers(Path::new("src/a.ts")));
    assert!(TreeSitterSyntax.covers(Path::new("a.go")));
    assert!(!TreeSitterSyntax.covers(Path::new("notes.txt")));
    assert!(!TreeSitterSyntax.covers(Path::new("Makefile")));
    assert!(!TreeSitterSyntax.covers(Path::new("include/a.h")));
    assert!(!TreeSitterSyntax.covers(Path::new("style.scss")));
    assert_eq!(check("notes.txt", "a\n", "a {\n"), None);
}

#[test]
fn a_removed_closer_is_reported_in_each_language() {
    let ts = TS.replace("    y();\n  }\n", "    y();\n");
    let issue = check("a.ts", TS, &ts).expect("ts");
    assert_eq!(issue.what, "missing \"}\"", "{issue:?}");
    let rs = RS.replace("        y();\n    }\n", "        y();\n");
    let issue = check("a.rs", RS, &rs).expect("rust");
    assert!(issue.what.contains("does not parse"), "{issue:?}");
    let go = GO.replace("\t\ty()\n\t}\n", "\t\ty()\n");
    assert!(check("a.go", GO, &go).is_some());
}

#[test]
fn a_unified_diff_header_in_go_is_reported_on_its_line() {
    let after = GO.replace("\tz()\n", "@@ -1,2 +1,2 @@\n\tz()\n");
    let issue = check("a.go", GO, &after).expect("issue");
    assert_eq!((issue.line, issue.column), (7, 1), "{issue:?}");
    assert!(issue.what.starts_with("unexpected \"@"), "{issue:?}");
}

#[test]
fn a_literal_backslash_n_between_statements_in_go_is_reported() {
    let after = GO.replace("\t}\n\tz()\n", "\t}\\n\tz()\n");
    let issue = check("a.go", GO, &after).expect("issue");
    assert_eq!((issue.line, issue.column), (6, 3), "{issue:?}");
    assert_eq!(issue.what, "unexpected \"\\n\"", "{issue:?}");
    // The same two characters inside a string literal are fine.
    let fine = GO.replace("\tz()\n", "\tz(\"a\\nb\")\n");
    assert_eq!(check("a.go", GO, &fine), None);
}

#[test]
fn diff_rows_in_rust_and_pasted_line_numbers_in_typescript_are_reported() {
    // `-    z();` still parses (a negation); `+` is no unary operator in Rust.
    let rs = RS.replace("    z();\n", "-    z();\n+    z(1);\n");
    assert_eq!(at(check("a.rs", RS, &rs)).map(|(l, _)| l), Some(6));
    let ts = TS.replace("    y();\n", "3:    y();\n");
    assert_eq!(at(check("a.ts", TS, &ts)).map(|(l, _)| l), Some(3));
    let ids = TS.replace("    y();\n", "3#KM|    y();\n");
    assert_eq!(at(check("a.ts", TS, &ids)).map(|(l, _)| l), Some(3));
}

#[test]
fn a_correct_edit_is_not_reported() {
    let ts = TS.replace("    y();\n", "    y(x);\n    w();\n");
    assert_eq!(check("a.ts", TS, &ts), None);
    let rs = RS.replace("    z();\n", "    z();\n    if y {\n        w();\n    }\n");
    assert_eq!(check("a.rs", RS, &rs), None);
    let py = PY.replace("        return 2\n", "        x += 1\n        return x\n");
    assert_eq!(check("a.py", PY, &py), None);
    assert_eq!(check("a.ts", TS, TS), None);
}

#[test]
fn an_edit_inside_code_that_was_already_broken_is_not_reported() {
    let broken = TS.replace("    y();\n", "    y(;\n");
    let still = broken.replace("    y(;\n", "    y(1;\n");
    assert_eq!(check("a.ts", &broken, &still), None);
}

#[test]
fn an_old_error_elsewhere_is_not_blamed_on_the_edit() {
    let broken = TS.replace("  return 1;\n", "  return 1 +;\n");
    let edited = broken.replace("    y();\n", "    y();\n    w();\n");
    assert_eq!(check("a.ts", &broken, &edited), None);
    // …but a new error beside it is.
    let worse = broken.replace("    y();\n", "    y(;\n");
    assert_eq!(at(check("a.ts", &broken, &worse)).map(|(l, _)| l), Some(3));
}

#[test]
fn python_layout_errors_are_reported() {
    // A statement indented deeper than its block.
    let deeper = PY.replace("        return 2\n", "                return 2\n");
    let (line, what) = at(check("a.py", PY, &deeper)).expect("deeper");
    assert_eq!(line, 5);
    assert!(what.contains("indentation does not match"), "{what}");
    // A body that lost its indentation.
    let dropped = PY.replace("def g():\n    pass\n", "def g():\npass\n");
    let (line, what) = at(check("a.py", PY, &dropped)).expect("dropped");
    assert!(what.contains("expected an indented block"), "{what}");
    assert_eq!(line, 8);
    // A dedent to no enclosing level.
    let half = PY.replace("        return 2\n", "      return 2\n");
    assert!(check("a.py", PY, &half).is_some());
    // An `else` that does not line up with its `if`.
    let clause = PY.replace(
        "            return 1\n",
        "            return 1\n          else:\n            return 3\n",
    );
    assert!(check("a.py", PY, &clause).is_some());
    // A deliberate dedent that closes the block is fine.
    let closed = PY.replace("        return 2\n", "        return 2\n    y = 1\n");
    assert_eq!(check("a.py", PY, &closed), None);
    // Two calls joined on one line: the grammar takes them as two statements, no error node.
    let call = |joint: &str| {
        format!(
            "def t(monkeypatch):\n    x = 1\n\n    monkeypatch.setitem(os.environ, \"PAGER\", f\"cat > {{x}}\"){joint}\
             monkeypatch.setattr(click._termui_impl, \"isatty\", lambda x: True)\n\n    y = 2\n"
        )
    };
    let (joined, merged, separated) = (call("\n    "), call(" "), call("; "));
    let (line, what) = at(check("a.py", &joined, &merged)).expect("joined");
    assert_eq!(line, 4);
    assert!(what.contains("without \";\""), "{what}");
    assert_eq!(check("a.py", &joined, &separated), None);
}

#[test]
fn a_line_left_deeper_below_the_edit_is_a_layout_error() {
    // A range one line short: `try:` and `except ImportError:` replaced, the old handler body
    // left below the new rows, deeper than them.
    let before = "def f():\n    try:\n        import a\n    except ImportError:\n        import b\n    return a\n";
    let short = "def f():\n    import a\n\n        import b\n    return a\n";
    let (line, what) = at(check("a.py", before, short)).expect("left deeper");
    assert_eq!(line, 4);
    assert!(what.contains("indentation does not match"), "{what}");
    // The whole statement replaced: the next line is at the block's column.
    let whole = "def f():\n    import a\n\n    return a\n";
    assert_eq!(check("a.py", before, whole), None);
    // A new header above the deeper line: it is that block's body.
    let header = "def f():\n    try:\n        import a\n    except Exception:\n        import b\n    return a\n";
    assert_eq!(check("a.py", before, header), None);
}

#[test]
fn columns_count_characters() {
    let before = "const s = \"é\";\nf();\n";
    let after = "const s = \"é\"; )\nf();\n";
    let issue = check("a.ts", before, after).expect("issue");
    assert_eq!((issue.line, issue.column), (1, 16), "{issue:?}");
}

/// A TypeScript file of `lines` lines (a multiple of 8): function `f{k}` on lines
/// `8k + 1 ..= 8k + 7`, then a blank line.
fn big_ts(lines: usize) -> String {
    (0..lines / 8)
        .map(|i| format!("export function f{i}(a: number): number {{\n  const b = a * {i};\n  if (b > 3) {{\n    return b;\n  }}\n  return a;\n}}\n\n"))
        .collect()
}

/// A TypeScript check with the usual budget.
fn checker() -> Check {
    Check::new(SupportLang::TypeScript, Instant::now() + PARSE_BUDGET).expect("parser")
}

/// Breaking line `line` of `before` (a [`big_ts`] line `  const b = a * …;`) is reported there.
fn assert_breaking_line_is_reported(before: &str, line: usize) {
    let broken = with_line(before, line, "  const b = a * ;");
    let found = checker()
        .run(before, &broken)
        .expect("in time")
        .expect("issue");
    assert_eq!(found.issue(&broken).line, line);
}

/// `text` with line `line` (1-based) replaced by `with`.
fn with_line(text: &str, line: usize, with: &str) -> String {
    let mut lines: Vec<&str> = text.split('\n').collect();
    lines[line - 1] = with;
    lines.join("\n")
}

#[test]
fn a_big_file_is_reparsed_incrementally() {
    let before = big_ts(10_000);
    let after = with_line(&before, 4_498, "  const b = a * 9001;");
    let span = Span::of(&before, &after).expect("span");
    let mut check = checker();
    let full = check.parse(&before, None, None).expect("parse");
    assert!(!full.root_node().has_error());
    // Forced onto the whole text, a clean edit: one parse of the new text, nothing else.
    let mut check = checker();
    let answer = check.run_in(&before, &after, &span, None);
    assert_eq!(answer.map(|a| a.map(|f| f.is_none())), Ok(Some(true)));
    assert_eq!(check.work.len(), 1, "{:?}", check.work);
    let whole = check.work[0];
    assert!(whole > 1_000, "{:?}", check.work);
    // A breaking edit: the new text, the old one whole, then a small incremental reparse.
    let broken = with_line(&before, 4_498, "  const b = a * ;");
    let span = Span::of(&before, &broken).expect("span");
    let mut check = checker();
    let answer = check.run_in(&before, &broken, &span, None);
    assert_eq!(answer.map(|a| a.map(|f| f.is_none())), Ok(Some(false)));
    assert_eq!(check.work.len(), 3, "{:?}", check.work);
    assert!(check.work[2] * 20 < whole, "{:?} vs {whole}", check.work);

    // By default only a window of top-level items around the edit is parsed.
    let mut check = checker();
    assert_eq!(check.run(&before, &after).map(|f| f.is_none()), Ok(true));
    assert_eq!(check.work.len(), 1, "{:?}", check.work);
    assert!(check.work[0] * 10 < whole, "{:?} vs {whole}", check.work);

    assert_breaking_line_is_reported(&before, 4_498);
}

#[test]
fn a_removed_closer_in_a_big_file_is_found() {
    let before = big_ts(10_000);
    let lines: Vec<&str> = before.split('\n').collect();
    assert_eq!(lines[4_500], "  }", "the closer of an `if`");
    let after = [&lines[..4_500], &lines[4_501..]].concat().join("\n");
    let mut check = checker();
    let found = check.run(&before, &after).expect("in time").expect("issue");
    // The new text no longer scans to top level after the edit (a bracket stays open to the
    // end), so no window is cut: both texts are parsed whole, the new one incrementally, and
    // the parser notices the missing closer at the end of the file (the refusal also shows
    // the lines the edit removed).
    assert_eq!(check.work.len(), 3, "new, old, reparsed: {:?}", check.work);
    let issue = found.issue(&after);
    assert_eq!(issue.what, "missing \"}\"", "{issue:?}");
    assert!(issue.line > 4_500, "{issue:?}");
}

#[test]
fn an_old_error_inside_a_window_keeps_the_window() {
    // Line 4_450 (`  const b = a * 556;`) is broken already; the edit is 48 lines below.
    let before = with_line(&big_ts(10_000), 4_450, "  const b = a * ;");
    let fine = with_line(&before, 4_498, "  const b = a * 2;");
    let mut c = checker();
    assert_eq!(c.run(&before, &fine).map(|f| f.is_none()), Ok(true));
    assert_eq!(
        c.work.len(),
        3,
        "windows and incremental only: {:?}",
        c.work
    );
    assert_breaking_line_is_reported(&before, 4_498);
}

#[test]
fn a_window_cut_inside_a_literal_is_not_used() {
    // A template literal holding blank lines and column-0 text: a window may start inside.
    let mut before = big_ts(6_000);
    let literal: String = (0..300)
        .map(|i| format!("\nfunction g{i}() {{ (\n"))
        .collect();
    before.push_str(&format!("export const doc = `{literal}`;\n"));
    before.push_str(&big_ts(6_000));
    // Lines 6001..=6601 hold the literal; line 6699 is `  const b = a * 12;`.
    assert_eq!(before.split('\n').nth(6_698), Some("  const b = a * 12;"));
    let after = with_line(&before, 6_699, "  const b = a * 2;");
    let mut c = checker();
    assert_eq!(c.run(&before, &after).map(|f| f.is_none()), Ok(true));
    // The lexical scan finds the window's cut inside the literal: the whole text is parsed
    // at once (clean, done).
    assert_eq!(c.work.len(), 1, "whole: {:?}", c.work);
    let broken = with_line(&before, 6_699, "  const b = a * ;");
    assert_eq!(
        at(check("a.ts", &before, &broken)).map(|(l, _)| l),
        Some(6_699)
    );
}

#[test]
fn gives_up_on_huge_texts_and_on_timeouts() {
    let huge = "x;\n".repeat(MAX_BYTES / 3 + 1);
    assert_eq!(check("a.ts", &huge, &format!("{huge}(\n")), None);
    let before = big_ts(2_000);
    let after = format!("{before}(\n");
    let mut check = Check::new(SupportLang::TypeScript, Instant::now()).expect("parser");
    let span = Span::of(&before, &after).expect("span");
    assert_eq!(
        check.run_in(&before, &after, &span, None),
        Err(GaveUp::Timeout)
    );
}

#[test]
fn span_stays_on_character_boundaries() {
    let span = Span::of("aé", "aè").expect("span");
    assert_eq!((span.start, span.old_end, span.new_end), (1, 3, 3));
    let span = Span::of("abab", "ab").expect("span");
    assert_eq!((span.start, span.old_end, span.new_end), (2, 4, 2));
    assert_eq!(Span::of("x", "x"), None);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    #[test]
    fn never_panics(
        lang in 0usize..4,
        at in 0usize..200,
        cut in 0usize..40,
        insert in "[ -~\\n\\t{}()\\[\\]é@\\\\]{0,30}",
    ) {
        let (path, before) = [("a.ts", TS), ("a.rs", RS), ("a.go", GO), ("a.py", PY)][lang];
        let mut start = at.min(before.len());
        while !before.is_char_boundary(start) { start -= 1; }
        let mut end = (start + cut).min(before.len());
        while !before.is_char_boundary(end) { end -= 1; }
        let mut after = before.to_string();
        after.replace_range(start..end, &insert);
        let _ = check(path, before, &after);
        let _ = check(path, &after, before);
    }
}

#[test]
fn two_python_statements_merged_on_one_line_are_reported() {
    let after = PY.replace("            return 1\n", "            x = f(a) y = 2\n");
    let issue = check("a.py", PY, &after).expect("merged statements");
    assert_eq!(issue.line, 4, "{issue:?}");
    // The control: the same two statements on their own lines parse.
    let split = PY.replace(
        "            return 1\n",
        "            x = f(a)\n            y = 2\n",
    );
    assert_eq!(check("a.py", PY, &split), None);
}

#[test]
fn an_issue_names_the_last_line_of_its_error() {
    let ts = TS.replace("    y();\n  }\n", "    y();\n");
    let issue = check("a.ts", TS, &ts).expect("ts");
    assert!(issue.end_line >= issue.line, "{issue:?}");
    let lines = ts.lines().count();
    assert!(issue.end_line <= lines + 1, "{issue:?}");
}

#[test]
fn an_old_error_in_one_hunk_does_not_hide_a_new_one_in_another() {
    // Line 2 already fails to parse; hunk 1 edits it, hunk 2 (far below) adds an error.
    let body: String = (0..30)
        .map(|i| format!("fn f{i}() {{\n    g({i});\n}}\n\n"))
        .collect();
    let before = format!("fn broken() {{\n    let x = ;\n}}\n\n{body}");
    let after = before
        .replacen("    let x = ;\n", "    let x = ; // still\n", 1)
        .replacen("    g(20);\n", "    g(20);\\n    h(20);\n", 1);
    let changes = [
        LineChange {
            old: 1..2,
            new: 1..2,
        },
        LineChange {
            old: 85..86,
            new: 85..86,
        },
    ];
    assert_eq!(after.split('\n').nth(85), Some("    g(20);\\n    h(20);"));
    let lang = lang::for_path(Path::new("a.rs")).expect("rust").lang;
    let issue = introduced_at_in(lang, &before, &after, &changes).expect("the new error");
    assert_eq!(issue.line, 86, "{issue:?}");
    // Told nothing of the stretches, the old error in the region still hides it.
    assert_eq!(introduced_in(lang, &before, &after), None);
    // Only the old error's hunk edited: nothing new.
    let only = before.replacen("    let x = ;\n", "    let x = ; // still\n", 1);
    assert_eq!(introduced_at_in(lang, &before, &only, &changes[..1]), None);
}
