//! `hashline state` through the real binary (issue 13 item 6): sessions listed with size and
//! age, pruned by age and by total size (never the current one, dry run writes nothing), and
//! pruned automatically within the documented bounds, at most once an hour.

use crate::support;

use std::path::Path;

/// `hashline --session NAME ARGS…` with `env` set.
fn run_in(
    root: &Path,
    state: &Path,
    session: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> support::cli::Run {
    let mut all = vec!["--session", session];
    all.extend_from_slice(args);
    support::cli::hashline_env(root, state, &all, b"", env)
}

fn setup() -> (tempfile::TempDir, tempfile::TempDir) {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    std::fs::write(root.path().join("small.txt"), "a\nb\n").expect("small");
    let big: String = (0..20_000).map(|i| format!("line {i}\n")).collect();
    std::fs::write(root.path().join("big.txt"), big).expect("big");
    (root, state)
}

fn names(json: &serde_json::Value, field: &str) -> Vec<String> {
    json[field]
        .as_array()
        .expect("an array")
        .iter()
        .map(|s| s["name"].as_str().expect("name").to_string())
        .collect()
}

/// Make every row of `session` look `days` old, and the last automatic pruning long ago.
fn age_session(state: &Path, session: &str, days: i64) {
    let db = rusqlite::Connection::open(state.join("state.sqlite3")).expect("db");
    db.execute(
        "UPDATE state_snapshot SET time_ms = time_ms - ?1 WHERE session = ?2",
        rusqlite::params![days * 86_400_000, session],
    )
    .expect("age");
    db.execute("UPDATE state_meta SET value = 0", [])
        .expect("last auto prune");
}

#[test]
fn state_lists_sessions_and_prunes_by_age_and_size() {
    let (root, state) = setup();
    let (r, s) = (root.path(), state.path());
    for (session, file) in [
        ("small", "small.txt"),
        ("big", "big.txt"),
        ("old", "small.txt"),
    ] {
        let read = run_in(r, s, session, &["read", file], &[]);
        assert_eq!(read.code, 0, "{}", read.stdout);
    }
    age_session(s, "old", 10);

    let list = run_in(r, s, "small", &["state"], &[]);
    assert_eq!(list.code, 0, "{}", list.stdout);
    let lines: Vec<&str> = list.stdout.lines().collect();
    assert!(
        lines[0].starts_with("big\t") && lines[0].ends_with("s ago\t2 rows"),
        "{}",
        list.stdout
    );
    assert!(lines[1].starts_with("small\t"), "{}", list.stdout);
    assert!(lines[1].ends_with(" rows\t(current)"), "{}", list.stdout);
    assert!(
        list.stdout.contains("sessions unused for 30d ("),
        "{}",
        list.stdout
    );
    assert!(
        lines[2].starts_with("old\t") && lines[2].contains("\t10d ago\t"),
        "{}",
        list.stdout
    );
    assert!(lines[3].starts_with("3 sessions, "), "{}", list.stdout);
    assert!(lines[4].starts_with("Automatic pruning (hourly): sessions unused for 30d ("));
    let json = run_in(r, s, "small", &["--json", "state", "list"], &[]).json();
    assert_eq!(names(&json, "sessions"), ["big", "small", "old"]);
    let big_bytes = json["sessions"][0]["bytes"].as_u64().expect("bytes");
    assert!(big_bytes > 100_000, "{json}");

    // Dry run: says, removes nothing.
    let dry = run_in(
        r,
        s,
        "small",
        &[
            "--json",
            "state",
            "prune",
            "--older-than",
            "7d",
            "--dry-run",
        ],
        &[],
    )
    .json();
    assert_eq!(names(&dry, "removed"), ["old"]);
    assert!(dry["text"]
        .as_str()
        .expect("text")
        .starts_with("Would prune 1 session"));
    let json = run_in(r, s, "small", &["--json", "state"], &[]).json();
    assert_eq!(names(&json, "sessions").len(), 3);

    // By age, then by size: the current session stays even when it is over the bound.
    let pruned = run_in(
        r,
        s,
        "small",
        &["state", "prune", "--older-than", "7d"],
        &[],
    );
    assert_eq!(pruned.code, 0, "{}", pruned.stdout);
    assert!(
        pruned.stdout.starts_with("Pruned 1 session ("),
        "{}",
        pruned.stdout
    );
    assert!(pruned.stdout.contains("\n- old\t"), "{}", pruned.stdout);
    let pruned = run_in(
        r,
        s,
        "big",
        &["--json", "state", "prune", "--max-size", "1k"],
        &[],
    )
    .json();
    assert_eq!(names(&pruned, "removed"), ["small"]);
    assert_eq!(names(&pruned, "sessions"), ["big"]);
    let nothing = run_in(r, s, "big", &["state", "prune", "--older-than", "1d"], &[]);
    assert!(
        nothing
            .stdout
            .starts_with("Nothing to prune. Kept 1 session"),
        "{}",
        nothing.stdout
    );

    // A bound is required; an unreadable one is a usage error.
    let usage = run_in(r, s, "big", &["state", "prune"], &[]);
    assert_eq!(usage.code, 2, "{}", usage.stderr);
    let usage = run_in(
        r,
        s,
        "big",
        &["state", "prune", "--older-than", "soon"],
        &[],
    );
    assert_eq!(usage.code, 2, "{}", usage.stderr);
    assert!(usage.stderr.contains("examples: 7d"), "{}", usage.stderr);
}

#[test]
fn calls_prune_automatically_within_the_bounds_at_most_once_an_hour() {
    let (root, state) = setup();
    let (r, s) = (root.path(), state.path());
    for (session, file) in [
        ("keep", "small.txt"),
        ("stale", "small.txt"),
        ("big", "big.txt"),
    ] {
        assert_eq!(run_in(r, s, session, &["read", file], &[]).code, 0);
    }
    // The default age bound (30 days): a session 40 days old goes with the next call.
    age_session(s, "stale", 40);
    assert_eq!(run_in(r, s, "keep", &["read", "small.txt"], &[]).code, 0);
    let json = run_in(r, s, "keep", &["--json", "state"], &[]).json();
    // A re-read of an unchanged file within minutes records nothing new: `keep` and `big`
    // were used within milliseconds of each other, in either order.
    let mut left = names(&json, "sessions");
    left.sort();
    assert_eq!(left, ["big", "keep"]);

    // Within the hour, nothing more is pruned even under a tighter bound.
    let tight = [("HASHLINE_STATE_MAX_BYTES", "10KiB")];
    assert_eq!(run_in(r, s, "keep", &["read", "small.txt"], &tight).code, 0);
    let json = run_in(r, s, "keep", &["--json", "state"], &tight).json();
    let mut left = names(&json, "sessions");
    left.sort();
    assert_eq!(left, ["big", "keep"]);

    // Once due, the size bound drops the least recently used session that is not the caller.
    age_session(s, "big", 1);
    assert_eq!(run_in(r, s, "keep", &["read", "small.txt"], &tight).code, 0);
    let json = run_in(r, s, "keep", &["--json", "state"], &tight).json();
    assert_eq!(names(&json, "sessions"), ["keep"]);
    let text = json["text"].as_str().expect("text");
    assert!(
        text.contains("beyond 10.0 KiB (HASHLINE_STATE_MAX_BYTES)"),
        "{text}"
    );
}
