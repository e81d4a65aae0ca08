//! Structural rewrites with ast-grep (ast_edit) and the tree-sitter block resolver for
//! `replace block N:`.
//!
//! * [`TreeSitterBlocks`]: the [`hashline_core::BlockResolver`] the hashline engine uses.
//! * [`preview()`]: plan an ast_edit call ([`RewriteRequest`] → [`Preview`]); nothing is written.
//!   [`Preview::render`] gives the seed's text, [`Preview::outputs`] / [`Preview::apply_only`]
//!   the bytes to write (the caller writes them transactionally after its staleness check).
//! * [`TreeSitterSyntax`]: the [`hashline_core::SyntaxCheck`] of the edit guard
//!   (`E_SYNTAX_INTRODUCED`); [`preview()`] runs the same check on every rewritten file.
//! * [`lang`]: the language catalog (aliases, extensions, which grammars are compiled in).
//!
//! ```
//! # #[cfg(feature = "lang-typescript")] {
//! use hashline_ast::{preview, RewriteRequest, Rule};
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.ts"), "foo(foo(1));\n").unwrap();
//! let req = RewriteRequest::new(dir.path(), vec![Rule::new("foo($A)", "bar($A)")], vec![".".into()]);
//! let plan = preview(&req).unwrap();
//! assert_eq!(plan.files[0].rewritten, b"bar(foo(1));\n"); // the nested match yields
//! assert_eq!(plan.skipped.len(), 1);
//! assert!(plan.render().starts_with("¶a.ts#"));
//! # }
//! ```
//!
//! Grammars are Cargo features (`lang-core`, `lang-edit`, `lang-all`, or one `lang-<name>`
//! each); a language whose grammar is not compiled in is reported as unsupported, never parsed.

pub mod block;
mod compile;
mod engine;
pub mod error;
mod files;
mod gaps;
pub mod lang;
mod literal;
pub mod preview;
pub mod request;
mod rewrite;
mod stretches;
pub mod syntax;
mod tree;

pub use block::TreeSitterBlocks;
pub use engine::{preview, preview_cancellable, preview_in, preview_with_progress};
pub use error::AstError;
pub use preview::{splice_matches, FileRewrite, MatchEdit, ParseIssue, Preview, SkippedMatch};
pub use request::{RewriteRequest, Rule, Strictness, DEFAULT_MAX_FILES};
pub use syntax::TreeSitterSyntax;
pub use tree::{SourceKind, SourceTree};
