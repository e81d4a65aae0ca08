//! Front ends: text of a request → the core edit IR plus diagnostics. No file access.
//!
//! * [`hashline`]: the hashline patch language (`¶PATH#TAG` sections, `replace N..M:` …),
//!   tokenized with logos and parsed with chumsky. A parse never panics: it returns the
//!   sections and hunks, or a [`hashline::ParseError`] carrying the seed's message and a span.
//! * `hash_json`, `lineid_json`: the request shapes of the JSON dialects.

pub mod hashline;
