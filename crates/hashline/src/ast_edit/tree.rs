//! A [`Disk`] seen as the [`SourceTree`] `ast_edit` walks, so a structural rewrite previews
//! (and `resolve` applies) over any file system, not only a directory.

use std::path::Path;

use hashline_apply::{Disk, Entry};
use hashline_ast::{SourceKind, SourceTree};

/// `ast_edit`'s view of a [`Disk`]: names are the disk's `real` paths of its targets.
pub(crate) struct DiskTree<'a>(pub &'a dyn Disk);

impl SourceTree for DiskTree<'_> {
    fn canonical(&self, path: &str) -> Option<String> {
        let target = self.0.resolve(path).ok()?;
        Some(target.real.to_string_lossy().into_owned())
    }

    fn kind(&self, name: &str) -> Option<SourceKind> {
        let target = self.0.resolve(name).ok()?;
        match self.0.entry(&target) {
            Entry::File { .. } => Some(SourceKind::File),
            Entry::Directory => Some(SourceKind::Directory),
            _ => None,
        }
    }

    fn children(&self, name: &str) -> Vec<(String, bool)> {
        self.0.children(Path::new(name))
    }

    fn read(&self, name: &str) -> std::io::Result<Vec<u8>> {
        let target = self.0.resolve(name).map_err(std::io::Error::other)?;
        match self.0.read(&target) {
            Ok(Some(bytes)) => Ok(bytes),
            Ok(None) => Err(std::io::ErrorKind::NotFound.into()),
            Err(e) => Err(std::io::Error::other(e)),
        }
    }
}
