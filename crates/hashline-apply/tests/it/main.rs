//! The engine's integration tests without a corpus entry point of their own, in one test
//! binary (one link instead of one per file). The conformance suites that `cargo xtask
//! conformance` runs by name stay beside this folder.

#[path = "../../../../tests-support/shared.rs"]
mod shared;

mod hash_json_edit;
mod hash_json_read_workspace;
mod hashline_engine;
mod hashline_mutated_corpus;
mod hashline_proptest;
mod lineid_autocorrect;
mod lineid_engine;
mod lineid_proptest;
