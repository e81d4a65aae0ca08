//! The hashline facade: a curated library API and the hashline command line.
