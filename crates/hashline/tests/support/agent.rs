//! The tree of the scripted agent sessions that drive `hashline mcp` through the official SDKs
//! (`tests/it/mcp_python.rs`, `tests/it/mcp_node.rs`): a few small files for the tools and dialects,
//! and [`BIG_FILES`] TypeScript files under `big/` for a bounded, paged and cancelled
//! `ast_edit`.

use std::path::Path;

/// Files under `big/`, one `console.log` each.
pub const BIG_FILES: usize = 3_000;

/// Write the session's tree under `root`.
pub fn tree(root: &Path) {
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("dir");
        }
        std::fs::write(path, text).expect("fixture");
    };
    write("a.js", "function greet(name) {\n  console.log(name);\n}\n");
    write("b.txt", "one\ntwo\nthree\n");
    write("c.txt", "one\ntwo\nthree\nfour\nfive\n");
    write("e.txt", "first\nsecond\n");
    write("unseen.txt", "unseen\n");
    for d in [
        "hashline",
        "hash-json",
        "lineid-json",
        "str-replace",
        "apply-patch",
    ] {
        write(&format!("d/{d}.txt"), "alpha\nbeta\ngamma\n");
    }
    for i in 0..BIG_FILES {
        let body =
            format!("export function f{i}(x: number) {{\n  console.log(x);\n  return x;\n}}\n");
        write(&format!("big/m{}/f{i}.ts", i / 100), &body);
    }
}

/// Run a client script to its end and return what it printed. Its output is read while it
/// runs (a client that prints more than a pipe holds must not block); past `limit` (a hang
/// guard, not a timing check) it is killed and the test fails.
pub fn run_client(
    mut command: std::process::Command,
    limit: std::time::Duration,
) -> std::process::Output {
    use std::process::Stdio;
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    let pid = child.id();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(child.wait_with_output());
    });
    match receive.recv_timeout(limit) {
        Ok(output) => output.expect("the client's output"),
        Err(_) => {
            let _ = std::process::Command::new("kill")
                .arg(pid.to_string())
                .status();
            panic!("{command:?} did not finish within {limit:?}");
        }
    }
}

/// The steps a client prints as it passes them, in order; every one must appear.
pub const STEPS: [&str; 14] = [
    "list_tools ok",
    "read ok",
    "edit ok",
    "stale edit refused ok",
    "dialects ok",
    "fixes ok",
    "ast_edit + resolve ok",
    "big ast_edit ok",
    "cancel ok",
    "fenced patch ok",
    "undo ok",
    "refusals ok",
    "malformed messages ok",
    "session ok",
];

/// Run the `who` client (`command`, already given its script and arguments) through the whole
/// session: it must exit 0 having printed every one of [`STEPS`]. Its output and run time go
/// to stderr (`--nocapture` shows them).
pub fn run_session(mut command: std::process::Command, who: &str) {
    let started = std::time::Instant::now();
    command.env_remove("HASHLINE_SESSION");
    let out = run_client(command, std::time::Duration::from_secs(900));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{who} client failed:\n{stdout}\n{stderr}"
    );
    for step in STEPS {
        assert!(stdout.contains(step), "missing step `{step}`:\n{stdout}");
    }
    eprintln!(
        "{stdout}(the {who} client ran {:.1} s)",
        started.elapsed().as_secs_f64()
    );
}
