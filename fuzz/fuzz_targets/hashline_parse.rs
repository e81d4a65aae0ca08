//! The hashline patch language parser (`split_sections`, `parse_body`): any bytes (lossy UTF-8)
//! never panic; every diagnostic span lies inside the parsed text on char boundaries.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hashline_fuzz::patch::check(&hashline_fuzz::text(data));
});
