//! The blob files and the migration from schema 1.

use rusqlite::{params, Connection};

use super::{blob, schema, SqliteStore, DB_FILE};
use crate::SnapshotStore;

fn blob_files(state: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(blob::dir(state))
        .map(|dir| dir.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default()
}

#[test]
fn a_large_text_is_one_blob_written_once_and_collected_when_unused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path(), "s").expect("open");
    let big = "let x = 1;\n".repeat(20_000);
    let tag = store.record("/a", &big).expect("record");
    let files = blob_files(dir.path());
    assert_eq!(files.len(), 1, "{files:?}");
    let written = std::fs::metadata(&files[0]).and_then(|m| m.modified()).ok();
    // Read again (fusion), and under another path and session: no new file, not rewritten.
    store.record("/a", &big).expect("again");
    store.record("/b", &big).expect("other path");
    SqliteStore::open(dir.path(), "t")
        .expect("open t")
        .record("/a", &big)
        .expect("other session");
    assert_eq!(blob_files(dir.path()), files);
    assert_eq!(
        std::fs::metadata(&files[0]).and_then(|m| m.modified()).ok(),
        written
    );
    assert_eq!(store.versions("/a").expect("versions").len(), 1);
    assert_eq!(
        store.by_tag("/a", &tag).expect("by_tag").map(|s| s.text),
        Some(big.clone())
    );
    // Still in use by /b and by session t.
    store.invalidate("/a").expect("invalidate");
    assert_eq!(blob_files(dir.path()).len(), 1);
    store.clear().expect("clear");
    SqliteStore::open(dir.path(), "t")
        .expect("open t")
        .clear()
        .expect("clear t");
    assert!(blob_files(dir.path()).is_empty());
    // A small text stays in its row.
    store.record("/c", "small\n").expect("small");
    assert!(blob_files(dir.path()).is_empty());
}

#[test]
fn a_prepared_blob_is_used_by_its_record_and_collected_without_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path(), "s").expect("open");
    let big = "let y = 2;\n".repeat(20_000);
    store.prepare(&big);
    let files = blob_files(dir.path());
    assert_eq!(files.len(), 1, "{files:?}");
    let written = std::fs::metadata(&files[0]).and_then(|m| m.modified()).ok();
    // The record finds it: not written again.
    let tag = store.record("/a", &big).expect("record");
    assert_eq!(blob_files(dir.path()), files);
    assert_eq!(
        std::fs::metadata(&files[0]).and_then(|m| m.modified()).ok(),
        written
    );
    assert_eq!(
        store.by_tag("/a", &tag).expect("by_tag").map(|s| s.text),
        Some(big.clone())
    );
    // Prepared, never recorded (the write was refused): collected with the unused ones.
    let other = "let z = 3;\n".repeat(20_000);
    store.prepare(&other);
    assert_eq!(blob_files(dir.path()).len(), 2);
    store.clear().expect("clear");
    assert!(blob_files(dir.path()).is_empty());
    // Small texts are not prepared.
    store.prepare("small\n");
    assert!(blob_files(dir.path()).is_empty());
}

#[test]
fn a_discarded_blob_goes_unless_a_row_uses_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path(), "s").expect("open");
    let other = SqliteStore::open(dir.path(), "t").expect("open");
    let big = "let y = 2;\n".repeat(20_000);
    store.prepare(&big);
    assert_eq!(blob_files(dir.path()).len(), 1);
    store.discard(&big);
    assert!(blob_files(dir.path()).is_empty());
    let listed: i64 = store
        .connection()
        .query_row("SELECT COUNT(*) FROM state_blob", [], |r| r.get(0))
        .expect("count");
    assert_eq!(listed, 0);
    // Another session recorded the same text: its blob stays, and loads.
    let tag = other.record("/a", &big).expect("record");
    store.prepare(&big);
    store.discard(&big);
    assert_eq!(blob_files(dir.path()).len(), 1);
    assert_eq!(
        other.by_tag("/a", &tag).expect("by_tag").map(|s| s.text),
        Some(big.clone())
    );
    // Small texts have no blob: nothing to do.
    store.discard("small\n");
}

#[test]
fn the_temporary_files_of_a_killed_writer_are_swept_once_stale() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path(), "s").expect("open");
    let blobs = blob::dir(dir.path());
    std::fs::create_dir_all(&blobs).expect("blob dir");
    let (old, fresh) = (blobs.join("a-1.42.tmp"), blobs.join("b-2.43.half.tmp"));
    for path in [&old, &fresh] {
        std::fs::write(path, b"partial").expect("temp");
    }
    let hours_ago = std::time::SystemTime::now() - 2 * blob::STALE_TEMP;
    std::fs::File::options()
        .write(true)
        .open(&old)
        .and_then(|f| f.set_modified(hours_ago))
        .expect("age it");
    store.clear().expect("clear");
    assert!(!old.exists(), "a stale temp is swept");
    assert!(fresh.exists(), "a live writer's temp is kept");
}

/// The texts of every version of `path`, newest first.
fn texts_of(store: &SqliteStore, path: &str) -> Vec<String> {
    let versions = store.versions(path).expect("versions");
    versions.into_iter().map(|s| s.text).collect()
}

#[test]
fn a_schema_1_database_is_migrated_and_its_rows_stay_readable() {
    let dir = tempfile::tempdir().expect("temp dir");
    let big = "fn f() {}\n".repeat(10_000);
    {
        let conn = Connection::open(dir.path().join(DB_FILE)).expect("open");
        schema::create_v1(&conn).expect("v1");
        for (path, text) in [("/small", "old\n"), ("/big", big.as_str())] {
            conn.execute(
                "INSERT INTO state_snapshot (session, path, tag, text, time_ms) VALUES ('s', ?1, ?2, ?3, 1)",
                params![path, crate::file_tag(text), text],
            )
            .expect("row");
            conn.execute(
                "INSERT INTO state_path (session, path, used) VALUES ('s', ?1, 1)",
                params![path],
            )
            .expect("path");
        }
    }
    let store = SqliteStore::open(dir.path(), "s").expect("migrate");
    let version: i64 = store
        .connection()
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .expect("user_version");
    assert_eq!(version, schema::VERSION);
    assert_eq!(
        store.head("/small").expect("head").map(|s| s.text),
        Some("old\n".into())
    );
    assert_eq!(
        store.head("/big").expect("head").map(|s| s.text),
        Some(big.clone())
    );
    // An old row has no digest: its text is compared.
    assert_eq!(store.head_holds("/big", &big).expect("holds"), Some(true));
    let except = store.versions_except("/big", &big).expect("except");
    assert_eq!(except, [None]);
    let except = store.versions_except("/big", "other").expect("except");
    assert_eq!(except.len(), 1);
    assert_eq!(
        except[0].as_ref().map(|v| v.text.as_str()),
        Some(big.as_str())
    );
    assert_eq!(
        store.head_holds("/small", "other\n").expect("holds"),
        Some(false)
    );
    // An old row and the same text recorded again fuse; a new text is a second version.
    store.record("/big", &big).expect("again");
    assert_eq!(store.versions("/big").expect("versions").len(), 1);
    store.record("/small", "new\n").expect("new");
    assert_eq!(texts_of(&store, "/small"), ["new\n", "old\n"]);
    let tag = crate::file_tag("old\n");
    assert!(store
        .tag_collides("/small", &tag, "other\n")
        .expect("collides"));
    assert!(!store
        .tag_collides("/small", &tag, "old\n")
        .expect("same text"));
    // The same texts recorded as parts fuse with the old rows too.
    let (half, parts) = (big.len() / 2, hashline_core::Pieces::new(["ol", "d\n"]));
    let big_parts = hashline_core::Pieces::new([&big[..half], &big[half..]]);
    store
        .record_pieces("/big", &big_parts, None)
        .expect("parts");
    assert_eq!(store.versions("/big").expect("versions").len(), 1);
    assert_eq!(
        store.record_pieces("/small", &parts, None).expect("parts"),
        tag
    );
    assert_eq!(texts_of(&store, "/small"), ["old\n", "new\n"]);
}

#[test]
fn recording_the_newest_text_again_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path(), "s").expect("open");
    store.record("/a", "one\n").expect("record");
    let changes = |store: &SqliteStore| -> i64 {
        store
            .connection()
            .query_row("SELECT total_changes()", [], |row| row.get(0))
            .expect("changes")
    };
    let before = changes(&store);
    store.record("/a", "one\n").expect("again");
    assert_eq!(changes(&store), before, "an unchanged read records nothing");
    // Another path read in between: /a is no longer the most recent, so it is touched again.
    store.record("/b", "two\n").expect("b");
    let before = changes(&store);
    store.record("/a", "one\n").expect("a again");
    assert!(changes(&store) > before);
    let paths: Vec<String> = store
        .connection()
        .prepare("SELECT path FROM state_path WHERE session = 's' ORDER BY used DESC")
        .expect("prepare")
        .query_map([], |row| row.get(0))
        .expect("query")
        .collect::<rusqlite::Result<_>>()
        .expect("paths");
    assert_eq!(paths, ["/a", "/b"]);
}

#[test]
fn versions_wait_for_a_writer_that_is_removing_their_blob() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path(), "s").expect("open");
    let big = "let z = 3;\n".repeat(20_000);
    store.record("/a", &big).expect("record");
    assert_eq!(blob_files(dir.path()).len(), 1);
    // Another process evicts the version and removes its blob, in its write transaction.
    let mut other = Connection::open(dir.path().join(DB_FILE)).expect("open");
    let tx = other
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .expect("begin");
    tx.execute("DELETE FROM state_snapshot WHERE path = '/a'", [])
        .expect("delete");
    for file in blob_files(dir.path()) {
        std::fs::remove_file(file).expect("remove blob");
    }
    let reader = std::thread::spawn(move || store.versions("/a").map(|v| v.len()));
    std::thread::sleep(std::time::Duration::from_millis(300));
    tx.commit().expect("commit");
    // Read after that transaction: no version, not a missing file.
    assert_eq!(reader.join().expect("reader").expect("versions"), 0);
}

#[test]
fn the_head_is_compared_by_digest_and_its_recency_refreshed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open_with_limits(dir.path(), "s", 2, 4).expect("open");
    let big = "fn f() {}\n".repeat(10_000);
    store.record("/a", &big).expect("a");
    store.record("/b", "b\n").expect("b");
    assert_eq!(store.head_holds("/a", &big).expect("holds"), Some(true));
    assert_eq!(
        store.head_holds("/a", "other\n").expect("holds"),
        Some(false)
    );
    assert_eq!(store.head_holds("/none", "x").expect("holds"), None);
    // The blob is not needed to tell: gone, the answer stands (a head would fail to load it).
    for file in blob_files(dir.path()) {
        std::fs::remove_file(file).expect("remove blob");
    }
    assert_eq!(store.head_holds("/a", &big).expect("holds"), Some(true));
    assert!(store.head("/a").is_err());
    // The versions holding a given text are named, not loaded.
    assert_eq!(store.versions_except("/a", &big).expect("except"), [None]);
    assert!(
        store.versions_except("/a", "other").is_err(),
        "the others are loaded"
    );
    // /a was touched last: recording a third path evicts /b, not /a.
    store.record("/c", "c\n").expect("c");
    assert!(store.head("/b").expect("b").is_none());
    assert_eq!(store.head_holds("/a", &big).expect("holds"), Some(true));
}
