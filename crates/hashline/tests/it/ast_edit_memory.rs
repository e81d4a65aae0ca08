//! ast-edit's memory per match (issue 28 §6): a preview of a file with a match on every line
//! holds the search's parse of the file once. Before, the syntax check copied the whole tree
//! (editing a tree the outcome still shared) and built a nearly whole new one beside both:
//! about 6 KB of peak memory a match; now about 3 KB, tree-sitter's one parse of the line
//! (hashline's own data is a few hundred bytes a match). Peak RSS is read with
//! `/usr/bin/time -v`, which load does not change.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::support::sandbox::Sandbox;

/// Peak RSS (KiB) of an ast-edit preview of `matches` matches, one a line.
fn peak_rss(matches: usize) -> u64 {
    let sb = Sandbox::new();
    let source: String = (0..matches)
        .map(|i| format!("let x{i} = foo({i}, void 0);\n"))
        .collect();
    sb.put("a.js", source.as_bytes());
    let out = Command::new("/usr/bin/time")
        .arg("-v")
        .arg(env!("CARGO_BIN_EXE_hashline"))
        .arg("--root")
        .arg(&sb.root)
        .arg("--state")
        .arg(&sb.state)
        .args([&crate::support::cli::VOID_0[..], &["a.js"]].concat())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .output()
        .expect("/usr/bin/time -v runs (Debian's `time` package)");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    err.lines()
        .find(|l| l.contains("Maximum resident set size"))
        .and_then(|l| l.rsplit(':').next())
        .and_then(|v| v.trim().parse().ok())
        .expect("a peak RSS line")
}

#[test]
fn a_match_costs_one_parse_of_its_line_not_three() {
    assert!(
        Path::new("/usr/bin/time").exists(),
        "/usr/bin/time is needed"
    );
    let (small, large) = (5_000usize, 25_000usize);
    let (a, b) = (peak_rss(small), peak_rss(large));
    let per_match = b.saturating_sub(a) as f64 * 1024.0 / (large - small) as f64;
    // Before: 6.0 KB a match (release build), now 3.0 KB; the limit sits between.
    assert!(
        per_match < 4_500.0,
        "{per_match:.0} bytes of peak RSS a match ({a} KiB at {small}, {b} KiB at {large})"
    );
}
