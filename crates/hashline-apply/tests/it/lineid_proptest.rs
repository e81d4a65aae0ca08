//! No panic, and no partial write, on random or mutated LINE#ID requests.

use std::fs;

use hashline_apply::fs::Workspace;
use hashline_apply::lineid_json::{edit, EditOptions};
use hashline_state::MemoryStore;
use proptest::prelude::*;

fn reference() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        Just(serde_json::Value::Null),
        (0usize..8, "[ZPMQVRWSNKTXJBYH]{2}")
            .prop_map(|(n, id)| serde_json::Value::String(format!("{n}#{id}"))),
        "[ >#|+0-9A-Za-z-]{0,10}".prop_map(serde_json::Value::String),
        any::<i64>().prop_map(|n| serde_json::json!(n)),
    ]
}

fn payload() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        Just(serde_json::Value::Null),
        "[ab {};+#|\\-\t\r\n]{0,20}".prop_map(serde_json::Value::String),
        prop::collection::vec("[ab {};+#|>0-9ZPXH\\-\t\r\n]{0,12}", 0..5)
            .prop_map(|v| serde_json::json!(v)),
        Just(serde_json::json!([1, 2])),
    ]
}

fn edit_value() -> impl Strategy<Value = serde_json::Value> {
    (prop_oneof![Just("replace"), Just("append"), Just("prepend"), Just("set_line")], reference(), reference(), payload())
        .prop_map(|(op, pos, end, lines)| serde_json::json!({"op": op, "pos": pos, "end": end, "lines": lines}))
}

fn request() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(edit_value(), 0..5),
        any::<bool>(),
        prop::option::of(prop_oneof![Just("moved.txt"), Just("f.txt"), Just("../x.txt")]),
    )
        .prop_map(|(edits, delete, rename)| {
            serde_json::json!({"filePath": "f.txt", "edits": edits, "delete": delete, "rename": rename}).to_string()
        })
}

fn check(text: &str, req: &str) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
    let path = dir.path().join("f.txt");
    fs::write(&path, text).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let ws = Workspace::new(dir.path()).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let out = edit(&ws, &MemoryStore::new(), req, &EditOptions::default());
    prop_assert_eq!(out.ok, out.code.is_none());
    if !out.ok {
        prop_assert!(out.text.starts_with("Error: "), "{}", out.text);
        prop_assert_eq!(fs::read(&path).ok(), Some(text.as_bytes().to_vec()));
        prop_assert!(!dir.path().join("moved.txt").exists());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn structured_requests_never_panic(text in "[ab{} \t\r\n]{0,30}", req in request()) {
        check(&text, &req)?;
    }

    #[test]
    fn arbitrary_text_never_panics(text in "[ab\n]{0,10}", req in "\\PC{0,80}") {
        check(&text, &req)?;
    }

    #[test]
    fn mutated_valid_requests_never_panic(cut in 0usize..200, junk in "[\\[\\]{}\",:#|0-9a-z]{0,4}") {
        let valid = r#"{"filePath":"f.txt","edits":[{"op":"replace","pos":"2#XH","end":"3#PX","lines":["x","y"]},{"op":"append","pos":"1#RW","lines":"z"}]}"#;
        let at = cut.min(valid.len());
        let mutated = format!("{}{junk}{}", &valid[..at], &valid[at..]);
        check("a\nb\nc\n", &mutated)?;
    }
}
