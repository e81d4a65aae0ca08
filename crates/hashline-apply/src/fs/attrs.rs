//! [`Attrs`]: what a replacement file inherits from the file it replaces.

use std::fs::{File, Metadata, Permissions};

/// Permissions and (on Unix) owner of a file, copied onto the temp file that replaces it.
#[derive(Debug, Clone)]
pub(super) struct Attrs {
    permissions: Permissions,
    #[cfg(unix)]
    owner: (u32, u32),
}

impl Attrs {
    /// The attributes of an existing file.
    pub(super) fn of(meta: &Metadata) -> Attrs {
        Attrs {
            permissions: meta.permissions(),
            #[cfg(unix)]
            owner: {
                use std::os::unix::fs::MetadataExt;
                (meta.uid(), meta.gid())
            },
        }
    }

    /// Gives `file` (a fresh temp) these attributes. The owner comes first (a `chown` may clear
    /// set-id bits), and is best effort, as in `sed -i`: an unprivileged user cannot give a file
    /// away, and refusing the edit for that would be worse than the owner becoming the editor.
    pub(super) fn apply(&self, file: &File) -> std::io::Result<()> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let meta = file.metadata()?;
            if (meta.uid(), meta.gid()) != self.owner {
                let _ = std::os::unix::fs::fchown(file, Some(self.owner.0), Some(self.owner.1));
            }
        }
        file.set_permissions(self.permissions.clone())
    }
}
