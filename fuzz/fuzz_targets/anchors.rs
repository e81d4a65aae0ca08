//! Anchor parsing and the pure anchor functions (tags, line hashes, line IDs, read rendering)
//! on any bytes (lossy UTF-8).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hashline_fuzz::anchors::check(&hashline_fuzz::text(data));
});
