//! The V4A patch format of OpenAI's `apply_patch` tool (Codex), parsed as Codex 0.169.0 parses
//! it: the same lenient shapes and the same error texts.
//!
//! ```text
//! *** Begin Patch
//! *** Add File: PATH        then `+` rows (the new file's lines)
//! *** Delete File: PATH
//! *** Update File: PATH     then `*** Move to: PATH`? and chunks:
//! @@ [CONTEXT]              then ` ` / `-` / `+` rows, `*** End of File`?
//! *** End Patch
//! ```
//!
//! * [`parse`]: text → [`Patch`] or a [`ParseError`] whose text is Codex's.
//! * [`model`]: the parsed [`Patch`], [`Hunk`], [`Chunk`] and [`Row`].

pub mod model;
pub mod parse;

pub use model::{Chunk, Hunk, Patch, Row};
pub use parse::{parse_patch, ParseError};
