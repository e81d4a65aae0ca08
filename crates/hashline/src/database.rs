//! The state database behind a persistent session: `hashline_state::SqliteStore` with the
//! `sqlite` feature, an uninhabited type without it (so `Option<Arc<Database>>` is always
//! `None` and no SQLite is linked).

use std::path::Path;

#[cfg(feature = "sqlite")]
pub(crate) use hashline_state::SqliteStore as Database;

/// No database: this build has no on-disk store.
#[cfg(not(feature = "sqlite"))]
#[derive(Debug)]
pub(crate) enum Database {}

/// Where the database was moved aside as the engine opened (it was not a database).
#[cfg(feature = "sqlite")]
pub(crate) fn moved_aside(db: &Database) -> Option<&Path> {
    db.moved_aside()
}

/// Where the database was moved aside as the engine opened (it was not a database).
#[cfg(not(feature = "sqlite"))]
pub(crate) fn moved_aside(db: &Database) -> Option<&Path> {
    match *db {}
}
