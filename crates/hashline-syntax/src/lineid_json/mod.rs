//! Request shape of the LINE#ID JSON edit dialect (seed `004`).
//!
//! `{ "filePath": …, "edits": [{op, pos?, end?, lines}], "delete"?: bool, "rename"?: "…",
//! "overwrite"?: bool }` → [`Request`], checked in the peer's order with the peer's messages
//! ([`RequestError`]; the executor prefixes them with `Error: `).
//!
//! * [`request`]: the request and edit normalisation (`pos`/`end` trimming, the `end` alias,
//!   `lines` as array, string or null).
//! * [`anchor`]: lenient `LINE#ID` reference parsing ([`parse_ref`]).

pub mod anchor;
pub mod request;

pub use anchor::{parse_ref, trailing_id, LineRef, RefError};
pub use request::{parse_request, split_payload, EditOp, EditSpec, Request, RequestError};
