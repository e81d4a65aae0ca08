//! Symlinks a request names: a deletion removes the link itself ([`Disk::link`]; also a link
//! below the root pointing outside it, whose target is never read: `execute::resolve`), a
//! move of a link is refused (`E_SYMLINK`), and so is a link's deletion beside other changes.
//!
//! A move would have to choose between renaming the link (whose relative target may then
//! point elsewhere) and moving the file behind it (which other links still name); neither is
//! what every request means, so it is refused with a message naming both ways to do it. A
//! link's removal is one `unlinkat`, not a journaled file change, so it lands in a call of
//! its own: all or nothing still holds.

use hashline_core::ErrorCode;

use crate::fs::FsError;

use super::disk::Disk;
use super::front::Done;
use hashline_core::Refusal;

/// The warning of a call that removed symlinks, which the undo log cannot hold.
const LINK_NOT_RECORDED: &str = "[W_UNDO_NOT_RECORDED] a symlink's removal is not recorded \
for undo (the file it pointed to is untouched); `hashline undo` will refuse rather than \
revert an older call in its place";

/// The refusal of a move of the symlink `path`.
pub(crate) fn move_refused(path: &str) -> Refusal {
    Refusal {
        code: ErrorCode::Symlink,
        message: format!(
            "{path} is a symlink; hashline does not move a symlink (renaming the \
             link could change what it points to, moving the file behind it would leave the \
             link dangling). Nothing was written. Edit it in place, or move the file it points \
             to by its own name, then delete the link and recreate it by hand"
        ),
    }
}

/// Refuses a call that deletes a symlink and changes anything else (`E_SYMLINK`).
pub(crate) fn alone(done: &[Done]) -> Result<(), Refusal> {
    let Some(link) = done.iter().find(|d| d.link) else {
        return Ok(());
    };
    if done.iter().all(|d| d.link || d.noop) {
        return Ok(());
    }
    Err(Refusal {
        code: ErrorCode::Symlink,
        message: format!(
            "{} is a symlink: deleting it removes the link itself, which is done in \
             a call of its own. Nothing was written. Send the deletion of the link alone, then \
             the other changes",
            link.target.display
        ),
    })
}

/// Removes the symlinks of `done` (a call of only those: [`alone`]); the first one's
/// position and the failure when it fails.
pub(crate) fn remove(disk: &dyn Disk, done: &mut [Done]) -> Result<(), (usize, FsError)> {
    let first = done.iter().position(|d| d.link).unwrap_or(0);
    let targets: Vec<&crate::fs::Target> =
        done.iter().filter(|d| d.link).map(|d| &d.target).collect();
    let written = disk.remove_links(&targets).map_err(|e| (first, e))?;
    if written.unrecorded {
        done[first].warnings.push(LINK_NOT_RECORDED.to_owned());
    }
    Ok(())
}
