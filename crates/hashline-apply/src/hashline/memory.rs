//! In-memory files for [`super::apply_to_text`]: lexical path identity, no file system.

use std::collections::BTreeMap;

use hashline_core::ErrorCode;

use super::engine::Files;
use super::error::HashlineError;

/// The canonical form of `path` for in-memory files: `.` and empty components dropped, `..`
/// applied lexically (`a.ts`, `./a.ts` and `x/../a.ts` are one file). `None` when `..` climbs
/// above the root.
pub fn normalize_path(path: &str) -> Option<String> {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for c in path.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    Some(if absolute {
        format!("/{joined}")
    } else {
        joined
    })
}

/// A read-only view of in-memory files.
pub(crate) struct MemoryFiles<'a> {
    files: &'a BTreeMap<String, Vec<u8>>,
}

impl<'a> MemoryFiles<'a> {
    /// View `files` (keys already normalized).
    pub fn new(files: &'a BTreeMap<String, Vec<u8>>) -> MemoryFiles<'a> {
        MemoryFiles { files }
    }
}

impl Files for MemoryFiles<'_> {
    type Handle = String;

    fn resolve(&self, path: &str) -> Result<(String, String), HashlineError> {
        let key = normalize_path(path).ok_or_else(|| {
            HashlineError::Fs(
                ErrorCode::OutsideRoot,
                format!("path resolves outside the workspace root: {path}"),
            )
        })?;
        Ok((key.clone(), key))
    }

    fn read(&self, handle: &String) -> Result<Option<Vec<u8>>, HashlineError> {
        Ok(self.files.get(handle).cloned())
    }

    fn cwd(&self) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::normalize_path;

    #[test]
    fn lexical_identity() {
        assert_eq!(normalize_path("./a.ts").as_deref(), Some("a.ts"));
        assert_eq!(normalize_path("x//y/../a.ts").as_deref(), Some("x/a.ts"));
        assert_eq!(normalize_path("/abs/./p").as_deref(), Some("/abs/p"));
        assert_eq!(normalize_path("../a"), None);
    }
}
