//! hashline: read files with anchors, apply small anchored patches exactly or refuse them.
//!
//! This facade composes the engine crates into one API and the `hashline` command line.
//! Embed it in an agent like this:
//!
//! ```no_run
//! use hashline::{Anchors, Dialect, Engine, EngineConfig};
//!
//! let engine = Engine::open(EngineConfig::in_memory("."))?;
//! let read = engine.read("src/main.rs", &hashline::ReadOptions::default());
//! println!("{}", read.text);            // ¶src/main.rs#1A2B, then N:TEXT rows
//! let out = engine.edit("¶src/main.rs#1A2B\nreplace 1..1:\n+// new first line\n", Dialect::Auto, false);
//! assert!(out.ok || out.code.is_some());
//! # let _ = Anchors::Tag;
//! # Ok::<(), hashline::Error>(())
//! ```
//!
//! Structural rewrites go through a queue: [`Engine::ast_edit`] previews and queues,
//! [`Engine::resolve`] applies (after checking that no previewed file changed), discards or
//! lists.
//!
//! [`Session`] runs the commands as the `hashline` CLI does and returns a [`Response`] (the
//! [`Outcome`] and the `--json` object); the CLI and the MCP server ([`mcp`], `hashline mcp`)
//! are thin layers over it.
//!
//! Every call returns an [`Outcome`]: `text` is exactly what the seed tool of that dialect
//! would return to the model; `ok`, `code`, `warnings` and `files` are the structured facts.
//! A refused call leaves every file byte-identical.
//!
//! Layers below this crate: `hashline-core` (IR, text model, codes), `hashline-anchor`
//! (tags, hashes, IDs), `hashline-syntax` (parsers), `hashline-state` (snapshot store),
//! `hashline-apply` (engines and the writer), `hashline-ast` (tree-sitter), `hashline-queue`.

mod ast_edit;
mod dialect;
mod engine;
mod fresh;
pub mod grammar;
#[cfg(feature = "mcp")]
pub mod mcp;
mod read_range;
mod session;
mod state;
mod undo;
mod write_rule;

pub use ast_edit::{
    AstEditOptions, AstEditOutcome, MatchReport, PendingReport, PreviewId, PreviewReport,
    ResolveAction, ResolveOutcome, ResolveReport, Rule,
};
pub use dialect::{Anchors, Dialect};
pub use engine::{EditOptions, Engine, EngineConfig, Error, ReadOptions, StateConfig};
pub use hashline_apply::{FileOp, FileReport, Outcome};
pub use hashline_core::ErrorCode;
pub use hashline_state::PruneRule;
pub use session::{Response, Session};
pub use state::{
    auto_prune_rule, parse_age, parse_bytes, DatabaseReport, SessionReport, StateAction,
    StateOutcome, DEFAULT_MAX_AGE, DEFAULT_MAX_BYTES,
};

/// A terminal diagnostic for a hashline patch that does not parse: the first parse error,
/// pointing into the patch (or into the section body it occurs in). `None` when it parses.
pub fn parse_diagnostic(patch: &str) -> Option<miette::Report> {
    use hashline_syntax::hashline::{diagnostic, parse_body, split_sections, SplitOptions};
    let sections = match split_sections(patch, &SplitOptions::default()) {
        Ok(sections) => sections,
        Err(e) => return Some(diagnostic(&e, "patch", patch)),
    };
    sections.iter().find_map(|s| {
        parse_body(&s.body)
            .err()
            .map(|e| diagnostic(&e, &format!("section ¶{}", s.path), &s.body))
    })
}
