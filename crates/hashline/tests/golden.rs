//! Golden fixtures: every folder under `fixtures/` is a scenario run through the real `hashline`
//! binary, compared byte for byte. `cargo xtask golden --bless` (or `HASHLINE_BLESS=1`) rewrites
//! the expectations; with `CI=true` nothing is ever rewritten.
//!
//! A fixture folder holds:
//! * `input/`: the starting tree (copied into a fresh temp root; symlinks kept);
//! * `links` (optional): setup lines `hardlink EXISTING NEW` run after the copy;
//! * `steps/NN-name/args`: one CLI argument per line (the runner adds `--root` and `--state`);
//!   `steps/NN-name/stdin` (optional); `stdout` and `exit` are the expectations;
//! * `steps/NN-name/files/` instead of `args`: an external change (another tool, the user) —
//!   the files are copied over the root without going through hashline;
//! * `expected/`: the final tree; `expected-links`: hard-link groups of the final tree, one
//!   group per line. A leftover temp file or a changed byte anywhere fails the fixture.

mod support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use support::tree;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

fn bless() -> bool {
    std::env::var("CI").map(|v| v != "true").unwrap_or(true)
        && std::env::var_os("HASHLINE_BLESS").is_some()
}

#[test]
fn golden_fixtures() {
    let dir = fixtures_dir();
    let mut names: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("fixtures/ exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("steps").is_dir())
        .collect();
    names.sort();
    assert!(
        !names.is_empty(),
        "no fixtures found under {}",
        dir.display()
    );
    let mut failures = Vec::new();
    for fixture in &names {
        if let Err(msg) = run_fixture(fixture) {
            failures.push(format!(
                "{}:\n{msg}",
                fixture.file_name().unwrap_or_default().to_string_lossy()
            ));
        }
    }
    println!(
        "golden: {} passed, {} failed",
        names.len() - failures.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "golden fixtures failed:\n{}",
        failures.join("\n")
    );
}

fn run_fixture(fixture: &Path) -> Result<(), String> {
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    let root = tmp.path().join("root");
    let state = tmp.path().join("state");
    tree::copy_tree(&fixture.join("input"), &root);
    if let Ok(links) = fs::read_to_string(fixture.join("links")) {
        for line in links.lines().filter(|l| !l.trim().is_empty()) {
            let parts: Vec<&str> = line.split_whitespace().collect();
            match parts.as_slice() {
                ["hardlink", existing, new] => fs::hard_link(root.join(existing), root.join(new))
                    .map_err(|e| format!("links: {line}: {e}"))?,
                _ => return Err(format!("links: cannot understand `{line}`")),
            }
        }
    }
    let mut steps: Vec<PathBuf> = fs::read_dir(fixture.join("steps"))
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .collect();
    steps.sort();
    let mut msg = String::new();
    for step in &steps {
        if !step.join("args").exists() && step.join("files").is_dir() {
            tree::copy_tree(&step.join("files"), &root);
            continue;
        }
        let args: Vec<String> = fs::read_to_string(step.join("args"))
            .map_err(|e| format!("{}: args: {e}", step.display()))?
            .lines()
            .map(str::to_string)
            .collect();
        let stdin = fs::read(step.join("stdin")).ok();
        let (stdout, code) = run_cli(&root, &state, &args, stdin.as_deref())?;
        let name = step
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        if bless() {
            fs::write(step.join("stdout"), &stdout).map_err(|e| e.to_string())?;
            fs::write(step.join("exit"), format!("{code}\n")).map_err(|e| e.to_string())?;
            continue;
        }
        let want_out = fs::read(step.join("stdout")).unwrap_or_default();
        let want_code = fs::read_to_string(step.join("exit")).unwrap_or_default();
        if stdout != want_out {
            msg.push_str(&format!(
                "  step {name}: stdout differs\n--- expected\n{}\n--- actual\n{}\n",
                String::from_utf8_lossy(&want_out),
                String::from_utf8_lossy(&stdout)
            ));
        }
        if want_code.trim() != code.to_string() {
            msg.push_str(&format!(
                "  step {name}: exit {code}, expected {}\n",
                want_code.trim()
            ));
        }
    }
    let actual = tree::snapshot(&root);
    let links = link_groups(&root);
    if bless() {
        tree::write_tree(&fixture.join("expected"), &actual);
        fs::write(fixture.join("expected-links"), links).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let expected = tree::snapshot(&fixture.join("expected"));
    msg.push_str(&tree::diff_trees(&expected, &actual));
    let want_links = fs::read_to_string(fixture.join("expected-links")).unwrap_or_default();
    if want_links != links {
        msg.push_str(&format!(
            "  hard links differ: expected {want_links:?}, got {links:?}\n"
        ));
    }
    if msg.is_empty() {
        Ok(())
    } else {
        Err(msg)
    }
}

#[cfg(unix)]
fn link_groups(root: &Path) -> String {
    tree::hard_link_groups(root)
        .iter()
        .map(|g| format!("{}\n", g.join(" ")))
        .collect()
}

#[cfg(not(unix))]
fn link_groups(_: &Path) -> String {
    String::new()
}

fn run_cli(
    root: &Path,
    state: &Path,
    args: &[String],
    stdin: Option<&[u8]>,
) -> Result<(Vec<u8>, i32), String> {
    use std::io::Write;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hashline"));
    cmd.arg("--root")
        .arg(root)
        .arg("--state")
        .arg(state)
        .args(args);
    cmd.env_remove("HASHLINE_SESSION")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| format!("spawn hashline: {e}"))?;
    if let Some(mut pipe) = child.stdin.take() {
        pipe.write_all(stdin.unwrap_or_default())
            .map_err(|e| e.to_string())?;
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    Ok((out.stdout, out.status.code().unwrap_or(-1)))
}
