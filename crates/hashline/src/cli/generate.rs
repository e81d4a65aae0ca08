//! `hashline completions SHELL` and `hashline man`: a shell completion script and the man page
//! (roff), both generated from the clap command, printed on standard output.

use std::io::Write;
use std::process::ExitCode;

use clap::CommandFactory;
use clap_complete::Shell;

use super::args::Cli;

/// Print the completion script of `shell` (`hashline completions bash > …`).
pub fn completions(shell: Shell) -> ExitCode {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "hashline", &mut out);
    print(&out)
}

/// Print the man page in roff (`hashline man > hashline.1`, `hashline man | man -l -`).
pub fn man() -> ExitCode {
    let mut out = Vec::new();
    match clap_mangen::Man::new(Cli::command()).render(&mut out) {
        Ok(()) => print(&out),
        Err(e) => {
            eprintln!("hashline: cannot render the man page: {e}");
            ExitCode::from(2)
        }
    }
}

fn print(bytes: &[u8]) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(2),
    }
}
