//! Argument parsing, dispatch, and printing (plain text or `--json`) with the exit codes of the
//! CLI contract: 0 done, 1 refused, 2 usage or I/O failure.

mod args;
mod color;
mod generate;
mod input;
mod output;
mod progress;
mod setup;

use std::process::ExitCode;

use hashline::{
    AstEditOptions, EditOptions, EngineConfig, ErrorCode, ReadOptions, ResolveAction, Response,
    Rule, Session,
};

use args::{Command, ResolveCommand, StateCommand};
use hashline::grammar::GrammarFormat;

/// Run the CLI with the process's arguments.
pub fn main() -> ExitCode {
    let cli = match color::parse() {
        Ok(cli) => cli,
        Err(e) => return output::usage(e, args::json_requested()),
    };
    match &cli.command {
        Command::Completions { shell } => {
            return output::print(&generate::completions(*shell), cli.json)
        }
        Command::Setup { client, project } => {
            return output::print(&setup::run(*client, &cli.root_dir(), *project), cli.json)
        }
        Command::Man { command, dir } => {
            return output::print(&generate::man(command.as_deref(), dir.as_deref()), cli.json)
        }
        _ => {}
    }
    if let Command::Grammar { format, dialect } = &cli.command {
        // The notation each dialect has: Lark for the hashline language, a JSON Schema for
        // a JSON request.
        let format = format.unwrap_or(match dialect.read_anchors() {
            hashline::Anchors::Hash | hashline::Anchors::Lineid => GrammarFormat::JsonSchema,
            hashline::Anchors::Tag => GrammarFormat::Lark,
        });
        return output::print(&hashline::grammar::response(*dialect, format), cli.json);
    }
    let problems = hashline::env_problems();
    if !problems.is_empty() {
        let message = format!(
            "[E_USAGE] {}; unset the variable or give it a value in range. Nothing was run.",
            problems.join("; ")
        );
        return output::failure(hashline::ErrorCode::Usage, message, cli.json);
    }
    let config = EngineConfig::persistent(cli.root_dir(), cli.state_dir(), cli.session_name());
    let session = match Session::open(config) {
        Ok(session) => session,
        Err(e) => return output::failure(e.code(), e.to_string(), cli.json),
    };
    if let Some(warning) = session.engine().state_reset() {
        eprintln!("hashline: {warning}");
    }
    if let Some(report) = session.engine().recovered() {
        if !matches!(cli.command, Command::Recover) {
            eprintln!("hashline: {report}");
        }
    }
    if let Command::Mcp { dialect } = &cli.command {
        return mcp(session, *dialect);
    }
    let response = match &cli.command {
        Command::Read {
            path,
            offset,
            limit,
            anchors,
        } => {
            let opts = ReadOptions::new()
                .anchors(*anchors)
                .typed(offset.clone(), limit.clone());
            session.read(path, &opts).into()
        }
        Command::Edit {
            dialect,
            max_file_mb,
            overwrite,
            dry_run,
            allow_syntax_errors,
            show_anchors,
            file,
        } => match input::read_bytes(file.as_deref()) {
            Ok(bytes) => {
                let mut options = EditOptions::new()
                    .dry_run(*dry_run)
                    .allow_syntax_errors(*allow_syntax_errors)
                    .overwrite(*overwrite)
                    // What the reply shows is what the session records as seen.
                    .fresh_anchors(cli.json)
                    .show_anchors(*show_anchors);
                options.max_file_mb = *max_file_mb;
                let response: Response = session.edit_bytes(&bytes, *dialect, &options).into();
                output::explain_parse_error(&response.outcome, &bytes);
                response
            }
            Err(e) => return output::failure(e.code, e.message, cli.json),
        },
        Command::Write {
            path,
            file,
            anchors,
            overwrite,
        } => match input::read_bytes(file.as_deref()) {
            Ok(bytes) => session
                .write_with(path, &bytes, *anchors, *overwrite)
                .into(),
            Err(e) => return output::failure(e.code, e.message, cli.json),
        },
        Command::AstEdit {
            pat,
            out,
            lang,
            max_files,
            allow_syntax_errors,
            hidden,
            no_ignore,
            paths,
        } => {
            if pat.len() != out.len() {
                let why = format!(
                    "ast-edit needs one --out per --pat (got {} --pat and {} --out); use --out '' to delete matches",
                    pat.len(),
                    out.len()
                );
                return output::failure(ErrorCode::Usage, why, cli.json);
            }
            let rules = pat.iter().zip(out).map(|(p, o)| Rule::new(p, o)).collect();
            let mut options = AstEditOptions::new()
                .max_files(*max_files)
                .allow_syntax_errors(*allow_syntax_errors)
                .hidden(*hidden)
                .no_ignore(*no_ignore);
            options.lang = lang.clone();
            let bar = progress::Progress::new();
            let answer =
                session.ast_edit_with_progress(rules, paths.clone(), &options, &|done, total| {
                    bar.update(done, total)
                });
            bar.finish();
            answer.into()
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
            session.resolve(action).into()
        }
        Command::Undo { list: true, .. } => session.undo_list().into(),
        Command::Undo { id, .. } => session.undo(*id).into(),
        Command::Recover => session.recover().into(),
        Command::State { action } => Response::from(session.state(match action {
            None | Some(StateCommand::List) => hashline::StateAction::List,
            Some(StateCommand::Prune {
                older_than,
                max_size,
                dry_run,
            }) => hashline::StateAction::Prune {
                rule: hashline::PruneRule {
                    older_than_ms:
                        older_than.map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
                    max_bytes: *max_size,
                },
                dry_run: *dry_run,
            },
        })),
        Command::Grammar { .. }
        | Command::Mcp { .. }
        | Command::Setup { .. }
        | Command::Completions { .. }
        | Command::Man { .. } => return ExitCode::SUCCESS,
    };
    output::print(&response, cli.json)
}

/// `hashline mcp`: serve until the client closes standard input.
#[cfg(feature = "mcp")]
fn mcp(session: Session, dialect: hashline::Dialect) -> ExitCode {
    match hashline::mcp::serve_stdio(session, hashline::mcp::McpOptions { dialect }) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hashline: {e}");
            ExitCode::from(2)
        }
    }
}

/// `hashline mcp` in a build without the `mcp` feature.
#[cfg(not(feature = "mcp"))]
fn mcp(_session: Session, _dialect: hashline::Dialect) -> ExitCode {
    eprintln!("hashline: this build has no MCP server (build with the `mcp` feature)");
    ExitCode::from(2)
}
