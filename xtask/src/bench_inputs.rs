//! Deterministic inputs of `cargo xtask bench`, and where they (and the baselines) live: a
//! cache outside the repository (`$HASHLINE_BENCH_CACHE`, else `~/.cache/hashline-bench`).

use std::fmt::Write as _;
use std::path::PathBuf;

/// The cache of inputs and installed baselines.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("HASHLINE_BENCH_CACHE") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    home.join("hashline-bench")
}

/// Code-like text of about `bytes` bytes (≈ 60 bytes a line: a 100 MB file has ≈ 1.7 M lines),
/// the same on every machine.
pub fn code_like(bytes: usize) -> String {
    const WORDS: [&str; 10] = [
        "value", "item", "count", "result", "buffer", "index", "total", "offset", "length", "state",
    ];
    let mut text = String::with_capacity(bytes + 128);
    let mut i = 0usize;
    while text.len() < bytes {
        i += 1;
        let word = WORDS[i % WORDS.len()];
        let indent = "    ".repeat(i % 4);
        let _ = writeln!(
            text,
            "{indent}let {word}_{i} = compute({i}, \"{word} {}\"); // step {}",
            i % 997,
            i % 61
        );
    }
    text
}

/// `lines` lines of TypeScript-like code (≈ 38 bytes a line).
pub fn ts_lines(lines: usize) -> String {
    let mut text = String::with_capacity(lines * 40);
    for i in 1..=lines {
        text.push_str(&ts_line(i));
        text.push('\n');
    }
    text
}

/// Line `i` (1-based) of [`ts_lines`], without its newline.
pub fn ts_line(i: usize) -> String {
    format!("export const v{i} = f({i}, \"k{}\");", i % 97)
}

/// One hunk of the 1,000-hunk edit: the line replaced (1-based) and its new text.
pub struct Hunk {
    /// The line replaced.
    pub line: usize,
    /// Its new text.
    pub text: String,
}

/// `count` one-line replacements spread evenly over a file of `lines` lines.
pub fn hunks(lines: usize, count: usize) -> Vec<Hunk> {
    let step = (lines / count.max(1)).max(1);
    (0..count)
        .map(|k| k * step + step / 2 + 1)
        .filter(|&line| line <= lines)
        .map(|line| Hunk {
            line,
            text: format!("export const v{line} = f({line}, \"edited\");"),
        })
        .collect()
}

/// The hunks as a hashline patch on `path` tagged `tag`.
pub fn hashline_patch(path: &str, tag: &str, hunks: &[Hunk]) -> String {
    let mut patch = format!("¶{path}#{tag}\n");
    for h in hunks {
        let _ = write!(patch, "replace {0}..{0}:\n+{1}\n", h.line, h.text);
    }
    patch
}

/// The same hunks in the `[PATH#TAG]` form of `@oh-my-pi/hashline` 18 (`PUT A.=B:`).
pub fn peer_patch(path: &str, tag: &str, hunks: &[Hunk]) -> String {
    let mut patch = format!("[{path}#{tag}]\n");
    for h in hunks {
        let _ = write!(patch, "PUT {0}.={0}:\n+{1}\n", h.line, h.text);
    }
    patch
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_deterministic_and_sized() {
        let text = code_like(1 << 20);
        assert!(text.len() >= 1 << 20 && text.len() < (1 << 20) + 200);
        assert_eq!(text, code_like(1 << 20));
        let h = hunks(100_000, 1_000);
        assert_eq!(h.len(), 1_000);
        assert!(h.windows(2).all(|w| w[0].line < w[1].line));
        let p = hashline_patch("f.ts", "ABCD", &h[..1]);
        assert_eq!(p, format!("¶f.ts#ABCD\nreplace 51..51:\n+{}\n", h[0].text));
        assert!(peer_patch("f.ts", "ABCD", &h[..1]).starts_with("[f.ts#ABCD]\nPUT 51.=51:\n+"));
    }
}
