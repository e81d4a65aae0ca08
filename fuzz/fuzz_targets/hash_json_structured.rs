//! The hash-json request parser on syntactically valid JSON built from the dialect's vocabulary.
#![no_main]

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok(request) = hashline_fuzz::gen::request(&mut u, &hashline_fuzz::gen::HASH_JSON) {
        hashline_fuzz::json::check_hash_json(&request);
    }
});
