//! A process that cannot start a thread (a process limit, a memory limit) still reads big
//! files and records them: the read in two halves and the blob compressed from both ends fall
//! back to the calling thread, with the same output and the same blob bytes.

use std::path::Path;
use std::process::Command;

/// A thread stack larger than any address space: every `std::thread` spawn of the child fails.
const NO_THREADS: &str = "1125899906842624";

/// `hashline read NAME` in `root` with `state`; its exit code, stdout and stderr.
fn read(root: &Path, state: &Path, name: &str, no_threads: bool) -> (Option<i32>, String, String) {
    run(root, state, &["read", name], no_threads)
}

/// A fresh root (made) and state directory (not yet) under `dir` for one of the two runs.
fn sandbox(dir: &Path, no_threads: bool) -> (std::path::PathBuf, std::path::PathBuf) {
    let root = dir.join(format!("root-{no_threads}"));
    std::fs::create_dir(&root).expect("root");
    (root, dir.join(format!("state-{no_threads}")))
}

/// The files of `state`'s blob directory: name and bytes.
fn blobs(state: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(state.join("blobs"))
        .expect("blob directory")
        .map(|e| {
            let e = e.expect("entry");
            let bytes = std::fs::read(e.path()).expect("blob");
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn big_reads_without_a_spare_thread_match_the_threaded_ones() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("root");
    std::fs::create_dir(&root).expect("root");
    // 9 MiB (read in two halves) and 300 KiB (a blob, hashed and compressed on two threads).
    let big: String = (0..300_000)
        .map(|i| format!("row {i:>7}: let value_{} = {};\r\n", i % 89, i * 31))
        .collect();
    assert!(big.len() > 9 << 20);
    std::fs::write(root.join("big.txt"), &big).expect("write");
    std::fs::write(root.join("mid.txt"), &big[..300_000]).expect("write");
    let (threaded, alone) = (dir.path().join("threaded"), dir.path().join("alone"));
    for name in ["big.txt", "mid.txt"] {
        let expected = read(&root, &threaded, name, false);
        let got = read(&root, &alone, name, true);
        assert_eq!(got.0, Some(0), "{name}: {}", got.2);
        assert!(!got.1.contains("W_STATE_NOT_RECORDED"), "{name}: {}", got.1);
        assert_eq!((got.0, &got.1), (expected.0, &expected.1), "{name}");
    }
    let (theirs, mine) = (blobs(&threaded), blobs(&alone));
    assert_eq!(mine.len(), 2, "one blob per text, nothing else");
    assert!(mine.iter().all(|(name, _)| name.ends_with(".lz4")));
    assert!(mine == theirs, "the same blobs, byte for byte");
}

/// `hashline … ARGS` in `root` with `state`, threads or none; exit code, stdout, stderr.
fn run(
    root: &Path,
    state: &Path,
    args: &[&str],
    no_threads: bool,
) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hashline"));
    cmd.arg("--root").arg(root).arg("--state").arg(state);
    cmd.args(args).env_remove("RUST_MIN_STACK");
    if no_threads {
        cmd.env("RUST_MIN_STACK", NO_THREADS);
    }
    let out = cmd.output().expect("run hashline");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_big_edit_of_two_files_without_a_spare_thread_lands_as_the_threaded_one() {
    // A 400 KiB Rust file (its guard parses beside the per-edit checks, in windows scanned
    // on two threads; its blob is prepared beside the write) and a small one (two files: the
    // commit's fsyncs on several threads), edited by one patch of many hunks.
    let big: String = (0..12_000)
        .map(|i| format!("fn f{i}(x: u32) -> u32 {{\n    x + {i}\n}}\n"))
        .collect();
    assert!(big.len() > 300 << 10);
    let dir = tempfile::tempdir().expect("temp dir");
    let mut results = Vec::new();
    for no_threads in [false, true] {
        let (root, state) = sandbox(dir.path(), no_threads);
        std::fs::write(root.join("big.rs"), &big).expect("write");
        std::fs::write(root.join("small.rs"), "fn main() {}\n").expect("write");
        let tag = |name: &str| {
            let (code, out, err) = run(&root, &state, &["read", name, "--limit", "1"], no_threads);
            assert_eq!(code, Some(0), "{err}");
            out.lines()
                .next()
                .and_then(|l| l.rsplit_once('#'))
                .map(|(_, t)| t.to_owned())
        };
        let (big_tag, small_tag) = (tag("big.rs").expect("tag"), tag("small.rs").expect("tag"));
        let mut patch = format!("¶big.rs#{big_tag}\n");
        for i in (0..12_000).step_by(400) {
            patch.push_str(&format!(
                "replace {}..{}:\n+    x * {i}\n",
                3 * i + 2,
                3 * i + 2
            ));
        }
        patch.push_str(&format!(
            "¶small.rs#{small_tag}\nreplace 1..1:\n+fn main() {{ f1(1); }}\n"
        ));
        std::fs::write(dir.path().join("patch"), &patch).expect("patch");
        let patch_path = dir.path().join("patch");
        let patch_arg = patch_path.to_string_lossy().into_owned();
        let (code, out, err) = run(&root, &state, &["edit", &patch_arg], no_threads);
        assert_eq!(code, Some(0), "{out}{err}");
        let files = (
            std::fs::read_to_string(root.join("big.rs")).expect("big"),
            std::fs::read_to_string(root.join("small.rs")).expect("small"),
        );
        results.push((out, files));
    }
    assert!(results[1].1 .0.contains("    x * 400\n"));
    assert_eq!(results[0], results[1], "the same reply and the same files");
}

#[test]
fn an_ast_edit_and_its_apply_without_a_spare_thread_match_the_threaded_ones() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut results = Vec::new();
    for no_threads in [false, true] {
        let (root, state) = sandbox(dir.path(), no_threads);
        for i in 0..6 {
            let text = format!("const a{i} = void 0;\nconst b{i} = 1;\n");
            std::fs::write(root.join(format!("f{i}.js")), text).expect("write");
        }
        let preview = [&crate::support::cli::VOID_0[..], &["."]].concat();
        let (code, shown, err) = run(&root, &state, &preview, no_threads);
        assert_eq!(code, Some(0), "{err}");
        let (code, applied, err) = run(&root, &state, &["resolve", "apply", "1"], no_threads);
        assert_eq!(code, Some(0), "{err}");
        let files: Vec<String> = (0..6)
            .map(|i| std::fs::read_to_string(root.join(format!("f{i}.js"))).expect("read"))
            .collect();
        results.push((shown, applied, files));
    }
    assert!(results[1]
        .2
        .iter()
        .all(|f| f.starts_with("const a") && f.contains("undefined")));
    assert_eq!(results[0], results[1]);
}

#[test]
fn the_mcp_server_without_a_spare_thread_says_so_instead_of_panicking() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (root, state) = sandbox(dir.path(), true);
    let (code, out, err) = run(&root, &state, &["mcp"], true);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("cannot start the runtime"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
