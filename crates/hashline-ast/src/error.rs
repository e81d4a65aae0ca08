//! [`AstError`]: every refusal of an ast_edit call, each with a stable [`ErrorCode`] and a message
//! that tells the model what to do next.

use std::path::PathBuf;

use hashline_core::ErrorCode;
use thiserror::Error;

/// Why an ast_edit call (or applying part of its preview) was refused. Nothing was written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum AstError {
    /// The call has no rules.
    #[error("`ops` must include at least one op entry")]
    NoRules,
    /// A rule's pattern is empty.
    #[error("`ops[{index}].pat` must be a non-empty pattern")]
    EmptyPattern {
        /// Index of the rule in the request.
        index: usize,
    },
    /// Two rules share a pattern.
    #[error("Duplicate rewrite pattern: {pattern}")]
    DuplicatePattern {
        /// The repeated pattern.
        pattern: String,
    },
    /// A rewrite template uses a metavariable its pattern does not capture (it would expand to
    /// nothing).
    #[error(
        "rewrite `{rewrite}` uses {vars} but pattern `{pattern}` does not capture {them}; capture it in `pat` (e.g. `$NAME` or `$$$NAME`) or remove it from `out`"
    , them = if .vars.contains(',') { "them" } else { "it" })]
    UndefinedVariable {
        /// The rule's pattern.
        pattern: String,
        /// The rule's rewrite template.
        rewrite: String,
        /// The undefined variables, rendered `$A, $B`.
        vars: String,
    },
    /// The call names no path.
    #[error("`paths` must include at least one file, directory or glob")]
    NoPaths,
    /// A path entry is empty.
    #[error("`paths[{index}]` is empty; give a file, directory or glob")]
    EmptyPath {
        /// Index of the entry.
        index: usize,
    },
    /// A named path does not exist.
    #[error("path not found: {path}; check the spelling or give a directory or glob that exists")]
    PathNotFound {
        /// The path as the request wrote it.
        path: String,
    },
    /// A named path resolves outside the workspace root.
    #[error("path {path} resolves outside the workspace root; give a path inside it")]
    OutsideRoot {
        /// The path as the request wrote it.
        path: String,
    },
    /// A named path lies in the caller's state directory ([`crate::RewriteRequest::exclude`]).
    #[error(
        "{path} is inside hashline's state directory (--state), which no command reads or \
         writes; name a file of the project"
    )]
    InStateDir {
        /// The path as the request wrote it.
        path: String,
    },
    /// A rule's pattern compiles for none of the languages of the files searched.
    #[error(
        "pattern `{pattern}` does not compile ({detail}). Nothing was searched or queued; fix the pattern (`pat`) and run ast-edit again"
    )]
    PatternDoesNotCompile {
        /// The pattern as written.
        pattern: String,
        /// Why, per language (`javascript: …`).
        detail: String,
    },
    /// A glob does not compile.
    #[error("invalid glob `{glob}`: {reason}")]
    BadGlob {
        /// The glob text.
        glob: String,
        /// What globset reported.
        reason: String,
    },
    /// An explicit `lang` that is unknown or not built in.
    #[error("unsupported language `{name}`; built-in languages: {available}")]
    UnsupportedLanguage {
        /// The requested language.
        name: String,
        /// The compiled-in languages, comma-separated.
        available: String,
    },
    /// No candidate file has a language this build can parse.
    #[error(
        "ast_edit found no supported source files for the given path/glob; name files with a known extension or pass `lang` (built-in: {available})"
    )]
    NoSupportedFiles {
        /// The compiled-in languages, comma-separated.
        available: String,
    },
    /// Matches of two different rules overlap in one file.
    #[error(
        "Overlapping replacements detected; refine pattern to avoid ambiguous edits: rule `{first_rule}` at {first_at} and rule `{second_rule}` at {second_at} overlap. Nothing was changed; narrow one pattern or run the rules in separate ast_edit calls"
    )]
    EditConflict {
        /// Pattern of the rule whose match starts first.
        first_rule: String,
        /// `path:line:column` of that match.
        first_at: String,
        /// Pattern of the other rule.
        second_rule: String,
        /// `path:line:column` of the other match.
        second_at: String,
    },
    /// A rewrite would add a syntax error to a file that parsed cleanly (the request did not
    /// allow it). Nothing was planned or queued.
    #[error(
        "[E_SYNTAX_INTRODUCED] {path}: the rewrite would add a syntax error at {line}:{column} ({what}). Nothing was queued.\nThe file as it would be, around line {line}:\n{excerpt}\nFix the rewrite (`out`) or narrow the pattern (`pat`) and run ast-edit again; if the broken state is meant (or the parser does not know this syntax), resend with --allow-syntax-errors"
    )]
    SyntaxIntroduced {
        /// Display path of the file.
        path: String,
        /// 1-based line of the rewritten file where the parser found the error.
        line: usize,
        /// 1-based character column on that line.
        column: usize,
        /// What the parser saw.
        what: String,
        /// The rewritten lines around the error, numbered, the error line marked `>`.
        excerpt: String,
    },
    /// `apply_only` named a match the preview does not have.
    #[error("unknown match id `{id}`; this preview's ids are {known}")]
    UnknownMatch {
        /// The id asked for.
        id: String,
        /// The preview's ids (abbreviated).
        known: String,
    },
    /// The caller cancelled the call while it ran ([`crate::preview_cancellable`]); nothing
    /// was planned.
    #[error("ast_edit was cancelled while it ran; nothing was queued and nothing was written")]
    Cancelled,
    /// The workspace root cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The path that failed.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

impl AstError {
    /// The stable error code of this refusal.
    pub fn code(&self) -> ErrorCode {
        match self {
            AstError::NoRules | AstError::NoPaths | AstError::EmptyPath { .. } => {
                ErrorCode::BadShape
            }
            AstError::BadGlob { .. } => ErrorCode::BadShape,
            AstError::EmptyPattern { .. }
            | AstError::DuplicatePattern { .. }
            | AstError::UndefinedVariable { .. }
            | AstError::PatternDoesNotCompile { .. } => ErrorCode::BadPattern,
            AstError::PathNotFound { .. } => ErrorCode::FileNotFound,
            AstError::OutsideRoot { .. } => ErrorCode::OutsideRoot,
            AstError::InStateDir { .. } => ErrorCode::StatePath,
            AstError::UnsupportedLanguage { .. } | AstError::NoSupportedFiles { .. } => {
                ErrorCode::UnsupportedLanguage
            }
            AstError::EditConflict { .. } => ErrorCode::EditConflict,
            AstError::UnknownMatch { .. } => ErrorCode::BadRef,
            AstError::SyntaxIntroduced { .. } => ErrorCode::SyntaxIntroduced,
            AstError::Io { .. } => ErrorCode::Io,
            AstError::Cancelled => ErrorCode::Cancelled,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_messages() {
        let e = AstError::DuplicatePattern {
            pattern: "foo($A)".into(),
        };
        assert_eq!(e.code(), ErrorCode::BadPattern);
        assert_eq!(e.to_string(), "Duplicate rewrite pattern: foo($A)");
        let e = AstError::UndefinedVariable {
            pattern: "foo($A)".into(),
            rewrite: "bar($B)".into(),
            vars: "$B".into(),
        };
        assert!(e.to_string().contains("does not capture it"), "{e}");
        assert_eq!(AstError::NoRules.code(), ErrorCode::BadShape);
    }
}
