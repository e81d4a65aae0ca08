//! A hostile tree: a directory swapped for a symlink to outside the root while `edit` and
//! `write` run (zero writes outside), FIFOs and devices (refused unopened, never a hang), two
//! names of one file in one patch (refused), and a lock held by another process (the wait
//! times out naming it).
#![cfg(target_os = "linux")]

use crate::support;

use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use support::sandbox::Sandbox;

/// Every file below `dir` with its bytes.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).expect("list").flatten() {
        let path = entry.path();
        if entry.file_type().expect("type").is_dir() {
            out.extend(snapshot(&path));
        } else {
            out.push((
                path.display().to_string(),
                fs::read(&path).unwrap_or_default(),
            ));
        }
    }
    out.sort();
    out
}

#[test]
fn a_directory_swapped_for_an_outside_symlink_is_never_written_through() {
    let sb = Sandbox::new();
    let root = sb.root.as_path();
    let outside = sb.root.parent().expect("parent").join("outside");
    fs::create_dir_all(&outside).expect("outside");
    fs::write(outside.join("f.txt"), "outside 1\noutside 2\n").expect("outside file");
    sb.put("dir/f.txt", b"inside 1\ninside 2\n");
    std::os::unix::fs::symlink(&outside, root.join("swap")).expect("symlink");
    let before = snapshot(&outside);

    let read = sb.run(&["read", "dir/f.txt"], b"");
    assert_eq!(read.code, 0, "{}", read.stderr);
    let header = read.stdout.lines().next().expect("header").to_owned();

    let stop = Arc::new(AtomicBool::new(false));
    let swaps = {
        let (stop, root) = (Arc::clone(&stop), root.to_path_buf());
        std::thread::spawn(move || {
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                rustix::fs::renameat_with(
                    rustix::fs::CWD,
                    root.join("dir"),
                    rustix::fs::CWD,
                    root.join("swap"),
                    rustix::fs::RenameFlags::EXCHANGE,
                )
                .expect("exchange");
                n += 1;
                // Slowed, so that many calls run between two exchanges and succeed while
                // others still meet a swap mid-call.
                std::thread::sleep(std::time::Duration::from_millis(25));
            }
            n
        })
    };
    let tries = 150;
    let (mut written, mut refused) = (0, 0);
    for i in 0..tries {
        let run = if i % 2 == 0 {
            let body = format!("written {i}\n");
            sb.run(&["write", "dir/f.txt"], body.as_bytes())
        } else {
            // A fresh read each time, so that an edit fails only for the race.
            let read = sb.run(&["read", "dir/f.txt"], b"");
            let fresh = read.stdout.lines().next().filter(|_| read.code == 0);
            let header = fresh.unwrap_or(&header).to_owned();
            let patch = format!("{header}\nreplace 1..1:\n+edited {i}\n");
            sb.run(&["edit"], patch.as_bytes())
        };
        if run.code == 0 {
            written += 1;
        } else {
            refused += 1;
        }
    }
    stop.store(true, Ordering::Relaxed);
    let swapped = swaps.join().expect("swapper");
    let after = snapshot(&outside);
    let outside_writes = after.len().abs_diff(before.len())
        + after.iter().filter(|entry| !before.contains(entry)).count();
    println!(
        "swap race: tries={tries} written={written} refused={refused} swaps={swapped} \
         outside={outside_writes}"
    );
    assert!(
        written > 0,
        "no call succeeded between swaps: the race was not exercised"
    );
    assert_eq!(after, before, "a file outside the root changed");
    let temps: Vec<_> = snapshot(root)
        .into_iter()
        .filter(|(p, _)| p.contains(".hashline-"))
        .collect();
    assert!(temps.is_empty(), "{temps:?}");
}

#[test]
fn fifos_and_devices_are_refused_without_being_opened() {
    let sb = Sandbox::new();
    let root = sb.root.as_path();
    rustix::fs::mknodat(
        rustix::fs::CWD,
        root.join("pipe"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from(0o644),
        0,
    )
    .expect("mkfifo");
    let mut names = vec!["pipe"];
    // /dev/zero's numbers (1, 5); needs CAP_MKNOD.
    match rustix::fs::mknodat(
        rustix::fs::CWD,
        root.join("zero"),
        rustix::fs::FileType::CharacterDevice,
        rustix::fs::Mode::from(0o666),
        rustix::fs::makedev(1, 5),
    ) {
        Ok(()) => names.push("zero"),
        Err(e) => println!("SKIPPED the character device case: mknod not permitted ({e})"),
    }
    for name in names {
        let started = Instant::now();
        for args in [
            vec!["read", name],
            vec!["read", name, "--anchors", "lineid"],
            vec!["read", name, "--anchors", "hash"],
            vec!["write", name],
        ] {
            let run = sb.run(&args, b"text\n");
            assert_ne!(run.code, 0, "{args:?} accepted a {name}");
            // `--anchors hash` keeps its seed's refusal of an unsupported file type.
            assert!(
                run.stdout.contains("not a regular file")
                    || run.stderr.contains("not a regular file")
                    || run.stdout.contains("unsupported file type"),
                "{args:?}: {}{}",
                run.stdout,
                run.stderr
            );
        }
        let patch = format!("¶{name}#0000\nreplace 1..1:\n+x\n");
        let run = sb.run(&["edit"], patch.as_bytes());
        assert_ne!(run.code, 0, "edit accepted a {name}");
        assert!(started.elapsed() < Duration::from_secs(20), "{name} hung");
    }
}

#[test]
fn two_names_of_one_file_in_one_patch_are_refused() {
    let sb = Sandbox::new();
    let root = sb.root.as_path();
    sb.put("f.txt", b"one\ntwo\n");
    fs::hard_link(root.join("f.txt"), root.join("g.txt")).expect("link");
    let head = |name: &str| {
        let read = sb.run(&["read", name], b"");
        read.stdout.lines().next().expect("header").to_owned()
    };
    let patch = format!(
        "{}\nreplace 1..1:\n+ONE\n{}\nreplace 2..2:\n+TWO\n",
        head("f.txt"),
        head("g.txt")
    );
    let run = sb.run(&["edit"], patch.as_bytes());
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("same file"), "{}", run.stdout);
    assert_eq!(fs::read(root.join("f.txt")).expect("f"), b"one\ntwo\n");
}

#[test]
fn a_lock_held_too_long_times_out_naming_the_holder() {
    let sb = Sandbox::new();
    sb.put("f.txt", b"one\n");
    // The holder keeps another state directory: the lock is the file's all the same.
    let ws = hashline_apply::fs::Workspace::new(&sb.root)
        .expect("ws")
        .with_state_dir(sb.state.with_file_name("holder-state"), "holder".into());
    let target = ws.resolve("f.txt").expect("resolve");
    let guard = ws.lock(&[&target]).expect("lock");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hashline"));
    let out = cmd
        .arg("--root")
        .arg(&sb.root)
        .arg("--state")
        .arg(&sb.state)
        .args(["write", "f.txt"])
        .env("HASHLINE_LOCK_TIMEOUT", "0.5")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run");
    drop(guard);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(&format!("process {}", std::process::id())),
        "{text}"
    );
    assert!(text.contains("timed out"), "{text}");
    assert_eq!(fs::read(sb.root.join("f.txt")).expect("f"), b"one\n");
}

#[test]
fn resolve_apply_writes_two_hard_links_of_one_file_once() {
    // The preview names the file once (the first name; the other is noted), so the apply
    // writes it through one name instead of refusing two names of one file.
    let sb = Sandbox::new();
    let root = sb.root.as_path();
    sb.put("src/a.ts", b"console.log(1);\n");
    fs::hard_link(root.join("src/a.ts"), root.join("src/b.ts")).expect("link");
    let preview = sb.run(
        &[
            "ast-edit",
            "--pat",
            "console.log($$$A)",
            "--out",
            "logger.debug($$$A)",
            "src",
        ],
        b"",
    );
    assert_eq!(preview.code, 0, "{}{}", preview.stdout, preview.stderr);
    assert!(preview.stdout.contains("same file"), "{}", preview.stdout);
    let apply = sb.run(&["resolve", "apply"], b"");
    assert_eq!(apply.code, 0, "{}{}", apply.stdout, apply.stderr);
    for name in ["src/a.ts", "src/b.ts"] {
        assert_eq!(
            fs::read(root.join(name)).expect(name),
            b"logger.debug(1);\n"
        );
    }
}
