//! The queue's rows in memory: the queue of an engine without a state database (needs no
//! SQLite). Ids grow from 1 and are never reused, as SQLite's `AUTOINCREMENT` gives them.

use std::collections::BTreeMap;

use crate::queue::Row;

/// The rows of one session's queue, by id.
#[derive(Debug, Default)]
pub(crate) struct MemoryRows {
    rows: BTreeMap<i64, Row>,
    last_id: i64,
}

impl MemoryRows {
    /// Store a new row; its id.
    pub(crate) fn insert(
        &mut self,
        created_ms: i64,
        format: i64,
        request: String,
        files: String,
    ) -> i64 {
        self.last_id += 1;
        let id = self.last_id;
        self.rows.insert(
            id,
            Row {
                id,
                created_ms,
                format,
                request,
                files,
            },
        );
        id
    }

    /// Replace the files of row `id` (nothing when it is gone).
    pub(crate) fn set_files(&mut self, id: i64, files: String) {
        if let Some(row) = self.rows.get_mut(&id) {
            row.files = files;
        }
    }

    /// Every row, newest first.
    pub(crate) fn newest_first(&self) -> Vec<Row> {
        self.rows.values().rev().cloned().collect()
    }

    /// Row `id`, or the newest when `None`.
    pub(crate) fn get(&self, id: Option<i64>) -> Option<Row> {
        match id {
            Some(id) => self.rows.get(&id).cloned(),
            None => self.rows.values().next_back().cloned(),
        }
    }

    /// Drop row `id`; true when it existed.
    pub(crate) fn remove(&mut self, id: i64) -> bool {
        self.rows.remove(&id).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_grow_and_are_never_reused() {
        let mut rows = MemoryRows::default();
        let a = rows.insert(1, 1, "r".into(), "f".into());
        let b = rows.insert(2, 1, "r".into(), "f".into());
        assert_eq!((a, b), (1, 2));
        assert!(rows.remove(b));
        assert_eq!(rows.insert(3, 1, "r".into(), "g".into()), 3);
        assert_eq!(rows.get(None).map(|r| r.id), Some(3));
        rows.set_files(1, "new".into());
        assert_eq!(rows.get(Some(1)).map(|r| r.files), Some("new".to_string()));
        let ids: Vec<i64> = rows.newest_first().iter().map(|r| r.id).collect();
        assert_eq!(ids, [3, 1]);
    }
}
