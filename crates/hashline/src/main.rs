//! The `hashline` command line: see `docs/cli.md` in the shared contract, or `hashline --help`.

use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    cli::main()
}
