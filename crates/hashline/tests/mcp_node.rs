//! The MCP end-to-end scenario through the TypeScript SDK (`@modelcontextprotocol/sdk` from npm,
//! pinned by `tests/mcp_node/package-lock.json`), driving `hashline mcp` over stdio with
//! `StdioClientTransport` (`tests/mcp_node/client.cjs`): tools/list parsed with the protocol's
//! schema and every structured result checked against its tool's outputSchema (JSON Schema
//! 2020-12), no reply naming a command line, every dialect's edit showing fresh anchors, the
//! fixes replies propose accepted when sent, an ast_edit over 3,000 files within 64 KiB and
//! paged, one cancelled through the SDK queueing nothing, a fenced patch, undo, refusals and
//! every malformed message answered.
//!
//! The SDK is installed with `npm ci` outside the repository (`$HASHLINE_NODE_DIR`, default
//! `$HOME/.cache/hashline-node`) when the lock changed. Without `node`, `npm` or the network
//! the test says `skipped: …` and passes; with `CI` set it fails.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::node::{install, modules_dir, skip};

const FILES: usize = 3_000;

fn fixtures(root: &Path) {
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
    for i in 0..FILES {
        let body =
            format!("export function f{i}(x: number) {{\n  console.log(x);\n  return x;\n}}\n");
        write(&format!("big/m{}/f{i}.ts", i / 100), &body);
    }
}

#[test]
fn typescript_sdk_client_scenario() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_node");
    let modules = modules_dir();
    if let Err(reason) = install(&spec, &modules) {
        return skip("mcp_node", "the TypeScript MCP SDK (node, npm ci)", &reason);
    }
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    fixtures(root.path());
    let started = Instant::now();
    let mut child = Command::new("node")
        .arg(spec.join("client.cjs"))
        .arg(&modules)
        .arg(env!("CARGO_BIN_EXE_hashline"))
        .arg(root.path())
        .arg(state.path())
        .arg("mcp-node")
        .env_remove("HASHLINE_SESSION")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the Node client");
    // A hang guard, not a timing check.
    let deadline = started + Duration::from_secs(900);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the Node MCP client did not finish within 900 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "Node client failed:\n{stdout}\n{stderr}"
    );
    for step in [
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
    ] {
        assert!(stdout.contains(step), "missing step `{step}`:\n{stdout}");
    }
    eprintln!(
        "{}(the Node client ran {:.1} s)",
        stdout,
        started.elapsed().as_secs_f64()
    );
}
