//! The shared vocabulary of hashline: no I/O, no parsing, no hashing.
//!
//! * [`text`]: a file's bytes as lines, with its BOM and the exact ending of every line, and the
//!   way back to bytes that changes only the lines an edit names.
//! * [`edit`]: the one edit IR every dialect lowers to ([`Edit`]) and the splice engine that
//!   applies a batch of edits addressed in original line numbers.
//! * [`code`]: the stable error codes ([`ErrorCode`]) every refusal carries.
//! * [`block`]: the [`BlockResolver`] seam that lets `replace block N:` find a syntactic block
//!   without this crate (or the apply crate) depending on tree-sitter.
//!
//! Start reading at [`edit::splice`].

pub mod block;
pub mod code;
pub mod edit;
pub mod text;

pub use block::{BlockResolver, BlockSpan};
pub use code::ErrorCode;
pub use edit::{splice, Edit, EditKind, SpliceError};
pub use text::{Eol, OutLine, TextFile};
