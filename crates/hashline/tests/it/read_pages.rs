//! `read` pages a large file by default in every anchor mode (2,000 rows / 51,200 bytes of
//! rows), and the continuation it prints is a command that works: `read PATH:N`,
//! `read PATH:N-M` and `--offset/--limit`. A page records the whole file, so a line never shown
//! is still editable with the tag of the first page.

use crate::support;

use std::fs;

use support::sandbox::Sandbox;

const LINES: usize = 5000;

fn big(sb: &Sandbox) -> String {
    let text: String = (1..=LINES).map(|n| format!("line {n}\n")).collect();
    sb.put("big.js", text.as_bytes());
    text
}

/// The `N` of a trailing `Use :N to continue` hint.
fn hint(out: &str) -> usize {
    let (_, after) = out.rsplit_once("Use :").expect("a continuation hint");
    let n: String = after.chars().take_while(char::is_ascii_digit).collect();
    n.parse().expect("a line number")
}

#[test]
fn tag_mode_pages_and_its_hint_continues() {
    let sb = Sandbox::new();
    big(&sb);
    let first = sb.run(&["read", "big.js"], b"");
    assert_eq!(first.code, 0, "{first:?}");
    let rows = first
        .stdout
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()));
    assert_eq!(rows.count(), 2000);
    assert!(
        first
            .stdout
            .trim_end()
            .ends_with("\n2000:line 2000\n\n[3000 more lines in file. Use :2001 to continue]"),
        "{}",
        &first.stdout[first.stdout.len() - 200..]
    );
    let header = first.stdout.lines().next().expect("header").to_owned();

    // The hint, as printed, is a command that works.
    let next = sb.run(&["read", &format!("big.js:{}", hint(&first.stdout))], b"");
    assert_eq!(next.code, 0, "{next:?}");
    let mut lines = next.stdout.lines();
    assert_eq!(
        lines.next(),
        Some(header.as_str()),
        "same path, whole-file tag"
    );
    assert_eq!(lines.next(), Some("2001:line 2001"));
    assert!(next.stdout.trim_end().ends_with("Use :4001 to continue]"));

    let range = sb.run(&["read", "big.js:10-12"], b"");
    assert_eq!(
        range.stdout.trim_end(),
        format!("{header}\n10:line 10\n11:line 11\n12:line 12\n\n[4988 more lines in file. Use :13 to continue]")
    );
    let flags = sb.run(&["read", "big.js", "--offset", "10", "--limit", "3"], b"");
    assert_eq!(flags.stdout, range.stdout);
    let both = sb.run(&["read", "big.js:10", "--offset", "3"], b"");
    assert_eq!(both.code, 1, "{both:?}");
    let backwards = sb.run(&["read", "big.js:12-10"], b"");
    assert_eq!(backwards.code, 1, "{backwards:?}");
    let beyond = sb.run(&["read", "big.js:9999"], b"");
    assert_eq!(beyond.code, 1);
    assert!(
        beyond.stdout.contains("Use :1 to read from the start"),
        "{beyond:?}"
    );

    // Line 4500 was never shown: the first page's tag still edits it (the whole file was
    // recorded), and the rest of the file is untouched.
    let patch = format!("{header}\nreplace 4500..4500:\n+changed\n");
    let edit = sb.run(&["edit", "-"], patch.as_bytes());
    assert_eq!(edit.code, 0, "{edit:?}");
    let now = fs::read_to_string(sb.root.join("big.js")).expect("read back");
    assert_eq!(now.lines().nth(4499), Some("changed"));
    assert_eq!(now.lines().count(), LINES);
}

#[test]
fn a_file_named_with_a_colon_is_read_as_written() {
    let sb = Sandbox::new();
    sb.put("notes:2", b"a\nb\n");
    let out = sb.run(&["read", "notes:2"], b"");
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.starts_with("¶notes:2#"), "{out:?}");
    assert!(out.stdout.contains("\n1:a\n"));
}

#[test]
fn the_byte_budget_cuts_wide_files_at_a_whole_row() {
    let sb = Sandbox::new();
    let row = "x".repeat(200);
    let text: String = (0..1000).map(|_| format!("{row}\n")).collect();
    sb.put("wide.txt", text.as_bytes());
    for mode in ["tag", "lineid"] {
        let out = sb.run(&["read", "wide.txt", "--anchors", mode], b"");
        assert_eq!(out.code, 0, "{out:?}");
        assert!(
            out.stdout.len() < 51_200 + 200,
            "{mode}: {} bytes",
            out.stdout.len()
        );
        let next = hint(&out.stdout);
        assert!((200..300).contains(&next), "{mode}: continue at {next}");
        let rest = sb.run(
            &["read", &format!("wide.txt:{next}"), "--anchors", mode],
            b"",
        );
        assert_eq!(rest.code, 0, "{rest:?}");
        let shown = match mode {
            "tag" => rest.stdout.lines().nth(1),
            _ => rest.stdout.lines().next(),
        };
        let shown = shown.expect("a row");
        assert!(
            shown.starts_with(&next.to_string()) && shown.ends_with(&row),
            "{mode}: {shown}"
        );
    }
}

#[test]
fn lineid_mode_pages_and_its_hint_continues() {
    let sb = Sandbox::new();
    big(&sb);
    let first = sb.run(&["read", "big.js", "--anchors", "lineid"], b"");
    assert_eq!(first.code, 0, "{first:?}");
    assert_eq!(
        first.stdout.lines().filter(|l| l.contains('|')).count(),
        2000
    );
    assert!(first
        .stdout
        .ends_with("\n\n[3000 more lines in file. Use :2001 to continue]\n"));
    let next = sb.run(
        &[
            "read",
            &format!("big.js:{}", hint(&first.stdout)),
            "--anchors",
            "lineid",
        ],
        b"",
    );
    assert_eq!(next.code, 0, "{next:?}");
    assert!(next.stdout.starts_with("2001#"), "{}", &next.stdout[..40]);

    let one = sb.run(&["read", "big.js:4500-4500", "--anchors", "lineid"], b"");
    let anchor = one.stdout.split('|').next().expect("row").to_owned();
    assert!(anchor.starts_with("4500#"), "{one:?}");
    let request = serde_json::json!({
        "filePath": "big.js",
        "edits": [{"op": "replace", "pos": anchor, "lines": "changed"}],
    });
    let edit = sb.run(&["edit", "-"], request.to_string().as_bytes());
    assert_eq!(edit.code, 0, "{edit:?}");
    let now = fs::read_to_string(sb.root.join("big.js")).expect("read back");
    assert_eq!(now.lines().nth(4499), Some("changed"));
}

#[test]
fn hash_mode_keeps_its_seed_hint_and_the_path_form_works_too() {
    let sb = Sandbox::new();
    big(&sb);
    let first = sb.run(&["read", "big.js", "--anchors", "hash"], b"");
    assert!(
        first
            .stdout
            .trim_end()
            .ends_with("[Showing lines 1-2000 of 5000. Use offset=2001 to continue.]"),
        "{}",
        &first.stdout[first.stdout.len() - 100..]
    );
    let by_flag = sb.run(
        &["read", "big.js", "--anchors", "hash", "--offset", "2001"],
        b"",
    );
    let by_path = sb.run(&["read", "big.js:2001", "--anchors", "hash"], b"");
    assert_eq!(by_flag.code, 0, "{by_flag:?}");
    assert_eq!(by_path.stdout, by_flag.stdout);
    let row = by_path.stdout.lines().next().expect("a row");
    assert!(row.ends_with(":line 2001"), "{row}");
}

/// The lines a footer says remain, in any mode: `[K more lines …]` or `of TOTAL` after `A-B`.
fn remaining(out: &str) -> Option<usize> {
    let digits = |s: &str| -> usize {
        let n: String = s.chars().take_while(char::is_ascii_digit).collect();
        n.parse().expect("a number")
    };
    if let Some((_, after)) = out.rsplit_once("\n[Showing lines ") {
        let (_, shown_to) = after.split_once('-').expect("a range");
        let (_, total) = shown_to.split_once(" of ").expect("a total");
        return Some(digits(total) - digits(shown_to));
    }
    out.rsplit_once("\n[").map(|(_, k)| digits(k))
}

#[test]
fn every_mode_counts_the_same_lines_left() {
    let sb = Sandbox::new();
    big(&sb);
    for offset in ["1", "4001"] {
        let counts: Vec<Option<usize>> = ["tag", "hash", "lineid"]
            .iter()
            .map(|mode| {
                let out = sb.run(
                    &["read", "big.js", "--anchors", mode, "--offset", offset],
                    b"",
                );
                assert_eq!(out.code, 0, "{out:?}");
                remaining(&out.stdout)
            })
            .collect();
        // A page that ends on the last line has no footer: the empty row after the final
        // newline is an anchor, not a line left to read.
        let want = if offset == "1" { Some(3000) } else { None };
        assert_eq!(counts, vec![want; 3], "from line {offset}");
    }
}
