//! Property: the splitter and the body parser never panic, on random text over the language's
//! own alphabet and on mutated real patches of the conformance corpus, and what they return
//! is self-consistent (spans inside the text, line numbers inside the body).

use std::fs;
use std::sync::OnceLock;

use hashline_syntax::hashline::{diagnostic, parse_body, split_sections, ParseError, SplitOptions};
use proptest::prelude::*;

#[path = "../../../tests-support/shared.rs"]
mod shared;

const CASES: &str = "conformance/hashline/cases";

/// Pieces random inputs are made of: sigils, separators, keywords, numbers (zero, leading
/// zeros, overflowing), markers, line breaks and non-ASCII text.
const ALPHABET: &[&str] = &[
    "¶",
    "#",
    "+",
    "-",
    ".",
    "..",
    "…",
    ":",
    "\n",
    "\n",
    "\n",
    "\r",
    "\r\n",
    " ",
    "  ",
    "\t",
    "0",
    "1",
    "2",
    "3",
    "7",
    "9",
    "05",
    "99999999999999999999",
    "18446744073709551615",
    "replace ",
    "delete ",
    "insert ",
    "before ",
    "after ",
    "head",
    "tail",
    "block ",
    "***",
    "*** ",
    "*** Begin Patch",
    "*** End Patch",
    "*** Abort",
    "*** Update File: ",
    "@@",
    "@@ -1,3 +1,3 @@",
    "a.ts",
    "1A2B",
    "1a2b",
    "\u{FEFF}",
    "é",
    "😀",
    "\"",
    "'",
    "\\",
    "\u{0}",
    "\u{A0}",
    "\u{2028}",
    "Update File:",
    "|",
    "=",
    ",",
    "x",
];

/// Real patches from the corpus (with a concrete tag), to mutate; read once. Empty when
/// `../shared` is missing (the tests that need them are skipped).
fn corpus_patches() -> &'static [String] {
    static PATCHES: OnceLock<Vec<String>> = OnceLock::new();
    PATCHES.get_or_init(read_corpus_patches)
}

fn read_corpus_patches() -> Vec<String> {
    let Some(dir) = shared::path(CASES) else {
        return Vec::new();
    };
    let mut patches: Vec<String> = fs::read_dir(&dir)
        .expect("readable corpus")
        .filter_map(|entry| fs::read_to_string(entry.ok()?.path().join("patch.txt")).ok())
        .map(|patch| patch.replace("{TAG}", "0000").replace("{CWD}", "/work"))
        .collect();
    patches.sort();
    assert!(!patches.is_empty(), "no patch.txt in {CASES}");
    patches
}

/// An edit of a patch: at a char position (taken modulo the length), delete up to `len`
/// chars and insert a piece of the alphabet.
#[derive(Debug, Clone)]
struct Mutation {
    at: usize,
    delete: usize,
    insert: &'static str,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    (any::<usize>(), 0usize..4, prop::sample::select(ALPHABET))
        .prop_map(|(at, delete, insert)| Mutation { at, delete, insert })
}

fn apply(patch: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = patch.chars().collect();
    for m in mutations {
        let at = m.at % (chars.len() + 1);
        let end = (at + m.delete).min(chars.len());
        chars.splice(at..end, m.insert.chars());
    }
    chars.into_iter().collect()
}

fn check_error(err: &ParseError, text: &str, lines: usize) {
    assert!(
        err.span.start <= err.span.end && err.span.end <= text.len(),
        "span {:?} outside {} bytes",
        err.span,
        text.len()
    );
    assert!(text.is_char_boundary(err.span.start) && text.is_char_boundary(err.span.end));
    assert!(err.line <= lines, "line {} beyond {lines} lines", err.line);
    assert!(!err.message.is_empty());
    let _ = format!("{:?}", diagnostic(err, "input", text));
}

/// Split and parse `input` every way the engine can; panics only on an inconsistency.
fn exercise(input: &str) {
    let option_sets = [
        SplitOptions::default(),
        SplitOptions {
            cwd: Some("/work".into()),
            fallback_path: Some("a.ts".into()),
        },
    ];
    for opts in &option_sets {
        match split_sections(input, opts) {
            Err(err) => check_error(&err, input, 0),
            Ok(sections) => {
                for section in sections {
                    let lines = section.body.split('\n').count();
                    assert_eq!(section.body_line_offsets.len(), lines);
                    assert!(section.header_span.end <= input.len());
                    assert!(section.body_line_offsets.iter().all(|&o| o <= input.len()));
                    exercise_body(&section.body);
                }
            }
        }
    }
    exercise_body(input);
}

fn exercise_body(body: &str) {
    let lines = body.split('\n').count();
    match parse_body(body) {
        Err(err) => check_error(&err, body, lines),
        Ok(parsed) => {
            assert!(parsed.warnings.len() <= 1);
            for hunk in parsed.hunks {
                assert!(hunk.header_line >= 1 && hunk.header_line <= lines);
                assert!(
                    body.get(hunk.header_span.clone()).is_some(),
                    "header span {:?}",
                    hunk.header_span
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_text_never_panics(pieces in prop::collection::vec(prop::sample::select(ALPHABET), 0..60)) {
        exercise(&pieces.concat());
    }

    #[test]
    fn random_unicode_never_panics(text in "\\PC{0,80}") {
        exercise(&text);
        exercise(&format!("¶a.ts#1A2B\n{text}"));
        exercise(&format!("¶a.ts#1A2B\nreplace 1..2:\n{text}"));
    }

    #[test]
    fn mutated_corpus_patches_never_panic(index in any::<usize>(), mutations in prop::collection::vec(mutation(), 1..6)) {
        let patches = corpus_patches();
        if patches.is_empty() {
            return Ok(());
        }
        let patch = &patches[index % patches.len()];
        exercise(&apply(patch, &mutations));
    }
}

#[test]
fn whole_corpus_and_huge_numbers() {
    for patch in corpus_patches() {
        exercise(patch);
    }
    let huge = "¶a.ts#1A2B\nreplace 99999999999999999999..99999999999999999999:\n+x\ndelete 1..99999999999999999999999999\n";
    let sections = split_sections(huge, &SplitOptions::default()).expect("splits");
    let err = parse_body(&sections[0].body).expect_err("the delete overlaps the replace");
    assert!(
        err.message
            .starts_with("line 3: anchor line 18446744073709551615 is already targeted"),
        "{}",
        err.message
    );
}

#[test]
fn large_inputs_parse() {
    // 20k sections of 5 hunks each (100k op headers, distinct paths): no quadratic step.
    let mut input = String::new();
    for file in 0..20_000 {
        input.push_str(&format!("¶f{file}.ts#1A2B\n"));
        for hunk in 0..5 {
            input.push_str(&format!(
                "replace {}..{}:\n+x\n",
                hunk * 10 + 1,
                hunk * 10 + 5
            ));
        }
    }
    let started = std::time::Instant::now();
    let sections = split_sections(&input, &SplitOptions::default()).expect("splits");
    let hunks: usize = sections
        .iter()
        .map(|s| parse_body(&s.body).map(|p| p.hunks.len()).unwrap_or(0))
        .sum();
    assert_eq!((sections.len(), hunks), (20_000, 100_000));
    println!("100k hunks split and parsed in {:?}", started.elapsed());
}
