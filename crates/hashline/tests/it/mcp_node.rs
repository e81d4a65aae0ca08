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

use crate::support;

use std::path::Path;
use std::process::Command;

use support::node::{install, modules_dir, skip};

#[test]
fn typescript_sdk_client_scenario() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_node");
    let modules = modules_dir();
    if let Err(reason) = install(&spec, &modules) {
        return skip("mcp_node", "the TypeScript MCP SDK (node, npm ci)", &reason);
    }
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    support::agent::tree(root.path());
    let mut command = Command::new("node");
    command
        .arg(spec.join("client.cjs"))
        .arg(&modules)
        .arg(env!("CARGO_BIN_EXE_hashline"))
        .arg(root.path())
        .arg(state.path())
        .arg("mcp-node");
    support::agent::run_session(command, "Node");
}
