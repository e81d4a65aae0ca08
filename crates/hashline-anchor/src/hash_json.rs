//! Line hashes of the hash-json dialect (seed 001).
