//! Front ends: text of a request → the core edit IR plus diagnostics. No file access.
//!
//! * [`hashline`]: the hashline patch language (`¶PATH#TAG` sections, `replace N..M:` …),
//!   tokenized with logos and parsed with chumsky. A parse never panics: it returns the
//!   sections and hunks, or a [`hashline::ParseError`] carrying the seed's message and a span.
//! * the V4A patch format of OpenAI's Codex (`*** Begin Patch`), parsed as Codex does, in a module
//!   of its own.
//! * [`hash_json`]: the request shape of the hash-anchored JSON dialect (seed `001`).
//! * [`lineid_json`]: the request shape of the `LINE#ID` JSON dialect (seed `004`).
//! * the text-editor tool's request (`view`, `create`, its replace command, `insert`,
//!   `undo_edit`) with the oracle's parameter texts, in a module of its own.
//!
//! ```
//! use hashline_syntax::hashline::{parse_body, split_sections, HunkOp, SplitOptions};
//!
//! let patch = "¶src/a.rs#1a2b\nreplace 2..3:\n+fn b() {}\n";
//! let sections = split_sections(patch, &SplitOptions::default())?;
//! assert_eq!(sections[0].path, "src/a.rs");
//! assert_eq!(sections[0].tag.as_deref(), Some("1A2B"));
//! let body = parse_body(&sections[0].body)?;
//! assert_eq!(body.hunks[0].op, HunkOp::Replace { start: 2, end: 3 });
//! assert_eq!(body.hunks[0].rows, ["fn b() {}"]);
//!
//! // A `-` row is a diff habit, not this language: refused with the line it is on.
//! let err = parse_body("replace 2..2:\n-old\n+new").unwrap_err();
//! assert_eq!(err.line, 2);
//! # Ok::<(), hashline_syntax::hashline::ParseError>(())
//! ```

pub mod apply_patch;
pub mod hash_json;
pub mod hashline;
pub mod lineid_json;
pub mod str_replace;
