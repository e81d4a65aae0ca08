//! The hashline patch language (seed `000`).
//!
//! Two stages, as in the seed: [`split_sections`] cuts the input into `¶PATH#TAG` sections
//! (purely lexical), and [`parse_body`] turns one section's body into [`Hunk`]s. Parse errors
//! carry body-relative line numbers, exactly as the seed reports them.

mod ast;

pub use ast::*;
