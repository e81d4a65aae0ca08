//! The command line's shape (clap derive).

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{ArgGroup, ColorChoice, Parser, Subcommand};
use hashline::grammar::GrammarFormat;
use hashline::{Anchors, AstEditOptions, Dialect, PreviewId};
use hashline_apply::anchors::AnchorForm;
use hashline_apply::registry;

/// Read files with anchors; apply small anchored patches exactly, or refuse them with a reason.
///
/// hashline is the file tool of a coding agent. `read` prints a file with anchors (a tag of the
/// whole file and line numbers, or a hash or ID per line) and records what it showed in the
/// session; the model writes a patch against those anchors and `edit` applies it — every file
/// of it, all or nothing — or refuses it with a stable code (docs/ERRORS.md) and a message that
/// says what to do next. A stale anchor never lands on the wrong line: when the file changed
/// since the read, the edit is carried onto it through a line diff only when that is certain.
/// Standard output is the model-facing text; exit 0 done, 1 refused, 2 usage or I/O failure.
#[derive(Debug, Parser)]
#[command(
    name = "hashline",
    version,
    after_help = "Example:
  $ hashline read src/app.py
  ¶src/app.py#B138
  1:def main():
  2:    print(\"hello\")
  3:
  $ hashline edit <<'EOF'
  ¶src/app.py#B138
  replace 2..2:
  +    print(\"hello, world\")
  EOF
  ¶src/app.py#2C26
   1:def main():
  -2:    print(\"hello\")
  +2:    print(\"hello, world\")

More: `hashline edit --help` (patch formats), `hashline grammar --help`, `hashline man`."
)]
pub struct Cli {
    /// Every path is resolved against this directory and may not leave it [default: .]
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub root: Option<PathBuf>,
    /// Session state directory [default: $HASHLINE_STATE, $XDG_STATE_HOME/hashline, ~/.local/state/hashline]
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub state: Option<PathBuf>,
    /// Session name: snapshots are per session [default: $HASHLINE_SESSION or `default`]
    #[arg(long, global = true, value_name = "NAME", help_heading = GLOBAL)]
    pub session: Option<String>,
    /// Print one JSON object {ok, code, text, warnings, files} instead of the model-facing text
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub json: bool,
    /// Colour help, usage errors and diagnostics on standard error: auto (a terminal, unless
    /// NO_COLOR is set), always or never. Standard output is never coloured.
    #[arg(long, global = true, value_name = "WHEN", value_enum, default_value_t = ColorChoice::Auto, help_heading = GLOBAL)]
    pub color: ColorChoice,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The heading of the options every command takes: listed after a command's own.
const GLOBAL: &str = "Global options";

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a file with anchors and record it in the session.
    Read {
        /// The file, relative to --root.
        path: String,
        /// First line to show (1-based).
        #[arg(long, value_name = "N", allow_hyphen_values = true)]
        offset: Option<String>,
        /// How many lines to show.
        #[arg(long, value_name = "N", allow_hyphen_values = true)]
        limit: Option<String>,
        /// Anchor style: tag (¶PATH#TAG + N:TEXT), hash (HASH:TEXT), lineid (N#ID|TEXT).
        #[arg(long, default_value = "tag", value_parser = anchors_parser())]
        anchors: Anchors,
    },
    /// Apply one patch read from FILE or standard input.
    ///
    /// Every patch format of the dialect registry is accepted;
    /// `--dialect auto` (the default) tells them apart:
    ///
    /// The reply is the dialect's model-facing text; `--json` adds per file the new tag, the
    /// diff and `anchors` (fresh anchors of every changed region, for the next edit without a
    /// re-read). A refused edit writes nothing (exit 1).
    #[command(verbatim_doc_comment, long_about = edit_about())]
    Edit {
        /// The patch format (see above).
        #[arg(long, default_value = "auto", value_parser = dialect_parser(edit_dialects()))]
        dialect: Dialect,
        /// Refuse files larger than N MiB (default 10, as the text-editor tool).
        #[arg(long, value_name = "N")]
        max_file_mb: Option<u64>,
        /// Let a V4A patch's `*** Add File:` and `*** Move to:` replace an existing file
        /// (refused with E_FILE_EXISTS without it).
        #[arg(long)]
        overwrite: bool,
        /// Validate everything and print the diff that would result; write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Apply the edit as sent: one that adds a syntax error lands (a change that passes
        /// through a broken state; without it E_SYNTAX_INTRODUCED), and what the guard would
        /// refuse (indentation, range, payload shape) lands with a W_AS_SENT warning.
        #[arg(long, visible_alias = "as-sent")]
        allow_syntax_errors: bool,
        /// After a successful edit, also print the fresh anchors of every changed region
        /// (`--- Anchors PATH lines A-B ---` and the rows as the dialect's read shows them)
        /// where the dialect's reply has none (lineid-json, a V4A patch's summary, hash-json's
        /// `Anchors omitted`): the next edit can use them without a re-read. `--json` always carries
        /// them in `files[].anchors`.
        #[arg(long)]
        show_anchors: bool,
        /// The patch file; `-` or nothing reads standard input.
        file: Option<String>,
    },
    /// Create or replace a whole file and print the anchors of what was written.
    Write {
        /// The file, relative to --root.
        path: String,
        /// The content; `-` or nothing reads standard input.
        file: Option<String>,
        /// Anchor style of the printed auto-read.
        #[arg(long, default_value = "tag", value_parser = anchors_parser())]
        anchors: Anchors,
        /// Replace an existing file even though this session never read it (refused with
        /// E_NOT_READ without it, so that nothing unseen is lost).
        #[arg(long)]
        overwrite: bool,
    },
    /// Preview structural rewrites (ast-grep patterns); writes nothing, queues the preview and
    /// prints its id. Apply it with `resolve apply`.
    #[command(name = "ast-edit")]
    AstEdit {
        /// An ast-grep pattern (`$NAME`, `$$$ARGS`, `$_` metavariables); pair each with an --out.
        #[arg(
            long = "pat",
            value_name = "PATTERN",
            required = true,
            allow_hyphen_values = true
        )]
        pat: Vec<String>,
        /// The rewrite of the --pat in the same position; may use its captures; empty deletes.
        #[arg(
            long = "out",
            value_name = "REWRITE",
            required = true,
            allow_hyphen_values = true
        )]
        out: Vec<String>,
        /// Parse every file as this language (ts, tsx, js, rust, py, ...) [default: by extension].
        #[arg(long, value_name = "LANG")]
        lang: Option<String>,
        /// At most this many files get replacements.
        #[arg(long, value_name = "N", default_value_t = AstEditOptions::default().max_files)]
        max_files: usize,
        /// Queue rewrites that add a syntax error (refused with E_SYNTAX_INTRODUCED without it).
        #[arg(long)]
        allow_syntax_errors: bool,
        /// Directory walks also visit hidden files and directories (skipped by default, as
        /// ripgrep and ast-grep do; a hidden path named on the command line is always used).
        #[arg(long)]
        hidden: bool,
        /// Directory walks also visit files that .gitignore, .ignore or git excludes name
        /// (skipped by default).
        #[arg(long)]
        no_ignore: bool,
        /// Files, directories or globs (`src/**/*.ts`), relative to --root.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<String>,
    },
    /// Apply or discard a queued ast-edit preview; with no verb, list the pending ones.
    Resolve {
        /// apply, discard or list.
        #[command(subcommand)]
        action: Option<ResolveCommand>,
    },
    /// Put back the exact prior bytes (and mode) of every file a call changed; refused if any
    /// of them changed since. Without ID, this session's last recorded call.
    Undo {
        /// The call's undo id (`undo` in an edit's `--json` result, or from `--list`).
        id: Option<u64>,
        /// List the recent undoable calls of this root (newest first) instead.
        #[arg(long, conflicts_with = "id")]
        list: bool,
    },
    /// List the sessions of the state directory (rows, size, last use) or prune them. Calls
    /// prune automatically, at most once an hour: sessions unused for HASHLINE_STATE_MAX_AGE
    /// (default 30d), then the least recently used beyond HASHLINE_STATE_MAX_BYTES (default
    /// 256MiB); `off` turns a bound off. The current session is never pruned.
    State {
        /// list (the default) or prune.
        #[command(subcommand)]
        action: Option<StateCommand>,
    },
    /// Finish or undo edits a killed process left half done (every call also does this first)
    /// and remove their temp files; prints what was done.
    Recover,
    /// Serve the tools read, edit, write, ast_edit and resolve over MCP (stdio) in this
    /// session, until the client closes standard input.
    Mcp {
        /// Default dialect of the tools (descriptions, read anchors, edit patches); a call may
        /// name its own: hashline, hash-json or lineid-json.
        #[arg(long, default_value = "hashline", value_parser = dialect_parser(anchored_dialects()))]
        dialect: Dialect,
    },
    /// Register `hashline mcp` in an MCP client's configuration and print what was written:
    /// claude (`~/.claude.json`, with --project `.mcp.json`), codex (`~/.codex/config.toml` or
    /// `$CODEX_HOME/config.toml`, with --project `.codex/config.toml`), opencode
    /// (`~/.config/opencode/opencode.json`, with --project `opencode.json`). Every other entry
    /// of the file is kept; a file that does not parse is left as it is (E_PARSE).
    Setup {
        /// The client.
        #[arg(value_enum)]
        client: super::setup::Client,
        /// Write the project's file (in --root) instead of the user's.
        #[arg(long)]
        project: bool,
    },
    /// Print a shell completion script on standard output.
    ///
    /// `hashline completions bash > ~/.local/share/bash-completion/completions/hashline`,
    /// `hashline completions zsh > ~/.zfunc/_hashline` (with `~/.zfunc` in `fpath`),
    /// `hashline completions fish > ~/.config/fish/completions/hashline.fish`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a man page (roff) on standard output, or write every page into a directory.
    ///
    /// `hashline man | man -l -` shows the top page, `hashline man read | man -l -` the page
    /// of `read`; `hashline man --dir ~/.local/share/man/man1` installs every page
    /// (hashline.1, hashline-read.1, …) for `man hashline`, `man hashline-read`.
    Man {
        /// The command whose page to print (`read`, `ast-edit`, `resolve-apply`, …)
        /// [default: the top-level page].
        #[arg(value_name = "COMMAND")]
        command: Option<String>,
        /// Write every page into this directory (created if missing) instead.
        #[arg(long, value_name = "DIR", conflicts_with = "command")]
        dir: Option<PathBuf>,
    },
    /// Print a grammar for constrained decoding.
    ///
    /// `--format lark` (llguidance, Python's lark) or `gbnf` (llama.cpp) for the hashline
    /// language, `json-schema` for hash-json and lineid-json. The hashline grammars describe the
    /// canonical form of a patch: `*** Begin Patch` and `*** End Patch` around it, `¶PATH#TAG`
    /// headers with an upper-case 4-hex tag (a path that starts or ends with white space or
    /// holds a quote is written in "…" or '…'), ranges as `A..B`, a colon after every
    /// `replace`/`insert` header, every row as `+ROW`, lines ending in `\n`. Every patch the
    /// engine accepts can be written this way; the engine also reads the lenient spellings.
    Grammar {
        /// The grammar's notation [default: lark for hashline, json-schema for the JSON
        /// dialects].
        #[arg(long, value_parser = format_parser())]
        format: Option<GrammarFormat>,
        /// The dialect whose input the grammar describes.
        #[arg(long, default_value = "hashline", value_parser = dialect_parser(anchored_dialects()))]
        dialect: Dialect,
    },
}

/// The verbs of `state`.
#[derive(Debug, Subcommand)]
pub enum StateCommand {
    /// Every session: name, size of its rows, last use, rows; then the totals.
    List,
    /// Remove sessions (snapshots, undo history, queued previews) and compact the database.
    #[command(group(ArgGroup::new("bound").required(true).multiple(true).args(["older_than", "max_size"])))]
    Prune {
        /// Remove sessions last used longer ago than this (`7d`, `12h`, `90m`, `2w`).
        #[arg(long, value_parser = hashline::parse_age)]
        older_than: Option<std::time::Duration>,
        /// Then remove the least recently used sessions until the rest hold at most this much
        /// (`100MB`, `1GiB`, `500k`).
        #[arg(long, value_parser = hashline::parse_bytes)]
        max_size: Option<u64>,
        /// Say which sessions would go; remove nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

/// The verbs of `resolve`.
#[derive(Debug, Subcommand)]
pub enum ResolveCommand {
    /// Write a queued preview (the newest without ID), refusing it if any of its files changed.
    Apply {
        /// The preview id that ast-edit printed [default: the newest].
        #[arg(value_parser = parse_preview_id)]
        id: Option<PreviewId>,
        /// Apply only these matches (FILE:MATCH ids, comma-separated).
        #[arg(long, value_name = "ID,...", value_delimiter = ',')]
        only: Option<Vec<String>>,
    },
    /// Drop a queued preview (the newest without ID) without writing.
    Discard {
        /// The preview id [default: the newest].
        #[arg(value_parser = parse_preview_id)]
        id: Option<PreviewId>,
    },
    /// List the pending previews (the same as `resolve` alone).
    List,
}

/// Whether the raw command line asks for `--json` (before a `--`), for the errors clap reports
/// before it has parsed anything.
pub fn json_requested() -> bool {
    std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

fn parse_preview_id(s: &str) -> Result<PreviewId, String> {
    s.parse()
}

/// Every `edit --dialect`: `auto`, then the registry's dialects.
fn edit_dialects() -> Vec<&'static str> {
    Dialect::all().map(Dialect::as_str).collect()
}

/// The dialects with a `read` anchor mode (`mcp`, `grammar`), from the registry.
fn anchored_dialects() -> Vec<&'static str> {
    registry::DIALECTS
        .iter()
        .filter(|d| {
            matches!(
                d.read_form(),
                AnchorForm::Tag | AnchorForm::Hash | AnchorForm::Lineid
            )
        })
        .map(|d| d.name())
        .collect()
}

/// `edit --help`: the doc comment with one paragraph per dialect of the registry, wrapped.
fn edit_about() -> String {
    let mut out = String::from(
        "Apply one patch read from FILE or standard input.\n\n\
         Every patch format of the dialect registry is accepted;\n\
         `--dialect auto` (the default) tells them apart:\n\n",
    );
    for dialect in registry::DIALECTS {
        let mut line = format!("  {:<12} ", dialect.name());
        for word in dialect.describe().split(' ') {
            if line.len() + word.len() > 92 && !line.trim().is_empty() && !line.ends_with("  ") {
                out.push_str(line.trim_end());
                out.push('\n');
                line = " ".repeat(15);
            }
            line.push_str(word);
            line.push(' ');
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(
        "\nThe reply is the dialect's model-facing text; `--json` adds per file the new tag, the\n\
         diff and `anchors` (fresh anchors of every changed region, for the next edit without a\n\
         re-read). A refused edit writes nothing (exit 1).",
    );
    out
}

/// `--format`: its values listed in help and errors.
fn format_parser() -> impl TypedValueParser<Value = GrammarFormat> {
    PossibleValuesParser::new(["lark", "gbnf", "json-schema"]).try_map(|s| s.parse())
}

/// `--anchors`: its values listed in help and errors.
fn anchors_parser() -> impl TypedValueParser<Value = Anchors> {
    PossibleValuesParser::new(["tag", "hash", "lineid"]).try_map(|s| s.parse())
}

/// `--dialect` with `values` listed in help and errors.
fn dialect_parser(values: Vec<&'static str>) -> impl TypedValueParser<Value = Dialect> {
    PossibleValuesParser::new(values).try_map(|s| s.parse())
}

impl Cli {
    /// `--root`, else the current directory.
    pub fn root_dir(&self) -> PathBuf {
        self.root.clone().unwrap_or_else(|| PathBuf::from("."))
    }

    /// `--state`, else `$HASHLINE_STATE`, `$XDG_STATE_HOME/hashline`, `~/.local/state/hashline`.
    pub fn state_dir(&self) -> PathBuf {
        if let Some(dir) = &self.state {
            return dir.clone();
        }
        let env = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        if let Some(dir) = env("HASHLINE_STATE") {
            return dir;
        }
        if let Some(dir) = env("XDG_STATE_HOME") {
            return dir.join("hashline");
        }
        match env("HOME") {
            Some(home) => home.join(".local/state/hashline"),
            None => std::env::temp_dir().join("hashline-state"),
        }
    }

    /// `--session`, else `$HASHLINE_SESSION`, else `default`.
    pub fn session_name(&self) -> String {
        self.session
            .clone()
            .or_else(|| {
                std::env::var("HASHLINE_SESSION")
                    .ok()
                    .filter(|s| !s.is_empty())
            })
            .unwrap_or_else(|| "default".to_string())
    }
}
