//! Every `$ hashline …` command shown in a ```` ```console ```` block of README.md and docs/*.md,
//! run through the real binary, as doctests run examples: the blocks of one file run in order
//! in one sandbox holding a copy of `examples/demo/`, and each command's standard output must
//! be the text the block shows under it. A command may take standard input as a here-document
//! (`$ hashline edit <<'EOF'`, the lines, `EOF`). Nothing is normalised: tags are hashes of the
//! files' texts, so they are the same on every machine.

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
