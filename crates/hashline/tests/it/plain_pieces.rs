//! A plain file's edit (valid UTF-8, `\n` endings only, no BOM: its new text is held as pieces
//! of its old text from the splice to the disk and the store) against the same edit of its CRLF
//! twin (the same text with `\r\n` endings, not plain: its new text is built whole), through
//! the real binary, in the hashline language (`--show-anchors`), hash-json and lineid-json, on
//! the shapes where a line-aligned splice can go wrong: an empty file, one line, no final
//! newline, trailing blanks (the tag drops them), blank lines only, a U+FEFF that becomes the
//! first character. Both give the same `--json` reply (diff, tag, anchors, warnings, refusal),
//! the same bytes but for the line endings, and the same next read (the recorded tag).

use crate::support;

use std::fs;

use support::sandbox::Sandbox;

/// One edit, in the terms every dialect here can say: 1-based line numbers of the text read.
#[derive(Debug, Clone)]
enum Op {
    Replace(usize, usize, Vec<&'static str>),
    After(usize, Vec<&'static str>),
    Before(usize, Vec<&'static str>),
    Head(Vec<&'static str>),
    Tail(Vec<&'static str>),
}

/// The edits tried on a file of `n` lines as `read` numbers them (`n` ≥ 1).
fn ops(n: usize) -> Vec<(&'static str, Vec<Op>)> {
    use Op::*;
    let mut all = vec![
        ("after last", vec![After(n, vec!["new"])]),
        ("tail", vec![Tail(vec!["t1", "t2"])]),
        ("head", vec![Head(vec!["h"])]),
        ("before first", vec![Before(1, vec!["b"])]),
        ("replace first", vec![Replace(1, 1, vec!["R"])]),
        ("replace last", vec![Replace(n, n, vec!["x", "", "y"])]),
        ("delete first", vec![Replace(1, 1, vec![])]),
        ("delete last", vec![Replace(n, n, vec![])]),
        ("delete all", vec![Replace(1, n, vec![])]),
        ("replace all", vec![Replace(1, n, vec!["only"])]),
        ("trailing blanks", vec![Replace(n, n, vec!["x  \t"])]),
        ("empty rows", vec![After(n, vec!["", ""])]),
        ("a U+FEFF first", vec![Replace(1, 1, vec!["\u{FEFF}f"])]),
        (
            "head, middle and tail",
            vec![
                Head(vec!["H"]),
                Replace(n.div_ceil(2), n.div_ceil(2), vec!["M"]),
                Tail(vec!["T"]),
            ],
        ),
    ];
    if n >= 2 {
        all.push(("delete the last two", vec![Replace(n - 1, n, vec![])]));
        all.push(("after the one before last", vec![After(n - 1, vec!["p"])]));
    }
    all
}

/// The files: plain text with at least one `\n` (a twin without one would have no line ending
/// to give its new lines).
const SHAPES: &[(&str, &str)] = &[
    ("three lines", "a\nb\nc\n"),
    ("no final newline", "a\nb\nc"),
    ("one empty line", "\n"),
    ("blank lines", "a\n\n\n"),
    ("trailing blanks", "a  \nb\t\n  "),
    ("U+FEFF on line 2", "x\n\u{FEFF}y\nz"),
    ("U+FEFF on line 2, final newline", "x\n\u{FEFF}y\n"),
];

/// The rows of a read: `(anchor, content)` split at the first `sep`, for rows that start with
/// an anchor of the form `ok` accepts.
fn anchors(out: &str, sep: char, ok: impl Fn(&str) -> bool) -> Vec<String> {
    out.lines()
        .filter_map(|l| l.split_once(sep))
        .filter(|(a, _)| ok(a))
        .map(|(a, _)| a.to_owned())
        .collect()
}

/// The request for `ops` in `dialect`, from the read `read` printed for `f.txt`.
fn request(dialect: &str, read: &str, ops: &[Op]) -> String {
    match dialect {
        "hashline" => {
            let tag = read
                .lines()
                .next()
                .and_then(|l| l.rsplit_once('#'))
                .map_or("0000", |(_, t)| t);
            let rows =
                |rows: &[&str]| -> String { rows.iter().map(|r| format!("+{r}\n")).collect() };
            let mut s = format!("¶f.txt#{tag}\n");
            for op in ops {
                s += &match op {
                    Op::Replace(a, b, r) if r.is_empty() => format!("delete {a}..{b}\n"),
                    Op::Replace(a, b, r) => format!("replace {a}..{b}:\n{}", rows(r)),
                    Op::After(a, r) => format!("insert after {a}:\n{}", rows(r)),
                    Op::Before(a, r) => format!("insert before {a}:\n{}", rows(r)),
                    Op::Head(r) => format!("insert head:\n{}", rows(r)),
                    Op::Tail(r) => format!("insert tail:\n{}", rows(r)),
                };
            }
            s
        }
        "hash-json" => {
            let ids = anchors(read, ':', |a| {
                a.len() == 4
                    && a.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"_-".contains(&b))
            });
            let at = |n: &usize| ids.get(n - 1).cloned().unwrap_or_default();
            let edits: Vec<serde_json::Value> = ops
                .iter()
                .map(|op| match op {
                    Op::Replace(a, b, r) => {
                        serde_json::json!({"op": "replace", "start": at(a), "end": at(b), "lines": r})
                    }
                    Op::After(a, r) => serde_json::json!({"op": "append", "pos": at(a), "lines": r}),
                    Op::Before(a, r) => {
                        serde_json::json!({"op": "prepend", "pos": at(a), "lines": r})
                    }
                    Op::Head(r) => serde_json::json!({"op": "prepend", "lines": r}),
                    Op::Tail(r) => serde_json::json!({"op": "append", "lines": r}),
                })
                .collect();
            serde_json::json!({"path": "f.txt", "edits": edits}).to_string()
        }
        _ => {
            let ids = anchors(read, '|', |a| a.contains('#'));
            let at = |n: &usize| ids.get(n - 1).cloned().unwrap_or_default();
            let edits: Vec<serde_json::Value> = ops
                .iter()
                .map(|op| match op {
                    Op::Replace(a, b, r) => {
                        serde_json::json!({"op": "replace", "pos": at(a), "end": at(b), "lines": r})
                    }
                    Op::After(a, r) => {
                        serde_json::json!({"op": "append", "pos": at(a), "lines": r})
                    }
                    Op::Before(a, r) => {
                        serde_json::json!({"op": "prepend", "pos": at(a), "lines": r})
                    }
                    Op::Head(r) => serde_json::json!({"op": "prepend", "lines": r}),
                    Op::Tail(r) => serde_json::json!({"op": "append", "lines": r}),
                })
                .collect();
            serde_json::json!({"filePath": "f.txt", "edits": edits}).to_string()
        }
    }
}

/// What one edit of `bytes` gives: the edit's exit code and `--json` reply, the file's bytes
/// after it and the next read (tag mode).
fn outcome(bytes: &[u8], dialect: &str, ops: &[Op]) -> (i32, String, Vec<u8>, String) {
    let sb = Sandbox::new();
    sb.put("f.txt", bytes);
    let mode = match dialect {
        "hashline" => "tag",
        "hash-json" => "hash",
        _ => "lineid",
    };
    let read = sb.run(&["read", "--anchors", mode, "f.txt"], b"");
    assert_eq!(read.code, 0, "{}{}", read.stdout, read.stderr);
    let input = request(dialect, &read.stdout, ops);
    let mut args = vec!["--json", "edit", "--dialect", dialect];
    if dialect == "hashline" {
        args.push("--show-anchors");
    }
    let edit = sb.run(&args, input.as_bytes());
    let after = fs::read(sb.root.join("f.txt")).expect("read f.txt");
    let next = sb.run(&["read", "f.txt"], b"");
    (edit.code, edit.stdout, after, next.stdout)
}

#[test]
fn a_plain_files_edit_is_its_crlf_twins() {
    let mut landed = 0;
    for (shape, text) in SHAPES {
        let n = text.split('\n').count() - usize::from(text.ends_with('\n'));
        for (name, ops) in ops(n) {
            for dialect in ["hashline", "hash-json", "lineid-json"] {
                let plain = outcome(text.as_bytes(), dialect, &ops);
                let twin = outcome(text.replace('\n', "\r\n").as_bytes(), dialect, &ops);
                let what = format!("{shape}, {name}, {dialect}");
                assert_eq!(plain.0, twin.0, "{what}: exit\n{}\n{}", plain.1, twin.1);
                assert_eq!(plain.1, twin.1, "{what}: reply");
                let plain_bytes = String::from_utf8(plain.2).expect("UTF-8");
                let twin_bytes = String::from_utf8(twin.2).expect("UTF-8");
                assert_eq!(
                    plain_bytes.replace('\n', "\r\n"),
                    twin_bytes,
                    "{what}: bytes"
                );
                assert_eq!(plain.3, twin.3, "{what}: next read");
                landed += usize::from(plain.0 == 0 && plain_bytes != *text);
            }
        }
    }
    // Most of them land (a refusal compared with a refusal proves less).
    assert!(landed > 200, "only {landed} edits landed");
}
