//! Terminal rendering of a [`ParseError`] with miette: the message, the stable code
//! `hashline::parse`, and a label on the offending line of the parsed text.

use miette::{Diagnostic, NamedSource, SourceSpan};

use super::ast::ParseError;

/// A parse error attached to the text it points into.
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{message}")]
#[diagnostic(code(hashline::parse))]
struct ParseDiagnostic {
    message: String,
    #[source_code]
    source_code: NamedSource<String>,
    #[label("here")]
    span: SourceSpan,
}

/// Render `err` as a miette diagnostic pointing into `source` (the text that was parsed: the
/// whole input for split errors, the section body for body errors). A span that does not fit
/// `source` is clamped to it, so rendering never fails.
pub fn diagnostic(err: &ParseError, source_name: &str, source: &str) -> miette::Report {
    let start = floor_char_boundary(source, err.span.start.min(source.len()));
    let end = floor_char_boundary(source, err.span.end.clamp(start, source.len()));
    miette::Report::new(ParseDiagnostic {
        message: err.message.clone(),
        source_code: NamedSource::new(source_name, source.to_string()),
        span: (start, end - start).into(),
    })
}

fn floor_char_boundary(s: &str, mut index: usize) -> usize {
    while index > 0 && !s.is_char_boundary(index) {
        index -= 1;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashline::parse_body;

    #[test]
    fn renders_code_message_and_label() {
        let body = "replace 2..2:\n-old\n+new";
        let err = parse_body(body).expect_err("a `-` row is refused");
        let report = diagnostic(&err, "a.ts", body);
        assert_eq!(
            report.code().map(|c| c.to_string()).as_deref(),
            Some("hashline::parse")
        );
        assert!(report
            .to_string()
            .starts_with("line 2: `-` rows are not valid"));
        let labels: Vec<_> = report
            .labels()
            .map(|l| l.collect::<Vec<_>>())
            .unwrap_or_default();
        assert_eq!(labels.len(), 1);
        assert_eq!((labels[0].offset(), labels[0].len()), (14, 4));
        let rendered = format!("{report:?}");
        assert!(rendered.contains("-old"), "{rendered}");
    }

    #[test]
    fn clamps_spans_outside_the_source() {
        let err = ParseError {
            message: "m".into(),
            line: 9,
            span: 50..80,
        };
        let report = diagnostic(&err, "x", "¶é");
        let label = report
            .labels()
            .and_then(|mut l| l.next())
            .map(|l| (l.offset(), l.len()));
        assert_eq!(label, Some(("¶é".len(), 0)));
        let err = ParseError {
            message: "m".into(),
            line: 1,
            span: 1..3,
        };
        let label = diagnostic(&err, "x", "¶é")
            .labels()
            .and_then(|mut l| l.next())
            .map(|l| (l.offset(), l.len()));
        assert_eq!(label, Some((0, 2)));
    }
}
