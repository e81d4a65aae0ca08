//! Front ends: text of a request → the core edit IR plus diagnostics. No file access.
//!
//! * [`hashline`]: the hashline patch language (`¶PATH#TAG` sections, `replace N..M:` …),
//!   tokenized with logos and parsed with chumsky. A parse never panics: it returns the
//!   sections and hunks, or a [`hashline::ParseError`] carrying the seed's message and a span.
//! * [`apply_patch`]: OpenAI's V4A patch format (`*** Begin Patch`), parsed as Codex does.
//! * [`hash_json`]: the request shape of the hash-anchored JSON dialect (seed `001`).
//! * [`lineid_json`]: the request shape of the `LINE#ID` JSON dialect (seed `004`).
//! * [`str_replace`]: the text-editor tool's request (`view`, `create`, `str_replace`, `insert`,
//!   `undo_edit`) with the oracle's parameter texts.

pub mod apply_patch;
pub mod hash_json;
pub mod hashline;
pub mod lineid_json;
pub mod str_replace;
