//! The hash-json `read` over a real workspace: what the conformance cases do not cover
//! (symlinks, paths outside the root, special files, images, large files, CLI strings).

use hashline_anchor::hash_json::{hash_lines, render_rows};
use hashline_apply::fs::Workspace;
use hashline_apply::hash_json::read::{read, ReadArg, EMPTY_FILE};
use hashline_core::ErrorCode;
use hashline_state::{MemoryStore, SnapshotStore};

fn workspace() -> (tempfile::TempDir, Workspace) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let ws = Workspace::new(tmp.path()).expect("workspace");
    (tmp, ws)
}

fn head(store: &MemoryStore, key: &str) -> Option<String> {
    store
        .head(key)
        .expect("memory store never fails")
        .map(|s| s.text)
}

#[test]
fn reads_through_a_symlink_and_records_under_the_real_path() {
    let (tmp, ws) = workspace();
    std::fs::write(tmp.path().join("real.txt"), "one\r\ntwo\r\n").expect("write");
    #[cfg(unix)]
    std::os::unix::fs::symlink("real.txt", tmp.path().join("link.txt")).expect("symlink");
    #[cfg(not(unix))]
    std::fs::copy(tmp.path().join("real.txt"), tmp.path().join("link.txt")).expect("copy");
    let store = MemoryStore::new();
    let out = read(&ws, &store, "link.txt", None, None);
    assert!(out.ok, "{}", out.text);
    let text = "one\ntwo\n";
    assert_eq!(out.text, render_rows(text, &hash_lines(text), 1, 2));
    let key = ws.resolve("link.txt").expect("inside root").key;
    assert_eq!(head(&store, &key).as_deref(), Some(text));
    assert_eq!(out.files[0].path, "link.txt");
    assert_eq!(
        out.files[0].tag.as_deref(),
        Some(hashline_anchor::tag::file_tag(text).as_str())
    );
}

#[test]
fn refuses_paths_outside_the_root() {
    let (_tmp, ws) = workspace();
    let store = MemoryStore::new();
    let out = read(&ws, &store, "../../etc/passwd", None, None);
    assert!(!out.ok);
    assert_eq!(out.code, Some(ErrorCode::OutsideRoot));
}

#[test]
fn bad_offset_wins_over_a_missing_file() {
    let (_tmp, ws) = workspace();
    let store = MemoryStore::new();
    let out = read(&ws, &store, "missing.txt", Some(ReadArg::Text("x")), None);
    assert_eq!(out.code, Some(ErrorCode::BadShape));
    assert_eq!(
        out.text,
        "Read request field \"offset\" must be a positive integer."
    );
}

#[cfg(unix)]
#[test]
fn special_files_are_binary_and_never_opened() {
    let (tmp, ws) = workspace();
    let fifo = tmp.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        // No mkfifo on this system: use a unix socket, also a non-regular file.
        let _socket = std::os::unix::net::UnixListener::bind(&fifo).expect("bind socket");
        let out = read(&ws, &MemoryStore::new(), "pipe", None, None);
        assert_eq!(out.code, Some(ErrorCode::Binary));
        return;
    }
    let out = read(&ws, &MemoryStore::new(), "pipe", None, None);
    assert_eq!(out.code, Some(ErrorCode::Binary));
    assert_eq!(
        out.text,
        "Path is a binary file: pipe (unsupported file type). Hashline read only supports text files and supported images."
    );
}

#[test]
fn images_are_described_not_dumped() {
    let (tmp, ws) = workspace();
    let png = b"\x89PNG\r\n\x1A\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0";
    std::fs::write(tmp.path().join("dot.png"), png).expect("write");
    let store = MemoryStore::new();
    let out = read(&ws, &store, "dot.png", None, None);
    assert!(out.ok);
    assert_eq!(out.text, "Read image file [image/png]");
    let key = ws.resolve("dot.png").expect("inside root").key;
    assert_eq!(head(&store, &key), None);
}

#[test]
fn empty_file_is_recorded() {
    let (tmp, ws) = workspace();
    std::fs::write(tmp.path().join("e.txt"), "").expect("write");
    let store = MemoryStore::new();
    let out = read(&ws, &store, "e.txt", None, None);
    assert_eq!(out.text, EMPTY_FILE);
    let key = ws.resolve("e.txt").expect("inside root").key;
    assert_eq!(head(&store, &key).as_deref(), Some(""));
}

#[test]
fn large_file_windows_use_whole_file_hashes() {
    let (tmp, ws) = workspace();
    let text: String = (0..200_000)
        .map(|i| {
            if i % 5 == 0 {
                "}\n".to_owned()
            } else {
                format!("item {}\n", i % 300)
            }
        })
        .collect();
    std::fs::write(tmp.path().join("big.txt"), &text).expect("write");
    let hashes = hash_lines(&text);
    let store = MemoryStore::new();
    let out = read(
        &ws,
        &store,
        "big.txt",
        Some(ReadArg::Text("199998")),
        Some(ReadArg::Text("2")),
    );
    assert!(out.ok, "{}", out.text);
    assert_eq!(
        out.text,
        render_rows(&text, &hashes, 199_998, 199_999)
            + "\n\n[Showing lines 199998-199999 of 200000. Use offset=200000 to continue.]"
    );
    let head_read = read(&ws, &store, "big.txt", None, None);
    assert_eq!(
        head_read.text,
        render_rows(&text, &hashes, 1, 2000)
            + "\n\n[Showing lines 1-2000 of 200000. Use offset=2001 to continue.]"
    );
}
