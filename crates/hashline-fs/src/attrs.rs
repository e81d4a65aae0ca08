//! [`Attrs`]: what a replacement file inherits from the file it replaces.

use std::fs::{File, Metadata, Permissions};

/// Permissions and (on Unix) owner of a file, copied onto the temp file that replaces it.
#[derive(Debug, Clone)]
pub(super) struct Attrs {
    permissions: Permissions,
    /// `None`: keep whatever owner the new file gets.
    #[cfg(unix)]
    owner: Option<(u32, u32)>,
}

impl Attrs {
    /// The attributes of an existing file.
    pub(super) fn of(meta: &Metadata) -> Attrs {
        Attrs {
            permissions: meta.permissions(),
            #[cfg(unix)]
            owner: {
                use std::os::unix::fs::MetadataExt;
                Some((meta.uid(), meta.gid()))
            },
        }
    }

    /// Permission bits `mode` (from the journal), owner left as created.
    pub(super) fn from_mode(mode: u32) -> Attrs {
        use std::os::unix::fs::PermissionsExt;
        Attrs {
            permissions: std::fs::Permissions::from_mode(mode),
            #[cfg(unix)]
            owner: None,
        }
    }

    /// The same attributes with permission bits `mode`.
    pub(super) fn with_mode(self, mode: u32) -> Attrs {
        use std::os::unix::fs::PermissionsExt;
        Attrs {
            permissions: std::fs::Permissions::from_mode(mode),
            ..self
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
            if let Some(owner) = self.owner.filter(|&o| o != (meta.uid(), meta.gid())) {
                let _ = std::os::unix::fs::fchown(file, Some(owner.0), Some(owner.1));
            }
        }
        file.set_permissions(self.permissions.clone())
    }
}
