//! The per-session snapshot store: a trait, an in-memory LRU store and a SQLite store shared by processes.
