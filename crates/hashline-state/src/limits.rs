//! The bounds every store enforces, and the clock it stamps snapshots with.

use std::time::{SystemTime, UNIX_EPOCH};

/// How many paths and versions per path a store keeps (both at least 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    pub(crate) max_paths: usize,
    pub(crate) max_versions: usize,
}

impl Limits {
    /// Limits with each bound raised to at least 1 (a store that keeps nothing is useless and
    /// would make `record` return a tag it cannot look up).
    pub(crate) fn new(max_paths: usize, max_versions: usize) -> Limits {
        Limits {
            max_paths: max_paths.max(1),
            max_versions: max_versions.max(1),
        }
    }
}

/// Milliseconds since the Unix epoch (0 if the clock is before it).
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}
