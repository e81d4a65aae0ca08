//! Request shape of the hash-anchored JSON edit dialect (seed 001).
