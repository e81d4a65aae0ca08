//! `hashline state`: the sessions of the state database (rows, size, last use), pruning them by
//! age or total size, and the automatic pruning every call runs (at most once an hour, see
//! [`hashline_state::AUTO_PRUNE_EVERY_MS`]) within the bounds of [`auto_prune_rule`].

use std::time::Duration;

use hashline_apply::Outcome;
use hashline_state::{PruneRule, Pruned, SessionInfo};
use serde::Serialize;

use crate::undo::age;
use crate::Engine;

/// Sessions unused this long are pruned automatically unless `HASHLINE_STATE_MAX_AGE` says
/// otherwise.
pub const DEFAULT_MAX_AGE: Duration = Duration::from_secs(30 * 24 * 60 * 60);
/// The automatic pruning keeps the sessions' rows under this many bytes (least recently used
/// dropped first) unless `HASHLINE_STATE_MAX_BYTES` says otherwise.
pub const DEFAULT_MAX_BYTES: u64 = 256 * 1024 * 1024;

/// The automatic pruning's two variables.
const MAX_AGE_ENV: &str = "HASHLINE_STATE_MAX_AGE";
const MAX_BYTES_ENV: &str = "HASHLINE_STATE_MAX_BYTES";

/// A pruning bound from variable `name`: `default` when unset, `None` for `off`, else `parse`
/// of its value; `Err` names the variable and what it accepts.
fn bound<T>(
    name: &str,
    default: T,
    parse: fn(&str) -> Result<T, String>,
) -> Result<Option<T>, String> {
    match std::env::var(name).ok().as_deref().map(str::trim) {
        None => Ok(Some(default)),
        Some("off") => Ok(None),
        Some(v) => parse(v)
            .map(Some)
            .map_err(|e| format!("{name}={v:?} is not valid: {e}, or off")),
    }
}

/// What is wrong with each set `HASHLINE_*` variable (the file layer's and the state's), one
/// sentence each; empty when every one is unset or valid. The CLI refuses to run with any
/// (`E_USAGE`, exit 2) rather than fall back to a default or overflow.
pub fn env_problems() -> Vec<String> {
    let mut out = hashline_apply::fs::env_problems();
    out.extend(bound(MAX_AGE_ENV, DEFAULT_MAX_AGE, parse_age).err());
    out.extend(bound(MAX_BYTES_ENV, DEFAULT_MAX_BYTES, parse_bytes).err());
    out
}

/// The bounds of the automatic pruning: `HASHLINE_STATE_MAX_AGE` (a duration such as `30d` or
/// `12h`; default 30 days) and `HASHLINE_STATE_MAX_BYTES` (a size such as `256MiB`; default
/// 256 MiB); `off` turns a bound off, an unreadable value keeps the default (the CLI refuses
/// one first: [`env_problems`]).
pub fn auto_prune_rule() -> PruneRule {
    let age = bound(MAX_AGE_ENV, DEFAULT_MAX_AGE, parse_age).unwrap_or(Some(DEFAULT_MAX_AGE));
    let bytes =
        bound(MAX_BYTES_ENV, DEFAULT_MAX_BYTES, parse_bytes).unwrap_or(Some(DEFAULT_MAX_BYTES));
    PruneRule {
        older_than_ms: age.map(millis),
        max_bytes: bytes,
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A duration as `--older-than` takes it (`7d`, `12h`, `90m`, `2w`).
pub fn parse_age(s: &str) -> Result<Duration, String> {
    humantime::parse_duration(s.trim()).map_err(|e| format!("{e} (examples: 7d, 12h, 90m, 2w)"))
}

/// A size as `--max-size` takes it (`100MB`, `1GiB`, `500k`, `4096`).
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    parse_size::parse_size(s.trim()).map_err(|e| format!("{e} (examples: 100MB, 1GiB, 500k)"))
}

/// What [`Engine::state`] should do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateAction {
    /// List every session.
    List,
    /// Remove the sessions `rule` selects (never the current one); `dry_run` only says which.
    Prune {
        /// Which sessions.
        rule: PruneRule,
        /// Say what would go, remove nothing.
        dry_run: bool,
    },
}

/// One session, as `--json` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct SessionReport {
    /// Its name.
    pub name: String,
    /// Its rows (snapshots, undo entries, queued previews).
    pub rows: u64,
    /// The bytes of its rows.
    pub bytes: u64,
    /// Last use, milliseconds since the Unix epoch (0: unknown).
    pub last_used_ms: u64,
    /// Whether it is the session of this call.
    pub current: bool,
}

/// The result of [`Engine::state`]: the [`Outcome`] and the sessions.
#[derive(Debug, Clone, Serialize)]
pub struct StateOutcome {
    /// `ok`, `code`, `text`, `warnings`, `files` (always empty).
    #[serde(flatten)]
    pub outcome: Outcome,
    /// The sessions kept (after a prune) or listed, most recently used first.
    pub sessions: Vec<SessionReport>,
    /// The sessions a prune removed (or would remove), least recently used first.
    pub removed: Vec<SessionReport>,
    /// The state database file and its size on disk (with its WAL), after the call.
    pub database: Option<DatabaseReport>,
}

/// The state database file.
#[derive(Debug, Clone, Serialize)]
pub struct DatabaseReport {
    /// Its path.
    pub path: String,
    /// Its size on disk in bytes (the database file and its write-ahead log).
    pub bytes: u64,
}

/// `512 B`, `48.2 KiB`, `1.5 MiB`, `2.0 GiB`.
#[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

impl Engine {
    /// `state`: list the sessions of the state database, or prune them.
    pub fn state(&self, action: StateAction) -> StateOutcome {
        let Some(store) = self.sqlite.as_ref() else {
            return StateOutcome {
                outcome: Outcome::success(
                    "This engine keeps its session in memory: there is no state to list or prune.\n",
                ),
                sessions: Vec::new(),
                removed: Vec::new(),
                database: None,
            };
        };
        state_of(store, action)
    }
}

/// `state` over a build without a database: there is none to hold.
#[cfg(not(feature = "sqlite"))]
fn state_of(store: &crate::database::Database, _action: StateAction) -> StateOutcome {
    match *store {}
}

/// `state` over the session store's database.
#[cfg(feature = "sqlite")]
fn state_of(store: &crate::database::Database, action: StateAction) -> StateOutcome {
    let current = store.session().to_string();
    let report = |s: &SessionInfo| SessionReport {
        name: s.name.clone(),
        rows: s.rows,
        bytes: s.bytes,
        last_used_ms: s.last_used_ms,
        current: s.name == current,
    };
    let result = match action {
        StateAction::List => store.sessions().map(|kept| Pruned {
            removed: Vec::new(),
            kept,
        }),
        StateAction::Prune { rule, dry_run } => store.prune(&rule, dry_run).inspect(|p| {
            if !dry_run && !p.removed.is_empty() {
                // Give the space back; a busy database keeps it for later reuse.
                let _ = store.compact();
            }
        }),
    };
    let pruned = match result {
        Ok(p) => p,
        Err(e) => {
            return StateOutcome {
                outcome: Outcome::refused(e.code(), e.to_string()),
                sessions: Vec::new(),
                removed: Vec::new(),
                database: None,
            }
        }
    };
    let db = store.db_path();
    let on_disk = |suffix: &str| {
        let mut name = db.as_os_str().to_owned();
        name.push(suffix);
        std::fs::metadata(name).map_or(0, |m| m.len())
    };
    let database = DatabaseReport {
        path: db.display().to_string(),
        bytes: on_disk("") + on_disk("-wal"),
    };
    let text = match action {
        StateAction::List => list_text(&pruned.kept, &current, &database),
        StateAction::Prune { dry_run, .. } => prune_text(&pruned, dry_run, &database),
    };
    StateOutcome {
        outcome: Outcome::success(text),
        sessions: pruned.kept.iter().map(report).collect(),
        removed: pruned.removed.iter().map(report).collect(),
        database: Some(database),
    }
}

/// Seconds since the Unix epoch (0 before it).
pub(crate) fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// One line per session: `NAME<TAB>SIZE<TAB>AGE<TAB>N rows` (and `<TAB>(current)` for this
/// call's session), then the totals and the automatic pruning's bounds.
#[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
fn list_text(sessions: &[SessionInfo], current: &str, db: &DatabaseReport) -> String {
    let now = now_secs();
    let mut text = String::new();
    for s in sessions {
        let mark = if s.name == current { "\t(current)" } else { "" };
        text.push_str(&format!(
            "{}\t{}\t{}\t{} rows{mark}\n",
            s.name,
            human_size(s.bytes),
            age(now.saturating_sub(s.last_used_ms / 1000)),
            s.rows
        ));
    }
    let total: u64 = sessions.iter().map(|s| s.bytes).sum();
    let n = sessions.len();
    text.push_str(&format!(
        "{n} session{}, {} of rows; {} on disk ({})\n",
        if n == 1 { "" } else { "s" },
        human_size(total),
        human_size(db.bytes),
        db.path
    ));
    let rule = auto_prune_rule();
    let age_bound = rule.older_than_ms.map_or("off".to_string(), bound_age);
    let size_bound = rule.max_bytes.map_or("off".to_string(), human_size);
    text.push_str(&format!(
        "Automatic pruning (hourly): sessions unused for {age_bound} (HASHLINE_STATE_MAX_AGE), \
         then the least recently used beyond {size_bound} (HASHLINE_STATE_MAX_BYTES); \
         `hashline state prune --older-than AGE --max-size SIZE` prunes now.\n"
    ));
    text
}

/// A duration in the unit `--older-than` takes, the largest that divides it (`30d`, `12h`,
/// `90m`, `45s`).
#[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
fn bound_age(ms: u64) -> String {
    let secs = ms / 1000;
    match secs {
        0 => "0s".to_string(),
        s if s % 86_400 == 0 => format!("{}d", s / 86_400),
        s if s % 3_600 == 0 => format!("{}h", s / 3_600),
        s if s % 60 == 0 => format!("{}m", s / 60),
        s => format!("{s}s"),
    }
}

#[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
fn prune_text(pruned: &Pruned, dry_run: bool, db: &DatabaseReport) -> String {
    let now = now_secs();
    let n = pruned.removed.len();
    let kept: u64 = pruned.kept.iter().map(|s| s.bytes).sum();
    let kept_line = format!(
        "Kept {} session{} ({}); {} on disk.\n",
        pruned.kept.len(),
        if pruned.kept.len() == 1 { "" } else { "s" },
        human_size(kept),
        human_size(db.bytes)
    );
    if n == 0 {
        return format!("Nothing to prune. {kept_line}");
    }
    let gone: u64 = pruned.removed.iter().map(|s| s.bytes).sum();
    let mut text = format!(
        "{} {n} session{} ({}):\n",
        if dry_run { "Would prune" } else { "Pruned" },
        if n == 1 { "" } else { "s" },
        human_size(gone)
    );
    for s in &pruned.removed {
        text.push_str(&format!(
            "- {}\t{}\t{}\n",
            s.name,
            human_size(s.bytes),
            age(now.saturating_sub(s.last_used_ms / 1000))
        ));
    }
    text.push_str(&kept_line);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_ages_parse_and_print() {
        assert_eq!(human_size(512), "512 B");
        assert_eq!(human_size(1536), "1.5 KiB");
        assert_eq!(human_size(3 * 1024 * 1024 * 1024), "3.0 GiB");
        assert_eq!(parse_age("7d"), Ok(Duration::from_secs(7 * 86_400)));
        assert_eq!(parse_bytes("100MB"), Ok(100_000_000));
        assert_eq!(parse_bytes("1GiB"), Ok(1 << 30));
        assert!(parse_age("soon").is_err());
        assert!(parse_bytes("lots").is_err());
    }
}
