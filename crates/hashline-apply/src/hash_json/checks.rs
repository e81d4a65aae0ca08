//! Checks on the payload that refuse or warn (§5 phase B, the peer's boundary warnings, and
//! DEVIATIONS §4a's repeated-adjacent-line notice).

use std::collections::HashSet;

use hashline_anchor::hash_json::LineHash;
use hashline_core::ErrorCode;
use hashline_syntax::hash_json::js::{hash_like_prefix, js_trim};
use hashline_syntax::hash_json::json::quote;
use hashline_syntax::hash_json::EditItem;

use crate::guard::{without_strings, Family};

use super::resolve::{Place, Version};
use hashline_core::Refusal;

/// The peer's non-blocking boundary warnings of a resolved replace (after, then before).
pub(crate) fn boundary_warnings(
    item: &EditItem,
    place: Place,
    v: &Version<'_>,
    label: &str,
) -> Vec<String> {
    let Place::Replace(s, e) = place else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let meaningful = |t: &str| t.chars().any(char::is_alphanumeric);
    if let (Some(last), Some(next)) = (item.lines.last(), v.lines.get(e)) {
        let t = js_trim(last);
        if meaningful(t) && t == js_trim(next) {
            out.push(format!(
                "[W_REPEATED_LINE] Potential boundary duplication after {label}: the replacement ends with a line that matches the next surviving line after trim."
            ));
        }
    }
    if let (Some(first), Some(prev)) = (
        item.lines.first(),
        s.checked_sub(2).and_then(|i| v.lines.get(i)),
    ) {
        let t = js_trim(first);
        if meaningful(t) && t == js_trim(prev) {
            out.push(format!(
                "[W_REPEATED_LINE] Potential boundary duplication before {label}: the replacement starts with a line that matches the preceding surviving line after trim."
            ));
        }
    }
    out
}

/// The warning for a literal `\uDDDD` escape in an item's payload (the seed's, coded), if
/// one lies where the file's language does not read it as an escape: outside every string
/// literal (prose outside a code span, a comment). Inside a string of code it is an escape
/// the language reads: deliberate, or harmless where the model meant the character itself.
pub(crate) fn unicode_escape_warning(item: &EditItem, path: &str) -> Option<String> {
    let family = Family::of(path);
    item.lines
        .iter()
        .any(|l| has_literal_unicode_escape(&without_strings(l, family)))
        .then(|| {
            "[W_LITERAL_ESCAPE] Detected literal \\uDDDD in edit content; no autocorrection applied. Verify whether this should be a real Unicode escape or plain text.".to_owned()
        })
}

/// `\\u[0-9a-fA-F]{4}` with the `u` matched case-insensitively.
fn has_literal_unicode_escape(line: &str) -> bool {
    let b = line.as_bytes();
    b.windows(6)
        .any(|w| w[0] == b'\\' && (w[1] | 0x20) == b'u' && w[2..].iter().all(u8::is_ascii_hexdigit))
}

/// Phase B (DEVIATIONS 28): a payload row that starts `XXXX:` where `XXXX` is the hash of a
/// line the model was shown (`shown`: the hashes of each version a read of this file showed,
/// the disk's included, searched lazily in order) is a read row pasted as content: refused.
/// Any other `word:` row (YAML `uses:`, TypeScript `body:`, Rust `File::`, Python `else:`) is
/// content and passes without a word.
pub(crate) fn bare_prefix<H: AsRef<[LineHash]>>(
    items: &[EditItem],
    shown: impl IntoIterator<Item = H>,
) -> Result<(), Refusal> {
    let suspects: Vec<(&str, &str)> = items
        .iter()
        .flat_map(|i| i.lines.iter())
        .filter_map(|l| hash_like_prefix(l).map(|p| (p, l.as_str())))
        .collect();
    if suspects.is_empty() {
        return Ok(());
    }
    let Some(known) = shown.into_iter().find_map(|hashes| {
        let known: HashSet<&str, foldhash::fast::RandomState> =
            hashes.as_ref().iter().map(LineHash::as_str).collect();
        let pasted: Vec<bool> = suspects.iter().map(|(p, _)| known.contains(p)).collect();
        pasted.contains(&true).then_some(pasted)
    }) else {
        return Ok(());
    };
    let n = suspects.len();
    let matching = known.iter().filter(|&&k| k).count();
    // The example is the first pasted row.
    let at = known.iter().position(|&k| k).unwrap_or(0);
    let (prefix, line) = suspects[at];
    let example = quote(&format!("{prefix}:{line}"));
    Err(Refusal::new(
        ErrorCode::BareHashPrefix,
        format!(
            "[E_BARE_HASH_PREFIX] {n} edit line(s) start with a hash-like prefix (e.g. {example}). \
             {matching} match file line hashes — likely a copied hash. \
             Use literal file content in \"lines\" — never paste HASH:content from read output."
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hashline_anchor::hash_json::hash_lines;
    use hashline_syntax::hash_json::ItemOp;

    /// An append whose payload is `lines`.
    fn append(lines: &[&str]) -> Vec<EditItem> {
        vec![EditItem {
            index: 0,
            op: ItemOp::Append { pos: None },
            lines: lines.iter().map(|l| l.to_string()).collect(),
        }]
    }

    #[test]
    fn a_word_colon_row_that_no_read_showed_is_content() {
        let yaml = "jobs:\n  test:\n    steps:\n      - run: make\n";
        let rows = [
            "      - uses: actions/checkout@v4",
            "  body: data,",
            "else:",
        ];
        for row in rows {
            let shown = [hash_lines(yaml)];
            assert!(bare_prefix(&append(&[row]), shown).is_ok(), "{row}");
        }
    }

    #[test]
    fn a_row_led_by_a_shown_lines_hash_is_refused() {
        let (old, disk) = ("fn a() {}\nfn b() {}\n", "fn a() {}\n");
        let hashes = hash_lines(old);
        // `fn b` is gone from the disk: only the older read showed its hash.
        let pasted = format!("{}:fn c() {{}}", hashes[1]);
        let items = append(&["fine: row", &pasted]);
        let shown = [hash_lines(disk), hashes.clone()];
        let refused = bare_prefix(&items, shown).expect_err("a pasted read row");
        assert_eq!(refused.code, ErrorCode::BareHashPrefix);
        assert!(
            refused.message.starts_with(&format!(
                "[E_BARE_HASH_PREFIX] 2 edit line(s) start with a hash-like prefix (e.g. \"{}:{pasted}\"). 1 match",
                hashes[1]
            )),
            "{}",
            refused.message
        );
        // The versions after the first that settles it are never hashed.
        let never = std::iter::once(hashes).chain(std::iter::from_fn(|| panic!("hashed")));
        assert!(bare_prefix(&items, never).is_err());
    }

    #[test]
    fn an_escape_inside_a_string_of_code_is_not_a_mistake() {
        let py = r#"    assert f(b"/x/foo\xff.txt") == "foo\udcff.txt""#;
        assert_eq!(
            unicode_escape_warning(&append(&[py])[0], "tests/t.py"),
            None
        );
        let js = r"  t.is(stdout, `\\u0001`);";
        assert_eq!(unicode_escape_warning(&append(&[js])[0], "test/a.js"), None);
    }

    #[test]
    fn an_escape_in_prose_or_a_comment_is_warned() {
        for (line, path) in [
            (r"caf\u00e9 au lait", "notes.txt"),
            (r"Caf\u00e9 is `\u00e9`", "README.md"),
            (r#"x = "a"  # caf\u00e9"#, "a.py"),
        ] {
            let w = unicode_escape_warning(&append(&[line])[0], path).expect(line);
            assert!(w.starts_with("[W_LITERAL_ESCAPE] Detected literal"), "{w}");
        }
    }

    #[test]
    fn unicode_escape_detection() {
        assert!(has_literal_unicode_escape("x = \"\\uDDDD\""));
        assert!(has_literal_unicode_escape("\\U00e9"));
        assert!(!has_literal_unicode_escape("\\u00g9"));
        assert!(!has_literal_unicode_escape("\\u12"));
    }
}
