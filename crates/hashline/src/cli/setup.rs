//! `hashline setup claude|codex|opencode [--project]`: register `hashline mcp` in that
//! client's MCP configuration (issue 26 item 7), keeping every other entry of the file, and
//! print what was written. The files are those each client documents: Claude Code's
//! `.mcp.json` (project) or `~/.claude.json` (`mcpServers`), Codex's `.codex/config.toml`
//! (project) or `$CODEX_HOME/config.toml`, default `~/.codex/config.toml`
//! (`[mcp_servers.hashline]`), OpenCode's `opencode.json` (project) or
//! `$XDG_CONFIG_HOME/opencode/opencode.json`, default `~/.config/opencode/opencode.json`
//! (`mcp`). A file that does not parse is refused and left as it is.

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use hashline::{ErrorCode, Outcome, Response};
use serde_json::{json, Value};

/// The MCP clients `setup` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Client {
    /// Claude Code.
    Claude,
    /// OpenAI Codex CLI.
    Codex,
    /// OpenCode.
    Opencode,
}

impl Client {
    fn name(self) -> &'static str {
        match self {
            Client::Claude => "claude",
            Client::Codex => "codex",
            Client::Opencode => "opencode",
        }
    }
}

/// A refusal: `code` and its text (nothing was written).
type Refusal = (ErrorCode, String);

/// The configuration file of `client`: in `root` with `project`, else under the user's home.
fn config_path(client: Client, root: &Path, project: bool) -> Result<PathBuf, Refusal> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if project {
        return Ok(match client {
            Client::Claude => root.join(".mcp.json"),
            Client::Codex => root.join(".codex").join("config.toml"),
            Client::Opencode => root.join("opencode.json"),
        });
    }
    let home = || {
        var("HOME").ok_or_else(|| {
            let text = "HOME is not set: set it, or use --project to write the project's file. \
                        Nothing was written.";
            (ErrorCode::Usage, text.to_string())
        })
    };
    Ok(match client {
        Client::Claude => home()?.join(".claude.json"),
        Client::Codex => match var("CODEX_HOME") {
            Some(dir) => dir.join("config.toml"),
            None => home()?.join(".codex").join("config.toml"),
        },
        Client::Opencode => match var("XDG_CONFIG_HOME") {
            Some(dir) => dir.join("opencode").join("opencode.json"),
            None => home()?
                .join(".config")
                .join("opencode")
                .join("opencode.json"),
        },
    })
}

/// `old` (a JSON config, empty when the file is new) with `hashline` registered.
fn json_config(client: Client, old: &str) -> Result<(String, String), String> {
    let mut config: Value = if old.trim().is_empty() {
        json!({})
    } else {
        serde_json::from_str(old).map_err(|e| format!("it is not JSON ({e})"))?
    };
    let object = config
        .as_object_mut()
        .ok_or_else(|| "it is not a JSON object".to_string())?;
    let session = json!({"HASHLINE_SESSION": client.name()});
    let (key, entry) = match client {
        Client::Opencode => {
            if !object.contains_key("$schema") {
                object.insert("$schema".into(), json!("https://opencode.ai/config.json"));
            }
            let entry = json!({"type": "local", "command": ["hashline", "mcp"], "enabled": true,
                               "environment": session});
            ("mcp", entry)
        }
        _ => {
            let entry = json!({"type": "stdio", "command": "hashline", "args": ["mcp"],
                               "env": session});
            ("mcpServers", entry)
        }
    };
    let servers = object.entry(key).or_insert_with(|| json!({}));
    let servers = servers
        .as_object_mut()
        .ok_or_else(|| format!("its `{key}` is not an object"))?;
    servers.insert("hashline".into(), entry.clone());
    let shown = serde_json::to_string_pretty(&json!({key: {"hashline": entry}}));
    let text = serde_json::to_string_pretty(&config);
    match (text, shown) {
        (Ok(text), Ok(shown)) => Ok((text + "\n", shown)),
        _ => Err("it could not be serialized".into()),
    }
}

/// Whether TOML line `line` is a table header naming `mcp_servers.hashline` or below it.
fn is_our_header(line: &str) -> bool {
    let t = line.trim();
    let Some(inner) = t.strip_prefix('[').and_then(|r| r.split(']').next()) else {
        return false;
    };
    let name: String = inner
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '"')
        .collect();
    name == "mcp_servers.hashline" || name.starts_with("mcp_servers.hashline.")
}

/// `old` (Codex's `config.toml`) with its `[mcp_servers.hashline]` tables replaced by ours.
fn codex_config(old: &str) -> Result<(String, String), String> {
    let entry = "[mcp_servers.hashline]\ncommand = \"hashline\"\nargs = [\"mcp\"]\n\
                 env = { HASHLINE_SESSION = \"codex\" }\n";
    let mut kept: Vec<&str> = Vec::new();
    let mut ours = false;
    for line in old.lines() {
        let t = line.trim_start();
        if t.starts_with('[') {
            ours = is_our_header(line);
        } else if !ours && t.contains("hashline") && t.contains("mcp_servers") {
            return Err(format!(
                "it defines hashline's server in a form setup does not edit (`{}`)",
                t.trim_end()
            ));
        }
        if !ours {
            kept.push(line);
        }
    }
    let mut text = kept.join("\n").trim_end().to_string();
    if !text.is_empty() {
        text.push_str("\n\n");
    }
    text.push_str(entry);
    Ok((text, entry.trim_end().to_string()))
}

/// Write `text` to `path` through a temporary file in its directory (created if missing).
fn write(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(
        ".{}.hashline-{}.tmp",
        name.unwrap_or_default(),
        std::process::id()
    ));
    std::fs::write(&tmp, text.as_bytes())?;
    let done = std::fs::metadata(path)
        .map_or(Ok(()), |meta| {
            std::fs::set_permissions(&tmp, meta.permissions())
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    if done.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    done
}

/// `hashline setup CLIENT [--project]`.
pub fn run(client: Client, root: &Path, project: bool) -> Response {
    match setup(client, root, project) {
        Ok(text) => Response::from_outcome(Outcome::success(text)),
        Err((code, text)) => Response::from_outcome(Outcome::refused(code, text)),
    }
}

fn setup(client: Client, root: &Path, project: bool) -> Result<String, Refusal> {
    let path = config_path(client, root, project)?;
    let shown_path = path.display();
    let old = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err((ErrorCode::Io, format!("cannot read {shown_path}: {e}"))),
    };
    let made = match client {
        Client::Codex => codex_config(&old),
        _ => json_config(client, &old),
    };
    let (text, entry) = made.map_err(|why| {
        let text = format!(
            "{shown_path} was left as it is: {why}. Fix the file (or move it away) and run \
             setup again. Nothing was written."
        );
        (ErrorCode::Parse, text)
    })?;
    write(&path, &text).map_err(|e| {
        let text = format!("cannot write {shown_path}: {e}. Nothing was written.");
        (ErrorCode::Io, text)
    })?;
    let done = if old.is_empty() {
        format!("Created {shown_path}")
    } else {
        format!("Updated {shown_path}, keeping its other entries")
    };
    Ok(format!(
        "{done}. It registers:\n{entry}\n\
         The `hashline` binary must be on the PATH the client starts it with; restart the \
         client to load it."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_tables_of_ours_are_replaced_and_others_kept() {
        let old = "model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\n\n\
                   [mcp_servers.hashline]\ncommand = \"old\"\n\n[mcp_servers.hashline.env]\n\
                   A = \"1\"\n\n[profiles.fast]\nmodel = \"y\"\n";
        let (text, _) = codex_config(old).expect("edits");
        assert!(
            text.contains("[mcp_servers.other]\ncommand = \"x\""),
            "{text}"
        );
        assert!(text.contains("[profiles.fast]\nmodel = \"y\""), "{text}");
        assert!(
            !text.contains("old") && !text.contains("A = \"1\""),
            "{text}"
        );
        assert_eq!(text.matches("[mcp_servers.hashline]").count(), 1, "{text}");
        let inline = "mcp_servers.hashline.command = \"x\"\n";
        assert!(codex_config(inline).is_err());
    }

    #[test]
    fn json_configs_keep_other_entries() {
        let old = r#"{"theme": "dark", "mcpServers": {"other": {"command": "x"}}}"#;
        let (text, _) = json_config(Client::Claude, old).expect("edits");
        let value: Value = serde_json::from_str(&text).expect("json");
        assert_eq!(value["theme"], "dark");
        assert_eq!(value["mcpServers"]["other"]["command"], "x");
        assert_eq!(value["mcpServers"]["hashline"]["args"], json!(["mcp"]));
        assert!(json_config(Client::Claude, "[1]").is_err());
        assert!(json_config(Client::Opencode, "{\"mcp\": 3}").is_err());
    }
}
