use super::*;

fn err(text: &str) -> String {
    parse_patch(text).expect_err("refused").to_string()
}

#[test]
fn markers_are_required_trimmed() {
    assert_eq!(
        err("bad"),
        "Invalid patch: The first line of the patch must be '*** Begin Patch'"
    );
    assert_eq!(
        err("*** Begin Patch\nbad"),
        "Invalid patch: The last line of the patch must be '*** End Patch'"
    );
    assert_eq!(
        err(""),
        "Invalid patch: The last line of the patch must be '*** End Patch'"
    );
    let padded = parse_patch(" *** Begin Patch \n*** Delete File: a\n *** End Patch ").expect("ok");
    assert_eq!(padded.hunks, vec![Hunk::Delete { path: "a".into() }]);
    assert!(parse_patch("*** Begin Patch\n*** End Patch")
        .expect("ok")
        .hunks
        .is_empty());
}

#[test]
fn an_early_end_marker_ends_the_patch() {
    let patch = parse_patch("*** Begin Patch\n*** Delete File: a\n*** End Patch\n*** End Patch")
        .expect("ok");
    assert_eq!(patch.hunks.len(), 1);
}

#[test]
fn heredoc_wrapper_is_peeled() {
    for open in ["<<EOF", "<<'EOF'", "<<\"EOF\""] {
        let text = format!("{open}\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF\n");
        assert_eq!(parse_patch(&text).expect("ok").hunks.len(), 1, "{open}");
    }
    assert_eq!(
        err("<<\"EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF"),
        "Invalid patch: The first line of the patch must be '*** Begin Patch'"
    );
    assert_eq!(
        err("<<EOF\n*** Begin Patch\n*** Update File: a\nEOF"),
        "Invalid patch: The last line of the patch must be '*** End Patch'"
    );
}

#[test]
fn every_hunk_kind_parses() {
    let text = "*** Begin Patch\r\n*** Add File: a.txt\r\n+one\r\n+\r\n*** Delete File: b.txt\n*** Update File: c.txt\n*** Move to: d.txt\n@@ def f():\n x\n-y\n+Y\n\n@@\n+tail\n*** End of File\n*** End Patch\n";
    let patch = parse_patch(text).expect("ok");
    assert_eq!(
        patch.hunks,
        vec![
            Hunk::Add {
                path: "a.txt".into(),
                lines: vec!["one".into(), String::new()],
            },
            Hunk::Delete {
                path: "b.txt".into()
            },
            Hunk::Update {
                path: "c.txt".into(),
                move_to: Some("d.txt".into()),
                chunks: vec![
                    Chunk {
                        context: Some("def f():".into()),
                        rows: vec![
                            Row::Context("x".into()),
                            Row::Remove("y".into()),
                            Row::Add("Y".into()),
                            Row::Context(String::new()),
                        ],
                        end_of_file: false,
                    },
                    Chunk {
                        context: None,
                        rows: vec![Row::Add("tail".into())],
                        end_of_file: true,
                    },
                ],
            },
        ]
    );
}

#[test]
fn first_chunk_may_omit_its_marker() {
    let patch =
        parse_patch("*** Begin Patch\n*** Update File: f\n import foo\n+bar\n*** End Patch")
            .expect("ok");
    let Hunk::Update { chunks, .. } = &patch.hunks[0] else {
        panic!("not an update")
    };
    assert_eq!(chunks[0].old_lines(), vec!["import foo"]);
    assert_eq!(chunks[0].new_lines(), vec!["import foo", "bar"]);
}

#[test]
fn hunk_errors_carry_codex_texts_and_lines() {
    assert_eq!(
        err("*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch"),
        "Invalid patch hunk on line 2: '*** Frobnicate File: foo' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'"
    );
    assert_eq!(
        err("*** Begin Patch\n*** Update File: foo.txt\n*** End Patch"),
        "Invalid patch hunk on line 2: Update file hunk for path 'foo.txt' is empty"
    );
    assert_eq!(
        err("*** Begin Patch\n*** Update File: f\n@@\n*** End Patch"),
        "Invalid patch hunk on line 4: Update hunk does not contain any lines"
    );
    assert_eq!(
        err("*** Begin Patch\n*** Update File: f\n@@\n*** End of File\n*** End Patch"),
        "Invalid patch hunk on line 4: Update hunk does not contain any lines"
    );
    assert_eq!(
        err("*** Begin Patch\n*** Update File: f\n@@\nbad\n*** End Patch"),
        "Invalid patch hunk on line 4: Unexpected line found in update hunk: 'bad'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)"
    );
    assert_eq!(
        err("*** Begin Patch\n*** Update File: f\n@@\n+x\nbad\n*** End Patch"),
        "Invalid patch hunk on line 5: Expected update hunk to start with a @@ context marker, got: 'bad'"
    );
    assert!(
        err("*** Begin Patch\n*** Update File: f\n@@ class A\n@@ def m\n+x\n*** End Patch")
            .starts_with(
                "Invalid patch hunk on line 4: Unexpected line found in update hunk: '@@ def m'"
            )
    );
    assert!(
        err("*** Begin Patch\n*** Update File:f\n@@\n+x\n*** End Patch")
            .contains("'*** Update File:f' is not a valid hunk header")
    );
}

#[test]
fn add_file_ends_at_the_first_row_without_plus() {
    assert!(
        err("*** Begin Patch\n*** Add File: a\n+x\ny\n*** End Patch")
            .starts_with("Invalid patch hunk on line 4: 'y' is not a valid hunk header")
    );
}

proptest::proptest! {
    #[test]
    fn never_panics(text in "(\\*\\*\\* (Begin|End) Patch|\\*\\*\\* (Add|Update|Delete) File: a|@@ ?x?|[ +-]?y|\\*\\*\\* End of File|<<EOF|EOF|\r?\n){0,12}") {
        let _ = parse_patch(&text);
    }
}
