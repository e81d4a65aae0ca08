//! Printing an [`Outcome`] and choosing the exit code.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use hashline::{ErrorCode, Outcome};
use serde::Serialize;

/// Print `outcome` (plain text or JSON) and return the contract's exit code.
pub fn print(outcome: &Outcome, json: bool) -> ExitCode {
    print_as(outcome, outcome, json)
}

/// Like [`print`], with `report` (a superset of `outcome`'s fields) as the `--json` object.
pub fn print_as(outcome: &Outcome, report: &impl Serialize, json: bool) -> ExitCode {
    let io_failure = outcome.code == Some(ErrorCode::Io);
    let mut stdout = std::io::stdout().lock();
    let written = if json {
        match serde_json::to_string(report) {
            Ok(s) => writeln!(stdout, "{s}"),
            Err(e) => writeln!(
                std::io::stderr(),
                "hashline: cannot serialize the result: {e}"
            ),
        }
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

/// An edit's or write's `--json` object: the outcome's fields, then `undo` (the call's undo id)
/// when the call was recorded in the undo log.
#[derive(Serialize)]
struct WithUndo<'a> {
    #[serde(flatten)]
    outcome: &'a Outcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    undo: Option<u64>,
}

/// [`print`] for a call that may have written: `--json` carries its undo id.
pub fn print_with_undo(outcome: &Outcome, undo: Option<u64>, json: bool) -> ExitCode {
    print_as(outcome, &WithUndo { outcome, undo }, json)
}

fn write_text(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// `edit --dry-run` that would succeed: print the unified diff of every file instead of the
/// model-facing result (or that result, when nothing would change).
pub fn dry_run_view(mut outcome: Outcome) -> Outcome {
    let diff: String = outcome.files.iter().map(|f| f.diff.as_str()).collect();
    if !diff.is_empty() {
        outcome.text = diff;
    }
    outcome
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
