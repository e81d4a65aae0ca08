//! The many-hunk windows parsed in two halves ([`check::Check::clean_in`]): the answer is the
//! one thread's, whatever the other half does, and a broken window stops the other half.

use super::hunks::windows;
use super::hunks_tests::edited;
use super::*;

/// A TypeScript file of `4 * small` one-line constants, then `5 * big` functions of 150 lines
/// each; one edit every fourth constant and in every fifth function (the windows of the first
/// half are one-liners, those of the second whole functions), the first edit broken when
/// `broken`.
fn small_then_big(small: usize, big: usize, broken: bool) -> (String, String, Vec<LineChange>) {
    let mut before: String = (0..small * 4)
        .map(|i| format!("export const c{i} = {i};\n"))
        .collect();
    for f in 0..5 * big {
        before.push_str(&format!("export function f{f}(x: number): number {{\n"));
        for i in 0..148 {
            before.push_str(&format!("  x = x + g{i}(x, {f});\n"));
        }
        before.push_str("}\n");
    }
    let mut edits: Vec<(usize, usize, Vec<&str>)> = (0..small)
        .map(|k| (k * 4 + 1, 1, vec!["export const q = 1;"]))
        .collect();
    if broken {
        edits[0].2 = vec!["export const q = ;"];
    }
    edits.extend((0..big).map(|f| (small * 4 + 5 * f * 150 + 10, 1, vec!["  x = x + 1;"])));
    let (after, changes) = edited(&before, &edits);
    (before, after, changes)
}

#[test]
fn a_broken_window_of_the_first_half_is_the_answer_when_the_second_times_out() {
    let (before, after, changes) = small_then_big(70, 70, true);
    let w = windows(SupportLang::TypeScript, &before, &after, &changes).expect("windows");
    assert_eq!(w.len(), 140);
    // The deadline is already past: the one-liners parse before the parser first looks at
    // it, the functions do not. On one thread the first window's error is the answer.
    let past = Instant::now();
    let mut one = Check::new(SupportLang::TypeScript, past).expect("grammar");
    assert_eq!(one.clean_in(&after, &w[..1]), Ok(false));
    let mut check = Check::new(SupportLang::TypeScript, past).expect("grammar");
    assert_eq!(
        check.clean_in(&after, &w[70..]),
        Err(check::GaveUp::Timeout)
    );
    let mut check = Check::new(SupportLang::TypeScript, past).expect("grammar");
    assert_eq!(check.clean_in(&after, &w), Ok(false));
}

#[test]
fn a_broken_window_stops_the_other_half() {
    let (before, after, changes) = small_then_big(100, 100, true);
    let w = windows(SupportLang::TypeScript, &before, &after, &changes).expect("windows");
    assert_eq!(w.len(), 200);
    let mut check =
        Check::new(SupportLang::TypeScript, Instant::now() + PARSE_BUDGET).expect("grammar");
    assert_eq!(check.clean_in(&after, &w), Ok(false));
    // The first half stopped at its first window; the second half (100 functions) stopped
    // once it was found, long before its end.
    assert!(check.work.len() < 1 + 100, "{} parses", check.work.len());
    // Not broken: every window parsed once.
    let (before, after, changes) = small_then_big(100, 100, false);
    let w = windows(SupportLang::TypeScript, &before, &after, &changes).expect("windows");
    let mut check =
        Check::new(SupportLang::TypeScript, Instant::now() + PARSE_BUDGET).expect("grammar");
    assert_eq!(check.clean_in(&after, &w), Ok(true));
    assert_eq!(check.work.len(), w.len());
}
