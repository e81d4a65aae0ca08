//! The logos lexers: one classifies a body line by how it begins, the other cuts an op-header
//! candidate into tokens for the chumsky grammar in [`super::op_header`].
//!
//! Lines never contain `\n` here (the splitter and the body parser cut them first), so every
//! pattern is a bounded prefix; whole-line facts ("exactly `*** End Patch`") are checked by
//! comparing the token's span with the line length.

use logos::Logos;

/// How a body line begins.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineLead {
    /// `+` in column 0: a payload row.
    #[token("+")]
    Plus,
    /// `¶` in column 0: a section header (if it parses strictly).
    #[token("¶")]
    Pilcrow,
    /// `*** Begin Patch` plus trailing ASCII white space.
    #[regex(r"\*\*\* Begin Patch[ \t\x0B\x0C\r]*")]
    BeginPatch,
    /// `*** End Patch` plus trailing ASCII white space.
    #[regex(r"\*\*\* End Patch[ \t\x0B\x0C\r]*")]
    EndPatch,
    /// `*** Abort` plus trailing ASCII white space.
    #[regex(r"\*\*\* Abort[ \t\x0B\x0C\r]*")]
    Abort,
    /// Optional ASCII white space and an op verb: an op-header candidate.
    #[regex(r"[ \t\x0B\x0C\r]*(replace|delete|insert)")]
    Verb,
}

/// The classification of one line by its lead (before any grammar check).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lead {
    /// Exactly empty.
    Blank,
    /// `*** Begin Patch` (whole line).
    BeginPatch,
    /// `*** End Patch` (whole line).
    EndPatch,
    /// `*** Abort` (whole line).
    Abort,
    /// Starts with `¶`.
    Pilcrow,
    /// Starts with `+`.
    Plus,
    /// Starts (after ASCII white space) with `replace`, `delete` or `insert`.
    Verb,
    /// Anything else.
    Other,
}

/// Classify `line` (no `\n`, trailing `\r` already removed) by how it begins.
pub(crate) fn lead(line: &str) -> Lead {
    if line.is_empty() {
        return Lead::Blank;
    }
    let mut lexer = LineLead::lexer(line);
    let whole = |lexer: &logos::Lexer<'_, LineLead>| lexer.span().end == line.len();
    match lexer.next() {
        Some(Ok(LineLead::BeginPatch)) if whole(&lexer) => Lead::BeginPatch,
        Some(Ok(LineLead::EndPatch)) if whole(&lexer) => Lead::EndPatch,
        Some(Ok(LineLead::Abort)) if whole(&lexer) => Lead::Abort,
        Some(Ok(LineLead::Pilcrow)) => Lead::Pilcrow,
        Some(Ok(LineLead::Plus)) => Lead::Plus,
        Some(Ok(LineLead::Verb)) => Lead::Verb,
        _ => Lead::Other,
    }
}

/// Tokens of an op header (`replace 2..3:`, `insert after 5`, `delete block 7` …).
///
/// Keywords are lower-case only. A keyword or number glued to letters or digits lexes as one
/// [`OpTok::Word`] (`replace2`, `before2`, `02`, `2x`), which no grammar rule accepts; so a
/// keyword must be followed by white space, `:`, a separator or the end.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OpTok {
    /// `replace`
    #[token("replace")]
    Replace,
    /// `delete`
    #[token("delete")]
    Delete,
    /// `insert`
    #[token("insert")]
    Insert,
    /// `block`
    #[token("block")]
    Block,
    /// `before`
    #[token("before")]
    Before,
    /// `after`
    #[token("after")]
    After,
    /// `head`
    #[token("head")]
    Head,
    /// `tail`
    #[token("tail")]
    Tail,
    /// `[1-9][0-9]*`, saturating at `u64::MAX`.
    #[regex("[1-9][0-9]*", |lex| saturating_number(lex.slice()), priority = 3)]
    Number(u64),
    /// `..`
    #[token("..")]
    DotDot,
    /// `-`
    #[token("-")]
    Dash,
    /// `…` (U+2026)
    #[token("…")]
    Ellipsis,
    /// `:`
    #[token(":")]
    Colon,
    /// A run of ASCII white space.
    #[regex(r"[ \t\n\x0B\x0C\r]+")]
    Space,
    /// Letters/digits that are not a keyword or a valid number.
    #[regex("[A-Za-z0-9_]+", priority = 1)]
    Word,
}

/// Decimal digits to `u64`, saturating instead of overflowing.
pub(crate) fn saturating_number(digits: &str) -> u64 {
    digits
        .bytes()
        .filter(u8::is_ascii_digit)
        .fold(0u64, |n, d| {
            n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
        })
}

/// Lex an op-header candidate; `None` when some character is not part of the op language.
pub(crate) fn op_tokens(text: &str) -> Option<Vec<OpTok>> {
    OpTok::lexer(text).collect::<Result<Vec<_>, _>>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_leads() {
        assert_eq!(lead(""), Lead::Blank);
        assert_eq!(lead("*** Begin Patch"), Lead::BeginPatch);
        assert_eq!(lead("*** End Patch \t"), Lead::EndPatch);
        assert_eq!(lead("*** Abort\r"), Lead::Abort);
        assert_eq!(lead("*** Abort x"), Lead::Other);
        assert_eq!(lead(" *** Abort"), Lead::Other);
        assert_eq!(lead("*** End Patch\u{a0}"), Lead::Other);
        assert_eq!(lead("+x"), Lead::Plus);
        assert_eq!(lead("¶a.ts"), Lead::Pilcrow);
        assert_eq!(lead("  replace 1:"), Lead::Verb);
        assert_eq!(lead("Replace 1:"), Lead::Other);
        assert_eq!(lead("é"), Lead::Other);
    }

    #[test]
    fn lexes_op_tokens() {
        use OpTok::*;
        assert_eq!(
            op_tokens("replace 2..30:"),
            Some(vec![Replace, Space, Number(2), DotDot, Number(30), Colon])
        );
        assert_eq!(op_tokens("replace2"), Some(vec![Word]));
        assert_eq!(op_tokens("02"), Some(vec![Word]));
        assert_eq!(op_tokens("2…3"), Some(vec![Number(2), Ellipsis, Number(3)]));
        assert_eq!(op_tokens("2.3"), None);
        assert_eq!(op_tokens("2é"), None);
        assert_eq!(
            op_tokens("99999999999999999999999"),
            Some(vec![Number(u64::MAX)])
        );
    }
}
