//! Anchors of every dialect: pure functions from text to tags, hashes and IDs, and the
//! renderers of `read` output.
//!
//! * [`tag`]: the hashline language's 4-hex whole-file tag (seed `000`).
//! * [`hash_json`]: 4-character occurrence-aware line hashes (seed `001`).
//! * [`lineid`]: two-letter `LINE#ID` line IDs (seed `004`).
//! * [`page`]: the read budget (lines and bytes per page) of the `tag` and `lineid` modes.

pub mod hash_json;
pub mod lineid;
pub mod page;
pub mod tag;
