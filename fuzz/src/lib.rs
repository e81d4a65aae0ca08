//! Shared checks of the fuzz targets in `fuzz_targets/`. Each `check_*` function takes the raw
//! fuzzer input, drives one public entry point of the hashline crates and panics (a libFuzzer
//! crash) only when a call panics or returns something inconsistent.

pub mod anchors;
pub mod apply;
pub mod gen;
pub mod json;
pub mod patch;
pub mod v4a;

/// The fuzzer input as text: valid UTF-8 as is, anything else with U+FFFD replacements.
pub fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Whether `HASHLINE_FUZZ_TRACE` is set: targets then print what they ran (for reproducing a
/// crash or checking seeds: `target/.../hashline_apply corpus/hashline_apply -runs=0`).
pub fn trace() -> bool {
    static TRACE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TRACE.get_or_init(|| std::env::var_os("HASHLINE_FUZZ_TRACE").is_some())
}
