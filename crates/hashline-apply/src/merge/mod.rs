//! The stale-anchor merge every dialect shares (DEVIATIONS §1).
//!
//! When a request's anchors belong to a version of the file the session recorded rather than to
//! the file on disk, its edits are resolved on that version (core [`Edit`]s in its original line
//! numbers) and carried onto the disk through the line diff between the two texts, with zero
//! fuzz: nothing is searched for, and an edit is carried only when every line it depends on
//! survived unchanged and its place on disk is certain. Otherwise the merge refuses, naming the
//! edit and the recorded line that stopped it; each dialect renders that refusal in its own
//! seed's words.
//!
//! * [`LineMap`]: the certain image of every recorded line (sliders and ties of repeated lines
//!   count as uncertain).
//! * [`carry`]: one reading's edits → disk line numbers, or the [`Stale`] edits.
//! * [`settle`]: every plausible reading of a request ([`Reading`]: an older read, the file after
//!   the session's own edit, a text with a colliding tag) must land with the same result, or the
//!   request is refused ([`Unsettled`]); after such a refusal [`forget_older`] leaves the disk
//!   as the only version the next request can mean.
//!
//! [`Edit`]: hashline_core::Edit

#[cfg(test)]
mod attacks;
mod carry;
mod map;
mod readings;
#[cfg(test)]
mod tests;

pub use carry::{carry, Footprint, Stale};
pub use map::LineMap;
pub use readings::{forget_older, settle, Reading, Unsettled};
