//! [`PatchDiagnostic`]: why a hashline patch does not parse, pointing into the text.

use std::ops::Range;

use hashline_syntax::hashline::{parse_body, split_sections, ParseError, SplitOptions};
use miette::{NamedSource, SourceSpan};

/// The first parse error of a hashline patch and the text it points into (the whole patch,
/// or the body of the section it occurs in).
///
/// Its `Display` is the seed's message. It implements [`miette::Diagnostic`] (code
/// `hashline::parse`, a label on the span), so a terminal front end can render it with
/// `miette::Report::new(diagnostic)`; nothing of miette is needed to read it.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{message}")]
#[diagnostic(code(hashline::parse))]
pub struct PatchDiagnostic {
    message: String,
    name: String,
    text: String,
    range: Range<usize>,
    #[source_code]
    source_code: NamedSource<String>,
    #[label("here")]
    label: SourceSpan,
}

impl PatchDiagnostic {
    /// `err` pointing into `text`, named `name`; a span that does not fit `text` is clamped.
    fn new(err: &ParseError, name: &str, text: &str) -> PatchDiagnostic {
        let start = floor_char_boundary(text, err.span.start.min(text.len()));
        let end = floor_char_boundary(text, err.span.end.clamp(start, text.len()));
        PatchDiagnostic {
            message: err.message.clone(),
            name: name.to_owned(),
            text: text.to_owned(),
            range: start..end,
            source_code: NamedSource::new(name, text.to_owned()),
            label: (start, end - start).into(),
        }
    }

    /// The seed's message, e.g. ``line 3: `-` rows are not valid; …``.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// What the span points into: `patch`, or `section ¶PATH` for an error in a section body.
    pub fn source_name(&self) -> &str {
        &self.name
    }

    /// The text the span points into.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The byte range of the offending text in [`PatchDiagnostic::text`].
    pub fn span(&self) -> Range<usize> {
        self.range.clone()
    }

    /// The 1-based line of [`PatchDiagnostic::text`] the span starts on.
    pub fn line(&self) -> usize {
        self.text[..self.range.start].matches('\n').count() + 1
    }
}

/// The first parse error of the hashline patch `patch`, pointing into the patch (or into the
/// section body it occurs in); `None` when it parses.
///
/// ```
/// let d = hashline::parse_diagnostic("¶a.ts#1A2B\nreplace 1..1:\n-old\n+new\n")
///     .expect("a `-` row does not parse");
/// assert_eq!(d.source_name(), "section ¶a.ts");
/// assert_eq!(d.line(), 2);
/// assert!(d.message().contains("`-`"), "{d}");
/// assert!(hashline::parse_diagnostic("¶a.ts#1A2B\nreplace 1..1:\n+new\n").is_none());
/// ```
pub fn parse_diagnostic(patch: &str) -> Option<PatchDiagnostic> {
    let sections = match split_sections(patch, &SplitOptions::default()) {
        Ok(sections) => sections,
        Err(e) => return Some(PatchDiagnostic::new(&e, "patch", patch)),
    };
    sections.iter().find_map(|s| {
        parse_body(&s.body)
            .err()
            .map(|e| PatchDiagnostic::new(&e, &format!("section ¶{}", s.path), &s.body))
    })
}

fn floor_char_boundary(s: &str, mut index: usize) -> usize {
    while index > 0 && !s.is_char_boundary(index) {
        index -= 1;
    }
    index
}
