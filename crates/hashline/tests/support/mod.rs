//! Shared helpers of the facade's integration tests.
#![allow(dead_code)]

pub mod cli;
pub mod corpus;
pub mod mcp;
pub mod python;
pub mod sandbox;
pub mod tree;
