//! Splitting the tool input into `¶PATH#TAG` sections (hashline.md §b "Section splitting").
//! Purely lexical: no file is looked at.

use std::collections::HashMap;
use std::ops::Range;

use super::ast::{ParseError, Section, SplitOptions};
use super::contamination::is_unified_diff_header;
use super::header::{normalize_path, parse_header_line, HeaderLine, PILCROW};
use super::js_text::{js_trim, js_trim_end};
use super::lexer::{lead, Lead};
use super::messages;
use super::op_header::parse_op_header;

/// Split the whole tool input into sections.
///
/// A leading U+FEFF is dropped; leading blank and `*** Begin Patch` lines are dropped; the
/// first remaining line must be a header (else the seed's first-line errors); `*** End Patch`
/// / `*** Abort` stop splitting; every `¶` line must be a strict or recovered header; sections
/// whose body is blank are dropped; same-path sections are merged in order of first
/// appearance (different tags → the seed's conflict error). Zero sections is `Ok(vec![])`.
/// Errors carry line 0 and a span into `input`.
pub fn split_sections(input: &str, opts: &SplitOptions) -> Result<Vec<Section>, ParseError> {
    let cwd = opts.cwd.as_deref();
    let bom = if input.starts_with('\u{FEFF}') {
        '\u{FEFF}'.len_utf8()
    } else {
        0
    };
    let lines = input_lines(input, bom);

    let mut current = fallback_header(&lines, opts)?.map(|header| OpenSection::new(header, 0..0));
    let mut rest: &[InputLine<'_>] = &lines;
    if current.is_none() {
        rest = skip_leading_noise(rest);
        check_first_line(rest.first(), input.len(), cwd)?;
    }

    let mut raw_sections: Vec<OpenSection> = Vec::new();
    for line in rest {
        match lead(line.text) {
            Lead::EndPatch | Lead::Abort => break,
            Lead::BeginPatch => continue,
            _ => {}
        }
        if line.text.starts_with(PILCROW) {
            if let Some(header) = parse_header_line(line.text, cwd).map_err(|m| line.error(m))? {
                raw_sections.extend(current.take().filter(OpenSection::has_content));
                current = Some(OpenSection::new(header, line.span.clone()));
                continue;
            }
        }
        if let Some(section) = current.as_mut() {
            section.lines.push((line.span.start, line.text));
        }
    }
    raw_sections.extend(current.take().filter(OpenSection::has_content));
    merge_same_path(raw_sections)
}

/// One line of the input with its byte span (line terminator excluded).
#[derive(Debug, Clone)]
struct InputLine<'a> {
    span: Range<usize>,
    text: &'a str,
}

impl InputLine<'_> {
    fn error(&self, message: String) -> ParseError {
        ParseError {
            message,
            line: 0,
            span: self.span.clone(),
        }
    }
}

/// Lines split on `\r?\n` (as the seed does: a `\r` not before `\n` stays), after `skip` bytes.
fn input_lines(input: &str, skip: usize) -> Vec<InputLine<'_>> {
    let mut lines = Vec::new();
    let mut start = skip;
    let text = input.get(skip..).unwrap_or_default();
    let mut pieces = text.split('\n').peekable();
    while let Some(piece) = pieces.next() {
        let before_newline = pieces.peek().is_some();
        let text = if before_newline {
            piece.strip_suffix('\r').unwrap_or(piece)
        } else {
            piece
        };
        lines.push(InputLine {
            span: start..start + text.len(),
            text,
        });
        start += piece.len() + 1;
    }
    lines
}

/// Drop leading lines that are blank or `*** Begin Patch`.
fn skip_leading_noise<'l, 'a>(lines: &'l [InputLine<'a>]) -> &'l [InputLine<'a>] {
    let noise = |line: &InputLine<'_>| {
        let text = line.text.strip_suffix('\r').unwrap_or(line.text);
        js_trim(text).is_empty() || lead(text) == Lead::BeginPatch
    };
    let skipped = lines.iter().take_while(|line| noise(line)).count();
    &lines[skipped..]
}

/// The first remaining line must be a section header.
fn check_first_line(
    first: Option<&InputLine<'_>>,
    input_len: usize,
    cwd: Option<&str>,
) -> Result<(), ParseError> {
    let (text, span) = first.map_or(("", input_len..input_len), |l| (l.text, l.span.clone()));
    let error = |message: String| ParseError {
        message,
        line: 0,
        span: span.clone(),
    };
    if parse_header_line(text, cwd).map_err(error)?.is_some() {
        return Ok(());
    }
    if is_unified_diff_header(js_trim_end(text)) {
        return Err(error(messages::UNIFIED_DIFF_FIRST_LINE.to_string()));
    }
    Err(error(messages::input_must_begin(text)))
}

/// The streaming-preview fallback: with `fallback_path`, an input with no header line and at
/// least one op header gets a synthetic `¶<fallback>` header.
fn fallback_header(
    lines: &[InputLine<'_>],
    opts: &SplitOptions,
) -> Result<Option<HeaderLine>, ParseError> {
    let Some(fallback) = opts.fallback_path.as_deref() else {
        return Ok(None);
    };
    let cwd = opts.cwd.as_deref();
    for line in lines {
        if parse_header_line(line.text, cwd)
            .map_err(|m| line.error(m))?
            .is_some()
        {
            return Ok(None);
        }
    }
    if !lines
        .iter()
        .any(|line| parse_op_header(line.text).is_some())
    {
        return Ok(None);
    }
    let path = normalize_path(fallback, cwd);
    if path.is_empty() {
        return Ok(None);
    }
    let synthetic = format!("{PILCROW}{path}");
    parse_header_line(&synthetic, cwd).map_err(|message| ParseError {
        message,
        line: 0,
        span: 0..0,
    })
}

/// A section being collected.
#[derive(Debug)]
struct OpenSection<'a> {
    header: HeaderLine,
    header_span: Range<usize>,
    lines: Vec<(usize, &'a str)>,
}

impl<'a> OpenSection<'a> {
    fn new(header: HeaderLine, header_span: Range<usize>) -> Self {
        OpenSection {
            header,
            header_span,
            lines: Vec::new(),
        }
    }

    fn has_content(&self) -> bool {
        self.lines.iter().any(|(_, text)| !js_trim(text).is_empty())
    }

    fn body(&self) -> String {
        self.lines
            .iter()
            .map(|(_, text)| *text)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Merge sections with the same path string, in order of first appearance.
fn merge_same_path(raw: Vec<OpenSection<'_>>) -> Result<Vec<Section>, ParseError> {
    let mut merged: Vec<Section> = Vec::new();
    let mut index_of_path: HashMap<String, usize> = HashMap::new();
    for section in raw {
        let body = section.body();
        let offsets = section.lines.iter().map(|(offset, _)| *offset);
        let existing = index_of_path
            .get(&section.header.path)
            .and_then(|&i| merged.get_mut(i));
        let Some(existing) = existing else {
            index_of_path.insert(section.header.path.clone(), merged.len());
            merged.push(Section {
                path: section.header.path.clone(),
                tag: section.header.tag.clone(),
                body,
                header_span: section.header_span.clone(),
                body_line_offsets: offsets.collect(),
            });
            continue;
        };
        match (&existing.tag, &section.header.tag) {
            (Some(first), Some(second)) if first != second => {
                return Err(ParseError {
                    message: messages::conflicting_tags(&existing.path, first, second),
                    line: 0,
                    span: section.header_span.clone(),
                });
            }
            (None, Some(tag)) => existing.tag = Some(tag.clone()),
            _ => {}
        }
        existing.body.push('\n');
        existing.body.push_str(&body);
        existing.body_line_offsets.extend(offsets);
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(input: &str) -> Result<Vec<(String, Option<String>, String)>, String> {
        split_with(input, &SplitOptions::default())
    }

    fn split_with(
        input: &str,
        opts: &SplitOptions,
    ) -> Result<Vec<(String, Option<String>, String)>, String> {
        split_sections(input, opts)
            .map(|sections| {
                sections
                    .into_iter()
                    .map(|s| (s.path, s.tag, s.body))
                    .collect()
            })
            .map_err(|e| e.message)
    }

    fn section(path: &str, tag: Option<&str>, body: &str) -> (String, Option<String>, String) {
        (path.to_string(), tag.map(str::to_string), body.to_string())
    }

    #[test]
    fn splits_and_normalizes() {
        assert_eq!(
            split("¶a.ts#1a2b\nreplace 1..1:\n+after"),
            Ok(vec![section("a.ts", Some("1A2B"), "replace 1..1:\n+after")])
        );
        assert_eq!(
            split("\u{FEFF}\n  \n*** Begin Patch\n\n¶foo.ts\ninsert head:\n+x\n"),
            Ok(vec![section("foo.ts", None, "insert head:\n+x\n")])
        );
        assert_eq!(
            split("¶a.ts\ninsert head:\n+a\n¶b.ts\ninsert tail:\n+b"),
            Ok(vec![
                section("a.ts", None, "insert head:\n+a"),
                section("b.ts", None, "insert tail:\n+b")
            ])
        );
        assert_eq!(
            split("¶a.ts\r\ninsert head:\r\n+a\r\n"),
            Ok(vec![section("a.ts", None, "insert head:\n+a\n")])
        );
        assert_eq!(
            split("¶a.ts\n+a\r"),
            Ok(vec![section("a.ts", None, "+a\r")])
        );
    }

    #[test]
    fn drops_blank_sections() {
        assert_eq!(
            split("¶a.ts\ninsert head:\n+a\n¶b.ts"),
            Ok(vec![section("a.ts", None, "insert head:\n+a")])
        );
        assert_eq!(split("¶a.ts\n \n\t\n¶b.ts#1A2B\n"), Ok(vec![]));
    }

    #[test]
    fn envelopes_and_abort_stop_splitting() {
        assert_eq!(
            split("*** Begin Patch\n¶a.ts#1A2B\n*** Begin Patch\ndelete 1\n*** End Patch\n¶b.ts\n+junk"),
            Ok(vec![section("a.ts", Some("1A2B"), "delete 1")])
        );
        assert_eq!(
            split("¶a.ts#1A2B\ndelete 1\n*** Abort  \n¶ bad header"),
            Ok(vec![section("a.ts", Some("1A2B"), "delete 1")])
        );
        assert_eq!(
            split("¶a.ts#1A2B\ndelete 1\n *** Abort"),
            Ok(vec![section("a.ts", Some("1A2B"), "delete 1\n *** Abort")])
        );
    }

    #[test]
    fn first_line_errors() {
        assert_eq!(
            split("@@ -1,3 +1,3 @@\n+x"),
            Err(messages::UNIFIED_DIFF_FIRST_LINE.to_string())
        );
        let must_begin = |got: &str| {
            format!("input must begin with \"¶PATH#HASH\" on the first non-blank line for anchored edits; got: {got}. Example: \"¶src/foo.ts#0A3\" then edit ops.")
        };
        assert_eq!(
            split("replace 1..1:\n+x"),
            Err(must_begin("\"replace 1..1:\""))
        );
        assert_eq!(split(""), Err(must_begin("\"\"")));
        assert_eq!(split(" \n\r\n*** Begin Patch"), Err(must_begin("\"\"")));
        assert_eq!(split("*** End Patch"), Err(must_begin("\"*** End Patch\"")));
        let long = "x".repeat(130);
        assert_eq!(
            split(&long),
            Err(must_begin(&format!("\"{}\"", "x".repeat(120))))
        );
        assert_eq!(split("\"a\"\tb"), Err(must_begin("\"\\\"a\\\"\\tb\"")));
    }

    #[test]
    fn header_errors() {
        let bad = "Input header must be ¶PATH or ¶PATH#TAG with a 4-hex content-hash tag; got \"¶a.ts #1A2B\".";
        assert_eq!(split("¶a.ts #1A2B\ndelete 1"), Err(bad.to_string()));
        assert_eq!(
            split("¶a.ts#1A2B\ndelete 1\n¶a.ts #1A2B\ndelete 2"),
            Err(bad.to_string())
        );
        assert_eq!(
            split("¶''\ndelete 1"),
            Err(messages::EMPTY_HEADER.to_string())
        );
        let err = split_sections("¶a.ts\ndelete 1\n¶\n", &SplitOptions::default())
            .expect_err("bad header");
        assert_eq!((err.line, err.span), (0, 16..18));
    }

    #[test]
    fn merges_same_path_sections() {
        let input =
            "¶a.ts\nreplace 2..2:\n+x\n¶b.ts#0000\ndelete 1\n¶a.ts#1A2B\ninsert after 8:\n+y";
        assert_eq!(
            split(input),
            Ok(vec![
                section(
                    "a.ts",
                    Some("1A2B"),
                    "replace 2..2:\n+x\ninsert after 8:\n+y"
                ),
                section("b.ts", Some("0000"), "delete 1")
            ])
        );
        let sections = split_sections(input, &SplitOptions::default()).expect("splits");
        let starts: Vec<&str> = sections[0]
            .body_line_offsets
            .iter()
            .map(|&o| &input[o..o + 2])
            .collect();
        assert_eq!(starts, ["re", "+x", "in", "+y"]);
        assert_eq!(&input[sections[1].header_span.clone()], "¶b.ts#0000");
        assert_eq!(
            split("¶a.ts#1A2B\ndelete 1\n¶a.ts#1a2c\ndelete 2"),
            Err("Conflicting hashline snapshot tags for a.ts: #1A2B and #1A2C. Re-read the file and retry with one current header.".to_string())
        );
        assert_eq!(
            split("¶a.ts#1A2B\ndelete 1\n¶./a.ts#FFFF\ndelete 2").map(|s| s.len()),
            Ok(2)
        );
    }

    #[test]
    fn cwd_and_fallback_options() {
        let opts = SplitOptions {
            cwd: Some("/work/p".into()),
            fallback_path: None,
        };
        assert_eq!(
            split_with("¶/work/p/src/a.ts#1A2B\ndelete 1", &opts),
            Ok(vec![section("src/a.ts", Some("1A2B"), "delete 1")])
        );
        assert_eq!(
            split_with("¶\"/tmp/a.ts\"\ndelete 1", &opts),
            Ok(vec![section("/tmp/a.ts", None, "delete 1")])
        );
        let fallback = SplitOptions {
            cwd: None,
            fallback_path: Some("a.ts".into()),
        };
        assert_eq!(
            split_with("insert head:\n+x", &fallback),
            Ok(vec![section("a.ts", None, "insert head:\n+x")])
        );
        assert_eq!(
            split_with("\ninsert head:\n+x", &fallback),
            Ok(vec![section("a.ts", None, "\ninsert head:\n+x")])
        );
        assert!(split_with("just words", &fallback).is_err());
        assert_eq!(
            split_with("¶b.ts\ninsert head:\n+x", &fallback),
            Ok(vec![section("b.ts", None, "insert head:\n+x")])
        );
    }
}
