//! With a compiled-in grammar: refuse an edit that adds a syntax error (`E_SYNTAX_INTRODUCED`).
//!
//! The parser (a [`hashline_core::SyntaxCheck`], tree-sitter in `hashline-ast`) compares the text
//! before and after all of the file's edits and names the first error the edits added. The
//! refusal shows the would-be lines around it, numbered as the new file would be, and, when the
//! error shows up away from the edit (a removed closer is often noticed at the end of the
//! enclosing block), the lines the edit changed as well.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use hashline_core::affix::{common_prefix, common_suffix};
use hashline_core::excerpt::{numbered, real_lines};
use hashline_core::{ErrorCode, Inspection, LineChange, SyntaxCheck, SyntaxIssue};

use super::{GuardOptions, Refusal, Subject};

/// Lines of the new text shown on each side of the error.
const AROUND: usize = 2;

/// At most this many changed lines are shown when the error lies away from the edit.
const CHANGED_SHOWN: usize = 6;

/// What to do, at the end of every refusal.
const FIX: &str = "Fix the payload or the range (often one line too long or too short) and send \
                   it again; if the broken state is meant (or the parser does not know this \
                   syntax), resend with --allow-syntax-errors (CLI) or \"allowSyntaxErrors\": \
                   true (JSON).";

/// The parse the check needs, taken out of the subject (whose renderers are not `Sync`) so that
/// it can run on another thread while the per-edit checks run ([`super::check`]).
pub(super) struct Parse<'a> {
    parser: &'a dyn SyntaxCheck,
    path: &'a str,
    before: &'a str,
    /// The new text in one buffer (joined here when it is held in pieces: it is at most the
    /// parser's [`SyntaxCheck::max_bytes`]).
    after: std::borrow::Cow<'a, str>,
    changes: &'a [LineChange],
}

impl Parse<'_> {
    /// The first syntax error the edits introduced, else the rows they wrote in a layout the
    /// rest of the file never uses.
    pub fn run(&self) -> Inspection {
        self.run_unless(&Arc::new(AtomicBool::new(false)))
    }

    /// [`Parse::run`], given up (nothing found) once `cancel` is set.
    pub fn run_unless(&self, cancel: &Arc<AtomicBool>) -> Inspection {
        let (path, changes) = (Path::new(self.path), self.changes);
        let texts = (self.before, &*self.after);
        self.parser.inspect_at_unless(path, texts, changes, cancel)
    }
}

/// The warnings of `layout`: rows the edits wrote joined where the rest of the file keeps such
/// constructs on rows of their own (two lines merged into one, most often).
pub(super) fn layout_warnings(
    s: &Subject<'_>,
    inspection: &Inspection,
    warnings: &[String],
) -> Vec<String> {
    // One warning of a merge is enough: the per-edit check may have named it already.
    if warnings.iter().any(|w| w.starts_with("[W_MERGED_LINES]")) {
        return Vec::new();
    }
    inspection
        .layout
        .iter()
        .map(|n| {
            format!(
                "[W_MERGED_LINES] {} line {}: {}; if two lines were joined by mistake, send \
                 them as separate rows",
                s.path, n.line, n.what
            )
        })
        .collect()
}

/// The parse of `s` this check runs; `None` when it runs none (syntax errors allowed, no
/// parser, or a text longer than the parser checks: nothing is joined for it then).
pub(super) fn parse<'a>(s: &'a Subject<'a>, opts: &GuardOptions<'a>) -> Option<Parse<'a>> {
    if opts.allow_syntax_errors {
        return None;
    }
    let parser = opts.syntax?;
    let max = parser.max_bytes();
    if s.before.len() > max || s.after.len() > max {
        return None;
    }
    Some(Parse {
        parser,
        path: s.path,
        before: s.before,
        after: s.after.to_text(),
        changes: s.changes(),
    })
}

/// Refuse when the parse found a syntax error the edit introduced (`issue`), unless it is one
/// step's passing state of a change sent one hunk per call (`transient`; `parser` tells whether
/// the text before already failed to parse).
pub(super) fn check(
    s: &Subject<'_>,
    issue: Option<SyntaxIssue>,
    parser: Option<&dyn SyntaxCheck>,
) -> Result<(), Refusal> {
    let Some(issue) = issue else {
        return Ok(());
    };
    let broken_before =
        || parser.is_some_and(|p| p.introduced(Path::new(s.path), "", s.before).is_some());
    if s.one_hunk_per_call && super::transient::is_transient(s, &issue, broken_before) {
        return Ok(());
    }
    let after = s.after.to_text();
    let lines = real_lines(&after);
    let last = lines.len().max(issue.line);
    let lo = issue.line.saturating_sub(AROUND).max(1);
    let hi = (issue.line + AROUND).min(last);
    let mut shown = format!(
        "The file as it would be, around line {}:\n{}",
        issue.line,
        numbered(&lines, lo, hi, Some(issue.line))
    );
    if let Some((first, end)) = changed_lines(s.before, &after) {
        // Shown only when the error's excerpt does not already hold the edit.
        if end < lo || first > hi {
            let cut = end.min(first + CHANGED_SHOWN - 1);
            let more = if cut < end { "\n…" } else { "" };
            let what = if first > end {
                format!("the edit removed lines just before line {first}")
            } else {
                format!("the lines the edit wrote ({first}..{end})")
            };
            let (a, b) = if first > end {
                (end.max(1), first.min(last))
            } else {
                (first, cut)
            };
            shown.push_str(&format!(
                "\nAnd {what}:\n{}{more}",
                numbered(&lines, a, b, None)
            ));
        }
    }
    Err(Refusal {
        code: ErrorCode::SyntaxIntroduced,
        message: format!(
            "[{}] {}: the edit would add a syntax error at {}:{} ({}). Nothing was written.\n{shown}\n{FIX}",
            ErrorCode::SyntaxIntroduced,
            s.path,
            issue.line,
            issue.column,
            issue.what,
        ),
    })
}

/// The lines of `after` (1-based, inclusive) that differ from `before` once the common leading
/// and trailing lines are set aside; `first > end` when the edit only removed lines (they were
/// just before line `first`). `None` when the texts are equal.
fn changed_lines(before: &str, after: &str) -> Option<(usize, usize)> {
    if before == after {
        return None;
    }
    let (b, a) = (real_lines(before), real_lines(after));
    let head = common_prefix(&b, &a);
    let tail = common_suffix(&b, &a, head);
    Some((head + 1, a.len() - tail))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashline_core::{Edit, EditKind, Pieces, SyntaxCheck, SyntaxIssue};

    /// A fake parser: reports a fixed issue for every text that contains `BROKEN`.
    struct Fake(SyntaxIssue);

    impl SyntaxCheck for Fake {
        fn covers(&self, _: &Path) -> bool {
            true
        }
        fn introduced(&self, _: &Path, _: &str, after: &str) -> Option<SyntaxIssue> {
            after.contains("BROKEN").then(|| self.0.clone())
        }
    }

    fn run(before: &str, after: &str, issue: SyntaxIssue, allow: bool) -> Result<(), Refusal> {
        let lines: Vec<&str> = before.split('\n').collect();
        let edits = vec![Edit {
            kind: EditKind::Replace { start: 2, end: 2 },
            rows: vec!["BROKEN".to_string()],
            origin: 0,
        }];
        let fake = Fake(issue);
        let anchor = |n: usize| format!("{n}:");
        let after_pieces = Pieces::whole(after);
        let s = Subject::new(
            "src/a.rs",
            &lines,
            &edits,
            (before, &after_pieces),
            &anchor,
            &super::super::op_label,
        );
        let opts = GuardOptions {
            syntax: Some(&fake),
            allow_syntax_errors: allow,
        };
        check(&s, parse(&s, &opts).and_then(|p| p.run().issue), None)
    }

    /// The whole guard ([`super::super::check`]) on a text of `lines` lines with line 2
    /// replaced by `row`, the fake parser finding `BROKEN`.
    fn guard_big(lines: usize, row: &str) -> Result<Vec<String>, Refusal> {
        let fake = Fake(SyntaxIssue {
            line: 2,
            column: 1,
            what: "fake".into(),
            end_line: 2,
        });
        guard_big_with(lines, row, &fake)
    }

    /// [`guard_big`] with `parser`.
    fn guard_big_with(
        lines: usize,
        row: &str,
        parser: &dyn SyntaxCheck,
    ) -> Result<Vec<String>, Refusal> {
        let before: String = (0..lines).map(|i| format!("let v{i} = {i};\n")).collect();
        let after = before.replacen("let v1 = 1;", row, 1);
        let split: Vec<&str> = before.split('\n').collect();
        let edits = vec![Edit {
            kind: EditKind::Replace { start: 2, end: 2 },
            rows: vec![row.to_string()],
            origin: 0,
        }];
        let anchor = |n: usize| format!("{n}:");
        let after_pieces = Pieces::whole(&after);
        let s = Subject::new(
            "src/a.rs",
            &split,
            &edits,
            (&before, &after_pieces),
            &anchor,
            &super::super::op_label,
        );
        let opts = GuardOptions {
            syntax: Some(parser),
            allow_syntax_errors: false,
        };
        super::super::check(&s, &opts)
    }

    /// A parser that answers only once the guard cancels it (or after 10 s), and says whether
    /// it was cancelled.
    struct Waits(std::sync::atomic::AtomicBool);

    impl SyntaxCheck for Waits {
        fn covers(&self, _: &Path) -> bool {
            true
        }
        fn introduced(&self, _: &Path, _: &str, _: &str) -> Option<SyntaxIssue> {
            None
        }
        fn introduced_at_unless(
            &self,
            _: &Path,
            _: (&str, &str),
            _: &[LineChange],
            cancel: &Arc<AtomicBool>,
        ) -> Option<SyntaxIssue> {
            let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while std::time::Instant::now() < until {
                if cancel.load(std::sync::atomic::Ordering::Relaxed) {
                    self.0.store(true, std::sync::atomic::Ordering::Relaxed);
                    return None;
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            None
        }
    }

    #[test]
    fn a_per_edit_refusal_cancels_the_parse_of_a_big_text() {
        let waits = Waits(AtomicBool::new(false));
        let refused = guard_big_with(40_000, "let v1 = 1;\r", &waits).expect_err("a \\r in a row");
        assert_eq!(refused.code, ErrorCode::PayloadContaminated);
        let cancelled = waits.0.load(std::sync::atomic::Ordering::Relaxed);
        assert!(cancelled, "the parse was cancelled");
    }

    #[test]
    fn on_a_big_text_the_parse_runs_beside_the_per_edit_checks_and_comes_after_them() {
        for lines in [100, 40_000] {
            // Above PARALLEL_BYTES with 40,000 lines: the same answers.
            assert!(lines < 1_000 || lines * 12 > super::super::PARALLEL_BYTES);
            let broken = guard_big(lines, "BROKEN").expect_err("the parser's issue");
            assert_eq!(broken.code, ErrorCode::SyntaxIntroduced, "{lines}");
            // A per-edit refusal (a `\r` inside a row) still comes first.
            let both = guard_big(lines, "BROKEN\r").expect_err("refused");
            assert_eq!(both.code, ErrorCode::PayloadContaminated, "{lines}");
            assert_eq!(guard_big(lines, "let v1 = 2;"), Ok(Vec::new()), "{lines}");
        }
    }

    /// The changes `line_changes` finds for `edits` of `before`, checked against the text the
    /// splice writes: the lines between them are the same on both sides.
    fn changes_of(before: &str, edits: &[Edit]) -> Vec<LineChange> {
        let file = hashline_core::TextFile::decode(before.as_bytes().to_vec());
        let lines: Vec<&str> = file.lines().collect();
        let out = hashline_core::splice(&lines, edits).expect("splice");
        let after = file.render_text(&out);
        let anchor = |n: usize| format!("{n}:");
        let after_pieces = Pieces::whole(&after);
        let s = Subject::new(
            "a.rs",
            &lines,
            edits,
            (file.text(), &after_pieces),
            &anchor,
            &super::super::op_label,
        );
        let changes = s.changes().to_vec();
        let (old, new): (Vec<&str>, Vec<&str>) =
            (before.split('\n').collect(), after.split('\n').collect());
        let (mut o, mut n) = (0, 0);
        for c in &changes {
            assert_eq!(old[o..c.old.start], new[n..c.new.start], "{changes:?}");
            (o, n) = (c.old.end, c.new.end);
        }
        assert_eq!(old[o..], new[n..], "{changes:?}");
        changes
    }

    #[test]
    fn line_changes_of_every_kind_of_edit() {
        let before = "a\nb\nc\nd\ne\nf\n";
        let row = |kind, rows: &[&str]| Edit {
            kind,
            rows: rows.iter().map(|r| r.to_string()).collect(),
            origin: 0,
        };
        let edits = vec![
            row(EditKind::Tail, &["t"]),
            row(EditKind::Replace { start: 5, end: 5 }, &["E1", "E2"]),
            row(EditKind::Head, &["h"]),
            row(EditKind::Replace { start: 2, end: 3 }, &[]),
            row(EditKind::InsertAfter(3), &["x"]),
        ];
        let changes = changes_of(before, &edits);
        let pairs: Vec<_> = changes
            .iter()
            .map(|c| (c.old.clone(), c.new.clone()))
            .collect();
        // `insert after 3` touches the deleted 2..3 and is one stretch with it.
        assert_eq!(
            pairs,
            [(0..0, 0..1), (1..3, 2..3), (4..5, 4..6), (6..6, 7..8)]
        );
        let before = "a\nb\nc";
        changes_of(before, &[row(EditKind::InsertBefore(1), &["z"])]);
        changes_of(
            before,
            &[row(EditKind::Replace { start: 3, end: 3 }, &["C", "D"])],
        );
    }

    fn issue(line: usize, column: usize) -> SyntaxIssue {
        SyntaxIssue {
            line,
            column,
            what: "missing \"}\"".to_string(),
            end_line: line,
        }
    }

    #[test]
    fn refuses_with_the_lines_around_the_error() {
        let before = "a\nb\nc\nd\ne\n";
        let after = "a\nBROKEN\nc\nd\ne\n";
        let e = run(before, after, issue(2, 1), false).expect_err("refused");
        assert_eq!(e.code, ErrorCode::SyntaxIntroduced);
        assert!(
            e.message.starts_with(
                "[E_SYNTAX_INTRODUCED] src/a.rs: the edit would add a syntax error at 2:1 \
                 (missing \"}\"). Nothing was written.\nThe file as it would be, around line 2:\n \
                 1|a\n>2|BROKEN\n 3|c\n 4|d\nFix the payload or the range"
            ),
            "{}",
            e.message
        );
        assert!(e.message.contains("--allow-syntax-errors (CLI)"));
        assert!(e.message.contains("\"allowSyntaxErrors\": true (JSON)"));
    }

    #[test]
    fn an_error_far_from_the_edit_also_shows_the_edit() {
        let before: String = (1..=20).map(|n| format!("l{n}\n")).collect();
        let after = before.replace("l2\n", "BROKEN\n");
        let e = run(&before, &after, issue(19, 1), false).expect_err("refused");
        assert!(
            e.message.contains(
                "around line 19:\n 17|l17\n 18|l18\n>19|l19\n 20|l20\nAnd the lines the edit \
                 wrote (2..2):\n 2|BROKEN\n"
            ),
            "{}",
            e.message
        );
    }

    #[test]
    fn allowed_or_clean_edits_pass() {
        assert!(run("a\nb\n", "a\nBROKEN\n", issue(2, 1), true).is_ok());
        assert!(run("a\nb\n", "a\nc\n", issue(2, 1), false).is_ok());
    }

    #[test]
    fn changed_lines_of_removals_and_replacements() {
        assert_eq!(changed_lines("a\nb\nc\n", "a\nx\nc\n"), Some((2, 2)));
        assert_eq!(changed_lines("a\nb\nc\n", "a\nc\n"), Some((2, 1)));
        assert_eq!(changed_lines("a\n", "a\n"), None);
    }
}
