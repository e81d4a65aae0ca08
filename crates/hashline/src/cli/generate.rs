//! `hashline completions SHELL` and `hashline man`: a shell completion script and the man pages
//! (roff), both generated from the clap command. `man` prints one page (`hashline(1)`, or
//! `hashline-COMMAND(1)` for `hashline man COMMAND`) or, with `--dir`, writes every page there.

use std::path::Path;

use clap::CommandFactory;
use clap_complete::Shell;
use hashline::{ErrorCode, Outcome, Response};

use super::args::Cli;

/// The completion script of `shell` (`hashline completions bash > …`).
pub fn completions(shell: Shell) -> Response {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "hashline", &mut out);
    Response::from_outcome(Outcome::success(String::from_utf8_lossy(&out).into_owned()))
}

/// `hashline man [COMMAND] [--dir DIR]`: the page of `command` (the top-level page without
/// one), or every page written into `dir` (the text then lists the files written).
pub fn man(command: Option<&str>, dir: Option<&Path>) -> Response {
    let pages = pages();
    let outcome = match (dir, command) {
        (Some(dir), _) => write_all(&pages, dir),
        (None, None) => Outcome::success(pages[0].1.clone()),
        (None, Some(name)) => {
            let file = format!("hashline-{name}.1");
            match pages.iter().find(|(f, _)| *f == file) {
                Some((_, page)) => Outcome::success(page.clone()),
                None => {
                    let names: Vec<&str> = pages[1..]
                        .iter()
                        .filter_map(|(f, _)| f.strip_prefix("hashline-")?.strip_suffix(".1"))
                        .collect();
                    Outcome::refused(
                        ErrorCode::Usage,
                        format!(
                            "there is no command `{name}`: use one of {}",
                            names.join(", ")
                        ),
                    )
                }
            }
        }
    };
    Response::from_outcome(outcome)
}

/// Every page as (file name, roff): `hashline.1` first, then one per command and verb
/// (`hashline-read.1`, `hashline-resolve-apply.1`, …).
fn pages() -> Vec<(String, String)> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut pages = Vec::new();
    collect(&cmd, true, &mut pages);
    pages
}

fn collect(cmd: &clap::Command, top: bool, pages: &mut Vec<(String, String)>) {
    let man = clap_mangen::Man::new(cmd.clone())
        .source(concat!("hashline ", env!("CARGO_PKG_VERSION")))
        .manual("hashline manual");
    pages.push((man.get_filename(), render(&man, cmd, top)));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, false, pages);
    }
}

/// One page: clap_mangen's sections, then EXIT STATUS, ENVIRONMENT and SEE ALSO.
fn render(man: &clap_mangen::Man, cmd: &clap::Command, top: bool) -> String {
    let mut out = Vec::new();
    let has_args = cmd.get_arguments().any(|a| !a.is_hide_set());
    let has_subs = cmd.get_subcommands().any(|s| !s.is_hide_set());
    let has_extra = cmd.get_after_long_help().is_some() || cmd.get_after_help().is_some();
    // Writing into a Vec cannot fail.
    let _ = man.render_title(&mut out);
    let _ = man.render_name_section(&mut out);
    let _ = man.render_synopsis_section(&mut out);
    let _ = man.render_description_section(&mut out);
    if has_args {
        let _ = man.render_options_section(&mut out);
    }
    if has_subs {
        let _ = man.render_subcommands_section(&mut out);
    }
    if has_extra {
        let _ = man.render_extra_section(&mut out);
    }
    let mut text = String::from_utf8_lossy(&out).into_owned();
    text.push_str(EXIT_STATUS);
    text.push_str(ENVIRONMENT);
    text.push_str(".SH \"SEE ALSO\"\n");
    text.push_str(if top {
        "\\fBhashline man COMMAND\\fR prints the page of one command; \\fBhashline man --dir DIR\\fR \
         writes every page (hashline\\-COMMAND(1)) into DIR.\n"
    } else {
        "\\fBhashline\\fR(1)\n"
    });
    if top && cmd.get_version().is_some() {
        let mut out = Vec::new();
        let _ = man.render_version_section(&mut out);
        text.push_str(&String::from_utf8_lossy(&out));
    }
    text
}

const EXIT_STATUS: &str = r#".SH "EXIT STATUS"
.TP
\fB0\fR
Done.
.TP
\fB1\fR
Refused: nothing was written; standard output (or the \fB\-\-json\fR object) names a stable E_ code and what to do next.
.TP
\fB2\fR
The command line is not valid (E_USAGE) or the machine failed (E_IO); the message is on standard error.
"#;

const ENVIRONMENT: &str = r#".SH ENVIRONMENT
.TP
\fBHASHLINE_SESSION\fR
Session name when \fB\-\-session\fR is not given (default: default).
.TP
\fBHASHLINE_STATE\fR
State directory when \fB\-\-state\fR is not given (else $XDG_STATE_HOME/hashline, else ~/.local/state/hashline).
.TP
\fBHASHLINE_MAX_FILE_BYTES\fR
Largest file read, in bytes (default 1 GiB; larger files are refused with E_FILE_TOO_LARGE).
.TP
\fBHASHLINE_LOCK_TIMEOUT\fR
Seconds a file lock is waited for (default 30; then E_LOCK_TIMEOUT).
.TP
\fBHASHLINE_UNDO_MAX_CALLS\fR
Calls the undo log keeps (default 100; 0 turns it off).
.TP
\fBHASHLINE_UNDO_MAX_BYTES\fR
Bytes of old contents the undo log keeps (default 64 MiB).
.TP
\fBHASHLINE_STATE_MAX_AGE\fR
Sessions unused this long are pruned automatically (default 30d; off turns it off).
.TP
\fBHASHLINE_STATE_MAX_BYTES\fR
Then the least recently used sessions beyond this size are pruned (default 256MiB; off turns it off).
.TP
\fBNO_COLOR\fR
When set, \fB\-\-color auto\fR colours nothing.
"#;

/// Write every page into `dir` (created if missing); the text lists the files.
fn write_all(pages: &[(String, String)], dir: &Path) -> Outcome {
    if let Err(e) = std::fs::create_dir_all(dir) {
        return Outcome::refused(
            ErrorCode::Io,
            format!("cannot create {}: {e}", dir.display()),
        );
    }
    let mut written = Vec::new();
    for (file, page) in pages {
        let path = dir.join(file);
        if let Err(e) = std::fs::write(&path, page) {
            return Outcome::refused(
                ErrorCode::Io,
                format!("cannot write {}: {e}", path.display()),
            );
        }
        written.push(path.display().to_string());
    }
    Outcome::success(format!(
        "Wrote {} man pages:\n{}",
        written.len(),
        written.join("\n")
    ))
}
