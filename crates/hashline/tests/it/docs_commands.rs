//! Every `$ hashline …` command shown in a ```` ```console ```` block of README.md and docs/*.md,
//! run through the real binary, as doctests run examples: the blocks of one file run in order
//! in one sandbox holding a copy of `examples/demo/`, and each command's standard output must
//! be the text the block shows under it. A command may take standard input as a here-document
//! (`$ hashline edit <<'EOF'`, the lines, `EOF`). Nothing is normalised: tags are hashes of the
//! files' texts, so they are the same on every machine.
//!
//! The commands the prose names (`` `hashline read big.js:2001` `` in a sentence, a line of a
//! ```` ```sh ```` block) show no output to compare, so each concrete one (no placeholder such as
//! `PATH` or `[ID]`) is run in an empty sandbox and must be a valid command line: exit 0 or 1,
//! never a usage error. A command named without its operands (`hashline read --anchors hash`
//! shows…) and the MCP server (which needs a client) are checked with `--help` added.

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};

use support::sandbox::Sandbox;

/// One `$ hashline …` command of a block and what it must print.
#[derive(Debug)]
struct Example {
    /// `FILE:LINE` of the command.
    at: String,
    /// The arguments after `hashline`.
    args: Vec<String>,
    /// The here-document, if any (each line ends in `\n`).
    stdin: String,
    /// The lines shown under it, joined with `\n`.
    stdout: String,
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// README.md, then docs/*.md in name order.
fn documents() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = fs::read_dir(repo().join("docs"))
        .expect("docs/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    docs.insert(0, repo().join("README.md"));
    docs
}

/// The commands of every ```` ```console ```` block of `text`.
fn examples(name: &str, text: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut in_console = false;
    let mut lines = text.lines().enumerate().peekable();
    while let Some((no, line)) = lines.next() {
        if !in_console {
            in_console = line.trim_end() == "```console";
            continue;
        }
        if line.starts_with("```") {
            in_console = false;
            continue;
        }
        let Some(command) = line.strip_prefix("$ hashline ") else {
            assert!(
                line.starts_with("$ "),
                "{name}:{}: a console block must start with a `$ hashline` command",
                no + 1
            );
            continue;
        };
        let (command, heredoc) = match command.split_once(" <<'EOF'") {
            Some((command, _)) => (command, true),
            None => (command, false),
        };
        let mut stdin = String::new();
        if heredoc {
            for (_, line) in lines.by_ref() {
                if line == "EOF" {
                    break;
                }
                stdin.push_str(line);
                stdin.push('\n');
            }
        }
        let mut shown = Vec::new();
        while let Some((_, line)) = lines.peek() {
            if line.starts_with("$ ") || line.starts_with("```") {
                break;
            }
            shown.push(*line);
            lines.next();
        }
        out.push(Example {
            at: format!("{name}:{}", no + 1),
            args: split_words(command),
            stdin,
            stdout: shown.join("\n"),
        });
    }
    out
}

/// Shell words: blanks separate, `'…'` and `"…"` quote (no escapes inside `'…'`).
fn split_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// A sandbox whose root holds a copy of `examples/demo/`.
fn sandbox() -> Sandbox {
    let sb = Sandbox::new();
    for entry in fs::read_dir(repo().join("examples/demo")).expect("examples/demo") {
        let path = entry.expect("entry").path();
        if path.is_file() {
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            sb.put(&name, &fs::read(&path).expect("example file"));
        }
    }
    sb
}

#[test]
fn every_console_block_of_the_docs_prints_what_it_shows() {
    let mut ran = 0;
    let mut failures = Vec::new();
    for doc in documents() {
        let name = doc
            .strip_prefix(repo())
            .unwrap_or(&doc)
            .to_string_lossy()
            .into_owned();
        let text = fs::read_to_string(&doc).expect("doc readable");
        let examples = examples(&name, &text);
        if examples.is_empty() {
            continue;
        }
        let sb = sandbox();
        for example in examples {
            let args: Vec<&str> = example.args.iter().map(String::as_str).collect();
            let run = sb.run(&args, example.stdin.as_bytes());
            ran += 1;
            let got = run.stdout.trim_end_matches('\n');
            if got != example.stdout {
                failures.push(format!(
                    "{}: `hashline {}` printed (exit {}):\n{got}\n--- the text shows:\n{}\n",
                    example.at,
                    example.args.join(" "),
                    run.code,
                    example.stdout
                ));
            }
        }
    }
    assert!(ran >= 4, "only {ran} documented commands found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The concrete `hashline …` commands of `text` outside console blocks: inline code spans
/// (which may wrap onto the next line) and lines of other fenced blocks, each with `FILE:LINE`.
/// A span cut by a redirection keeps the command before it; one with a placeholder (a word in
/// capitals such as `PATH` or `ID`, `[…]`, `…`, `|`), a TOML line (`hashline = {…}`) or a label
/// (`hashline mcp:`) is not a command to run.
fn named_commands(name: &str, text: &str) -> Vec<(String, Vec<String>)> {
    let mut spans: Vec<(usize, String)> = Vec::new();
    let mut prose = String::new();
    let mut fence: Option<bool> = None;
    for (no, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            fence = match fence {
                Some(_) => None,
                None => Some(line.trim_end() == "```console"),
            };
            prose.push('\n');
            continue;
        }
        match fence {
            Some(true) => prose.push('\n'),
            Some(false) => {
                if let Some(rest) = line
                    .trim_start()
                    .strip_prefix("$ ")
                    .or(Some(line.trim_start()))
                {
                    if rest.starts_with("hashline ") {
                        spans.push((no + 1, rest.to_string()));
                    }
                }
                prose.push('\n');
            }
            None => {
                prose.push_str(line);
                prose.push('\n');
            }
        }
    }
    let mut parts = prose.split('`').peekable();
    let mut line = 1;
    let mut inside = false;
    while let Some(part) = parts.next() {
        if inside && !part.is_empty() && parts.peek().is_some() {
            spans.push((line, part.replace('\n', " ")));
        }
        line += part.matches('\n').count();
        inside = !inside;
    }
    let placeholder = |w: &str| {
        w.len() > 1
            && w.chars().any(|c| c.is_ascii_uppercase())
            && !w.chars().any(|c| c.is_ascii_lowercase())
    };
    spans
        .into_iter()
        .filter_map(|(no, span)| {
            let command = span.strip_prefix("hashline ")?;
            let command = command.split(" >").next().unwrap_or(command).trim_end();
            let words = split_words(command);
            let bad = command.contains(['…', '[', '|', '=', '{'])
                || command.ends_with(':')
                || words.iter().any(|w| placeholder(w));
            (!bad && !words.is_empty()).then(|| (format!("{name}:{no}"), words))
        })
        .collect()
}

#[test]
fn every_command_the_prose_names_is_a_valid_command_line() {
    let mut ran = 0;
    let mut failures = Vec::new();
    for doc in documents() {
        let name = doc
            .strip_prefix(repo())
            .unwrap_or(&doc)
            .to_string_lossy()
            .into_owned();
        let text = fs::read_to_string(&doc).expect("doc readable");
        for (at, words) in named_commands(&name, &text) {
            let sb = sandbox();
            let home = sb.root.join("home");
            let home_text = home.to_string_lossy().into_owned();
            let args: Vec<String> = words
                .iter()
                .map(|w| w.replacen('~', &home_text, 1))
                .collect();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let env = [("HOME", home_text.as_str())];
            let mut run = support::cli::hashline_env(&sb.root, &sb.state, &args, b"", &env);
            // A command named without its operands (`hashline read --anchors hash` shows…), or
            // the server, which needs a client: its words must still parse, so with `--help`.
            if run.code == 2
                && (run.stderr.contains("required arguments were not provided")
                    || args.first() == Some(&"mcp"))
            {
                let help: Vec<&str> = args.iter().copied().chain(["--help"]).collect();
                run = support::cli::hashline_env(&sb.root, &sb.state, &help, b"", &env);
            }
            ran += 1;
            if !(run.code == 0 || run.code == 1) || run.stderr.contains("E_USAGE") {
                failures.push(format!(
                    "{at}: `hashline {}` exited {}:\n{}{}",
                    words.join(" "),
                    run.code,
                    run.stdout,
                    run.stderr
                ));
            }
        }
    }
    eprintln!("{ran} commands named in the docs' prose run");
    assert!(ran >= 15, "only {ran} named commands found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn named_commands_are_found_in_prose_and_fences_and_placeholders_skipped() {
    let text = "Run `hashline read a.txt` or\n`hashline undo\n--list`; `hashline undo ID` and\n`hashline = { path }` are not.\n```sh\nhashline state\nclaude mcp add -- hashline mcp\n```\n```console\n$ hashline read x\n```\n`hashline completions bash > f`\n";
    let got = named_commands("t.md", text);
    let got: Vec<(&str, String)> = got
        .iter()
        .map(|(at, words)| (at.as_str(), words.join(" ")))
        .collect();
    assert_eq!(
        got,
        [
            ("t.md:6", "state".to_string()),
            ("t.md:1", "read a.txt".to_string()),
            ("t.md:2", "undo --list".to_string()),
            ("t.md:12", "completions bash".to_string()),
        ]
    );
}

#[test]
fn console_blocks_are_parsed_as_commands_here_documents_and_output() {
    let text = "x\n```console\n$ hashline read 'my file.txt'\nrow\n$ hashline edit <<'EOF'\n¶a#1\n+x\nEOF\nout\n\nmore\n```\n";
    let got = examples("t.md", text);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].args, ["read", "my file.txt"]);
    assert_eq!((got[0].stdin.as_str(), got[0].stdout.as_str()), ("", "row"));
    assert_eq!(got[1].args, ["edit"]);
    assert_eq!(got[1].stdin, "¶a#1\n+x\n");
    assert_eq!(got[1].stdout, "out\n\nmore");
    assert_eq!(got[1].at, "t.md:5");
}
