//! The hashline patch language: `split_sections` and `parse_body` on any text.

use hashline_syntax::hashline::{diagnostic, parse_body, split_sections, ParseError, SplitOptions};

/// Split `input` with and without a cwd/fallback path, parse every section body and the whole
/// input as a body; check every returned span and line number.
pub fn check(input: &str) {
    let option_sets = [
        SplitOptions::default(),
        SplitOptions {
            cwd: Some("/work".into()),
            fallback_path: Some("a.ts".into()),
        },
    ];
    for opts in &option_sets {
        match split_sections(input, opts) {
            Err(err) => {
                assert_eq!(err.line, 0, "split errors carry line 0: {err:?}");
                check_error(&err, input, 0);
            }
            Ok(sections) => {
                for section in &sections {
                    let lines = section.body.split('\n').count();
                    assert_eq!(
                        section.body_line_offsets.len(),
                        lines,
                        "one offset per body line"
                    );
                    assert!(
                        section.header_span.start <= section.header_span.end
                            && section.header_span.end <= input.len(),
                        "header span {:?} outside {} bytes",
                        section.header_span,
                        input.len()
                    );
                    assert!(
                        input.is_char_boundary(section.header_span.start)
                            && input.is_char_boundary(section.header_span.end),
                        "header span {:?} not on char boundaries",
                        section.header_span
                    );
                    for &offset in &section.body_line_offsets {
                        assert!(offset <= input.len(), "body offset {offset} outside input");
                        assert!(input.is_char_boundary(offset), "body offset {offset}");
                    }
                    if let Some(tag) = &section.tag {
                        assert!(
                            tag.len() == 4
                                && tag
                                    .bytes()
                                    .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b)),
                            "tag {tag:?} is not 4 upper-hex"
                        );
                    }
                    check_body(&section.body);
                }
            }
        }
    }
    check_body(input);
}

/// Parse `body` as one section body.
pub fn check_body(body: &str) {
    let lines = body.split('\n').count();
    match parse_body(body) {
        Err(err) => check_error(&err, body, lines),
        Ok(parsed) => {
            assert!(parsed.warnings.len() <= 1, "at most one auto-pipe warning");
            for hunk in &parsed.hunks {
                assert!(
                    hunk.header_line >= 1 && hunk.header_line <= lines,
                    "header line {} outside 1..={lines}",
                    hunk.header_line
                );
                assert!(
                    body.get(hunk.header_span.clone()).is_some(),
                    "hunk header span {:?} not a char range of the body",
                    hunk.header_span
                );
            }
        }
    }
}

/// A refusal's span lies inside `text` on char boundaries, its line inside the text, and its
/// miette diagnostic labels exactly that span.
pub fn check_error(err: &ParseError, text: &str, lines: usize) {
    assert!(
        err.span.start <= err.span.end && err.span.end <= text.len(),
        "span {:?} outside {} bytes: {}",
        err.span,
        text.len(),
        err.message
    );
    assert!(
        text.is_char_boundary(err.span.start) && text.is_char_boundary(err.span.end),
        "span {:?} not on char boundaries: {}",
        err.span,
        err.message
    );
    assert!(err.line <= lines, "line {} beyond {lines} lines", err.line);
    assert!(!err.message.is_empty(), "empty message");
    // Build the miette report and check its label; rendering it graphically is miette's code
    // (textwrap, ICU line breaking) and would take most of the time, so it is not done here.
    let report = diagnostic(err, "input", text);
    assert_eq!(report.to_string(), err.message);
    let labels: Vec<_> = report.labels().map(Iterator::collect).unwrap_or_default();
    assert_eq!(labels.len(), 1, "one label");
    assert_eq!(
        (labels[0].offset(), labels[0].len()),
        (err.span.start, err.span.end - err.span.start),
        "the label is the error's span"
    );
}
