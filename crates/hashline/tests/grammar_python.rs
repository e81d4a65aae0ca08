//! The grammars of `hashline grammar` through Python's readers, in a virtual environment outside
//! the repository (`$HASHLINE_PY_GRAMMAR_VENV`, default `$HOME/.cache/hashline-py-grammar`),
//! created and filled with `pip install lark==1.3.1 llguidance==1.9.1` when needed:
//!
//! * Python's `lark` loads the Lark grammar and must parse the canonical form of every patch of
//!   the corpus (`grammar_decoders`' inputs) and the patches naming hard file names, and reject
//!   every malformed patch;
//! * llguidance's GBNF front end (its Python `gbnf_to_lark`, what `grammar_from("gbnf", …)`
//!   runs) reads the GBNF grammar; the Lark it produces is compiled by the llguidance crate and
//!   checked against the same patches.
//!
//! When Python or the packages cannot be had (no `python3`, no network) the test says so on
//! the terminal and passes: skipped visibly, never silently.

mod support;

#[allow(dead_code)] // shared with grammar_decoders, which uses all of it
#[path = "grammar_decoders/corpus.rs"]
mod corpus;
#[allow(dead_code)] // shared with grammar_decoders, which uses all of it
#[path = "grammar_decoders/decoder.rs"]
mod decoder;
#[allow(dead_code)] // shared with grammar_decoders, which uses all of it
#[path = "grammar_decoders/patches.rs"]
mod patches;

use std::path::Path;
use std::process::Command;

use decoder::Decoder;
use hashline::grammar::{grammar, GrammarFormat};
use hashline::Dialect;
use support::python::{python_with, skip, venv_dir};

#[test]
fn python_lark_and_llguidance_gbnf_read_the_grammars() {
    let venv = venv_dir("HASHLINE_PY_GRAMMAR_VENV", "hashline-py-grammar");
    let python = match python_with(
        &venv,
        "lark, llguidance.gbnf_to_lark",
        &["lark==1.3.1", "llguidance==1.9.1"],
    ) {
        Ok(python) => python,
        Err(reason) => {
            return skip(
                "grammar_python",
                "Python with `lark` and `llguidance`",
                &reason,
            )
        }
    };
    // The patches: what the parser accepts, in canonical form, and what it refuses for its
    // syntax (the Rust decoders judge the same sets in `grammar_decoders`).
    let report = patches::check_corpus(&|_| false);
    if report.cases == 0 {
        return; // no `../shared`: skipped, and said so
    }
    let mut accept = report.canonical.clone();
    accept.extend(patches::PATHS.iter().filter_map(|p| patches::path_patch(p)));
    let mut reject = report.refused_texts.clone();
    reject.extend(patches::MALFORMED.iter().map(|(_, text)| text.to_string()));
    assert!(accept.len() > 100 && reject.len() > 40);

    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write an input of the script");
        path
    };
    let lark = file(
        "hashline.lark",
        &grammar(Dialect::Hashline, GrammarFormat::Lark).expect("a Lark grammar"),
    );
    let gbnf = file(
        "hashline.gbnf",
        &grammar(Dialect::Hashline, GrammarFormat::Gbnf).expect("a GBNF grammar"),
    );
    let cases = file(
        "cases.json",
        &serde_json::json!({"accept": accept, "reject": reject}).to_string(),
    );
    let converted = dir.path().join("from-gbnf.lark");
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grammar_decoders/python_check.py");
    let out = Command::new(&python)
        .arg(&script)
        .args([&lark, &gbnf, &cases, &converted])
        .output()
        .expect("run python_check.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "python_check.py failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let converted = std::fs::read_to_string(&converted).expect("the Lark made from the GBNF");
    let decoder = Decoder::lark(&converted)
        .unwrap_or_else(|e| panic!("llguidance refuses the Lark made from the GBNF: {e}"));
    let accepts = |text: &str| decoder.accepts(text.as_bytes());
    patches::assert_corpus("llguidance gbnf", &accepts);
    patches::assert_paths("llguidance gbnf", &accepts);
    patches::assert_malformed("llguidance gbnf", &accepts);
}
