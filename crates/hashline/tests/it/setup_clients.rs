//! `hashline setup claude|codex|opencode [--project]` writes each client's MCP configuration
//! where the client reads it, in the shape it documents, keeping every other entry, and
//! refuses (writing nothing) a file that does not parse. The Codex TOML is parsed with
//! Python's `tomllib` (skipped visibly when `python3` is missing).

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

/// `hashline --root ROOT setup ARGS…` with HOME = `home`; its exit code and stdout.
fn setup(root: &Path, home: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hashline"))
        .arg("--root")
        .arg(root)
        .arg("setup")
        .args(args)
        .env("HOME", home)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("CODEX_HOME")
        .output()
        .expect("run hashline");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn json_file(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()))
}

/// The TOML file at `path` as JSON, through Python's `tomllib`; `None` without `python3`.
fn toml_file(path: &Path) -> Option<Value> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import json, sys, tomllib; print(json.dumps(tomllib.load(open(sys.argv[1], 'rb'))))",
        ])
        .arg(path)
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "{} does not parse as TOML: {}\n{}",
        path.display(),
        String::from_utf8_lossy(&out.stderr),
        fs::read_to_string(path).unwrap_or_default()
    );
    Some(serde_json::from_slice(&out.stdout).expect("tomllib's JSON"))
}

#[test]
fn each_client_gets_its_documented_entry_and_keeps_the_others() {
    let root = tempfile::tempdir().expect("root");
    let home = tempfile::tempdir().expect("home");
    let (r, h) = (root.path(), home.path());

    // Claude Code: ~/.claude.json with other settings, then the project's .mcp.json.
    fs::write(
        h.join(".claude.json"),
        r#"{"numStartups": 3, "mcpServers": {"other": {"command": "x", "args": []}}}"#,
    )
    .expect("seed");
    let (code, text) = setup(r, h, &["claude"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(".claude.json") && text.contains("\"hashline\""),
        "{text}"
    );
    let config = json_file(&h.join(".claude.json"));
    assert_eq!(config["numStartups"], 3);
    assert_eq!(config["mcpServers"]["other"]["command"], "x");
    let entry = &config["mcpServers"]["hashline"];
    assert_eq!(entry["command"], "hashline");
    assert_eq!(entry["args"], json!(["mcp"]));
    assert_eq!(entry["type"], "stdio");
    let (code, text) = setup(r, h, &["claude", "--project"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(
        json_file(&r.join(".mcp.json"))["mcpServers"]["hashline"],
        *entry
    );

    // OpenCode: ~/.config/opencode/opencode.json created, then the project's opencode.json.
    let (code, text) = setup(r, h, &["opencode"]);
    assert_eq!(code, 0, "{text}");
    let config = json_file(&h.join(".config/opencode/opencode.json"));
    assert_eq!(config["$schema"], "https://opencode.ai/config.json");
    let entry = &config["mcp"]["hashline"];
    assert_eq!(entry["type"], "local");
    assert_eq!(entry["command"], json!(["hashline", "mcp"]));
    assert_eq!(entry["enabled"], true);
    fs::write(
        r.join("opencode.json"),
        r#"{"model": "m", "mcp": {"x": {"type": "remote", "url": "u"}}}"#,
    )
    .expect("seed");
    let (code, text) = setup(r, h, &["opencode", "--project"]);
    assert_eq!(code, 0, "{text}");
    let config = json_file(&r.join("opencode.json"));
    assert_eq!(config["model"], "m");
    assert_eq!(config["mcp"]["x"]["url"], "u");
    assert_eq!(config["mcp"]["hashline"]["type"], "local");

    // Codex: ~/.codex/config.toml with other tables; twice leaves one entry.
    fs::create_dir_all(h.join(".codex")).expect("dir");
    fs::write(
        h.join(".codex/config.toml"),
        "model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\nargs = []\n",
    )
    .expect("seed");
    for _ in 0..2 {
        let (code, text) = setup(r, h, &["codex"]);
        assert_eq!(code, 0, "{text}");
        assert!(text.contains("[mcp_servers.hashline]"), "{text}");
    }
    let written = fs::read_to_string(h.join(".codex/config.toml")).expect("toml");
    assert_eq!(
        written.matches("[mcp_servers.hashline]").count(),
        1,
        "{written}"
    );
    let (code, text) = setup(r, h, &["codex", "--project"]);
    assert_eq!(code, 0, "{text}");
    match toml_file(&h.join(".codex/config.toml")) {
        Some(config) => {
            assert_eq!(config["model"], "o3");
            assert_eq!(config["mcp_servers"]["other"]["command"], "x");
            let entry = &config["mcp_servers"]["hashline"];
            assert_eq!(entry["command"], "hashline");
            assert_eq!(entry["args"], json!(["mcp"]));
            assert_eq!(entry["env"]["HASHLINE_SESSION"], "codex");
            let project = toml_file(&r.join(".codex/config.toml")).expect("python3");
            assert_eq!(project["mcp_servers"]["hashline"], *entry);
        }
        None => eprintln!("setup_clients: SKIPPED the TOML parse: no python3"),
    }
}

#[test]
fn a_file_that_does_not_parse_is_left_as_it_is() {
    let root = tempfile::tempdir().expect("root");
    let home = tempfile::tempdir().expect("home");
    let broken = "{\"mcpServers\": ";
    fs::write(root.path().join(".mcp.json"), broken).expect("seed");
    let (code, text) = setup(root.path(), home.path(), &["claude", "--project"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("Nothing was written"), "{text}");
    assert_eq!(
        fs::read_to_string(root.path().join(".mcp.json")).expect("file"),
        broken
    );
}
