//! The grammars `hashline grammar` prints, checked with real constrained decoders:
//!
//! * the Lark grammar is compiled by llguidance (its Lark front end, over a byte-level
//!   tokenizer) and must accept the canonical form of every patch of the golden fixtures and of
//!   the hashline conformance corpus that the parser accepts, paths with spaces, `#` and
//!   Unicode, and must reject a set of malformed patches; texts sampled from it must parse to
//!   the same patch;
//! * the JSON Schemas are compiled by llguidance's JSON-schema front end and must accept every
//!   request the engine carries out in the hash-json and lineid-json corpora and fixtures, and
//!   reject the malformed ones;
//! * the GBNF grammar is read and run by llama.cpp's grammar engine (its Rust port,
//!   `schoolmarm`) against the same patches, and must accept every text sampled from the Lark
//!   grammar;
//! * `grammar_python` loads the Lark grammar with Python's `lark` and the GBNF with
//!   llguidance's own GBNF front end (needs `pip`; skipped visibly without it).

mod support;

#[path = "grammar_decoders/corpus.rs"]
mod corpus;
#[path = "grammar_decoders/decoder.rs"]
mod decoder;
#[path = "grammar_decoders/patches.rs"]
mod patches;

use decoder::{Decoder, Gbnf, Rng};
use hashline::grammar::{grammar, GrammarFormat};
use hashline::Dialect;

fn lark() -> Decoder {
    let text = grammar(Dialect::Hashline, GrammarFormat::Lark).expect("a Lark grammar");
    Decoder::lark(&text).unwrap_or_else(|e| panic!("llguidance refuses the Lark grammar: {e}"))
}

fn gbnf() -> Gbnf {
    let text = grammar(Dialect::Hashline, GrammarFormat::Gbnf).expect("a GBNF grammar");
    Gbnf::new(&text).unwrap_or_else(|e| panic!("the GBNF reader refuses the grammar: {e}"))
}

#[test]
fn lark_accepts_the_canonical_form_of_every_patch_the_parser_accepts() {
    let lark = lark();
    patches::assert_corpus("lark", &|text| lark.accepts(text.as_bytes()));
}

#[test]
fn lark_expresses_paths_with_spaces_hash_quotes_and_unicode() {
    let lark = lark();
    patches::assert_paths("lark", &|text| lark.accepts(text.as_bytes()));
}

#[test]
fn lark_rejects_malformed_patches() {
    let lark = lark();
    patches::assert_malformed("lark", &|text| lark.accepts(text.as_bytes()));
}

#[test]
fn gbnf_accepts_canonical_patches_and_paths_and_rejects_malformed_ones() {
    let gbnf = gbnf();
    patches::assert_corpus("gbnf", &|text| gbnf.accepts(text));
    patches::assert_paths("gbnf", &|text| gbnf.accepts(text));
    patches::assert_malformed("gbnf", &|text| gbnf.accepts(text));
}

/// The Lark grammar writes only what the parser reads back as written, and the GBNF grammar
/// allows every such text too (the two describe one language).
#[test]
fn texts_sampled_from_the_lark_grammar_parse_to_the_same_patch_and_pass_the_gbnf() {
    let lark = lark();
    let gbnf = gbnf();
    let mut rng = Rng::new(0x6a72_616d);
    let endings = |rng: &mut Rng| {
        let hex = b"0123456789ABCDEF";
        let mut tagged = vec![b'#'];
        tagged.extend((0..4).map(|_| hex[rng.below(16)]));
        tagged.push(b'\n');
        vec![b"\n".to_vec(), tagged]
    };
    let (mut sampled, mut failures) = (0, Vec::new());
    for _ in 0..400 {
        let Some(bytes) = lark.sample(&mut rng, 0.3, &endings, 4_000) else {
            continue;
        };
        sampled += 1;
        let text = String::from_utf8(bytes).expect("the grammar allows UTF-8 only");
        if let Err(e) = patches::reparses_to_itself(&text) {
            failures.push(format!("{text:?}: {e}"));
        }
        if !gbnf.accepts(&text) {
            failures.push(format!("{text:?}: the GBNF grammar rejects it"));
        }
    }
    println!(
        "lark: {sampled} sampled patches, {} failures (reparse to themselves, GBNF accepts)",
        failures.len()
    );
    assert!(
        sampled >= 200,
        "only {sampled} samples ended within 4,000 bytes"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The requests of `inputs` against `dialect`'s JSON Schema: every request the engine carries
/// out must validate, except `lenient` ones (accepted by the engine's leniency, not by the
/// strict shape the schema gives a decoder); every request refused with one of `shape_codes`
/// (or named in `malformed`) must not, except `beyond` ones (refused by a rule no schema
/// states: an anchor range out of order, options that exclude each other). Cases are named by
/// their number. Returns the counts line.
fn check_schema(
    dialect: Dialect,
    inputs: &[corpus::Input],
    lenient: &[&str],
    shape_codes: &[&str],
    malformed: &[&str],
    beyond: &[&str],
) -> String {
    let schema = grammar(dialect, GrammarFormat::JsonSchema).expect("a JSON Schema");
    let schema: serde_json::Value = serde_json::from_str(&schema).expect("the schema is JSON");
    let decoder = Decoder::json_schema(schema)
        .unwrap_or_else(|e| panic!("llguidance refuses the {dialect:?} schema: {e}"));
    let mut failures = Vec::new();
    let (mut accepted, mut valid, mut shape, mut shape_rejected, mut other_refused) =
        (0, 0, 0, 0, 0);
    for input in inputs {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(&input.text) else {
            continue;
        };
        let compact = serde_json::to_string(&value).expect("a JSON value serializes");
        let validates = decoder.accepts(compact.as_bytes());
        let case = input.name.rsplit(['/', ' ']).next().unwrap_or_default();
        let is_lenient = lenient.iter().any(|l| case.starts_with(l));
        let is_malformed = (malformed.iter().any(|m| case.starts_with(m))
            || input
                .code
                .as_deref()
                .is_some_and(|c| shape_codes.contains(&c)))
            && !beyond.iter().any(|b| case.starts_with(b));
        match input.accepted {
            Some(true) => {
                accepted += 1;
                valid += usize::from(validates);
                if validates == is_lenient {
                    failures.push(format!(
                        "{}: accepted by the engine, {} by the schema{}: {compact}",
                        input.name,
                        if validates { "valid" } else { "invalid" },
                        if is_lenient {
                            " (listed as lenient)"
                        } else {
                            ""
                        }
                    ));
                }
            }
            _ if is_malformed => {
                shape += 1;
                shape_rejected += usize::from(!validates);
                if validates {
                    failures.push(format!(
                        "{}: malformed, but the schema validates it: {compact}",
                        input.name
                    ));
                }
            }
            _ => other_refused += 1,
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    format!(
        "{dialect:?}: {} requests; engine accepts {accepted}, schema validates {valid} ({} lenient, \
         invalid on purpose); malformed {shape}, schema rejects {shape_rejected}; {other_refused} \
         other refusals (stale anchors, missing files…) not judged",
        inputs.len(),
        accepted - valid
    )
}

#[test]
fn hash_json_schema_accepts_strict_requests_and_rejects_malformed_ones() {
    let mut inputs = corpus::hash_json_cases();
    if inputs.is_empty() {
        return; // no `../shared`: skipped, and said so
    }
    inputs.extend(corpus::fixture_inputs(Dialect::HashJson));
    // 091: `pos: ""` means the end; 092: white space around anchors trimmed; 106: `edits` as
    // a JSON string, parsed. 047, 066: a range whose start hash is after its end; 101:
    // `returnRanges` without `returnMode: "ranges"`.
    let report = check_schema(
        Dialect::HashJson,
        &inputs,
        &["091", "092", "106"],
        &["E_BAD_SHAPE", "E_LEGACY_SHAPE", "E_BAD_OP"],
        &[],
        &["047", "066", "101"],
    );
    println!("{report}");
}

#[test]
fn lineid_json_schema_accepts_strict_requests_and_rejects_malformed_ones() {
    let mut inputs = corpus::lineid_cases();
    if inputs.is_empty() {
        return; // no `../shared`: skipped, and said so
    }
    inputs.extend(corpus::fixture_inputs(Dialect::LineidJson));
    // 068: `LINE2#XH` (the reference dug out of text); 070: `-2#XH` (a diff marker dropped);
    // 073: `end` for an append's anchor; 074: a prepend with `end` beside `pos`; 075: a blank
    // `pos`; 095: ` 1 # NJ ` (white space dropped). 061: `42`; 063: `1#zm`; 065:
    // `LINE#RM`; 077: no `lines`; 078: `type`/`line`/`text` keys; 084, 085: an insert of
    // nothing.
    let report = check_schema(
        Dialect::LineidJson,
        &inputs,
        &["068", "070", "073", "074", "075", "095"],
        &[],
        &["061", "063", "065", "077", "078", "084", "085"],
        &[],
    );
    println!("{report}");
}
