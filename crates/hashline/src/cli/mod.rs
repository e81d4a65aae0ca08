//! Argument parsing, dispatch, and printing (plain text or `--json`) with the exit codes of the
//! CLI contract: 0 done, 1 refused, 2 usage or I/O failure.

mod args;
mod input;
mod output;

use std::process::ExitCode;

use clap::Parser;
use hashline::{Engine, EngineConfig, ReadOptions};

use args::{Cli, Command};

/// Run the CLI with the process's arguments.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::Grammar { format, dialect } = &cli.command {
        return match hashline::grammar::grammar(*dialect, *format) {
            Ok(g) => {
                print!("{g}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("hashline: {e}");
                ExitCode::from(2)
            }
        };
    }
    let config = EngineConfig::persistent(cli.root_dir(), cli.state_dir(), cli.session_name());
    let engine = match Engine::open(config) {
        Ok(engine) => engine,
        Err(e) => {
            eprintln!("hashline: {e}");
            return ExitCode::from(2);
        }
    };
    let outcome = match &cli.command {
        Command::Read {
            path,
            offset,
            limit,
            anchors,
        } => {
            let opts = ReadOptions {
                anchors: *anchors,
                offset: offset.clone(),
                limit: limit.clone(),
            };
            engine.read(path, &opts)
        }
        Command::Edit {
            dialect,
            dry_run,
            file,
        } => match input::read_text(file.as_deref()) {
            Ok(text) => {
                let outcome = engine.edit(&text, *dialect, *dry_run);
                output::explain_parse_error(&outcome, &text);
                if *dry_run && outcome.ok {
                    output::dry_run_view(outcome)
                } else {
                    outcome
                }
            }
            Err(e) => {
                eprintln!("hashline: {e}");
                return ExitCode::from(2);
            }
        },
        Command::Write {
            path,
            file,
            anchors,
        } => match input::read_bytes(file.as_deref()) {
            Ok(bytes) => engine.write(path, &bytes, *anchors),
            Err(e) => {
                eprintln!("hashline: {e}");
                return ExitCode::from(2);
            }
        },
        Command::Grammar { .. } => return ExitCode::SUCCESS,
    };
    output::print(&outcome, cli.json)
}
