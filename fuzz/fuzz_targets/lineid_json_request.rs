//! The lineid-json request parser (`parse_request`, then `parse_ref` on every anchor) on any
//! bytes (lossy UTF-8).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hashline_fuzz::json::check_lineid_json(&hashline_fuzz::text(data));
});
