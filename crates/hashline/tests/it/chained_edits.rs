//! Chained edits without re-reading (issue 13 item 3), through the real binary: in every
//! dialect, each edit uses only the anchors (and tag) the previous reply gave — `files[].anchors`
//! of `--json`, or the plain text of `edit --show-anchors` — three edits deep; the result is
//! exact, and a chain whose lines changed on disk is still refused. A hashline tag evicted from
//! the session's versions is refused as evicted, not as "not from this session".

use crate::support;

use std::fs;

use serde_json::Value;
use support::sandbox::Sandbox;

/// `line 01` … `line 20`.
fn base() -> String {
    (1..=20).map(|i| format!("line {i:02}\n")).collect()
}

/// What the chain leaves: two lines inserted after line 05 (`new A`, `new B`), then `line 06`
/// and `new B` rewritten.
fn expected() -> String {
    base()
        .replace("line 05\n", "line 05\nnew A\nNEW B\n")
        .replace("line 06", "LINE 06")
}

/// One `--json` edit in `dialect`; it must succeed. Returns the `--json` object.
fn edit(sb: &Sandbox, dialect: &str, input: &str) -> Value {
    let run = sb.run(&["--json", "edit", "--dialect", dialect], input.as_bytes());
    assert_eq!(run.code, 0, "{input}\n{}{}", run.stdout, run.stderr);
    let v = run.json();
    assert_eq!(v["ok"], true, "{v}");
    v
}

/// The rows of `files[0].anchors`, each with its line number.
fn rows(v: &Value) -> Vec<(usize, String)> {
    let regions = v["files"][0]["anchors"]
        .as_array()
        .unwrap_or_else(|| panic!("no anchors in {v}"));
    let mut out = Vec::new();
    for r in regions {
        let first = r["first"].as_u64().expect("first") as usize;
        for (k, row) in r["rows"].as_array().expect("rows").iter().enumerate() {
            out.push((first + k, row.as_str().expect("row").to_owned()));
        }
    }
    out
}

/// The row (line number, row) whose content, after the anchor `sep`, is `content`.
fn row_of(rows: &[(usize, String)], sep: char, content: &str) -> (usize, String) {
    rows.iter()
        .find(|(_, r)| r.split_once(sep).is_some_and(|(_, c)| c == content))
        .cloned()
        .unwrap_or_else(|| panic!("no row of {content:?} in {rows:?}"))
}

/// The anchor part of a row (before `sep`).
fn anchor(row: &str, sep: char) -> String {
    row.split_once(sep)
        .map(|(a, _)| a.to_owned())
        .expect("anchor")
}

fn file(sb: &Sandbox) -> String {
    fs::read_to_string(sb.root.join("f.txt")).expect("read f.txt")
}

/// Change `from` to `to` on disk behind the session's back.
fn change_outside(sb: &Sandbox, from: &str, to: &str) -> String {
    let changed = file(sb).replace(from, to);
    sb.put("f.txt", changed.as_bytes());
    changed
}

/// A refused call: exit 1, not ok, the file as `before`.
fn assert_refused(sb: &Sandbox, dialect: &str, input: &str, before: &str) -> Value {
    let run = sb.run(&["--json", "edit", "--dialect", dialect], input.as_bytes());
    assert_eq!(run.code, 1, "{input}\n{}{}", run.stdout, run.stderr);
    let v = run.json();
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(file(sb), before, "a refused edit wrote");
    v
}

fn hashline_patch(tag: &str, body: &str) -> String {
    format!("¶f.txt#{tag}\n{body}")
}

#[test]
fn hashline_chain_uses_the_previous_replys_tag_and_line_numbers() {
    let sb = Sandbox::new();
    sb.put("f.txt", base().as_bytes());
    let read = sb.run(&["read", "f.txt"], b"");
    let tag0 = read.stdout.lines().next().expect("header")["¶f.txt#".len()..].to_owned();

    let v1 = edit(
        &sb,
        "hashline",
        &hashline_patch(&tag0, "insert after 5:\n+new A\n+new B\n"),
    );
    let tag1 = v1["files"][0]["tag"].as_str().expect("tag").to_owned();
    let (n, _) = row_of(&rows(&v1), ':', "line 06");
    assert_eq!(n, 8, "line 06 moved down by the insert");
    let v2 = edit(
        &sb,
        "hashline",
        &hashline_patch(&tag1, &format!("replace {n}..{n}:\n+LINE 06\n")),
    );
    let tag2 = v2["files"][0]["tag"].as_str().expect("tag").to_owned();
    let (m, _) = row_of(&rows(&v2), ':', "new B");
    let v3 = edit(
        &sb,
        "hashline",
        &hashline_patch(&tag2, &format!("replace {m}..{m}:\n+NEW B\n")),
    );
    assert_eq!(file(&sb), expected());
    // The plain text of the seed already carries the same: the new header and numbered rows.
    let tag3 = v3["files"][0]["tag"].as_str().expect("tag").to_owned();
    assert!(
        v3["text"]
            .as_str()
            .expect("text")
            .starts_with(&format!("¶f.txt#{tag3}\n")),
        "{v3}"
    );

    // Stale: the line the last reply showed changed on disk.
    let (k, _) = row_of(&rows(&v3), ':', "NEW B");
    let before = change_outside(&sb, "NEW B", "changed outside");
    let v = assert_refused(
        &sb,
        "hashline",
        &hashline_patch(&tag3, &format!("replace {k}..{k}:\n+again\n")),
        &before,
    );
    assert_eq!(v["code"], "E_STALE_ANCHOR", "{v}");
}

#[test]
fn hash_json_chain_uses_the_previous_replys_hashes_also_where_the_text_omits_them() {
    let sb = Sandbox::new();
    sb.put("f.txt", base().as_bytes());
    let read = sb.run(&["read", "--anchors", "hash", "f.txt"], b"");
    let line05 = read
        .stdout
        .lines()
        .find_map(|l| l.strip_suffix(":line 05"))
        .expect("row of line 05")
        .to_owned();
    let req = |edits: String| format!(r#"{{"path":"f.txt","edits":[{edits}]}}"#);

    let v1 = edit(
        &sb,
        "hash-json",
        &req(format!(
            r#"{{"op":"append","pos":"{line05}","lines":["new A","new B"]}}"#
        )),
    );
    let (_, row) = row_of(&rows(&v1), ':', "line 06");
    let h = anchor(&row, ':');
    let v2 = edit(
        &sb,
        "hash-json",
        &req(format!(
            r#"{{"op":"replace","start":"{h}","end":"{h}","lines":["LINE 06"]}}"#
        )),
    );
    let (_, row) = row_of(&rows(&v2), ':', "new B");
    let h = anchor(&row, ':');
    let v3 = edit(
        &sb,
        "hash-json",
        &req(format!(
            r#"{{"op":"replace","start":"{h}","end":"{h}","lines":["NEW B"]}}"#
        )),
    );
    assert_eq!(file(&sb), expected());

    // A change too large for the seed's anchors block (`Anchors omitted`): --json has them.
    let big: Vec<String> = (1..=20).map(|i| format!("\"big {i}\"")).collect();
    let (_, row) = row_of(&rows(&v3), ':', "line 07");
    let h = anchor(&row, ':');
    let v4 = edit(
        &sb,
        "hash-json",
        &req(format!(
            r#"{{"op":"replace","start":"{h}","end":"{h}","lines":[{}]}}"#,
            big.join(",")
        )),
    );
    assert!(
        v4["text"]
            .as_str()
            .expect("text")
            .starts_with("Anchors omitted; use read"),
        "{v4}"
    );
    let (_, row) = row_of(&rows(&v4), ':', "big 1");
    let h = anchor(&row, ':');
    edit(
        &sb,
        "hash-json",
        &req(format!(
            r#"{{"op":"replace","start":"{h}","end":"{h}","lines":["BIG 1"]}}"#
        )),
    );
    assert!(
        file(&sb).contains("NEW B\nLINE 06\nBIG 1\nbig 2\n"),
        "{}",
        file(&sb)
    );

    // Stale: the line the last reply showed changed on disk.
    let (_, row) = row_of(&rows(&v3), ':', "NEW B");
    let h = anchor(&row, ':');
    let before = change_outside(&sb, "NEW B", "changed outside");
    let v = assert_refused(
        &sb,
        "hash-json",
        &req(format!(
            r#"{{"op":"replace","start":"{h}","end":"{h}","lines":["again"]}}"#
        )),
        &before,
    );
    assert_eq!(v["code"], "E_STALE_ANCHOR", "{v}");
}

fn lineid_req(edits: String) -> String {
    format!(r#"{{"filePath":"f.txt","edits":[{edits}]}}"#)
}

#[test]
fn lineid_chain_with_json_anchors_is_recorded_and_lands() {
    let sb = Sandbox::new();
    sb.put("f.txt", base().as_bytes());
    let read = sb.run(&["read", "--anchors", "lineid", "f.txt"], b"");
    let pos = read
        .stdout
        .lines()
        .find_map(|l| l.strip_suffix("|line 05"))
        .expect("row of line 05")
        .to_owned();

    let v1 = edit(
        &sb,
        "lineid-json",
        &lineid_req(format!(
            r#"{{"op":"append","pos":"{pos}","lines":["new A","new B"]}}"#
        )),
    );
    assert_eq!(v1["text"], "Updated f.txt", "the seed's text is kept");
    let (n, row) = row_of(&rows(&v1), '|', "line 06");
    assert_eq!(n, 8);
    let v2 = edit(
        &sb,
        "lineid-json",
        &lineid_req(format!(
            r#"{{"op":"replace","pos":"{}","lines":["LINE 06"]}}"#,
            anchor(&row, '|')
        )),
    );
    let (_, row) = row_of(&rows(&v2), '|', "new B");
    let v3 = edit(
        &sb,
        "lineid-json",
        &lineid_req(format!(
            r#"{{"op":"replace","pos":"{}","lines":["NEW B"]}}"#,
            anchor(&row, '|')
        )),
    );
    assert_eq!(file(&sb), expected());

    let (_, row) = row_of(&rows(&v3), '|', "NEW B");
    let before = change_outside(&sb, "NEW B", "changed outside");
    let v = assert_refused(
        &sb,
        "lineid-json",
        &lineid_req(format!(
            r#"{{"op":"replace","pos":"{}","lines":["again"]}}"#,
            anchor(&row, '|')
        )),
        &before,
    );
    assert_eq!(v["code"], "E_STALE_ANCHOR", "{v}");
}

/// The rows of every `--- Anchors … ---` block of a plain reply.
fn text_rows(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("--- Anchors ") {
            inside = true;
        } else if line.is_empty() {
            inside = false;
        } else if inside {
            out.push(line.to_owned());
        }
    }
    out
}

#[test]
fn lineid_chain_with_show_anchors_in_plain_text() {
    let sb = Sandbox::new();
    sb.put("f.txt", base().as_bytes());
    let read = sb.run(&["read", "--anchors", "lineid", "f.txt"], b"");
    let pos = read
        .stdout
        .lines()
        .find_map(|l| l.strip_suffix("|line 05"))
        .expect("row of line 05")
        .to_owned();
    let plain = |input: String| {
        let run = sb.run(
            &["edit", "--dialect", "lineid-json", "--show-anchors"],
            input.as_bytes(),
        );
        assert_eq!(run.code, 0, "{input}\n{}", run.stdout);
        assert!(run
            .stdout
            .starts_with("Updated f.txt\n\n--- Anchors f.txt lines "));
        text_rows(&run.stdout)
            .into_iter()
            .enumerate()
            .collect::<Vec<_>>()
    };
    let r1 = plain(lineid_req(format!(
        r#"{{"op":"append","pos":"{pos}","lines":["new A","new B"]}}"#
    )));
    let (_, row) = row_of(&r1, '|', "line 06");
    let r2 = plain(lineid_req(format!(
        r#"{{"op":"replace","pos":"{}","lines":["LINE 06"]}}"#,
        anchor(&row, '|')
    )));
    let (_, row) = row_of(&r2, '|', "new B");
    plain(lineid_req(format!(
        r#"{{"op":"replace","pos":"{}","lines":["NEW B"]}}"#,
        anchor(&row, '|')
    )));
    assert_eq!(file(&sb), expected());

    // Without the option the seed's reply is byte-identical.
    let (_, row) = row_of(&r2, '|', "line 07");
    let run = sb.run(
        &["edit", "--dialect", "lineid-json"],
        lineid_req(format!(
            r#"{{"op":"replace","pos":"{}","lines":["LINE 07"]}}"#,
            anchor(&row, '|')
        ))
        .as_bytes(),
    );
    assert_eq!((run.code, run.stdout.as_str()), (0, "Updated f.txt\n"));
}

#[test]
fn str_replace_chain_matches_the_text_the_previous_reply_showed() {
    let sb = Sandbox::new();
    sb.put("f.txt", base().as_bytes());
    let view = sb.run(
        &["edit", "--dialect", "str-replace"],
        br#"{"command":"view","path":"f.txt"}"#,
    );
    assert_eq!(view.code, 0, "{}", view.stdout);
    let req = |old: &str, new: &str| {
        serde_json::json!({"command": "str_replace", "path": "f.txt", "old_str": old, "new_str": new})
            .to_string()
    };
    let v1 = edit(
        &sb,
        "str-replace",
        &serde_json::json!({"command": "insert", "path": "f.txt", "insert_line": 5, "new_str": "new A\nnew B"})
            .to_string(),
    );
    // Two adjacent rows of the reply, as the next old_str.
    let r1 = rows(&v1);
    let (n, _) = row_of(&r1, '\t', "line 06");
    let (_, above) = r1
        .iter()
        .find(|(k, _)| *k == n - 1)
        .cloned()
        .expect("row above");
    let above = above.split_once('\t').expect("cat -n row").1.to_owned();
    let v2 = edit(
        &sb,
        "str-replace",
        &req(&format!("{above}\nline 06"), &format!("{above}\nLINE 06")),
    );
    let (_, row) = row_of(&rows(&v2), '\t', "new B");
    let old = row.split_once('\t').expect("cat -n row").1.to_owned();
    let v3 = edit(&sb, "str-replace", &req(&old, "NEW B"));
    assert_eq!(file(&sb), expected());

    let (_, row) = row_of(&rows(&v3), '\t', "NEW B");
    let old = row.split_once('\t').expect("cat -n row").1.to_owned();
    let before = change_outside(&sb, "NEW B", "changed outside");
    assert_refused(&sb, "str-replace", &req(&old, "again"), &before);
}

#[test]
fn apply_patch_chain_takes_its_context_from_the_previous_reply() {
    let sb = Sandbox::new();
    sb.put("f.txt", base().as_bytes());
    let patch =
        |body: &str| format!("*** Begin Patch\n*** Update File: f.txt\n@@\n{body}*** End Patch\n");
    let v1 = edit(
        &sb,
        "apply-patch",
        &patch(" line 05\n+new A\n+new B\n line 06\n"),
    );
    // The rows are the lines themselves: the context of the next chunk.
    let r1 = rows(&v1);
    let at = |r: &[(usize, String)], n: usize| {
        r.iter()
            .find(|(k, _)| *k == n)
            .map(|(_, row)| row.clone())
            .expect("row")
    };
    let n = r1.iter().find(|(_, r)| r == "line 06").expect("line 06").0;
    let v2 = edit(
        &sb,
        "apply-patch",
        &patch(&format!(
            " {}\n-line 06\n+LINE 06\n {}\n",
            at(&r1, n - 1),
            at(&r1, n + 1)
        )),
    );
    let r2 = rows(&v2);
    let n = r2.iter().find(|(_, r)| r == "new B").expect("new B").0;
    let v3 = edit(
        &sb,
        "apply-patch",
        &patch(&format!(
            " {}\n-new B\n+NEW B\n {}\n",
            at(&r2, n - 1),
            at(&r2, n + 1)
        )),
    );
    assert_eq!(file(&sb), expected());
    // --show-anchors puts them in the plain text after Codex's summary.
    let r3 = rows(&v3);
    let n = r3.iter().find(|(_, r)| r == "line 07").expect("line 07").0;
    let run = sb.run(
        &["edit", "--dialect", "apply-patch", "--show-anchors"],
        patch(&format!(" {}\n-line 07\n+LINE 07\n", at(&r3, n - 1))).as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout.starts_with(
            "Success. Updated the following files:\nM f.txt\n\n--- Anchors f.txt lines "
        ),
        "{}",
        run.stdout
    );
    assert!(text_rows(&run.stdout).contains(&"LINE 07".to_owned()));

    let n = r3.iter().find(|(_, r)| r == "NEW B").expect("NEW B").0;
    let before = change_outside(&sb, "NEW B", "changed outside");
    assert_refused(
        &sb,
        "apply-patch",
        &patch(&format!(" {}\n-NEW B\n+again\n", at(&r3, n - 1))),
        &before,
    );
}

#[test]
fn an_evicted_hashline_tag_is_refused_as_evicted() {
    let sb = Sandbox::new();
    sb.put("f.txt", base().as_bytes());
    let read = sb.run(&["read", "f.txt"], b"");
    let tag0 = read.stdout.lines().next().expect("header")["¶f.txt#".len()..].to_owned();
    // Four more versions of the file in the session push the first one out.
    let mut tag = tag0.clone();
    for i in 1..=4 {
        let v = edit(
            &sb,
            "hashline",
            &hashline_patch(&tag, &format!("replace 1..1:\n+first {i}\n")),
        );
        tag = v["files"][0]["tag"].as_str().expect("tag").to_owned();
    }
    let before = file(&sb);
    let v = assert_refused(
        &sb,
        "hashline",
        &hashline_patch(&tag0, "replace 20..20:\n+last\n"),
        &before,
    );
    let text = v["text"].as_str().expect("text");
    assert!(
        text.starts_with(&format!(
            "Edit rejected for f.txt: hash #{tag0} was read in this session, but that version has been evicted"
        )),
        "{text}"
    );
    assert_eq!(v["code"], "E_STALE_ANCHOR");
    // A tag the session never saw keeps the seed's text.
    let never = if tag0 == "0000" { "0001" } else { "0000" };
    let v = assert_refused(
        &sb,
        "hashline",
        &hashline_patch(never, "replace 20..20:\n+last\n"),
        &before,
    );
    assert!(
        v["text"]
            .as_str()
            .expect("text")
            .contains(&format!("hash #{never} is not from this session")),
        "{v}"
    );
}

/// A line whose lineid ID at line 6 is that of `q` (the 8-bit IDs collide): the case where
/// recording the result matters.
fn colliding_with_q_at_6() -> String {
    let id = hashline_anchor::lineid::line_id(6, "q");
    (0..100_000)
        .map(|k| format!("s{k}"))
        .find(|s| hashline_anchor::lineid::line_id(6, s) == id)
        .expect("an 8-bit ID collides within 100000 tries")
}

#[test]
fn lineid_result_shown_with_anchors_is_recorded_so_a_colliding_id_chains() {
    let s = colliding_with_q_at_6();
    let text = base().replace("line 06", "q");
    let id = hashline_anchor::lineid::line_id(6, "q");
    let replace = |with: &str| {
        lineid_req(format!(
            r#"{{"op":"replace","pos":"6#{id}","lines":["{with}"]}}"#
        ))
    };
    for shown in [true, false] {
        let sb = Sandbox::new();
        sb.put("f.txt", text.as_bytes());
        sb.run(&["read", "--anchors", "lineid", "f.txt"], b"");
        let first = if shown {
            let v = edit(&sb, "lineid-json", &replace(&s));
            // The reply's anchor of the new line is the same `6#ID` as the old line's.
            let (_, row) = row_of(&rows(&v), '|', &s);
            assert_eq!(anchor(&row, '|'), format!("6#{id}"));
            v["text"].clone()
        } else {
            let run = sb.run(
                &["edit", "--dialect", "lineid-json"],
                replace(&s).as_bytes(),
            );
            assert_eq!(run.code, 0, "{}", run.stdout);
            Value::from(run.stdout.trim_end())
        };
        assert_eq!(first, "Updated f.txt");
        let after_first = file(&sb);
        let run = sb.run(
            &["edit", "--dialect", "lineid-json"],
            replace("Z").as_bytes(),
        );
        if shown {
            // The session saw the new text (its anchors were in the reply): the anchor is its.
            assert_eq!(run.code, 0, "{}", run.stdout);
            assert_eq!(file(&sb), base().replace("line 06", "Z"));
        } else {
            // The seed's reply showed no anchors: `6#ID` can only come from the read, whose
            // line 6 was rewritten, so it is stale.
            assert_eq!(run.code, 1, "{}", run.stdout);
            assert!(
                run.stdout
                    .starts_with("Error: hash mismatch - f.txt changed since last read"),
                "{}",
                run.stdout
            );
            assert_eq!(file(&sb), after_first);
        }
    }
}

#[test]
fn a_hash_json_insert_sent_twice_is_refused_the_second_time() {
    let sb = Sandbox::new();
    sb.put("f.txt", b"a\nb\nc\n");
    let read = sb.run(&["read", "--anchors", "hash", "f.txt"], b"");
    let (b, _) = read
        .stdout
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(_, c)| *c == "b")
        .expect("row of b");
    let req =
        format!(r#"{{"path":"f.txt","edits":[{{"op":"append","pos":"{b}","lines":["x"]}}]}}"#);
    let first = edit(&sb, "hash-json", &req);
    let x = row_of(&rows(&first), ':', "x");
    assert_eq!(file(&sb), "a\nb\nx\nc\n");
    // The same request again: the disk already holds it.
    let v = assert_refused(&sb, "hash-json", &req, "a\nb\nx\nc\n");
    assert_eq!(v["code"], "E_STALE_ANCHOR", "{v}");
    assert!(
        v["text"]
            .as_str()
            .unwrap_or("")
            .contains("already been applied"),
        "{v}"
    );
    // On purpose: anchored on the line the first one wrote.
    let again = format!(
        r#"{{"path":"f.txt","edits":[{{"op":"append","pos":"{}","lines":["x"]}}]}}"#,
        anchor(&x.1, ':')
    );
    edit(&sb, "hash-json", &again);
    assert_eq!(file(&sb), "a\nb\nx\nx\nc\n");
}
