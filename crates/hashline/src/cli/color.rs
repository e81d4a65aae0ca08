//! `--color auto|always|never` (global): one choice for everything the CLI colours — clap's
//! help and usage errors, and the miette diagnostic shown on a terminal's standard error for a
//! patch that does not parse. Standard output (the model-facing text, diffs included) is never
//! coloured. `auto` colours a terminal only, and never when `NO_COLOR` is set to a non-empty
//! value (<https://no-color.org>).

use std::ffi::OsString;
use std::io::IsTerminal;

use clap::{ColorChoice, CommandFactory, FromArgMatches};

use super::args::Cli;

/// Parse the process's arguments with the colour choice applied to clap's own output (help,
/// usage errors, which clap prints before the parsed `--color` could be looked at). A usage
/// error, `--help` or `--version` comes back as clap's error, for the caller to print (plain,
/// or as a `--json` object).
pub fn parse() -> Result<Cli, clap::Error> {
    let args: Vec<OsString> = std::env::args_os().collect();
    let choice = effective(prescan(&args));
    let matches = Cli::command().color(choice).try_get_matches_from(args)?;
    let cli = Cli::from_arg_matches(&matches)?;
    install_diagnostics(cli.color);
    Ok(cli)
}

/// The last `--color X` / `--color=X` of `args` (before a `--`), `auto` when none or invalid
/// (clap then reports an invalid one).
fn prescan(args: &[OsString]) -> ColorChoice {
    let mut choice = ColorChoice::Auto;
    let mut it = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(arg) = it.next() {
        let value = match arg.as_ref() {
            "--" => break,
            "--color" => it.next().map(|v| v.into_owned()),
            a => a.strip_prefix("--color=").map(str::to_owned),
        };
        if let Some(v) = value {
            choice = match v.as_str() {
                "always" => ColorChoice::Always,
                "never" => ColorChoice::Never,
                _ => ColorChoice::Auto,
            };
        }
    }
    choice
}

/// `auto` with `NO_COLOR` set becomes `never`; clap's own `auto` also checks for a terminal.
fn effective(choice: ColorChoice) -> ColorChoice {
    match choice {
        ColorChoice::Auto if no_color() => ColorChoice::Never,
        other => other,
    }
}

/// `NO_COLOR` is set to a non-empty value.
fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Whether standard error is coloured under `choice`.
pub fn stderr_colored(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => !no_color() && std::io::stderr().is_terminal(),
    }
}

/// The miette diagnostics (standard error) follow `choice`.
fn install_diagnostics(choice: ColorChoice) {
    let color = stderr_colored(choice);
    let _ = miette::set_hook(Box::new(move |_| {
        Box::new(miette::MietteHandlerOpts::new().color(color).build())
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn prescan_takes_the_last_color_before_a_double_dash() {
        assert_eq!(
            prescan(&args(&["hashline", "read", "f"])),
            ColorChoice::Auto
        );
        assert_eq!(
            prescan(&args(&["hashline", "--color", "never", "read", "f"])),
            ColorChoice::Never
        );
        assert_eq!(
            prescan(&args(&[
                "hashline",
                "--color=never",
                "read",
                "--color=always"
            ])),
            ColorChoice::Always
        );
        assert_eq!(
            prescan(&args(&[
                "hashline",
                "--color=never",
                "--",
                "--color=always"
            ])),
            ColorChoice::Never
        );
    }
}
