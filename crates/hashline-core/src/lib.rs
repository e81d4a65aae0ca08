//! The shared vocabulary of hashline: no I/O, no parsing, no hashing.
//!
//! * [`text`]: a file's bytes as lines, with its BOM and the exact ending of every line, and the
//!   way back to bytes that changes only the lines an edit names.
//! * [`edit`]: the one edit IR every dialect lowers to ([`Edit`]) and the splice engine that
//!   applies a batch of edits addressed in original line numbers.
//! * [`affix`]: the common prefix and suffix of two sequences (what an edit left alone).
//! * [`js`]: JavaScript's white space, which the seed tools trim with.
//! * [`excerpt`]: numbered excerpts (`>NN|text`) of the lines a refusal shows.
//! * [`kind`]: whether a file's bytes are text (the binary refusal every command shares).
//! * [`name`]: file names in model-facing text (control characters refused or escaped).
//! * [`code`]: the stable error codes ([`ErrorCode`]) every refusal carries.
//! * [`block`]: the [`BlockResolver`] seam that lets `replace block N:` find a syntactic block
//!   without this crate (or the apply crate) depending on tree-sitter.
//! * [`syntax`]: the [`SyntaxCheck`] seam that lets the edit guard ask a parser whether an edit
//!   added a syntax error.
//!
//! Start reading at [`edit::splice`].
//!
//! An edit addressed in original line numbers changes only the line it names; the BOM and
//! every line's ending come back as they were:
//!
//! ```
//! use hashline_core::{splice, Edit, TextFile};
//!
//! let file = TextFile::decode(b"\xEF\xBB\xBFone\r\ntwo\r\nthree\r\n".to_vec());
//! assert_eq!(file.text(), "one\ntwo\nthree\n");
//! let lines: Vec<&str> = file.lines().collect();
//! let out = splice(&lines, &[Edit::replace(2, 2, vec!["TWO".into()], 0)])?;
//! assert_eq!(file.encode(&out), b"\xEF\xBB\xBFone\r\nTWO\r\nthree\r\n");
//! # Ok::<(), hashline_core::SpliceError>(())
//! ```

pub mod affix;
pub mod block;
pub mod code;
pub mod edit;
#[cfg(test)]
mod edit_reference;
pub mod excerpt;
pub mod js;
pub mod kind;
pub mod name;
pub mod par;
pub mod pieces;
mod refusal;
pub mod syntax;
pub mod text;

pub use block::{BlockResolver, BlockSpan};
pub use code::ErrorCode;
pub use edit::{splice, splice_runs, Edit, EditKind, Run, SpliceError};
pub use pieces::{Pieces, SplicedText};
pub use refusal::Refusal;
pub use syntax::{Inspection, LayoutNote, LineChange, SyntaxCheck, SyntaxIssue};
pub use text::{Eol, OutLine, TextFile};
