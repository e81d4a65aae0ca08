//! The hashline engine end to end on in-memory files: (flags, file, snapshots, patch) → an
//! outcome, never a panic; refusals, dry runs and no-ops leave every file byte-identical.
//! Input layout: `hashline_fuzz::apply` (module doc).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hashline_fuzz::apply::check(data);
});
