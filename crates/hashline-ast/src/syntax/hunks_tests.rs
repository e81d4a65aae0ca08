//! The many-hunk windows: where they fall, that they are refused when the stretches do not
//! check out, and that a clean set of windows never hides an error the whole check finds.

use super::hunks::windows;
use super::*;

/// A TypeScript file of `blocks` blocks of 24 lines (about 0.4 KB each) whose column-0 lines are not all top-level:
/// a block comment and a template literal hold lines that look like statements.
pub(super) fn tricky_ts(blocks: usize) -> String {
    (0..blocks)
        .map(|i| {
            format!(
                "import {{ a{i} }} from \"./m{i}\";\nexport const c{i} = a{i}(1);\n\n/*\nUsage;\n\
                 call(x{i});\n*/\nexport function f{i}(x: number): number {{\n  if (x > {i}) {{\n    \
                 return x;\n  }}\n  return g(`\nline one;\nconst inner{i} = 1;\n${{x}}`);\n}}\n\n\
                 class K{i} {{\n  n = 0;\n  m(): void {{\n    this.n = {i};\n  }}\n}}\n\n"
            )
        })
        .collect()
}

/// [`tricky_ts`] without the comment and the template literal (19 lines a block): a correct
/// edit's windows parse, so the property test takes the windows often.
pub(super) fn plain_ts(blocks: usize) -> String {
    (0..blocks)
        .map(|i| {
            format!(
                "import {{ a{i} }} from \"./m{i}\";\nexport const c{i} = a{i}(1);\n\n\
                 export function f{i}(x: number): number {{\n  if (x > {i}) {{\n    return x;\n  \
                 }}\n  return g(\n    x,\n    {i});\n}}\n\nclass K{i} {{\n  n = 0;\n  m(): void \
                 {{\n    this.n = {i};\n  }}\n}}\n\n"
            )
        })
        .collect()
}

/// `before` with each `(line, cut, rows)` applied (0-based line, lines removed, rows written;
/// sorted, disjoint), and the [`LineChange`]s saying so.
pub(super) fn edited(
    before: &str,
    edits: &[(usize, usize, Vec<&str>)],
) -> (String, Vec<LineChange>) {
    let lines: Vec<&str> = before.split('\n').collect();
    let (mut out, mut changes, mut at) = (Vec::new(), Vec::new(), 0usize);
    for (line, cut, rows) in edits {
        out.extend_from_slice(&lines[at..*line]);
        let new = out.len();
        out.extend(rows.iter().copied());
        changes.push(LineChange {
            old: *line..line + cut,
            new: new..out.len(),
        });
        at = line + cut;
    }
    out.extend_from_slice(&lines[at..]);
    (out.join("\n"), changes)
}

/// Lines of `text` (1-based `from..=to`) joined, for asserting a window's bytes.
fn lines_of(text: &str, from: usize, to: usize) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    lines[from - 1..to]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn windows_are_the_items_around_each_change() {
    let before = tricky_ts(100);
    // Line 2 of block 3 (`export const c3 …`) and the `this.n = …` line of block 50.
    let (l1, l2) = (3 * 24 + 1, 50 * 24 + 20);
    let (after, changes) = edited(
        &before,
        &[
            (l1, 1, vec!["export const c3 = a3(2);"]),
            (l2, 1, vec!["    this.n = 7;", "    this.n += 1;"]),
        ],
    );
    let w = windows(SupportLang::TypeScript, &before, &after, &changes).expect("windows");
    assert_eq!(w.len(), 2, "{w:?}");
    // `export const` starts an item (the `import …;` line above ends a statement), and so
    // does the comment after the blank line below it; the window takes the item before too.
    assert_eq!(&after[w[0].bytes.clone()], lines_of(&after, l1, l1 + 2));
    assert_eq!(w[0].points.start.row, l1 - 1);
    // The method's line widens to its class, from the item before it (the function and the
    // block comment above it: the lines in the comment and in the template start nothing) to
    // the blank line after the class.
    let class = 50 * 24 + 17;
    assert_eq!(
        &after[w[1].bytes.clone()],
        lines_of(&after, 50 * 24 + 4, class + 8)
    );
    assert_eq!(w[1].points.end.row, class + 8);
}

#[test]
fn stretches_that_do_not_match_the_texts_give_no_windows() {
    let before = tricky_ts(100);
    let (after, mut changes) = edited(&before, &[(9, 1, vec!["x;"]), (400, 1, vec!["y;"])]);
    assert!(windows(SupportLang::TypeScript, &before, &after, &changes).is_some());
    // Claim the second change one line early: the lines between no longer agree.
    changes[1].old = 399..400;
    changes[1].new = 399..400;
    assert!(windows(SupportLang::TypeScript, &before, &after, &changes).is_none());
    // Out of order, or past the end.
    let (a, b) = (changes[0].clone(), changes[1].clone());
    assert!(windows(SupportLang::TypeScript, &before, &after, &[b, a]).is_none());
    let far = LineChange {
        old: 1_000_000..1_000_001,
        new: 1_000_000..1_000_001,
    };
    assert!(windows(SupportLang::TypeScript, &before, &after, &[far]).is_none());
}

#[test]
fn windows_covering_most_of_the_text_are_not_used() {
    let before = tricky_ts(100);
    let edits: Vec<(usize, usize, Vec<&str>)> = (0..100)
        .flat_map(|b| {
            [
                (b * 24 + 8, 1, vec!["  if (x > 0) {"]),
                (b * 24 + 19, 1, vec!["  k = 1;"]),
            ]
        })
        .collect();
    let (after, changes) = edited(&before, &edits);
    assert!(windows(SupportLang::TypeScript, &before, &after, &changes).is_none());
}

#[test]
fn an_error_in_one_of_many_hunks_is_found() {
    let before = tricky_ts(250);
    let mut edits: Vec<(usize, usize, Vec<&str>)> = (0..100)
        .step_by(7)
        .map(|b| (b * 24 + 1, 1, vec!["export const q = 1;"]))
        .collect();
    edits[5].2 = vec!["export const q = ;"];
    let (after, changes) = edited(&before, &edits);
    assert!(windows(SupportLang::TypeScript, &before, &after, &changes).is_some());
    let issue = introduced_at_in(SupportLang::TypeScript, &before, &after, &changes);
    assert_eq!(issue.map(|i| i.line), Some(35 * 24 + 2));
    // Without the broken hunk, nothing.
    edits[5].2 = vec!["export const q = 2;"];
    let (after, changes) = edited(&before, &edits);
    assert_eq!(
        introduced_at_in(SupportLang::TypeScript, &before, &after, &changes),
        None
    );
}

#[test]
fn an_unclosed_comment_or_template_is_found_beyond_its_window() {
    let before = tricky_ts(250);
    for broken in [
        "export const s = \"abc",
        "export const t = `",
        "export function h() {",
    ] {
        let (after, changes) = edited(
            &before,
            &[
                (24 + 1, 1, vec![broken]),
                (60 * 24 + 1, 1, vec!["export const z = 3;"]),
            ],
        );
        let whole = introduced_in(SupportLang::TypeScript, &before, &after);
        let windowed = introduced_at_in(SupportLang::TypeScript, &before, &after, &changes);
        assert!(whole.is_some(), "{broken}");
        assert_eq!(windowed, whole, "{broken}");
    }
}

/// The edits of a property-test case on a file of `lines` lines: `(line, cut, rows)` at each
/// spot (taken modulo `lines`), dropping those that would overlap the next.
fn case_edits(
    lines: usize,
    spots: &std::collections::BTreeSet<usize>,
    picks: &[(usize, Vec<usize>)],
) -> Vec<(usize, usize, Vec<&'static str>)> {
    case_edits_with(lines, spots, picks, row)
}

/// [`case_edits`] writing row `pick(r)` for each picked index `r`.
pub(super) fn case_edits_with<'r>(
    lines: usize,
    spots: &std::collections::BTreeSet<usize>,
    picks: &[(usize, Vec<usize>)],
    pick: impl Fn(usize) -> &'r str,
) -> Vec<(usize, usize, Vec<&'r str>)> {
    let spots: Vec<usize> = spots
        .iter()
        .map(|s| s % lines)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    spots
        .iter()
        .zip(picks)
        .enumerate()
        .filter(|(k, (line, (cut, _)))| {
            spots.get(k + 1).is_none_or(|next| *line + *cut < *next) && *line + *cut <= lines
        })
        .map(|(_, (&line, (cut, rows)))| (line, *cut, rows.iter().map(|&r| pick(r)).collect()))
        .collect()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]
    /// On a file without errors, the windows find an error exactly when the whole check does.
    #[test]
    fn windows_never_hide_an_error(
        tricky in proptest::bool::ANY,
        spots in proptest::collection::btree_set(0usize..6_000, 1..6),
        picks in proptest::collection::vec(
            (0usize..2, proptest::collection::vec(0usize..ROWS.len() * 10, 0..3)),
            6,
        ),
    ) {
        // Over WINDOW_ABOVE (64 KiB): smaller files never take the windows.
        let before = if tricky { tricky_ts(250) } else { plain_ts(300) };
        let edits = case_edits(before.split('\n').count() - 1, &spots, &picks);
        let (after, changes) = edited(&before, &edits);
        let whole = introduced_in(SupportLang::TypeScript, &before, &after);
        let windowed = introduced_at_in(SupportLang::TypeScript, &before, &after, &changes);
        proptest::prop_assert_eq!(windowed.is_some(), whole.is_some(), "{:?}", edits);
    }
}

/// Row `r` of [`ROWS`] when in range, else (three times in four) one of [`VALID`]: most
/// edits in the property test are correct, so that most of its cases take the windows.
fn row(r: usize) -> &'static str {
    ROWS.get(r).copied().unwrap_or(VALID[r % VALID.len()])
}

/// Rows that are correct wherever a statement may stand (and the first two anywhere).
const VALID: &[&str] = &["", "// note;", "  z();", "/* c */"];

/// Rows the property test writes: statements, lines that only make sense inside something,
/// and the openers and closers of every construct that spans lines.
const ROWS: &[&str] = &[
    "export const z = 1;",
    "  return 2;",
    "",
    "// note;",
    "function h() {}",
    "{",
    "}",
    "/*",
    "*/",
    "`",
    "${",
    "foo(",
    ")",
    "\"",
    "export const = ;",
    "class {",
    "line two;",
    "  m(): void {",
];

#[test]
fn python_layout_errors_are_found_through_the_windows() {
    let before: String = (0..2_000)
        .map(|i| format!("def f{i}(a):\n    if a:\n        b = {i}\n    else:\n        b = 0\n    return b\n\n\n"))
        .collect();
    let breaks = ["      return b", "  else:", "    b = 1", "return b"];
    for broken in breaks {
        // Line 6 of function 10 (`    return b` or `    else:`), and a correct edit elsewhere.
        let line = if broken.contains("else") {
            10 * 8 + 3
        } else {
            10 * 8 + 5
        };
        let line = if broken == "    b = 1" {
            10 * 8 + 2
        } else {
            line
        };
        let (after, changes) = edited(
            &before,
            &[
                (line, 1, vec![broken]),
                (900 * 8 + 2, 1, vec!["        b = 7"]),
            ],
        );
        let whole = introduced_in(SupportLang::Python, &before, &after);
        let windowed = introduced_at_in(SupportLang::Python, &before, &after, &changes);
        assert_eq!(windowed, whole, "{broken}");
        if broken != "return b" {
            assert!(whole.is_some(), "{broken}");
        }
    }
    // Correct edits of many functions: nothing, and no whole parse needed.
    let edits: Vec<(usize, usize, Vec<&str>)> = (0..2_000)
        .step_by(50)
        .map(|f| (f * 8 + 2, 1, vec!["        b = 1"]))
        .collect();
    let (after, changes) = edited(&before, &edits);
    assert!(windows(SupportLang::Python, &before, &after, &changes).is_some());
    assert_eq!(
        introduced_at_in(SupportLang::Python, &before, &after, &changes),
        None
    );
}

#[test]
fn many_windows_are_parsed_on_two_threads_and_an_error_in_either_half_is_found() {
    let before = plain_ts(1_200);
    // 200 hunks, one every six blocks: more windows than are parsed on one thread.
    let ok: Vec<(usize, usize, Vec<&str>)> = (0..200)
        .map(|k| (k * 6 * 19 + 1, 1, vec!["export const q = 1;"]))
        .collect();
    let (after, changes) = edited(&before, &ok);
    let w = windows(SupportLang::TypeScript, &before, &after, &changes).expect("windows");
    assert!(w.len() >= 2 * 64, "{}", w.len());
    let mut check =
        Check::new(SupportLang::TypeScript, Instant::now() + PARSE_BUDGET).expect("grammar");
    assert_eq!(check.clean_in(&after, &w), Ok(true));
    // Every window parsed once, the other thread's parses counted too.
    assert_eq!(check.work.len(), w.len());
    for broken in [3, 190] {
        let mut edits = ok.clone();
        edits[broken].2 = vec!["export const q = ;"];
        let (after, changes) = edited(&before, &edits);
        let w = windows(SupportLang::TypeScript, &before, &after, &changes).expect("windows");
        let mut check =
            Check::new(SupportLang::TypeScript, Instant::now() + PARSE_BUDGET).expect("grammar");
        assert_eq!(check.clean_in(&after, &w), Ok(false), "hunk {broken}");
        let issue = introduced_at_in(SupportLang::TypeScript, &before, &after, &changes);
        assert_eq!(
            issue.map(|i| i.line),
            Some(broken * 6 * 19 + 2),
            "hunk {broken}"
        );
    }
}

#[test]
fn a_cancelled_check_gives_up_without_an_answer() {
    let before = plain_ts(1_200);
    let edits: Vec<(usize, usize, Vec<&str>)> = (0..200)
        .map(|k| (k * 6 * 19 + 1, 1, vec!["export const q = ;"]))
        .collect();
    let (after, changes) = edited(&before, &edits);
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let texts = (before.as_str(), after.as_str());
    let found = introduced_at_unless_in(SupportLang::TypeScript, texts, &changes, Some(&flag));
    assert!(found.is_some(), "not cancelled: the error is found");
    flag.store(true, std::sync::atomic::Ordering::Relaxed);
    let found = introduced_at_unless_in(SupportLang::TypeScript, texts, &changes, Some(&flag));
    assert_eq!(found, None, "cancelled: no answer");
}
