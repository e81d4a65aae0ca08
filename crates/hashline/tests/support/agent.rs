//! The tree of the scripted agent sessions that drive `hashline mcp` through the official SDKs
//! (`tests/mcp_python.rs`, `tests/it/mcp_node.rs`): a few small files for the tools and dialects,
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
