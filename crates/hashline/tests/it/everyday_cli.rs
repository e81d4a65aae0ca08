//! The everyday command line (issue 13 item 6), through the real binary: shell completions, the
//! man page, `--color`, the help texts (what the tool does, with an example that works; the
//! patch formats of `edit`; the values of `--anchors`), and `write` refusing to replace a file
//! the session never read.

use crate::support;

use std::fs;
use std::process::Command;

use support::sandbox::Sandbox;

/// `hashline ARGS…` with `env` set (and `NO_COLOR` removed unless set there); (stdout, stderr,
/// exit code).
fn bare(args: &[&str], env: &[(&str, &str)]) -> (String, String, i32) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hashline"));
    cmd.args(args).env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run hashline");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

const ESC: char = '\u{1b}';

#[test]
fn completions_for_every_shell_name_the_subcommands() {
    for (shell, marker) in [
        ("bash", "_hashline()"),
        ("zsh", "#compdef hashline"),
        ("fish", "complete -c hashline"),
        ("elvish", "edit:completion:arg-completer[hashline]"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let (out, err, code) = bare(&["completions", shell], &[]);
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(out.contains(marker), "{shell}: {out}");
        for sub in ["read", "edit", "ast-edit", "completions"] {
            assert!(out.contains(sub), "{shell} misses {sub}");
        }
    }
    let (out, err, code) = bare(&["completions", "tcsh"], &[]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("[possible values: bash, elvish, fish, powershell, zsh]"),
        "{err}"
    );
}

#[test]
fn man_page_is_roff_generated_from_the_commands() {
    let (out, err, code) = bare(&["man"], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(".TH hashline 1"), "{out}");
    assert!(
        out.contains(".SH NAME\nhashline \\- Read files with anchors"),
        "{out}"
    );
    for sub in ["read", "edit", "write", "ast\\-edit", "completions", "man"] {
        assert!(
            out.contains(&format!("hashline\\-{sub}")),
            "man page misses {sub}"
        );
    }
    assert!(!out.contains(ESC));
    // Every page it names exists: `man COMMAND` prints it, `man --dir` writes them all, and
    // each has EXIT STATUS and ENVIRONMENT.
    let dir = tempfile::tempdir().expect("temp dir");
    let dir_arg = dir.path().to_string_lossy().into_owned();
    let (_, err, code) = bare(&["man", "--dir", &dir_arg], &[]);
    assert_eq!(code, 0, "{err}");
    let mut names = Vec::new();
    for line in out.lines() {
        if let Some(page) = line.strip_suffix("(1)") {
            names.push(page.replace("\\-", "-"));
        }
    }
    assert!(names.len() >= 10, "{names:?}");
    for page in names {
        let path = dir.path().join(format!("{page}.1"));
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{page}: {e}"));
        assert!(text.contains(".SH \"EXIT STATUS\""), "{page}");
        assert!(text.contains(".SH ENVIRONMENT\n"), "{page}");
        assert!(text.contains("HASHLINE_LOCK_TIMEOUT"), "{page}");
    }
    let (page, err, code) = bare(&["man", "read"], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(page.contains(".TH hashline-read 1"), "{page}");
    let (_, err, code) = bare(&["man", "nope"], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("there is no command `nope`"), "{err}");
}

#[test]
fn color_follows_the_flag_no_color_and_the_terminal() {
    let colored = |args: &[&str], env: &[(&str, &str)]| bare(args, env).0.contains(ESC);
    // Not a terminal: no colour unless asked for.
    assert!(!colored(&["--help"], &[]));
    assert!(!colored(&["--color", "never", "--help"], &[]));
    assert!(colored(&["--color", "always", "--help"], &[]));
    assert!(colored(&["--color=always", "read", "--help"], &[]));
    // NO_COLOR turns `auto` off; an explicit `always` still wins.
    assert!(!colored(
        &["--color", "auto", "--help"],
        &[("NO_COLOR", "1")]
    ));
    assert!(colored(
        &["--color", "always", "--help"],
        &[("NO_COLOR", "1")]
    ));
    // Usage errors go to stderr, coloured the same way.
    let (_, err, code) = bare(&["--color", "always", "read"], &[]);
    assert_eq!(code, 2);
    assert!(err.contains(ESC), "{err}");
    let (_, err, _) = bare(&["--color", "never", "read"], &[]);
    assert!(!err.contains(ESC), "{err}");
    let (_, err, code) = bare(&["--color", "sometimes", "--help"], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("[possible values: auto, always, never]"),
        "{err}"
    );
    // The model-facing text is never coloured.
    let sb = Sandbox::new();
    sb.put("a.txt", b"one\n");
    let read = sb.run(&["--color", "always", "read", "a.txt"], b"");
    assert_eq!(read.code, 0);
    assert!(!read.stdout.contains(ESC), "{:?}", read.stdout);
}

#[test]
fn top_level_help_says_what_the_tool_does_with_an_example_that_works() {
    let (help, _, code) = bare(&["--help"], &[]);
    assert_eq!(code, 0);
    assert!(help.starts_with("Read files with anchors; apply small anchored patches"));
    assert!(!help.contains("facade"), "the crate blurb: {help}");
    assert!(help.contains("Example:"));
    // The example is real: the same read and edit print what the help shows.
    let sb = Sandbox::new();
    sb.put("src/app.py", b"def main():\n    print(\"hello\")\n");
    let read = sb.run(&["read", "src/app.py"], b"");
    let edit = sb.run(
        &["edit"],
        "¶src/app.py#B138\nreplace 2..2:\n+    print(\"hello, world\")\n".as_bytes(),
    );
    assert_eq!(edit.code, 0, "{}", edit.stdout);
    for line in read.stdout.lines().chain(edit.stdout.lines()) {
        assert!(
            help.contains(&format!("\n  {line}\n")),
            "help lacks {line:?}"
        );
    }
}

#[test]
fn edit_help_describes_every_patch_format_and_the_detection() {
    let (help, _, code) = bare(&["edit", "--help"], &[]);
    assert_eq!(code, 0);
    for dialect in [
        "hashline",
        "apply-patch",
        "hash-json",
        "lineid-json",
        "str-replace",
    ] {
        assert!(help.contains(&format!("  {dialect} ")), "{dialect}: {help}");
    }
    assert!(help.contains("`--dialect auto` (the default) tells them apart"));
    assert_eq!(help.matches("Detected:").count(), 5, "{help}");
    assert!(help.contains(
        "[possible values: auto, hashline, hash-json, lineid-json, str-replace, apply-patch]"
    ));
    assert!(help.contains("--show-anchors"));
}

#[test]
fn anchors_lists_its_values() {
    let (help, _, _) = bare(&["read", "--help"], &[]);
    assert!(
        help.contains("[possible values: tag, hash, lineid]"),
        "{help}"
    );
    let (help, _, _) = bare(&["write", "--help"], &[]);
    assert!(
        help.contains("[possible values: tag, hash, lineid]"),
        "{help}"
    );
    let (_, err, code) = bare(&["read", "x", "--anchors", "line"], &[]);
    assert_eq!(code, 2);
    assert!(
        err.contains("[possible values: tag, hash, lineid]"),
        "{err}"
    );
    let (help, _, _) = bare(&["grammar", "--help"], &[]);
    assert!(
        help.contains("[possible values: lark, gbnf, json-schema]"),
        "{help}"
    );
}

#[test]
fn write_replaces_only_a_file_the_session_read_unless_overwrite() {
    let sb = Sandbox::new();
    // A new file is created.
    let new = sb.run(&["write", "new.txt"], b"fresh\n");
    assert_eq!(new.code, 0, "{new:?}");
    // A file written in the session is known: writing it again is fine.
    let again = sb.run(&["write", "new.txt"], b"fresh 2\n");
    assert_eq!(again.code, 0, "{again:?}");

    sb.put("old.txt", b"precious\n");
    let refused = sb.run(&["write", "old.txt"], b"clobbered\n");
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(
        refused
            .stdout
            .starts_with("Refusing to replace old.txt: it exists and this session has not read it"),
        "{}",
        refused.stdout
    );
    assert!(refused.stdout.contains("--overwrite"));
    let json = sb
        .run(&["--json", "write", "old.txt"], b"clobbered\n")
        .json();
    assert_eq!(json["code"], "E_NOT_READ", "{json}");
    assert_eq!(
        fs::read(sb.root.join("old.txt")).expect("read"),
        b"precious\n"
    );
    // Another session's read does not count.
    let other = sb.run(&["--session", "other", "read", "old.txt"], b"");
    assert_eq!(other.code, 0);
    let refused = sb.run(&["write", "old.txt"], b"clobbered\n");
    assert_eq!(refused.code, 1, "{refused:?}");

    // After a read (any anchor mode) it is replaced.
    let read = sb.run(&["read", "old.txt", "--anchors", "hash"], b"");
    assert_eq!(read.code, 0);
    let ok = sb.run(&["write", "old.txt"], b"replaced\n");
    assert_eq!(ok.code, 0, "{ok:?}");
    assert_eq!(
        fs::read(sb.root.join("old.txt")).expect("read"),
        b"replaced\n"
    );

    // --overwrite replaces an unread file.
    sb.put("other.txt", b"unseen\n");
    let forced = sb.run(&["write", "other.txt", "--overwrite"], b"forced\n");
    assert_eq!(forced.code, 0, "{forced:?}");
    assert_eq!(
        fs::read(sb.root.join("other.txt")).expect("read"),
        b"forced\n"
    );
}

/// What `hashline ARGS…` wrote to a pseudo-terminal (`script`), or `None` without `script`.
fn on_a_terminal(sb: &Sandbox, args: &str, no_color: bool) -> Option<String> {
    let line = format!(
        "'{}' --root '{}' --state '{}' {args}",
        env!("CARGO_BIN_EXE_hashline"),
        sb.root.display(),
        sb.state.display()
    );
    let mut cmd = Command::new("script");
    cmd.args(["-qec", &line, "/dev/null"])
        .env_remove("NO_COLOR");
    if no_color {
        cmd.env("NO_COLOR", "1");
    }
    let out = cmd.output().ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_parse_diagnostic_on_a_terminal_follows_color_and_no_color() {
    let sb = Sandbox::new();
    sb.put("a.txt", b"one\n");
    sb.put("bad.patch", "¶a.txt#0000\nreplace x:\n+a\n".as_bytes());
    let patch = sb.root.join("bad.patch");
    let args = format!("edit '{}'", patch.display());
    let Some(auto) = on_a_terminal(&sb, &args, false) else {
        eprintln!("skipped: `script` (util-linux) is not available to make a terminal");
        return;
    };
    assert!(auto.contains("hashline::parse"), "the diagnostic: {auto}");
    assert!(auto.contains(ESC), "coloured on a terminal: {auto}");
    let never = on_a_terminal(&sb, &format!("--color never {args}"), false).expect("script");
    assert!(never.contains("hashline::parse"), "{never}");
    assert!(!never.contains(ESC), "{never}");
    let no_color = on_a_terminal(&sb, &args, true).expect("script");
    assert!(!no_color.contains(ESC), "{no_color}");
    let always = on_a_terminal(&sb, &format!("--color always {args}"), true).expect("script");
    assert!(always.contains(ESC), "{always}");
}

#[test]
fn a_refused_patch_of_several_files_says_nothing_was_written() {
    let sb = Sandbox::new();
    sb.put("m1.txt", b"a\nb\n");
    sb.put("m2.txt", b"c\nd\n");
    let header = |p: &str| {
        let read = sb.run(&["read", p], b"");
        read.stdout.lines().next().expect("header").to_owned()
    };
    let (h1, h2) = (header("m1.txt"), header("m2.txt"));
    let patch = format!("{h1}\nreplace 1..1:\n+A\n{h2}\nreplace 9..9:\n+D\n");
    let out = sb.run(&["edit"], patch.as_bytes());
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stdout.ends_with(
            "Nothing was written: the patch's 2 sections land together or not at all.\n"
        ),
        "{out:?}"
    );
    assert_eq!(fs::read(sb.root.join("m1.txt")).expect("m1"), b"a\nb\n");
    // One section: the text stays the original tool's.
    let single = format!("{h1}\nreplace 9..9:\n+A\n");
    let out = sb.run(&["edit"], single.as_bytes());
    assert_eq!(out.code, 1);
    assert!(!out.stdout.contains("Nothing was written"), "{out:?}");
}

#[test]
fn environment_values_out_of_range_are_refused_before_anything_runs() {
    let sb = Sandbox::new();
    sb.put("f.txt", b"a\n");
    let (root, state) = (sb.root.to_string_lossy(), sb.state.to_string_lossy());
    let read = ["--root", &root, "--state", &state, "read", "f.txt"];
    // A lock wait of 1e30 seconds used to overflow (exit 101 on every write).
    for (k, v) in [
        ("HASHLINE_LOCK_TIMEOUT", "1e30"),
        ("HASHLINE_LOCK_TIMEOUT", "-1"),
        ("HASHLINE_UNDO_MAX_CALLS", "many"),
        ("HASHLINE_MAX_FILE_BYTES", "1.5"),
        ("HASHLINE_STATE_MAX_AGE", "forever"),
        ("HASHLINE_STATE_MAX_BYTES", "lots"),
    ] {
        let (out, err, code) = bare(&read, &[(k, v)]);
        assert_eq!(code, 2, "{k}={v}: {out}{err}");
        assert!(
            err.contains("[E_USAGE]") && err.contains(k),
            "{k}={v}: {err}"
        );
        assert!(!sb.state.exists(), "{k}={v}: the state was touched");
    }
    // Values in range run as before.
    let env = [
        ("HASHLINE_LOCK_TIMEOUT", "2.5"),
        ("HASHLINE_STATE_MAX_AGE", "off"),
    ];
    let (out, err, code) = bare(&read, &env);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1:a"), "{out}");
}
