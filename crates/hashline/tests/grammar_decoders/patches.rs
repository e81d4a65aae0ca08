//! Hashline patches against a grammar: the canonical form of every patch the parser accepts,
//! file names that must be expressible, malformed patches, and sampled texts read back.

use hashline::Dialect;
use hashline_syntax::hashline::{
    canonical, canonical_path, parse_body, split_sections, HunkOp, ParsedBody, Section,
    SplitOptions,
};

use crate::corpus;

/// What a patch means: per section its path, its tag, and its hunks (operation and rows).
type Meaning = Vec<(String, Option<String>, Vec<(HunkOp, Vec<String>)>)>;

/// Split and parse `text` as the engine does; `Err` is the parser's refusal.
fn parse(text: &str, cwd: Option<&str>) -> Result<Vec<(Section, ParsedBody)>, String> {
    let opts = SplitOptions {
        cwd: cwd.map(str::to_string),
        fallback_path: None,
    };
    let sections = split_sections(text, &opts).map_err(|e| e.message)?;
    if sections.is_empty() {
        return Err("No hashline sections found in input.".to_string());
    }
    sections
        .into_iter()
        .map(|s| parse_body(&s.body).map(|b| (s, b)).map_err(|e| e.message))
        .collect()
}

fn meaning(parsed: &[(Section, ParsedBody)]) -> Meaning {
    parsed
        .iter()
        .map(|(s, b)| {
            let hunks = b.hunks.iter().map(|h| (h.op, h.rows.clone())).collect();
            (s.path.clone(), s.tag.clone(), hunks)
        })
        .collect()
}

/// A refusal the grammar cannot express: it does not compare numbers, so a range that ends
/// before it starts, or two hunks deleting one line, pass it.
fn semantic(message: &str) -> bool {
    message.contains("ends before it starts")
        || message.contains("already targeted by another hunk")
}

/// Counts of [`check_corpus`], and what went wrong.
#[derive(Default)]
pub struct Report {
    /// Patches read (fixtures, conformance).
    pub fixtures: usize,
    /// Patches read from the conformance corpus.
    pub cases: usize,
    /// Patches the parser refused (each checked to be rejected by the grammar, or semantic).
    pub refused: usize,
    /// Of those, the ones the grammar cannot tell apart (semantic refusals).
    pub refused_semantic: usize,
    /// Parsed patches with a section lacking its tag (the engine refuses them).
    pub untagged: usize,
    /// Canonical forms checked against the grammar.
    pub checked: usize,
    /// Of those, patches written in the canonical form already (checked verbatim).
    pub verbatim: usize,
    /// The canonical forms checked (a grammar must accept each).
    pub canonical: Vec<String>,
    /// The patches refused by the parser for their syntax (a grammar must reject each).
    pub refused_texts: Vec<String>,
    /// One line per failure.
    pub failures: Vec<String>,
}

impl Report {
    /// The counts in one line.
    pub fn summary(&self) -> String {
        format!(
            "hashline patches: {} (fixtures {}, conformance {}); parser refused {} (grammar rejects {}, \
             {} semantic), missing tag {}; canonical forms accepted {}/{} ({} written canonically); \
             {} failures",
            self.fixtures + self.cases,
            self.fixtures,
            self.cases,
            self.refused,
            self.refused - self.refused_semantic,
            self.refused_semantic,
            self.untagged,
            self.checked - self.failures.len().min(self.checked),
            self.checked,
            self.verbatim,
            self.failures.len()
        )
    }
}

/// Every hashline patch of the fixtures and the conformance corpus: a patch the parser
/// refuses must be rejected by `accepts` (unless the refusal is semantic); a patch it accepts
/// with every tag must have a canonical form that reparses to the same patch and that
/// `accepts` allows.
pub fn check_corpus(accepts: &dyn Fn(&str) -> bool) -> Report {
    let fixtures = corpus::fixture_inputs(Dialect::Hashline);
    let cases = corpus::hashline_cases();
    let mut report = Report {
        fixtures: fixtures.len(),
        cases: cases.len(),
        ..Report::default()
    };
    for input in fixtures.iter().chain(&cases) {
        let parsed = match parse(&input.text, input.cwd.as_deref()) {
            Ok(parsed) => parsed,
            Err(message) => {
                report.refused += 1;
                if semantic(&message) {
                    report.refused_semantic += 1;
                    continue;
                }
                report.refused_texts.push(input.text.clone());
                if accepts(&input.text) {
                    report.failures.push(format!(
                        "{}: the parser refuses it ({message}) but the grammar accepts it",
                        input.name
                    ));
                }
                continue;
            }
        };
        if parsed.iter().any(|(s, _)| s.tag.is_none()) {
            report.untagged += 1;
            continue;
        }
        let Some(text) = canonical(&parsed) else {
            report.failures.push(format!(
                "{}: accepted, but has no canonical form",
                input.name
            ));
            continue;
        };
        report.checked += 1;
        report.verbatim += usize::from(text == input.text);
        report.canonical.push(text.clone());
        match parse(&text, None) {
            Ok(again) if meaning(&again) == meaning(&parsed) => {}
            Ok(_) => report.failures.push(format!(
                "{}: the canonical form {text:?} reads as another patch",
                input.name
            )),
            Err(e) => report.failures.push(format!(
                "{}: the parser refuses the canonical form {text:?}: {e}",
                input.name
            )),
        }
        if !accepts(&text) {
            report.failures.push(format!(
                "{}: the grammar rejects the canonical form {text:?}",
                input.name
            ));
        }
    }
    report
}

/// File names a model must be able to write in a header (spaces, `#`, quotes, Unicode).
pub const PATHS: &[&str] = &[
    "src/my file.ts",
    "dir one/é ü.txt",
    "no #te.txt",
    "#hash.ts",
    "a.ts#1A2B",
    "日本語/ファイル.rs",
    "emoji 🎉 party.md",
    "naïve\u{a0}nbsp.txt",
    "it's.ts",
    "it's here.ts",
    "trailing space ",
    "say \"hi\".txt",
    "C:\\windows\\path.txt",
    "x",
];

/// `path` in a canonical one-hunk patch (`None` when it has no canonical spelling).
pub fn path_patch(path: &str) -> Option<String> {
    let written = canonical_path(path)?;
    Some(format!(
        "*** Begin Patch\n¶{written}#0A3B\ninsert tail:\n+x\n*** End Patch\n"
    ))
}

/// Each of [`PATHS`] in a canonical patch: the parser must read that path back, and `accepts`
/// must allow the patch. One line per failure.
pub fn check_paths(accepts: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut failures = Vec::new();
    for path in PATHS {
        let Some(text) = path_patch(path) else {
            failures.push(format!("{path:?}: no canonical spelling"));
            continue;
        };
        match parse(&text, None) {
            Ok(parsed) if parsed.len() == 1 && parsed[0].0.path == *path => {}
            Ok(parsed) => failures.push(format!(
                "{path:?}: {text:?} names {:?}",
                parsed.first().map(|p| &p.0.path)
            )),
            Err(e) => failures.push(format!("{path:?}: the parser refuses {text:?}: {e}")),
        }
        if !accepts(&text) {
            failures.push(format!("{path:?}: the grammar rejects {text:?}"));
        }
    }
    failures
}

/// Patches outside the canonical form, each with why (several are accepted by the lenient
/// parser, but a decoder must not let a model write them).
pub const MALFORMED: &[(&str, &str)] = &[
    ("no envelope", "¶a.ts#0A3B\nreplace 1..1:\n+x\n"),
    (
        "no end marker",
        "*** Begin Patch\n¶a.ts#0A3B\nreplace 1..1:\n+x\n",
    ),
    ("no section", "*** Begin Patch\n*** End Patch\n"),
    ("no hunk", "*** Begin Patch\n¶a.ts#0A3B\n*** End Patch\n"),
    (
        "no tag",
        "*** Begin Patch\n¶a.ts\nreplace 1..1:\n+x\n*** End Patch\n",
    ),
    (
        "3-hex tag",
        "*** Begin Patch\n¶a.ts#0A3\nreplace 1..1:\n+x\n*** End Patch\n",
    ),
    (
        "5-hex tag",
        "*** Begin Patch\n¶a.ts#0A3B5\nreplace 1..1:\n+x\n*** End Patch\n",
    ),
    (
        "lower-case tag",
        "*** Begin Patch\n¶a.ts#0a3b\nreplace 1..1:\n+x\n*** End Patch\n",
    ),
    (
        "space before tag",
        "*** Begin Patch\n¶a.ts #0A3B\nreplace 1..1:\n+x\n*** End Patch\n",
    ),
    (
        "space after ¶",
        "*** Begin Patch\n¶ a.ts#0A3B\nreplace 1..1:\n+x\n*** End Patch\n",
    ),
    (
        "empty path",
        "*** Begin Patch\n¶#0A3B\nreplace 1..1:\n+x\n*** End Patch\n",
    ),
    (
        "empty quotes",
        "*** Begin Patch\n¶\"\"#0A3B\nreplace 1..1:\n+x\n*** End Patch\n",
    ),
    (
        "unbalanced quote",
        "*** Begin Patch\n¶\"a.ts#0A3B\nreplace 1..1:\n+x\n*** End Patch\n",
    ),
    (
        "tab in path",
        "*** Begin Patch\n¶a\tb.ts#0A3B\nreplace 1..1:\n+x\n*** End Patch\n",
    ),
    (
        "escape in path",
        "*** Begin Patch\n¶a\u{1b}[31m.ts#0A3B\nreplace 1..1:\n+x\n*** End Patch\n",
    ),
    (
        "bidi override in path",
        "*** Begin Patch\n¶a\u{202E}st.ts#0A3B\ninsert tail:\n+x\n*** End Patch\n",
    ),
    (
        "apply_patch noise",
        "*** Begin Patch\n¶*** Update File: a.ts#0A3B\nreplace 1..1:\n+x\n*** End Patch\n",
    ),
    (
        "CRLF line ends",
        "*** Begin Patch\r\n¶a.ts#0A3B\r\nreplace 1..1:\r\n+x\r\n*** End Patch\r\n",
    ),
    (
        "single-number replace",
        "*** Begin Patch\n¶a.ts#0A3B\nreplace 2:\n+x\n*** End Patch\n",
    ),
    (
        "single-number delete",
        "*** Begin Patch\n¶a.ts#0A3B\ndelete 3\n*** End Patch\n",
    ),
    (
        "hyphen range",
        "*** Begin Patch\n¶a.ts#0A3B\nreplace 2-3:\n+x\n*** End Patch\n",
    ),
    (
        "three dots",
        "*** Begin Patch\n¶a.ts#0A3B\nreplace 2...3:\n+x\n*** End Patch\n",
    ),
    (
        "line zero",
        "*** Begin Patch\n¶a.ts#0A3B\nreplace 0..1:\n+x\n*** End Patch\n",
    ),
    (
        "leading zero",
        "*** Begin Patch\n¶a.ts#0A3B\nreplace 01..1:\n+x\n*** End Patch\n",
    ),
    (
        "missing colon",
        "*** Begin Patch\n¶a.ts#0A3B\nreplace 1..1\n+x\n*** End Patch\n",
    ),
    (
        "colon on delete",
        "*** Begin Patch\n¶a.ts#0A3B\ndelete 1..1:\n*** End Patch\n",
    ),
    (
        "rows under delete",
        "*** Begin Patch\n¶a.ts#0A3B\ndelete 1..1\n+x\n*** End Patch\n",
    ),
    (
        "replace without rows",
        "*** Begin Patch\n¶a.ts#0A3B\nreplace 1..1:\n*** End Patch\n",
    ),
    (
        "insert without rows",
        "*** Begin Patch\n¶a.ts#0A3B\ninsert tail:\n*** End Patch\n",
    ),
    (
        "minus row",
        "*** Begin Patch\n¶a.ts#0A3B\nreplace 1..1:\n-old\n+new\n*** End Patch\n",
    ),
    (
        "bare row",
        "*** Begin Patch\n¶a.ts#0A3B\nreplace 1..1:\nnew\n*** End Patch\n",
    ),
    (
        "blank line",
        "*** Begin Patch\n¶a.ts#0A3B\nreplace 1..1:\n+x\n\n*** End Patch\n",
    ),
    (
        "indented header",
        "*** Begin Patch\n¶a.ts#0A3B\n  replace 1..1:\n+x\n*** End Patch\n",
    ),
    (
        "upper-case verb",
        "*** Begin Patch\n¶a.ts#0A3B\nREPLACE 1..1:\n+x\n*** End Patch\n",
    ),
    (
        "text after colon",
        "*** Begin Patch\n¶a.ts#0A3B\nreplace 1..1: x\n+x\n*** End Patch\n",
    ),
    (
        "insert without position",
        "*** Begin Patch\n¶a.ts#0A3B\ninsert:\n+x\n*** End Patch\n",
    ),
    (
        "unified diff",
        "*** Begin Patch\n¶a.ts#0A3B\n@@ -1,2 +1,2 @@\n-a\n+b\n*** End Patch\n",
    ),
    (
        "V4A header",
        "*** Begin Patch\n*** Update File: a.ts\n@@\n-a\n+b\n*** End Patch\n",
    ),
    (
        "text after end",
        "*** Begin Patch\n¶a.ts#0A3B\ninsert tail:\n+x\n*** End Patch\ntrailing\n",
    ),
    (
        "CR in a row",
        "*** Begin Patch\n¶a.ts#0A3B\ninsert tail:\n+x\ry\n*** End Patch\n",
    ),
];

/// `text` (sampled from the grammar) parses, and its canonical form is `text` itself (with the
/// final line feed the grammar leaves optional): the parser reads exactly what the grammar
/// wrote. Ranges that end before they start and overlapping deletes are the grammar's known
/// blind spots and count as reading back.
pub fn reparses_to_itself(text: &str) -> Result<(), String> {
    let parsed = match parse(text, None) {
        Ok(parsed) => parsed,
        Err(message) if semantic(&message) => return Ok(()),
        Err(message) => return Err(format!("the parser refuses it: {message}")),
    };
    let again = canonical(&parsed).ok_or("no canonical form")?;
    let expected = if text.ends_with('\n') {
        text.to_string()
    } else {
        format!("{text}\n")
    };
    if again == expected {
        Ok(())
    } else {
        Err(format!("it reads as {again:?}"))
    }
}

/// [`check_corpus`] against the grammar `name`: prints the counts, panics on a failure.
pub fn assert_corpus(name: &str, accepts: &dyn Fn(&str) -> bool) -> Report {
    let report = check_corpus(accepts);
    if report.cases == 0 {
        return report; // no `../shared`: skipped, and said so
    }
    println!("{name}: {}", report.summary());
    assert!(report.checked > 100, "{name}: {}", report.summary());
    assert!(
        report.failures.is_empty(),
        "{name}:\n{}",
        report.failures.join("\n")
    );
    report
}

/// [`check_paths`] against the grammar `name`: panics on a failure.
pub fn assert_paths(name: &str, accepts: &dyn Fn(&str) -> bool) {
    let failures = check_paths(accepts);
    println!(
        "{name}: {} file names expressible",
        PATHS.len() - failures.len()
    );
    assert!(failures.is_empty(), "{name}:\n{}", failures.join("\n"));
}

/// Every one of [`MALFORMED`] rejected by the grammar `name`: prints the counts, panics on a
/// patch it accepts.
pub fn assert_malformed(name: &str, accepts: &dyn Fn(&str) -> bool) {
    let wrongly: Vec<_> = MALFORMED
        .iter()
        .filter(|(_, text)| accepts(text))
        .map(|(why, text)| format!("accepted ({why}): {text:?}"))
        .collect();
    println!(
        "{name}: {} malformed patches, {} rejected",
        MALFORMED.len(),
        MALFORMED.len() - wrongly.len()
    );
    assert!(wrongly.is_empty(), "{name}:\n{}", wrongly.join("\n"));
}
