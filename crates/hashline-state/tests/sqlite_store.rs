//! The SQLite store as several processes use it: separate handles on one state directory.
#![cfg(feature = "sqlite")]

use std::sync::Arc;

use hashline_state::{SnapshotStore, SqliteStore};

#[test]
fn two_handles_on_one_dir_see_each_other() {
    let dir = tempfile::tempdir().expect("temp dir");
    let state = dir.path().join("nested").join("state");
    let a = SqliteStore::open(&state, "s1").expect("open a");
    let b = SqliteStore::open(&state, "s1").expect("open b");
    let tag = a.record("/w/f.rs", "fn main() {}\n").expect("record");
    let head = b.head("/w/f.rs").expect("head").expect("b sees a's record");
    assert_eq!(head.tag, tag);
    assert_eq!(head.text, "fn main() {}\n");
    b.record("/w/f.rs", "fn main() { }\n").expect("record");
    let versions = a.versions("/w/f.rs").expect("versions");
    assert_eq!(versions.len(), 2);
    assert_eq!(versions[0].text, "fn main() { }\n");
    b.invalidate("/w/f.rs").expect("invalidate");
    assert!(a.head("/w/f.rs").expect("head").is_none());
}

#[test]
fn reopening_keeps_records_and_schema() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tag = {
        let store = SqliteStore::open(dir.path(), "s").expect("open");
        store.record("/p", "x\n").expect("record")
    };
    let store = SqliteStore::open(dir.path(), "s").expect("reopen");
    let version: i64 = store
        .connection()
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .expect("user_version");
    assert_eq!(version, hashline_state::SQLITE_SCHEMA_VERSION);
    let mode: String = store
        .connection()
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .expect("journal_mode");
    assert_eq!(mode.to_ascii_lowercase(), "wal");
    assert_eq!(
        store.by_tag("/p", &tag).expect("by_tag").map(|s| s.text),
        Some("x\n".into())
    );
}

#[test]
fn newer_schema_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    {
        let store = SqliteStore::open(dir.path(), "s").expect("open");
        store
            .connection()
            .pragma_update(None, "user_version", 99)
            .expect("set user_version");
    }
    let err = SqliteStore::open(dir.path(), "s").expect_err("newer schema must be refused");
    assert!(err.to_string().contains("newer"), "{err}");
}

#[test]
fn concurrent_handles_keep_the_limits() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = Arc::new(dir.path().to_path_buf());
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let path = Arc::clone(&path);
            std::thread::spawn(move || {
                let store = SqliteStore::open(&path, "shared").expect("open");
                for i in 0..20 {
                    store
                        .record(&format!("/f{}", i % 6), &format!("t{t} i{i}\n"))
                        .expect("record under contention");
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("writer thread");
    }
    let store = SqliteStore::open(&path, "shared").expect("open");
    for i in 0..6 {
        let versions = store.versions(&format!("/f{i}")).expect("versions");
        assert_eq!(versions.len(), hashline_state::MAX_VERSIONS, "/f{i}");
    }
    let paths: i64 = store
        .connection()
        .query_row(
            "SELECT COUNT(*) FROM state_path WHERE session = 'shared'",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(paths, 6);
}

#[test]
fn unwritable_state_dir_is_a_backend_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, "x").expect("write");
    let err = SqliteStore::open(&file.join("state"), "s").expect_err("a file cannot hold a dir");
    assert!(matches!(err, hashline_state::StoreError::Backend { .. }));
    assert_eq!(err.code().as_str(), "E_IO");
}

#[test]
fn evicted_tags_are_remembered_per_session_and_bounded() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open_with_limits(dir.path(), "s", 2, 2).expect("open");
    let other = SqliteStore::open_with_limits(dir.path(), "t", 2, 2).expect("open");
    let first = store.record("/p", "v0\n").expect("record");
    assert!(
        !store.evicted("/p", &first).expect("evicted"),
        "never in an empty db"
    );
    store.record("/p", "v1\n").expect("record");
    store.record("/p", "v2\n").expect("record");
    assert!(store.by_tag("/p", &first).expect("by_tag").is_none());
    assert!(store.evicted("/p", &first).expect("evicted"));
    assert!(
        !other.evicted("/p", &first).expect("evicted"),
        "per session"
    );
    // A whole path pushed out by the path bound.
    let a = store.record("/a", "a\n").expect("record");
    store.record("/b", "b\n").expect("record"); // evicts /p
    store.record("/c", "c\n").expect("record"); // evicts /a
    assert!(store.evicted("/a", &a).expect("evicted"));
    let n = hashline_state::MAX_EVICTED + 10;
    for i in 0..n {
        store.record("/q", &format!("q{i}\n")).expect("record");
    }
    assert!(!store.evicted("/p", &first).expect("evicted"), "bounded");
    let rows: i64 = store
        .connection()
        .query_row(
            "SELECT COUNT(*) FROM state_evicted WHERE session = 's'",
            [],
            |row| row.get(0),
        )
        .expect("count");
    assert_eq!(rows, hashline_state::MAX_EVICTED as i64);
    store.clear().expect("clear");
    assert!(!store.evicted("/q", "0000").expect("evicted"));
}
