//! [`MemoryStore`]: the bounded in-memory snapshot store.
//!
//! One process, one session: the store lives as long as the value. Paths are kept in
//! most-recently-used order in a small vector (at most [`MAX_PATHS`] entries, so a linear scan
//! beats hashing), each with its versions newest first.

use std::sync::{Mutex, MutexGuard};

use crate::{
    now_ms, Limits, Snapshot, SnapshotStore, StoreError, UndoEntry, MAX_EVICTED, MAX_PATHS,
    MAX_UNDO, MAX_VERSIONS,
};

/// One path's versions, newest first.
#[derive(Debug)]
struct PathEntry {
    path: String,
    versions: Vec<Snapshot>,
}

/// The in-memory LRU store: [`MAX_PATHS`] paths × [`MAX_VERSIONS`] versions by default.
///
/// Thread-safe (a [`Mutex`] inside); every operation is O(paths + versions).
#[derive(Debug)]
pub struct MemoryStore {
    limits: Limits,
    /// Most recently used first.
    paths: Mutex<Vec<PathEntry>>,
    /// Undo entries per path, oldest first; most recently pushed path first.
    undo: Mutex<Vec<(String, Vec<UndoEntry>)>>,
    /// (path, tag) of evicted versions, newest first, at most [`MAX_EVICTED`].
    evicted: Mutex<Vec<(String, String)>>,
}

impl Default for MemoryStore {
    fn default() -> Self {
        MemoryStore::new()
    }
}

impl MemoryStore {
    /// An empty store with the seed's limits ([`MAX_PATHS`], [`MAX_VERSIONS`]).
    pub fn new() -> MemoryStore {
        MemoryStore::with_limits(MAX_PATHS, MAX_VERSIONS)
    }

    /// An empty store keeping at most `max_paths` paths and `max_versions` versions per path
    /// (each at least 1; a 0 is raised to 1).
    pub fn with_limits(max_paths: usize, max_versions: usize) -> MemoryStore {
        MemoryStore {
            limits: Limits::new(max_paths, max_versions),
            paths: Mutex::new(Vec::new()),
            undo: Mutex::new(Vec::new()),
            evicted: Mutex::new(Vec::new()),
        }
    }

    /// The guarded state. A poisoned lock only means another thread panicked mid-call; every
    /// mutation below leaves the vector consistent at each step, so the data is still usable.
    fn lock(&self) -> MutexGuard<'_, Vec<PathEntry>> {
        self.paths
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Remember the tags of `gone`, the versions of `path` the bounds just dropped.
    fn remember_evicted(&self, gone: impl IntoIterator<Item = (String, String)>) {
        let mut evicted = self
            .evicted
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for entry in gone {
            evicted.retain(|e| *e != entry);
            evicted.insert(0, entry);
        }
        evicted.truncate(MAX_EVICTED);
    }
}

/// Moves the entry for `path` to the front (most recent) and returns it.
fn touch<'a>(paths: &'a mut Vec<PathEntry>, path: &str) -> Option<&'a mut PathEntry> {
    let index = paths.iter().position(|entry| entry.path == path)?;
    if index != 0 {
        let entry = paths.remove(index);
        paths.insert(0, entry);
    }
    paths.first_mut()
}

impl SnapshotStore for MemoryStore {
    fn push_undo(&self, path: &str, entry: &UndoEntry) -> Result<(), StoreError> {
        let mut undo = self
            .undo
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut entries = match undo.iter().position(|(p, _)| p == path) {
            Some(i) => undo.remove(i).1,
            None => Vec::new(),
        };
        entries.push(entry.clone());
        if entries.len() > MAX_UNDO {
            entries.remove(0);
        }
        undo.insert(0, (path.to_owned(), entries));
        undo.truncate(self.limits.max_paths);
        Ok(())
    }

    fn pop_undo(&self, path: &str) -> Result<Option<UndoEntry>, StoreError> {
        let mut undo = self
            .undo
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Ok(undo
            .iter_mut()
            .find(|(p, _)| p == path)
            .and_then(|(_, entries)| entries.pop()))
    }

    fn record(&self, path: &str, text: &str) -> Result<String, StoreError> {
        self.record_tagged(path, &crate::Tagged::of(text))
    }

    fn record_tagged(&self, path: &str, tagged: &crate::Tagged<'_>) -> Result<String, StoreError> {
        let (text, tag) = (tagged.text(), tagged.tag().to_owned());
        let snapshot = Snapshot {
            path: path.to_owned(),
            text: text.to_owned(),
            tag: tag.clone(),
            time_ms: now_ms(),
        };
        let mut paths = self.lock();
        let mut gone: Vec<(String, String)> = Vec::new();
        let mut note = |versions: &[Snapshot]| {
            gone.extend(versions.iter().map(|v| (v.path.clone(), v.tag.clone())));
        };
        match touch(&mut paths, path) {
            Some(entry) => {
                // Read fusion: an identical text replaces its old slot and becomes the head. A
                // different text that only shares the 16-bit tag keeps its own slot.
                entry
                    .versions
                    .retain(|version| version.tag != tag || version.text != text);
                entry.versions.insert(0, snapshot);
                if entry.versions.len() > self.limits.max_versions {
                    note(&entry.versions[self.limits.max_versions..]);
                    entry.versions.truncate(self.limits.max_versions);
                }
            }
            None => {
                paths.insert(
                    0,
                    PathEntry {
                        path: path.to_owned(),
                        versions: vec![snapshot],
                    },
                );
                for dropped in paths.iter().skip(self.limits.max_paths) {
                    note(&dropped.versions);
                }
                paths.truncate(self.limits.max_paths);
            }
        }
        drop(paths);
        self.remember_evicted(gone);
        Ok(tag)
    }

    fn head(&self, path: &str) -> Result<Option<Snapshot>, StoreError> {
        let mut paths = self.lock();
        Ok(touch(&mut paths, path).and_then(|entry| entry.versions.first().cloned()))
    }

    fn by_tag(&self, path: &str, tag: &str) -> Result<Option<Snapshot>, StoreError> {
        let mut paths = self.lock();
        Ok(touch(&mut paths, path)
            .and_then(|entry| entry.versions.iter().find(|v| v.tag == tag).cloned()))
    }

    fn versions(&self, path: &str) -> Result<Vec<Snapshot>, StoreError> {
        let paths = self.lock();
        Ok(paths
            .iter()
            .find(|entry| entry.path == path)
            .map(|entry| entry.versions.clone())
            .unwrap_or_default())
    }

    fn tag_collides(&self, path: &str, tag: &str, text: &str) -> Result<bool, StoreError> {
        let paths = self.lock();
        Ok(paths
            .iter()
            .filter(|entry| entry.path == path)
            .flat_map(|entry| &entry.versions)
            .any(|v| v.tag == tag && v.text != text))
    }

    fn evicted(&self, path: &str, tag: &str) -> Result<bool, StoreError> {
        let evicted = self
            .evicted
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Ok(evicted.iter().any(|(p, t)| p == path && t == tag))
    }

    fn invalidate(&self, path: &str) -> Result<(), StoreError> {
        self.lock().retain(|entry| entry.path != path);
        Ok(())
    }

    fn clear(&self) -> Result<(), StoreError> {
        self.lock().clear();
        self.evicted
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `field` of every version of `path`, newest first.
    fn versions(store: &MemoryStore, path: &str, field: fn(Snapshot) -> String) -> Vec<String> {
        let all = store.versions(path).expect("infallible");
        all.into_iter().map(field).collect()
    }

    #[test]
    fn fused_record_moves_version_to_front() {
        let store = MemoryStore::new();
        let a = store.record("/p", "a\n").expect("memory store never fails");
        let b = store.record("/p", "b\n").expect("memory store never fails");
        assert_ne!(a, b);
        assert_eq!(store.record("/p", "a\n").expect("infallible"), a);
        assert_eq!(versions(&store, "/p", |s| s.tag), vec![a, b]);
    }

    /// The provided `record_pieces` records the joined text (with the tag it is given).
    #[test]
    fn parts_are_recorded_as_their_joined_text() {
        let store = MemoryStore::new();
        let parts = hashline_core::Pieces::new(["a  \n", "b", "\n"]);
        let tag = store.record_pieces("/p", &parts, None).expect("infallible");
        assert_eq!(tag, crate::file_tag("a  \nb\n"));
        assert_eq!(store.record("/p", "a  \nb\n").expect("infallible"), tag);
        assert_eq!(versions(&store, "/p", |s| s.text), vec!["a  \nb\n"]);
        let known = store.record_pieces("/q", &parts, Some(&tag));
        assert_eq!(known.expect("infallible"), tag);
        assert_eq!(versions(&store, "/q", |s| s.tag), vec![tag]);
    }

    #[test]
    fn head_refreshes_recency() {
        let store = MemoryStore::with_limits(2, 4);
        store.record("/a", "a\n").expect("infallible");
        store.record("/b", "b\n").expect("infallible");
        // Touch /a so /b is the least recently used.
        assert!(store.head("/a").expect("infallible").is_some());
        store.record("/c", "c\n").expect("infallible");
        assert!(store.head("/b").expect("infallible").is_none());
        assert!(store.head("/a").expect("infallible").is_some());
        assert!(store.head("/c").expect("infallible").is_some());
    }

    #[test]
    fn versions_bounded_and_newest_first() {
        let store = MemoryStore::new();
        for i in 0..6 {
            store.record("/p", &format!("v{i}\n")).expect("infallible");
        }
        let texts = versions(&store, "/p", |s| s.text);
        assert_eq!(texts, vec!["v5\n", "v4\n", "v3\n", "v2\n"]);
    }

    #[test]
    fn evicted_tags_are_remembered_bounded() {
        let store = MemoryStore::with_limits(2, 2);
        let first = store.record("/p", "v0\n").expect("infallible");
        assert!(!store.evicted("/p", &first).expect("infallible"));
        store.record("/p", "v1\n").expect("infallible");
        store.record("/p", "v2\n").expect("infallible");
        assert!(store.by_tag("/p", &first).expect("infallible").is_none());
        assert!(store.evicted("/p", &first).expect("infallible"));
        let a = store.record("/a", "a\n").expect("infallible");
        store.record("/b", "b\n").expect("infallible");
        store.record("/c", "c\n").expect("infallible");
        assert!(
            store.evicted("/a", &a).expect("infallible"),
            "a path evicted"
        );
        let n = MAX_EVICTED + 10;
        for i in 0..n {
            store.record("/q", &format!("q{i}\n")).expect("infallible");
        }
        assert!(!store.evicted("/p", &first).expect("infallible"), "bounded");
        let recent = crate::file_tag(&format!("q{}\n", n - 3));
        assert!(store.evicted("/q", &recent).expect("infallible"));
        store.clear().expect("infallible");
        assert!(!store.evicted("/q", &recent).expect("infallible"));
    }

    #[test]
    fn zero_limits_are_raised_to_one() {
        let store = MemoryStore::with_limits(0, 0);
        store.record("/p", "x\n").expect("infallible");
        store.record("/p", "y\n").expect("infallible");
        assert_eq!(store.versions("/p").expect("infallible").len(), 1);
    }
}

#[cfg(test)]
mod undo_tests {
    use super::*;

    #[test]
    fn undo_history_is_bounded_and_per_path() {
        let store = MemoryStore::new();
        for k in 0..12 {
            let entry = UndoEntry {
                before: Some(k.to_string()),
                after: (k + 1).to_string(),
            };
            store.push_undo("a", &entry).expect("push");
        }
        assert_eq!(store.pop_undo("b").expect("pop"), None);
        let mut popped = 0;
        while let Some(e) = store.pop_undo("a").expect("pop") {
            popped += 1;
            assert_eq!(e.after, (13 - popped).to_string());
        }
        assert_eq!(popped, MAX_UNDO);
    }
}
