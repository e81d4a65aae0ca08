//! Sealed records: the journal's plans and the undo log's records carry a keyed checksum, so a
//! record the engine did not write (forged, or edited by hand) is refused before anything acts
//! on it.
//!
//! The key is 192 random bytes (`getrandom`) in `seal.key` in the journal directory, created on
//! first use with mode 0600 (written under a temporary name, then linked into place, so two
//! processes creating it at once agree on one key). A sealed file is the JSON object
//! `{"seal":"<32 hex digits>","body":<the record>}`, the seal being the XXH3-128 with the key as
//! its secret of a domain line (`hashline journal` or `hashline undo`) followed by the exact
//! bytes of `body` as stored. XXH3 is not a cryptographic MAC: the seal keeps out records made
//! by someone who cannot read the key (the model's tools cannot: the state directory is outside
//! every dialect's reach), not an attacker who can.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::Xxh3;

use super::FsError;

/// The key's size: XXH3's default secret size.
const KEY_BYTES: usize = 192;

/// The key file's name.
pub(super) const KEY_FILE: &str = "seal.key";

/// What a sealed record is (the seal covers it, so a plan is never taken for an undo record).
#[derive(Debug, Clone, Copy)]
pub(super) enum Domain {
    /// A journal plan.
    Journal,
    /// An undo record.
    Undo,
    /// A journal's `COMMITTED` or `ROLLBACK` marker.
    Marker,
}

impl Domain {
    fn line(self) -> &'static [u8] {
        match self {
            Domain::Journal => b"hashline journal\n",
            Domain::Undo => b"hashline undo\n",
            Domain::Marker => b"hashline marker\n",
        }
    }
}

/// The key of one state directory, found at `path` (read once per `Seal`).
#[derive(Debug, Clone)]
pub(super) struct Seal {
    path: PathBuf,
    key: std::sync::Arc<std::sync::OnceLock<[u8; KEY_BYTES]>>,
}

/// A sealed file as stored.
#[derive(Serialize, Deserialize)]
struct Sealed<B> {
    seal: String,
    body: B,
}

/// Why a stored record is not trusted.
#[derive(Debug)]
pub(super) enum Unsealed {
    /// It is not whole JSON (a write killed halfway leaves this; so does garbage).
    Unreadable,
    /// It is JSON but not a sealed record, or its seal does not verify (or there is no key to
    /// verify it with).
    Forged(String),
}

impl std::fmt::Display for Unsealed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsealed::Unreadable => f.write_str("it does not parse"),
            Unsealed::Forged(why) => f.write_str(why),
        }
    }
}

impl Seal {
    /// The key in `dir` (`dir/seal.key`).
    pub(super) fn in_dir(dir: &Path) -> Seal {
        Seal {
            path: dir.join(KEY_FILE),
            key: std::sync::Arc::default(),
        }
    }

    /// `body` serialized and sealed, as stored (creates the key on first use).
    pub(super) fn seal<B: Serialize>(&self, domain: Domain, body: &B) -> Result<Vec<u8>, FsError> {
        let key = self.key(true)?;
        let body = serde_json::to_vec(body).map_err(|e| self.io(std::io::Error::other(e)))?;
        let raw = serde_json::value::RawValue::from_string(
            String::from_utf8(body).map_err(|e| self.io(std::io::Error::other(e)))?,
        )
        .map_err(|e| self.io(std::io::Error::other(e)))?;
        let sealed = Sealed {
            seal: format!("{:032x}", checksum(&key, domain, raw.get().as_bytes())),
            body: raw,
        };
        serde_json::to_vec(&sealed).map_err(|e| self.io(std::io::Error::other(e)))
    }

    /// The record stored as `bytes`, when its seal verifies.
    pub(super) fn open<B: DeserializeOwned>(
        &self,
        domain: Domain,
        bytes: &[u8],
    ) -> Result<B, Unsealed> {
        let sealed: Sealed<Box<serde_json::value::RawValue>> = match serde_json::from_slice(bytes) {
            Ok(sealed) => sealed,
            // Whole JSON of another shape (an unsealed record) is no torn write.
            Err(_) if serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok() => {
                return Err(Unsealed::Forged("it carries no seal".to_owned()))
            }
            Err(_) => return Err(Unsealed::Unreadable),
        };
        let body: B = serde_json::from_str(sealed.body.get())
            .map_err(|e| Unsealed::Forged(format!("it is not a record of this version: {e}")))?;
        let key = match self.key(false) {
            Ok(key) => key,
            Err(e) => return Err(Unsealed::Forged(format!("no key to check its seal: {e}"))),
        };
        let expected = format!(
            "{:032x}",
            checksum(&key, domain, sealed.body.get().as_bytes())
        );
        if expected == sealed.seal {
            Ok(body)
        } else {
            Err(Unsealed::Forged("its seal does not verify".to_owned()))
        }
    }

    fn io(&self, e: std::io::Error) -> FsError {
        FsError::io(self.path.display(), e)
    }

    /// The key; created first when `create` and there is none.
    fn key(&self, create: bool) -> Result<[u8; KEY_BYTES], FsError> {
        if let Some(key) = self.key.get() {
            return Ok(*key);
        }
        let key = match read_key(&self.path) {
            Err(e) if e.kind() == ErrorKind::NotFound && create => {
                self.create()?;
                read_key(&self.path).map_err(|e| self.io(e))
            }
            found => found.map_err(|e| self.io(e)),
        }?;
        Ok(*self.key.get_or_init(|| key))
    }

    /// Creates the key file (mode 0600) unless another process just did.
    fn create(&self) -> Result<(), FsError> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| self.io(e))?;
        let mut key = [0u8; KEY_BYTES];
        let mut filled = 0;
        while filled < KEY_BYTES {
            filled +=
                rustix::rand::getrandom(&mut key[filled..], rustix::rand::GetRandomFlags::empty())
                    .map_err(|e| self.io(e.into()))?;
        }
        let temp = dir.join(format!(
            ".{KEY_FILE}-{}-{:x}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        let write = || -> std::io::Result<()> {
            let mut file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&temp)?;
            file.write_all(&key)?;
            file.sync_all()?;
            match std::fs::hard_link(&temp, &self.path) {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {} // another process won
                Err(e) => return Err(e),
            }
            File::open(dir)?.sync_all()
        };
        let result = write();
        let _ = std::fs::remove_file(&temp);
        result.map_err(|e| self.io(e))
    }
}

/// The key at `path`: a regular file (never through a symlink) of exactly [`KEY_BYTES`].
fn read_key(path: &Path) -> std::io::Result<[u8; KEY_BYTES]> {
    let nofollow = rustix::fs::OFlags::NOFOLLOW.bits() as i32;
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(nofollow)
        .open(path)?;
    let meta = file.metadata()?;
    let bad = || std::io::Error::other("the key is not what hashline wrote");
    if !meta.is_file() || meta.len() != KEY_BYTES as u64 {
        return Err(bad());
    }
    let mut key = [0u8; KEY_BYTES];
    (&file).take(KEY_BYTES as u64).read_exact(&mut key)?;
    Ok(key)
}

/// The keyed XXH3-128 of `domain`'s line and `body`.
fn checksum(key: &[u8; KEY_BYTES], domain: Domain, body: &[u8]) -> u128 {
    let mut hasher = Xxh3::with_secret(*key);
    hasher.update(domain.line());
    hasher.update(body);
    hasher.digest128()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_record_opens_and_an_edited_one_does_not() {
        let dir = tempfile::tempdir().expect("temp dir");
        let seal = Seal::in_dir(dir.path());
        let bytes = seal.seal(Domain::Journal, &vec![1u32, 2, 3]).expect("seal");
        let opened: Vec<u32> = seal.open(Domain::Journal, &bytes).expect("opens");
        assert_eq!(opened, vec![1, 2, 3]);
        // The same bytes are not an undo record.
        assert!(seal.open::<Vec<u32>>(Domain::Undo, &bytes).is_err());
        // One digit of the body changed: refused.
        let text = String::from_utf8(bytes)
            .expect("utf-8")
            .replace("[1,", "[7,");
        assert!(matches!(
            seal.open::<Vec<u32>>(Domain::Journal, text.as_bytes()),
            Err(Unsealed::Forged(_))
        ));
        // A torn write is unreadable, not forged; whole JSON without a seal is forged.
        assert!(matches!(
            seal.open::<Vec<u32>>(Domain::Journal, b"{\"seal\":"),
            Err(Unsealed::Unreadable)
        ));
        assert!(matches!(
            seal.open::<Vec<u32>>(Domain::Journal, b"[1,2,3]"),
            Err(Unsealed::Forged(_))
        ));
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(dir.path().join(KEY_FILE))
                .expect("key")
                .permissions(),
        );
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_key_of_another_size_verifies_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let seal = Seal::in_dir(dir.path());
        let bytes = seal.seal(Domain::Undo, &"x").expect("seal");
        std::fs::write(dir.path().join(KEY_FILE), b"short").expect("write");
        // A fresh `Seal` (a key is read once per `Seal`), as every call makes.
        let seal = Seal::in_dir(dir.path());
        assert!(matches!(
            seal.open::<String>(Domain::Undo, &bytes),
            Err(Unsealed::Forged(_))
        ));
    }
}
