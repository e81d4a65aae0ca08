//! Printing an [`Outcome`] and choosing the exit code.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use hashline::{ErrorCode, Outcome, Response};

/// Print `response` (the model-facing text, or its `--json` object) and return the contract's
/// exit code.
pub fn print(response: &Response, json: bool) -> ExitCode {
    let outcome = &response.outcome;
    let io_failure = outcome.code == Some(ErrorCode::Io);
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
pub fn explain_parse_error(outcome: &Outcome, patch: &str) {
    if outcome.code != Some(ErrorCode::Parse) || !std::io::stderr().is_terminal() {
        return;
    }
    if let Some(report) = hashline::parse_diagnostic(patch) {
        eprintln!("{report:?}");
    }
}
