//! Printing an [`Outcome`] and choosing the exit code.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use hashline::{ErrorCode, Outcome, Response};

/// A failure before any command ran (`E_USAGE` or `E_IO`, exit 2): its message on stderr, or
/// the `--json` object on stdout.
pub fn failure(code: ErrorCode, message: String, json: bool) -> ExitCode {
    print(
        &Response::from_outcome(Outcome::refused(code, message)),
        json,
    )
}

/// A command line clap did not accept (exit 2), or `--help`/`--version` (exit 0): clap's own
/// output, or with `--json` its text in the object (`E_USAGE` unless it was help or version).
pub fn usage(e: clap::Error, json: bool) -> ExitCode {
    if !json {
        e.exit();
    }
    let status = e.exit_code();
    let text = e.render().to_string();
    let outcome = if status == 0 {
        Outcome::success(text)
    } else {
        Outcome::refused(ErrorCode::Usage, text)
    };
    let printed = print(&Response::from_outcome(outcome), true);
    if status == 0 {
        printed
    } else {
        ExitCode::from(2)
    }
}

/// Print `response` (the model-facing text, or its `--json` object) and return the contract's
/// exit code: 0 done, 1 refused, 2 for `E_IO` and `E_USAGE` (whose text goes to stderr
/// without `--json`).
pub fn print(response: &Response, json: bool) -> ExitCode {
    let outcome = &response.outcome;
    // A failure of the machine or of the command line, not a refusal of the request.
    let io_failure = matches!(outcome.code, Some(ErrorCode::Io | ErrorCode::Usage));
    let mut stdout = std::io::stdout().lock();
    let written = if json {
        writeln!(stdout, "{}", response.json())
    } else if io_failure {
        writeln!(std::io::stderr(), "hashline: {}", outcome.text)
    } else {
        write_text(&mut stdout, &outcome.text)
    };
    if written.is_err() {
        return ExitCode::from(2);
    }
    if io_failure {
        ExitCode::from(2)
    } else if outcome.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn write_text(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// When a hashline patch is refused for its syntax and standard error is a terminal, show a
/// diagnostic pointing into the patch there (stdout keeps the model-facing text).
pub fn explain_parse_error(outcome: &Outcome, patch: &[u8]) {
    if outcome.code != Some(ErrorCode::Parse) || !std::io::stderr().is_terminal() {
        return;
    }
    let Ok(patch) = std::str::from_utf8(patch) else {
        return;
    };
    if let Some(diagnostic) = hashline::parse_diagnostic(patch) {
        eprintln!("{:?}", miette::Report::new(diagnostic));
    }
}
