//! Anchors on any text: the string parsers of anchors (hash-json `parse_anchor`, lineid
//! `parse_ref` / `trailing_id`, the JS-whitespace helpers) and the pure anchor functions of
//! `hashline-anchor` (tags, line hashes, line IDs, `read` rendering, the read hook), with the
//! shape of what they return.

use hashline_anchor::{hash_json, lineid, tag};
use hashline_syntax::hash_json::js::{hash_like_prefix, is_hash_char, js_trim, js_trim_start};
use hashline_syntax::hash_json::parse_anchor;

fn is_upper_hex(s: &str) -> bool {
    s.len() == 4
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b))
}

/// Run every anchor function on `s`; `offset`/`limit` of the read renderers come from the
/// input's length so the fuzzer can steer them.
pub fn check(s: &str) {
    // String parsers.
    match parse_anchor(s) {
        Ok(anchor) => {
            let a = anchor.as_str();
            assert!(
                a.chars().count() == 4 && a.chars().all(is_hash_char),
                "{a:?}"
            );
            assert_eq!(a, js_trim(s), "an anchor is the trimmed input");
        }
        Err(err) => assert!(!err.message.is_empty()),
    }
    if let Some(prefix) = hash_like_prefix(s) {
        assert!(
            prefix.len() == 4 && prefix.chars().all(is_hash_char),
            "{prefix:?}"
        );
    }
    assert!(s.ends_with(js_trim_start(s)));
    crate::json::check_line_ref(s);
    crate::json::check_split_payload(s);
    for line in s.lines().take(64) {
        crate::json::check_line_ref(line);
        let _ = parse_anchor(line);
    }

    // Hashline tags and reads.
    let t = tag::file_tag(s);
    assert!(is_upper_hex(&t), "tag {t:?}");
    let n = s.len();
    let offset = [
        None,
        Some(0),
        Some(1),
        Some(2),
        Some(n % 97),
        Some(usize::MAX),
    ][n % 6];
    let limit = [None, Some(0), Some(1), Some(3), Some(usize::MAX)][(n / 6) % 5];
    let total = tag::line_count(s);
    let read = tag::render_read("a.ts", s, offset, limit);
    match tag::check_read_range(s, offset) {
        Ok(()) => assert!(read.starts_with(&format!("¶a.ts#{t}")), "read {read:?}"),
        Err(err) => {
            assert_eq!(read, err.to_string());
            assert!(offset.unwrap_or(1).max(1) > total);
        }
    }

    // hash-json line hashes.
    let hashes = hash_json::hash_lines(s);
    assert_eq!(hashes.len(), s.split('\n').count(), "one hash per line");
    for h in &hashes {
        let h = h.as_str();
        assert!(h.len() == 4 && h.chars().all(is_hash_char), "hash {h:?}");
    }
    let visible = hash_json::visible_line_count(s);
    assert!(visible <= hashes.len());
    let first = offset.unwrap_or(1);
    let last = limit.unwrap_or(visible);
    let _ = hash_json::render_rows(s, &hashes, first, last);
    let _ = hash_json::render_rows(s, &hashes[..hashes.len() / 2], 1, usize::MAX);

    // lineid IDs and reads.
    let lines = lineid::canonical_lines(s);
    let ids = lineid::line_ids(s);
    assert_eq!(ids.len(), lines.len(), "one id per line");
    for (i, (id, line)) in ids.iter().zip(&lines).enumerate().take(256) {
        assert!(
            id.len() == 2 && id.chars().all(lineid::is_id_letter),
            "id {id:?}"
        );
        assert!(
            lineid::id_matches(i + 1, line, id),
            "line {} does not match its id",
            i + 1
        );
        let row = lineid::render_row(i + 1, line);
        let parsed = hashline_syntax::lineid_json::parse_ref(&row);
        if let Ok(r) = parsed {
            assert_eq!((r.line, r.id.as_str()), (i + 1, id.as_str()), "row {row:?}");
        } else {
            panic!("the rendered row {row:?} does not parse back");
        }
    }
    let read = lineid::render_read(s, offset, limit);
    let first = offset.unwrap_or(1).max(1);
    let shown = lines
        .len()
        .saturating_sub(first - 1)
        .min(limit.unwrap_or(usize::MAX));
    // Rows come first (never empty: each starts with `N#ID|`); the page budget may end them
    // early; a continuation hint follows exactly when lines remain after the last row.
    let rows = read.split('\n').take_while(|l| !l.is_empty()).count();
    assert!(rows <= shown, "more rows than lines to show: {read:?}");
    assert!(rows == shown || rows > 0, "a page shows at least one row");
    let rest = lines.len().saturating_sub(first - 1 + rows);
    let hint = format!("Use :{} to continue]", first + rows);
    let tail: Vec<&str> = read.split('\n').skip(rows).collect();
    assert_eq!(
        rows > 0 && rest > 0,
        tail.iter().any(|l| l.ends_with(&hint)),
        "continuation hint exactly when lines remain: {read:?}"
    );
    let _ = lineid::enhance_read_output(s);
}
