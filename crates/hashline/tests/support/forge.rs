//! Journals and undo records written by hand, as the engine writes them (sealed with the state
//! directory's key) or not: for the tests of what recovery and undo trust.

use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::sandbox::Sandbox;

/// The sandbox's canonical root.
pub fn root(sb: &Sandbox) -> PathBuf {
    fs::canonicalize(&sb.root).expect("canonical root")
}

/// Bytes as serde writes a `Vec<u8>`: a JSON array of numbers.
pub fn bytes(b: &[u8]) -> String {
    serde_json::to_string(b).expect("json")
}

/// The fingerprint (length, XXH3-128) of `b`, as a plan stores it.
pub fn print(b: &[u8]) -> String {
    format!(
        r#"{{"len":{},"hash":{}}}"#,
        b.len(),
        xxhash_rust::xxh3::xxh3_128(b)
    )
}

/// One plan entry, as the engine writes it.
pub fn entry(target: &Path, temp: Option<&[u8]>, old: &[u8], new: &[u8], backup: &str) -> String {
    let temp = temp.map_or("null".to_owned(), bytes);
    format!(
        r#"{{"kind":"Put","target":{},"temp":{temp},"old":{},"new":{},"backup":{},"mode":420}}"#,
        bytes(target.as_os_str().as_bytes()),
        print(old),
        print(new),
        serde_json::to_string(backup).expect("json")
    )
}

/// `body` sealed with the state directory's own key, as the engine seals it.
pub fn sealed(sb: &Sandbox, domain: &str, body: &str) -> String {
    let key: [u8; 192] = fs::read(sb.state.join("journal/seal.key"))
        .expect("key")
        .try_into()
        .expect("192 bytes");
    let mut hasher = xxhash_rust::xxh3::Xxh3::with_secret(key);
    hasher.update(format!("hashline {domain}\n").as_bytes());
    hasher.update(body.as_bytes());
    format!(r#"{{"seal":"{:032x}","body":{body}}}"#, hasher.digest128())
}

/// The id of the journal [`forge_journal`] makes.
pub const JOURNAL_ID: &str = "4242-abc-0";

/// Marker `marker` (`COMMITTED`, `ROLLBACK`) of journal `id` whose plan file holds `plan`,
/// sealed as the engine seals it.
pub fn marker(sb: &Sandbox, id: &str, marker: &str, plan: &str) -> Vec<u8> {
    let body = format!(
        r#"{{"journal":"{id}","marker":"{marker}","plan":"{:032x}"}}"#,
        xxhash_rust::xxh3::xxh3_128(plan.as_bytes())
    );
    sealed(sb, "marker", &body).into_bytes()
}

/// A journal of a dead process holding `plan` and `marker` (sealed as the engine writes it);
/// its directory.
pub fn forge_journal(sb: &Sandbox, plan: &str, marker_name: &str) -> PathBuf {
    let sealed_marker = marker(sb, JOURNAL_ID, marker_name, plan);
    forge_journal_raw(sb, plan, marker_name, &sealed_marker)
}

/// A journal of a dead process holding `plan` and a marker holding `bytes`; its directory.
pub fn forge_journal_raw(sb: &Sandbox, plan: &str, marker_name: &str, bytes: &[u8]) -> PathBuf {
    let dir = sb.state.join("journal").join(JOURNAL_ID);
    fs::create_dir_all(&dir).expect("journal dir");
    fs::write(dir.join("plan.json"), plan).expect("plan");
    fs::write(dir.join(marker_name), bytes).expect("marker");
    dir
}

/// A plan of this sandbox's root holding `entry` (one entry, or several joined by commas).
pub fn plan(sb: &Sandbox, entry: &str) -> String {
    format!(
        r#"{{"version":2,"root":{},"pid":1,"entries":[{entry}]}}"#,
        bytes(root(sb).as_os_str().as_bytes())
    )
}
