//! Applies hashline patches and JSON-dialect edits: anchor resolution, stale-tag recovery, diffs, and the all-or-nothing file writer.
