//! Properties of the hashline engine on generated inputs (in memory, via `apply_to_text`).

use std::collections::BTreeMap;

use hashline_anchor::tag::file_tag;
use hashline_apply::hashline::{apply_to_text, EditOptions};
use hashline_core::ErrorCode;
use hashline_state::{MemoryStore, SnapshotStore};
use proptest::prelude::*;

const OPTS: EditOptions<'static> = EditOptions {
    skip_anchors: false,
    resolver: None,
    dry_run: false,
    guard: hashline_apply::guard::GuardOptions {
        syntax: None,
        allow_syntax_errors: false,
    },
};

fn files_with(text: &str) -> BTreeMap<String, Vec<u8>> {
    let mut m = BTreeMap::new();
    m.insert("f.txt".to_string(), text.as_bytes().to_vec());
    m
}

fn op_line() -> impl Strategy<Value = String> {
    prop_oneof![
        (1u64..12, 0u64..4).prop_map(|(a, d)| format!("replace {a}..{}:", a + d)),
        (1u64..12, 0u64..4).prop_map(|(a, d)| format!("delete {a}..{}", a + d)),
        (1u64..12).prop_map(|a| format!("insert before {a}:")),
        (1u64..12).prop_map(|a| format!("insert after {a}:")),
        Just("insert head:".to_string()),
        Just("insert tail:".to_string()),
        "[+ a-c{}()\\-]{0,6}",
        Just("replace 99999999999999999999..99999999999999999999:".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any patch on any file: an outcome, never a panic; a refusal leaves the file as it was.
    #[test]
    fn never_panics_and_refusals_change_nothing(
        text in "[a-c{}\\n]{0,30}",
        ops in proptest::collection::vec(op_line(), 0..8),
        stale in any::<bool>(),
    ) {
        let tag = if stale { "FFFF".to_string() } else { file_tag(&text) };
        let input = format!("¶f.txt#{tag}\n{}", ops.join("\n"));
        let mut files = files_with(&text);
        let store = MemoryStore::new();
        let out = apply_to_text(&mut files, &store, &input, &OPTS);
        if !out.ok {
            prop_assert_eq!(&files["f.txt"], &text.as_bytes().to_vec());
            prop_assert!(out.code.is_some());
        }
    }

    /// Lines inserted above the read version never shift where a recovered edit lands.
    #[test]
    fn recovery_lands_on_the_same_line(
        lines in proptest::collection::vec("[a-z]{1,3}", 1..10),
        prefix in proptest::collection::vec("[A-Z]{1,3}", 1..4),
        pick in any::<prop::sample::Index>(),
    ) {
        let v = format!("{}\n", lines.join("\n"));
        let live = format!("{}\n{v}", prefix.join("\n"));
        let k = pick.index(lines.len()) + 1;
        // A 16-bit tag collision would make the stale tag look current.
        prop_assume!(file_tag(&v) != file_tag(&live));
        let store = MemoryStore::new();
        store.record("f.txt", &v).expect("record");
        let mut files = files_with(&live);
        let input = format!("¶f.txt#{}\nreplace {k}..{k}:\n+EDITED", file_tag(&v));
        let out = apply_to_text(&mut files, &store, &input, &OPTS);
        let mut want_lines = lines.clone();
        want_lines[k - 1] = "EDITED".to_string();
        let want = format!("{}\n{}\n", prefix.join("\n"), want_lines.join("\n"));
        prop_assert!(out.ok, "{}", out.text);
        prop_assert_eq!(String::from_utf8_lossy(&files["f.txt"]).to_string(), want);
    }

    /// An edit whose target line changed on disk since the read is refused, never re-aimed.
    #[test]
    fn changed_target_is_refused(
        lines in proptest::collection::vec("[a-z]{1,3}", 1..10),
        pick in any::<prop::sample::Index>(),
    ) {
        let v = format!("{}\n", lines.join("\n"));
        let k = pick.index(lines.len()) + 1;
        let mut changed = lines.clone();
        changed[k - 1] = format!("{}-CHANGED", changed[k - 1]);
        let live = format!("{}\n", changed.join("\n"));
        prop_assume!(file_tag(&v) != file_tag(&live));
        let store = MemoryStore::new();
        store.record("f.txt", &v).expect("record");
        let mut files = files_with(&live);
        let input = format!("¶f.txt#{}\nreplace {k}..{k}:\n+EDITED", file_tag(&v));
        let out = apply_to_text(&mut files, &store, &input, &OPTS);
        prop_assert_eq!(out.code, Some(ErrorCode::StaleAnchor));
        prop_assert!(out.text.contains(&format!("*{k}:")), "{}", out.text);
        prop_assert_eq!(&files["f.txt"], &live.as_bytes().to_vec());
    }
}
