//! The JSON dialects' request parsers on any text: hash-json (`parse_envelope` then
//! `parse_items`, as the engine runs them) and lineid-json (`parse_request`, then `parse_ref` on
//! every anchor, as the engine does).

use hashline_syntax::hash_json::{
    js::is_hash_char, parse_envelope, parse_items, ItemOp, ReturnMode,
};
use hashline_syntax::lineid_json::{parse_ref, split_payload, trailing_id, EditOp};

/// hash-json: an accepted envelope and its items are well-formed; a refusal has a message.
pub fn check_hash_json(request: &str) {
    let env = match parse_envelope(request) {
        Ok(env) => env,
        Err(err) => {
            assert!(!err.message.is_empty(), "empty refusal");
            let _ = err.code.as_str();
            return;
        }
    };
    assert!(!env.path.is_empty(), "accepted an empty path");
    assert!(!env.edits.is_empty(), "accepted no edits");
    assert_eq!(
        env.return_mode == ReturnMode::Ranges,
        !env.return_ranges.is_empty(),
        "return ranges exactly in ranges mode: {env:?}"
    );
    for range in &env.return_ranges {
        assert!(range.start >= 1, "range starts at 0: {range:?}");
    }
    match parse_items(&env.edits) {
        Err(err) => assert!(!err.message.is_empty(), "empty refusal"),
        Ok(items) => {
            assert_eq!(items.len(), env.edits.len(), "one item per edit");
            for (i, item) in items.iter().enumerate() {
                assert_eq!(item.index, i, "item index");
                let anchors = match &item.op {
                    ItemOp::Replace { start, end } => {
                        assert!(
                            !(item.lines.len() == 1 && item.lines[0].is_empty()),
                            "a replace's [\"\"] is a deletion"
                        );
                        vec![start, end]
                    }
                    ItemOp::Append { pos } | ItemOp::Prepend { pos } => pos.iter().collect(),
                };
                for anchor in anchors {
                    let s = anchor.as_str();
                    assert!(
                        s.chars().count() == 4 && s.chars().all(is_hash_char),
                        "anchor {s:?} is not 4 hash characters"
                    );
                }
            }
        }
    }
}

/// lineid-json: an accepted request is normalised as documented; anchors parse or refuse.
pub fn check_lineid_json(request: &str) {
    let req = match hashline_syntax::lineid_json::parse_request(request) {
        Ok(req) => req,
        Err(err) => {
            assert!(!err.to_string().is_empty(), "empty refusal");
            let _ = err.code();
            return;
        }
    };
    assert!(!req.file_path.is_empty(), "accepted an empty filePath");
    if req.delete {
        assert!(req.edits.is_empty() && req.rename.is_none(), "{req:?}");
    } else {
        assert!(!req.edits.is_empty(), "accepted no edits");
    }
    for (i, edit) in req.edits.iter().enumerate() {
        assert_eq!(edit.index, i, "edit index");
        match edit.op {
            EditOp::Replace => assert!(edit.pos.is_some(), "a replace has an anchor"),
            EditOp::Append | EditOp::Prepend => assert!(edit.end.is_none(), "an insert has no end"),
        }
        for line in &edit.lines {
            assert!(
                !line.contains(['\n', '\r']),
                "row {line:?} holds a line break"
            );
        }
        for anchor in edit.pos.iter().chain(edit.end.iter()) {
            assert!(
                !anchor.is_empty() && anchor.trim() == anchor,
                "anchor {anchor:?} not trimmed"
            );
            check_line_ref(anchor);
        }
    }
}

/// `parse_ref` and `trailing_id` on one raw reference.
pub fn check_line_ref(raw: &str) {
    match parse_ref(raw) {
        Ok(r) => {
            assert!(
                r.id.len() == 2 && r.id.chars().all(hashline_anchor::lineid::is_id_letter),
                "id {:?} of {raw:?}",
                r.id
            );
        }
        Err(err) => {
            assert_eq!(err.raw(), raw, "the refusal names the reference as sent");
            assert!(!err.to_string().is_empty());
        }
    }
    if let Some(id) = trailing_id(raw) {
        assert!(
            id.len() == 2 && raw.contains(id),
            "trailing id {id:?} of {raw:?}"
        );
    }
}

/// `split_payload` never yields a row with a line break.
pub fn check_split_payload(text: &str) {
    for row in split_payload(text) {
        assert!(
            !row.contains(['\n', '\r']),
            "row {row:?} holds a line break"
        );
    }
}
