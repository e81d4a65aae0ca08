//! Shared helpers of the facade's integration tests.
#![allow(dead_code)]

pub mod agent;
pub mod cli;
pub mod corpus;
#[cfg(unix)]
pub mod forge;
pub mod mcp;
pub mod node;
pub mod python;
pub mod sandbox;
#[path = "../../../../tests-support/shared.rs"]
pub mod shared;
pub mod tree;
