//! The hashline patch language (seed `000`).
//!
//! Two stages, as in the seed: [`split_sections`] cuts the input into `¶PATH#TAG` sections
//! (purely lexical), and [`parse_body`] turns one section's body into [`Hunk`]s. Parse errors
//! carry body-relative line numbers, exactly as the seed reports them; [`diagnostic`] renders
//! one for a terminal.
//!
//! Inside: `lexer` (logos) classifies body lines and lexes op headers, `op_header`
//! (chumsky) parses the op grammar, `body` is the seed's state machine, `header` the
//! `¶PATH#TAG` rules, `canonical` the strict spelling `hashline grammar` describes, `contamination` the refusals of other patch formats, and [`messages`]
//! every seed string of the language.

mod ast;
mod body;
mod canonical;
mod contamination;
mod diagnostic;
mod header;
mod js_text;
mod lexer;
pub mod messages;
mod op_header;
mod overlap;
mod split;

pub use ast::*;
pub use body::parse_body;
pub use canonical::{canonical, canonical_path};
pub use diagnostic::diagnostic;
pub use split::split_sections;
