//! Argument parsing, dispatch, and printing (plain text or `--json`) with the exit codes of the
//! CLI contract: 0 done, 1 refused, 2 usage or I/O failure.

mod args;
mod input;
mod output;
mod progress;

use std::process::ExitCode;

use clap::Parser;
use hashline::{
    AstEditOptions, EditOptions, Engine, EngineConfig, ReadOptions, ResolveAction, Rule,
};

use args::{Cli, Command, ResolveCommand};

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
    if let Some(report) = engine.recovered() {
        if !matches!(cli.command, Command::Recover) {
            eprintln!("hashline: {report}");
        }
    }
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
            allow_syntax_errors,
            file,
        } => match input::read_text(file.as_deref()) {
            Ok(text) => {
                let options = EditOptions {
                    dry_run: *dry_run,
                    allow_syntax_errors: *allow_syntax_errors,
                };
                let outcome = engine.edit_with(&text, *dialect, &options);
                output::explain_parse_error(&outcome, &text);
                let outcome = if *dry_run && outcome.ok {
                    output::dry_run_view(outcome)
                } else {
                    outcome
                };
                return output::print_with_undo(&outcome, engine.last_undo(), cli.json);
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
            Ok(bytes) => {
                let outcome = engine.write(path, &bytes, *anchors);
                return output::print_with_undo(&outcome, engine.last_undo(), cli.json);
            }
            Err(e) => {
                eprintln!("hashline: {e}");
                return ExitCode::from(2);
            }
        },
        Command::AstEdit {
            pat,
            out,
            lang,
            max_files,
            allow_syntax_errors,
            paths,
        } => {
            if pat.len() != out.len() {
                eprintln!(
                    "hashline: ast-edit needs one --out per --pat (got {} --pat and {} --out); use --out '' to delete matches",
                    pat.len(),
                    out.len()
                );
                return ExitCode::from(2);
            }
            let rules = pat.iter().zip(out).map(|(p, o)| Rule::new(p, o)).collect();
            let options = AstEditOptions {
                lang: lang.clone(),
                max_files: *max_files,
                allow_syntax_errors: *allow_syntax_errors,
            };
            let bar = progress::Progress::new();
            let result =
                engine.ast_edit_with_progress(rules, paths.clone(), &options, &|done, total| {
                    bar.update(done, total)
                });
            bar.finish();
            return output::print_as(&result.outcome, &result, cli.json);
        }
        Command::Resolve { action } => {
            let action = match action {
                None | Some(ResolveCommand::List) => ResolveAction::List,
                Some(ResolveCommand::Apply { id, only }) => ResolveAction::Apply {
                    id: *id,
                    only: only.clone(),
                },
                Some(ResolveCommand::Discard { id }) => ResolveAction::Discard { id: *id },
            };
            let result = engine.resolve(action);
            return output::print_as(&result.outcome, &result, cli.json);
        }
        Command::Undo { list: true, .. } => engine.undo_list(),
        Command::Undo { id, .. } => engine.undo(*id),
        Command::Recover => engine.recover(),
        Command::Grammar { .. } => return ExitCode::SUCCESS,
    };
    output::print(&outcome, cli.json)
}
