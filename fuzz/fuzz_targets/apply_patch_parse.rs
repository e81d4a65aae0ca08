//! The V4A `apply_patch` parser (`hashline_syntax::apply_patch::parse_patch`) on any bytes
//! (lossy UTF-8).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hashline_fuzz::v4a::check_apply_patch(&hashline_fuzz::text(data));
});
