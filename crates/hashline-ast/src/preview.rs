//! The result of an ast_edit call ([`Preview`]), its seed-format rendering, and applying all or
//! some of its matches.

use std::collections::HashSet;
use std::ops::Range;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::AstError;
use crate::rewrite::splice;

/// How many parse-issue lines the rendering shows (`PARSE_ERRORS_LIMIT` of the seed).
pub const PARSE_ISSUES_SHOWN: usize = 20;
/// How many characters of a snippet's first line the rendering shows.
pub const SNIPPET_CHARS: usize = 120;
/// How many skipped nested matches the rendering lists.
pub const SKIPPED_SHOWN: usize = 20;
/// How many lines of a multi-line match, and of its replacement, the rendering shows.
pub const CHANGE_LINES_SHOWN: usize = 8;
/// Bytes of match rows the rendering shows at most: past them the other matches are counted,
/// not shown, so a preview of 100,000 matches stays a page (issue 28 §6). The preview itself
/// keeps every match, and applying it applies them all.
pub const ROWS_SHOWN_BYTES: usize = 64 * 1024;

/// `original` with `matches` (file order, not overlapping) written in: what applying those
/// matches of a stored preview gives. `None` when a match's range does not hold its `before`
/// text (the bytes are not the ones the preview was made from).
pub fn splice_matches(original: &[u8], matches: &[&MatchEdit]) -> Option<Vec<u8>> {
    let mut at = 0;
    for m in matches {
        let range = m.byte_range.clone();
        if range.start < at || original.get(range.clone())? != m.before.as_bytes() {
            return None;
        }
        at = range.end;
    }
    Some(splice(original, pairs(matches)))
}

fn pairs<'m>(matches: &'m [&MatchEdit]) -> impl Iterator<Item = (Range<usize>, &'m str)> {
    matches
        .iter()
        .map(|m| (m.byte_range.clone(), m.after.as_str()))
}

/// One replacement of a preview.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchEdit {
    /// Stable id within the preview: `<file number>:<match number>`, both 1-based in preview order.
    pub id: String,
    /// Index of the rule (in [`crate::RewriteRequest::rules`]) that made it.
    pub rule: usize,
    /// Byte range replaced in the file's original bytes (a BOM counts).
    pub byte_range: Range<usize>,
    /// 1-based line where the match starts.
    pub line: usize,
    /// 1-based character column where the match starts.
    pub column: usize,
    /// The matched text.
    pub before: String,
    /// The replacement text.
    pub after: String,
}

/// The planned rewrite of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileRewrite {
    /// Root-relative display path (`/` separators).
    pub path: String,
    /// Canonical absolute path.
    pub abs: PathBuf,
    /// Hashline tag of the file as read (BOM-free, LF-normalized text); the `¶PATH#TAG` header.
    pub tag: String,
    /// The bytes the preview was computed from (the staleness fingerprint).
    pub original: Vec<u8>,
    /// The bytes after every match is applied.
    pub rewritten: Vec<u8>,
    /// The replacements, in file order.
    pub matches: Vec<MatchEdit>,
}

/// A match not rewritten because it sits inside another match of the same rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedMatch {
    /// Display path of the file.
    pub path: String,
    /// Index of the rule.
    pub rule: usize,
    /// Pattern of the rule.
    pub pattern: String,
    /// 1-based line of the skipped match.
    pub line: usize,
    /// 1-based line of the enclosing match that is rewritten.
    pub outer_line: usize,
}

/// A file or pattern that could not be used, as one display line
/// (`src/a.ts: parse error (syntax tree contains error nodes)`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParseIssue {
    /// Display path of the file, when the issue is about one file.
    pub path: Option<String>,
    /// The full line shown to the model.
    pub message: String,
}

impl std::fmt::Display for ParseIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The outcome of an ast_edit call: what would change, nothing written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preview {
    /// Files with at least one replacement, sorted by display path.
    pub files: Vec<FileRewrite>,
    /// Files skipped (syntax errors, unreadable, unknown language) and patterns that did not
    /// compile, deduplicated, in discovery order.
    pub parse_issues: Vec<ParseIssue>,
    /// Nested matches that yielded to their enclosing match of the same rule.
    pub skipped: Vec<SkippedMatch>,
    /// The file cap stopped the run; later files were not considered.
    pub limit_reached: bool,
    /// How many candidate files were parsed.
    pub files_searched: usize,
    /// `[W_…]` lines for the caller's warnings block (`[W_GRAMMAR_GAP]`: files searched around
    /// valid syntax their grammar cannot parse).
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// The rows of one side of a change: `{sign}LINE:text` for each line of `text` from `line` on
/// (at most [`CHANGE_LINES_SHOWN`], each cut at [`SNIPPET_CHARS`] characters), then
/// `{sign}… N more lines` when some are not shown.
pub fn side_rows(sign: char, line: usize, text: &str, out: &mut Vec<String>) {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    for (k, l) in lines.iter().take(CHANGE_LINES_SHOWN).enumerate() {
        let cut: String = l.chars().take(SNIPPET_CHARS).collect();
        out.push(format!("{sign}{}:{cut}", line + k));
    }
    if lines.len() > CHANGE_LINES_SHOWN {
        out.push(format!(
            "{sign}… {} more lines",
            lines.len() - CHANGE_LINES_SHOWN
        ));
    }
}

impl Preview {
    /// Total number of replacements.
    pub fn total_replacements(&self) -> usize {
        self.files.iter().map(|f| f.matches.len()).sum()
    }

    /// Every match id, in preview order.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.files
            .iter()
            .flat_map(|f| f.matches.iter().map(|m| m.id.as_str()))
    }

    /// The model-facing text: per file a `¶PATH#TAG` header and, per match, its id (`[F:M]`,
    /// what `resolve apply --only` takes) and the seed's `-LINE:before` / `+LINE:after` rows
    /// (every line of a multi-line change, up to [`CHANGE_LINES_SHOWN`] a side, each at most
    /// [`SNIPPET_CHARS`] characters; the seed shows only the first), then the skipped nested
    /// matches, `Limit reached; narrow paths.` and the parse issues (at most 20 lines). Without
    /// replacements: `No replacements made` and the parse issues.
    pub fn render(&self) -> String {
        let mut out: Vec<String> = Vec::new();
        if self.total_replacements() == 0 {
            out.push("No replacements made".to_string());
            out.extend(self.render_issues());
            return out.join("\n");
        }
        // Bytes of rows so far, and the matches and files not shown once they are spent.
        let (mut used, mut left, mut left_files) = (0usize, 0usize, 0usize);
        for file in &self.files {
            if used > ROWS_SHOWN_BYTES {
                left += file.matches.len();
                left_files += 1;
                continue;
            }
            if !out.is_empty() {
                out.push(String::new());
            }
            let header = format!(
                "¶{}#{}",
                hashline_core::name::header_path(&file.path),
                file.tag
            );
            used += header.len() + 2;
            out.push(header);
            for (k, m) in file.matches.iter().enumerate() {
                if used > ROWS_SHOWN_BYTES {
                    left += file.matches.len() - k;
                    break;
                }
                let first = out.len();
                out.push(format!("[{}]", m.id));
                side_rows('-', m.line, &m.before, &mut out);
                side_rows('+', m.line, &m.after, &mut out);
                used += out[first..].iter().map(|r| r.len() + 1).sum::<usize>();
            }
        }
        if left > 0 {
            let files = match left_files {
                0 => String::new(),
                n => format!(", {n} more file{}", if n == 1 { "" } else { "s" }),
            };
            out.push(String::new());
            out.push(format!(
                "… {left} more match{} not shown ({} in all{files}); the preview holds every match: applying it applies them all.",
                if left == 1 { "" } else { "es" },
                self.total_replacements()
            ));
        }
        if !self.skipped.is_empty() {
            out.push(String::new());
            let n = self.skipped.len();
            out.push(format!(
                "Skipped {n} nested match{} inside a match of the same rule (the outer match is rewritten; run ast_edit again after applying to rewrite the inner ones):",
                if n == 1 { "" } else { "es" }
            ));
            for s in self.skipped.iter().take(SKIPPED_SHOWN) {
                out.push(format!(
                    "- {}:{} inside line {} (`{}`)",
                    s.path, s.line, s.outer_line, s.pattern
                ));
            }
            if n > SKIPPED_SHOWN {
                out.push(format!("- … {} more", n - SKIPPED_SHOWN));
            }
        }
        if self.limit_reached {
            out.push(String::new());
            out.push("Limit reached; narrow paths.".to_string());
        }
        let issues = self.render_issues();
        if !issues.is_empty() {
            out.push(String::new());
            out.extend(issues);
        }
        out.join("\n")
    }

    /// `Parse issues:` (or `Parse issues (20 / N):`) and one `- …` line per issue.
    fn render_issues(&self) -> Vec<String> {
        let total = self.parse_issues.len();
        if total == 0 {
            return Vec::new();
        }
        let shown = total.min(PARSE_ISSUES_SHOWN);
        let header = if total > shown {
            format!("Parse issues ({shown} / {total}):")
        } else {
            "Parse issues:".to_string()
        };
        std::iter::once(header)
            .chain(
                self.parse_issues
                    .iter()
                    .take(shown)
                    .map(|i| format!("- {i}")),
            )
            .collect()
    }

    /// The new bytes of every file with replacements.
    pub fn outputs(&self) -> Vec<(PathBuf, Vec<u8>)> {
        self.files
            .iter()
            .map(|f| (f.abs.clone(), f.rewritten.clone()))
            .collect()
    }

    /// The new bytes of every file that has one of the chosen matches, with only the chosen
    /// matches applied (matches never overlap, so any subset is consistent). An unknown id
    /// refuses the whole choice.
    pub fn apply_only(&self, ids: &[String]) -> Result<Vec<(PathBuf, Vec<u8>)>, AstError> {
        let wanted: HashSet<&str> = ids.iter().map(|s| s.trim()).collect();
        let known: HashSet<&str> = self.ids().collect();
        if let Some(bad) = ids.iter().find(|id| !known.contains(id.trim())) {
            let mut list: Vec<&str> = self.ids().take(10).collect();
            if known.len() > 10 {
                list.push("…");
            }
            return Err(AstError::UnknownMatch {
                id: bad.clone(),
                known: list.join(", "),
            });
        }
        let mut out = Vec::new();
        for file in &self.files {
            let chosen: Vec<&MatchEdit> = file
                .matches
                .iter()
                .filter(|m| wanted.contains(m.id.as_str()))
                .collect();
            if chosen.is_empty() {
                continue;
            }
            out.push((file.abs.clone(), splice(&file.original, pairs(&chosen))));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Preview {
        let original = b"foo(1);\nfoo(2);\n".to_vec();
        let m = |n: usize, range: Range<usize>, line: usize, before: &str, after: &str| MatchEdit {
            id: format!("1:{n}"),
            rule: 0,
            byte_range: range,
            line,
            column: 1,
            before: before.into(),
            after: after.into(),
        };
        Preview {
            files: vec![FileRewrite {
                path: "a.ts".into(),
                abs: PathBuf::from("/r/a.ts"),
                tag: "ABCD".into(),
                original,
                rewritten: b"bar(1);\nbar(2);\n".to_vec(),
                matches: vec![
                    m(1, 0..6, 1, "foo(1)", "bar(1)"),
                    m(2, 8..14, 2, "foo(2)", "bar(2)"),
                ],
            }],
            files_searched: 1,
            ..Preview::default()
        }
    }

    #[test]
    fn renders_seed_rows() {
        assert_eq!(
            sample().render(),
            "¶a.ts#ABCD\n[1:1]\n-1:foo(1)\n+1:bar(1)\n[1:2]\n-2:foo(2)\n+2:bar(2)"
        );
    }

    #[test]
    fn renders_a_multi_line_change_whole_up_to_a_bound() {
        let mut p = sample();
        p.files[0].matches[0].before = "foo(\r\n  a,\r\n  b)".into();
        p.files[0].matches[0].after = (0..10)
            .map(|i| format!("l{i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let text = p.render();
        assert!(
            text.starts_with("¶a.ts#ABCD\n[1:1]\n-1:foo(\n-2:  a,\n-3:  b)\n+1:l0\n+2:l1\n"),
            "{text}"
        );
        assert!(text.contains("\n+8:l7\n+… 2 more lines\n[1:2]\n"), "{text}");
    }

    #[test]
    fn rows_past_the_budget_are_counted_not_shown() {
        let mut p = sample();
        let m = p.files[0].matches[0].clone();
        p.files[0].matches = (0..20_000)
            .map(|n| MatchEdit {
                id: format!("1:{}", n + 1),
                ..m.clone()
            })
            .collect();
        let mut second = p.files[0].clone();
        second.path = "b.ts".into();
        p.files.push(second);
        let text = p.render();
        assert!(text.len() < ROWS_SHOWN_BYTES + 1024, "{}", text.len());
        let shown = text.lines().filter(|l| l.starts_with('[')).count();
        let left = 40_000 - shown;
        assert!(
            text.ends_with(&format!(
                "\n\n… {left} more matches not shown (40000 in all, 1 more file); the preview holds every match: applying it applies them all."
            )),
            "{}",
            &text[text.len() - 300..]
        );
    }

    #[test]
    fn renders_empty_with_capped_issues() {
        let mut p = Preview::default();
        assert_eq!(p.render(), "No replacements made");
        p.parse_issues = (0..25)
            .map(|i| ParseIssue {
                path: None,
                message: format!("f{i}.ts: parse error"),
            })
            .collect();
        let text = p.render();
        assert!(
            text.starts_with("No replacements made\nParse issues (20 / 25):\n- f0.ts: parse error")
        );
        assert_eq!(text.lines().count(), 22);
    }

    #[test]
    fn renders_limit_and_truncates_snippets() {
        let mut p = sample();
        p.files[0].matches[0].before = format!("{}\nsecond", "x".repeat(200));
        p.limit_reached = true;
        let text = p.render();
        assert!(text.contains(&format!("-1:{}\n-2:second\n", "x".repeat(120))));
        assert!(text.ends_with("\n\nLimit reached; narrow paths."));
    }

    #[test]
    fn serde_round_trip_keeps_everything() {
        let p = sample();
        let json = serde_json::to_string(&p).expect("serialize");
        let back: Preview = serde_json::from_str(&json).expect("deserialize");
        assert_eq!(back, p);
    }

    #[test]
    fn apply_only_uses_the_chosen_matches() {
        let p = sample();
        let out = p.apply_only(&["1:2".to_string()]).expect("ok");
        assert_eq!(
            out,
            [(PathBuf::from("/r/a.ts"), b"foo(1);\nbar(2);\n".to_vec())]
        );
        assert!(p.apply_only(&[]).expect("ok").is_empty());
        let err = p.apply_only(&["9:9".to_string()]).expect_err("unknown");
        assert_eq!(err.code(), hashline_core::ErrorCode::BadRef);
        assert!(err.to_string().contains("1:1, 1:2"), "{err}");
    }
}
