//! Two texts whose 16-bit tags collide stay two versions in every store (the seed would fuse
//! them); the same text still fuses.

use hashline_state::{MemoryStore, SnapshotStore};

/// Two texts of `/p` with the same tag, recorded old first, checked against `store` (fresh).
fn colliding_tags_keep_both_texts(store: &dyn SnapshotStore) {
    let old = "alpha\ntarget line\nomega\n";
    let new = "alpha\nfiller 32678\ntarget line\nomega\n";
    let tag = store.record("/p", old).expect("record");
    assert_eq!(store.record("/p", new).expect("record"), tag);
    let texts: Vec<String> = store
        .versions("/p")
        .expect("versions")
        .into_iter()
        .map(|s| s.text)
        .collect();
    assert_eq!(texts, vec![new, old]);
    let by_tag = store.by_tag("/p", &tag).expect("by_tag").map(|s| s.text);
    assert_eq!(by_tag, Some(new.to_string()), "the newest text of the tag");
    assert!(store.tag_collides("/p", &tag, new).expect("query"));
    assert!(!store.tag_collides("/p", "0000", new).expect("query"));
    // The same text still fuses.
    store.record("/p", old).expect("record");
    assert_eq!(store.versions("/p").expect("versions").len(), 2);
    assert!(store.tag_collides("/p", &tag, old).expect("query"));
}

#[test]
fn memory_store_keeps_colliding_texts_apart() {
    colliding_tags_keep_both_texts(&MemoryStore::new());
}

#[cfg(feature = "sqlite")]
#[test]
fn sqlite_store_keeps_colliding_texts_apart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = hashline_state::SqliteStore::open(dir.path(), "s").expect("open");
    colliding_tags_keep_both_texts(&store);
}
