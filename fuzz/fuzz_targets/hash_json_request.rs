//! The hash-json request parser (`parse_envelope`, `parse_items`) on any bytes (lossy UTF-8).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hashline_fuzz::json::check_hash_json(&hashline_fuzz::text(data));
});
