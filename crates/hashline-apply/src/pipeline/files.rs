//! File-level steps before the edit: lock and read the targets, the read-only check.

use crate::fs::{FsError, LockGuard, Target, Workspace};

/// The first of `targets` read under the lock of all of them: the lock is held until the
/// returned guard drops (after the commit), so a concurrent edit waits and then sees this one's
/// result. `None` bytes: the file does not exist.
pub(crate) fn lock_and_read(
    ws: &Workspace,
    targets: &[&Target],
) -> Result<(LockGuard, Option<Vec<u8>>), FsError> {
    let guard = ws.lock(targets)?;
    let bytes = match targets.first() {
        Some(first) => ws.read(first)?,
        None => None,
    };
    Ok((guard, bytes))
}

/// Whether the file exists and its permissions forbid writing it.
pub(crate) fn is_read_only(target: &Target) -> bool {
    std::fs::metadata(&target.real).is_ok_and(|m| m.permissions().readonly())
}
