//! The names in the state directory's records are input, not truth: before a recovery or an
//! undo acts on a journal plan or an undo record (whose seal verified, `seal.rs`), every name
//! in it must be one the engine itself would have written there.
//!
//! * a target is an absolute path strictly below the workspace root, of plain components only
//!   (no `..`, no `.`), and not in the state directory; it is then opened through directory
//!   handles from the root like every edit (`beneath.rs`), so a symlink on its way is refused;
//! * a journal's temp name is exactly `.hashline-<journal id>-<n>.tmp` for change `n` (none for
//!   a removal), a single name in the target's directory;
//! * a backup name is exactly `old-<n>`, present exactly when there were old bytes;
//! * an undo record's made directories are plain paths strictly below the root.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path};

use super::journal::{self, Entry, Kind, Plan};
use super::undo_log::Record;
use super::Workspace;

/// Why `path` (bytes of a record) is not a place under `ws`'s root the engine writes.
fn check_path(ws: &Workspace, what: &str, bytes: &[u8]) -> Result<(), String> {
    let path = Path::new(OsStr::from_bytes(bytes));
    let shown = path.display();
    let rest = path.strip_prefix(ws.root()).map_err(|_| {
        format!(
            "{what} {shown} is not under the root {}",
            ws.root().display()
        )
    })?;
    let plain = rest.components().all(|c| matches!(c, Component::Normal(_)));
    if !plain || rest.as_os_str().is_empty() {
        return Err(format!("{what} {shown} is not a plain path below the root"));
    }
    if ws.in_state_dir(path) {
        return Err(format!("{what} {shown} is inside the state directory"));
    }
    Ok(())
}

/// Why entry `n`'s backup name is not the engine's own.
fn check_backup(n: usize, entry: &Entry) -> Result<(), String> {
    match (&entry.backup, entry.old) {
        (None, None) => Ok(()),
        (Some(name), Some(_)) if *name == journal::backup_name(n) => Ok(()),
        (Some(name), _) => Err(format!(
            "backup {name:?} of change {n} is not {:?}",
            journal::backup_name(n)
        )),
        (None, Some(_)) => Err(format!("change {n} has old bytes but no backup")),
    }
}

/// Why journal `id`'s `plan` names something the engine never writes.
pub(super) fn check_plan(ws: &Workspace, id: &str, plan: &Plan) -> Result<(), String> {
    for (n, entry) in plan.entries.iter().enumerate() {
        check_path(ws, "target", &entry.target)?;
        let expected = journal::temp_name(id, n);
        match (entry.kind, &entry.temp) {
            (Kind::Remove, None) => {}
            (Kind::Put | Kind::InPlace, Some(temp)) if temp[..] == *expected.as_bytes() => {}
            (_, temp) => {
                let temp = temp
                    .as_deref()
                    .map(|t| OsStr::from_bytes(t).to_string_lossy());
                return Err(format!(
                    "temp {temp:?} of change {n} is not {:?}",
                    expected.to_string_lossy()
                ));
            }
        }
        check_backup(n, entry)?;
    }
    Ok(())
}

/// Why `record` names something the engine never writes.
pub(super) fn check_record(ws: &Workspace, record: &Record) -> Result<(), String> {
    for (n, entry) in record.entries.iter().enumerate() {
        check_path(ws, "target", &entry.target)?;
        check_backup(n, entry)?;
    }
    for dir in &record.dirs {
        check_path(ws, "directory", dir)?;
    }
    Ok(())
}
