//! Crash safety: `hashline edit` killed with SIGKILL at random moments during multi-file and
//! hard-linked edits; the next call (`recover`, or any command) must leave every file entirely
//! old or entirely new — all files of one patch the same way — and no temp file behind.
//!
//! `HASHLINE_CRASH_ITERATIONS` scales the runs per scenario (default 120) and
//! `HASHLINE_CRASH_SECONDS` bounds each scenario's time (default 25); `cargo xtask stress` runs
//! thousands.
#![cfg(unix)]

mod support;

use std::fs;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::sandbox::Sandbox;

/// A small xorshift generator (no dependency, seeded from the clock, seed printed).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `lines` numbered lines, each tagged with `name`.
fn text(name: &str, lines: usize) -> String {
    (1..=lines)
        .map(|i| format!("{name} line {i} of the original text\n"))
        .collect()
}

/// One scenario: files (name, old text), hard links (link, of), and the patch.
struct Scenario {
    files: Vec<(&'static str, String)>,
    links: Vec<(&'static str, &'static str)>,
}

impl Scenario {
    /// Puts every file back to its old text (in place, so hard links stay linked).
    fn reset(&self, root: &Path) {
        for (name, old) in &self.files {
            let path = root.join(name);
            let mut file = fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(&path)
                .expect("open");
            file.write_all(old.as_bytes()).expect("write");
        }
        for (link, of) in &self.links {
            if !root.join(link).exists() {
                fs::hard_link(root.join(of), root.join(link)).expect("link");
            }
            let (a, b) = (
                fs::metadata(root.join(link)).expect("meta"),
                fs::metadata(root.join(of)).expect("meta"),
            );
            assert_eq!(a.ino(), b.ino(), "{link} must stay a hard link of {of}");
        }
    }

    /// The patch replacing line 2 of every file, and each file's new text.
    fn patch(&self, sb: &Sandbox) -> (String, Vec<String>) {
        let mut patch = String::new();
        let mut new = Vec::new();
        for (name, old) in &self.files {
            let read = sb.run(&["read", name, "--limit", "1"], b"");
            assert_eq!(read.code, 0, "{}", read.stderr);
            let header = read.stdout.lines().next().expect("header").to_owned();
            patch.push_str(&format!("{header}\nreplace 2..2:\n+{name} CHANGED\n"));
            let mut lines: Vec<&str> = old.split_inclusive('\n').collect();
            let changed = format!("{name} CHANGED\n");
            lines[1] = &changed;
            new.push(lines.concat());
        }
        (patch, new)
    }
}

/// Every `.hashline-` temp file under `dir`.
fn temps(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).expect("list").flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(temps(&path));
        } else if entry
            .file_name()
            .to_string_lossy()
            .starts_with(".hashline-")
        {
            found.push(path.display().to_string());
        }
    }
    found
}

#[derive(Debug, Default)]
struct Counts {
    runs: usize,
    all_old: usize,
    all_new: usize,
    other: usize,
    temps_left: usize,
}

fn crash_loop(label: &str, scenario: &Scenario) -> Counts {
    let sb = Sandbox::new();
    let root = sb.root.as_path();
    scenario.reset(root);
    let (patch, new) = scenario.patch(&sb);
    let iterations = env_number("HASHLINE_CRASH_ITERATIONS", 120);
    let budget = Duration::from_secs(env_number("HASHLINE_CRASH_SECONDS", 25));
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1;
    let mut rng = Rng(seed);

    // How long one uninterrupted edit takes: kills are spread over 0..1.3 × that.
    let started = Instant::now();
    let full = sb.run(&["edit"], patch.as_bytes());
    assert_eq!(full.code, 0, "{}{}", full.stdout, full.stderr);
    let span = started.elapsed().as_micros().max(1000) as u64 * 13 / 10;
    for ((name, _), new) in scenario.files.iter().zip(&new) {
        assert_eq!(&fs::read_to_string(root.join(name)).expect("read"), new);
    }

    let mut counts = Counts::default();
    let start = Instant::now();
    while (counts.runs as u64) < iterations && start.elapsed() < budget {
        scenario.reset(root);
        let mut child = Command::new(env!("CARGO_BIN_EXE_hashline"))
            .arg("--root")
            .arg(root)
            .arg("--state")
            .arg(&sb.state)
            .arg("edit")
            .env_remove("HASHLINE_SESSION")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(patch.as_bytes())
            .expect("patch");
        std::thread::sleep(Duration::from_micros(rng.next() % span));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        // The next call repairs: `recover` half the time, a plain read otherwise.
        let next = if counts.runs % 2 == 0 {
            sb.run(&["recover"], b"")
        } else {
            sb.run(&["read", scenario.files[0].0, "--limit", "1"], b"")
        };
        assert!(next.code == 0, "{}{}", next.stdout, next.stderr);
        counts.runs += 1;
        let states: Vec<u8> = scenario
            .files
            .iter()
            .zip(&new)
            .map(|((name, old), new)| {
                let now = fs::read_to_string(root.join(name)).expect("read");
                u8::from(now == *old) | (u8::from(now == *new) << 1)
            })
            .collect();
        let links_agree = scenario.links.iter().all(|(link, of)| {
            fs::read(root.join(link)).expect("link") == fs::read(root.join(of)).expect("of")
        });
        if states.iter().all(|s| *s == 1) && links_agree {
            counts.all_old += 1;
        } else if states.iter().all(|s| *s == 2) && links_agree {
            counts.all_new += 1;
        } else {
            counts.other += 1;
            eprintln!("{label}: run {} left mixed files {states:?}", counts.runs);
        }
        let left = temps(root);
        if !left.is_empty() {
            counts.temps_left += left.len();
            eprintln!("{label}: temp files left: {left:?}");
        }
    }
    let journal = sb.state.join("journal");
    // `seal.key` (the key the plans are sealed with) is not a journal.
    let journals: Vec<_> = fs::read_dir(&journal)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name())
                .filter(|name| name != "seal.key")
                .collect()
        })
        .unwrap_or_default();
    println!(
        "{label}: seed {seed}, runs {}, all-old {}, all-new {}, other {}, temp files left {}, \
         journals left {}",
        counts.runs,
        counts.all_old,
        counts.all_new,
        counts.other,
        counts.temps_left,
        journals.len()
    );
    assert!(journals.is_empty(), "journals left: {journals:?}");
    counts
}

fn assert_clean(counts: &Counts) {
    assert!(counts.runs >= 20, "too few runs: {counts:?}");
    assert_eq!(counts.other, 0, "{counts:?}");
    assert_eq!(counts.temps_left, 0, "{counts:?}");
}

#[test]
fn killed_multi_file_edits_land_all_or_nothing() {
    let scenario = Scenario {
        files: vec![
            ("a.txt", text("a", 20_000)),
            ("b.txt", text("b", 20_000)),
            ("c.txt", text("c", 20_000)),
        ],
        links: vec![("c-link.txt", "c.txt")],
    };
    assert_clean(&crash_loop(
        "multi-file (3 files, one hard-linked)",
        &scenario,
    ));
}

#[test]
fn killed_hard_linked_edits_are_never_truncated() {
    let scenario = Scenario {
        files: vec![("big.txt", text("big", 60_000))],
        links: vec![("big-link.txt", "big.txt")],
    };
    assert_clean(&crash_loop("hard-linked (one 2.6 MB file)", &scenario));
}
