//! The whole-file snapshot tag of the hashline language (seed 000).
