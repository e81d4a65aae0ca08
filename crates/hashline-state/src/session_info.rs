//! What `hashline state` lists and prunes: the sessions of a state database and the rule that
//! prunes them (plain data, also without the `sqlite` feature).

/// One session of the state database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionInfo {
    /// The session's name (`--session`).
    pub name: String,
    /// Its rows (snapshots, undo entries, queued previews, …).
    pub rows: u64,
    /// The bytes of its rows' values (texts as UTF-8).
    pub bytes: u64,
    /// When it was last used, in milliseconds since the Unix epoch (0: unknown).
    pub last_used_ms: u64,
}

/// Which sessions to prune. Both bounds may be given; the session the store was opened for is
/// never pruned.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PruneRule {
    /// Prune every session last used longer ago than this (milliseconds).
    pub older_than_ms: Option<u64>,
    /// Then prune the least recently used sessions until the rest hold at most this many bytes.
    pub max_bytes: Option<u64>,
}

/// What a prune removed (or, on a dry run, would remove).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pruned {
    /// The sessions removed, least recently used first.
    pub removed: Vec<SessionInfo>,
    /// The sessions kept.
    pub kept: Vec<SessionInfo>,
}
