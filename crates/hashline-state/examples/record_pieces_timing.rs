//! Times recording a big text whole (`record`) and as three line-aligned parts
//! (`record_pieces`, never joined), each into a fresh SQLite store (so its blob is compressed):
//!
//! ```text
//! cargo run --release -p hashline-state --example record_pieces_timing -- [MB] [ROUNDS]
//! ```
//!
//! Defaults: 100 MB of code-like lines, 3 rounds; prints the time of each record.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use hashline_core::Pieces;
use hashline_state::{SnapshotStore, SqliteStore};

/// About `bytes` bytes of code-like lines (some with trailing blanks).
fn code(bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 128);
    let mut i = 0usize;
    while text.len() < bytes {
        i += 1;
        let indent = "    ".repeat(i % 4);
        let trailing = if i.is_multiple_of(7) { "  " } else { "" };
        let _ = writeln!(
            text,
            "{indent}let value_{i} = compute({i}, \"item {}\");{trailing}",
            i % 997
        );
    }
    text
}

/// The time `record` takes in a fresh store under a fresh state directory, and its tag.
fn timed(record: impl FnOnce(&SqliteStore) -> String) -> Result<(Duration, String), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let store = SqliteStore::open(dir.path(), "timing").map_err(|e| e.to_string())?;
    let start = Instant::now();
    let tag = record(&store);
    Ok((start.elapsed(), tag))
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mb: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let text = code(mb * 1_000_000);
    // Three line-aligned parts, cut near the thirds.
    let cut = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let (a, b) = (cut(text.len() / 3), cut(text.len() * 2 / 3));
    let parts = Pieces::new([&text[..a], &text[a..b], &text[b..]]);
    println!(
        "text: {} bytes; parts: {:?}",
        text.len(),
        [a, b - a, text.len() - b]
    );
    for round in 1..=rounds {
        let (whole, tag) = timed(|s| s.record("/big", &text).unwrap_or_default())?;
        let (pieces, tag3) = timed(|s| s.record_pieces("/big", &parts, None).unwrap_or_default())?;
        if tag != tag3 || tag.is_empty() {
            return Err(format!("tags differ or failed: {tag:?} vs {tag3:?}"));
        }
        println!(
            "round {round}: record (whole) {:.1} ms, record_pieces (3 parts) {:.1} ms",
            whole.as_secs_f64() * 1e3,
            pieces.as_secs_f64() * 1e3
        );
    }
    Ok(())
}
