use super::*;

fn err(json: &str) -> String {
    match parse_request(json).and_then(|r| r.command()) {
        Ok(c) => panic!("accepted: {c:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_oracles_parameter_texts() {
    assert_eq!(
        err(r#"{"command":"create","path":"a","file_text":null}"#),
        "Parameter `file_text` is required for command: create."
    );
    assert_eq!(
        err(r#"{"command":"view","path":"a","view_range":["1","2"]}"#),
        "Invalid `view_range` parameter: ['1', '2']. It should be a list of two integers."
    );
    assert_eq!(
        err(r#"{"command":"str_replace","path":"a","old_str":"x","new_str":"x"}"#),
        "Invalid `new_str` parameter: x. No replacement was performed. `new_str` and `old_str` must be different."
    );
    assert_eq!(
        err(r#"{"command":"delete","path":"a"}"#),
        "Unrecognized command delete. The allowed commands for the oh_editor tool are: view, create, str_replace, insert, undo_edit"
    );
    assert!(
        err(r#"{"command":"insert","path":"a","insert_line":"1","new_str":"x"}"#)
            .starts_with("Invalid `insert_line` parameter: '1'.")
    );
    assert!(err("[1]").starts_with("Invalid request"));
}

#[test]
fn commands_parse() {
    let r =
        parse_request(r#"{"command":"str_replace","path":"a","old_str":"x"}"#).expect("request");
    assert_eq!(
        r.command(),
        Ok(Command::StrReplace {
            old_str: "x".into(),
            new_str: String::new()
        })
    );
    let r = parse_request(r#"{"command":"view","path":"a","view_range":[2,-1]}"#).expect("request");
    assert_eq!(
        r.command(),
        Ok(Command::View {
            range: Some((2, -1)),
            range_sent: Some("[2, -1]".into())
        })
    );
}
