//! The facade's integration tests that need nothing but the binary and a temp dir, in one
//! test binary (one link instead of one per file). Suites with their own entry point stay
//! beside this folder: the conformance corpora, golden, mistakes, real edits, crash safety,
//! the grammar decoders, MCP memory and the agent-session example.

#[path = "../support/mod.rs"]
mod support;

mod apply_patch_paths;
mod apply_patch_stale;
mod ast_edit_cli;
mod ast_edit_dts;
mod ast_edit_hard_links;
mod ast_edit_memory;
mod bounded_work;
mod chained_edits;
mod concurrent_edits;
mod docs_commands;
mod everyday_cli;
mod hash_json_files;
mod hostile_files;
mod hostile_tree;
mod inode_lock_files;
mod json_schema;
mod lineid_rename;
mod mcp_anchors;
mod mcp_ast_bound;
mod mcp_cancel;
mod mcp_edit_replies;
mod mcp_fixes;
mod mcp_node;
mod mcp_protocol;
mod mcp_python;
mod mcp_rmcp;
mod misleading_answers;
mod name_round_trip;
mod no_spare_thread;
mod non_utf8_files;
mod outside_change;
mod path_names;
mod plain_pieces;
mod read_only_files;
mod read_only_state;
mod read_pages;
mod reported_tags;
mod rollback_conflict;
mod session_memory;
mod setup_clients;
mod state_cli;
mod state_corrupt;
mod state_inside_root;
mod state_trust;
mod symlink_names;
mod syntax_guard;
mod undo;
mod undo_ids_per_call;
mod undo_unrecorded;
