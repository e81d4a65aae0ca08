//! `cargo xtask tidy` (also run by `cargo test`): the layering rule, checked from the
//! manifests, the file-system rule ([`crate::tidy_fs`]): library code opens files only
//! through `hashline-fs`, and the dialect rule ([`crate::tidy_dialects`]): a dialect is named
//! only by its modules and the registry.

use std::path::Path;

/// Layer of every workspace crate; a crate may depend only on crates of a lower layer.
const LAYERS: &[(&str, u8)] = &[
    ("hashline-core", 0),
    ("hashline-anchor", 1),
    ("hashline-syntax", 1),
    ("hashline-fs", 1),
    ("hashline-state", 2),
    ("hashline-apply", 3),
    ("hashline-ast", 3),
    ("hashline-queue", 4),
    ("hashline", 5),
];

fn layer(name: &str) -> Option<u8> {
    LAYERS.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
}

/// Check every `crates/*/Cargo.toml`.
pub fn run() -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut problems = Vec::new();
    let dir = std::fs::read_dir(root.join("crates")).map_err(|e| format!("crates/: {e}"))?;
    for entry in dir.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let Ok(manifest) = std::fs::read_to_string(entry.path().join("Cargo.toml")) else {
            continue;
        };
        let Some(own) = layer(&name) else {
            problems.push(format!(
                "{name}: not in xtask's layer table (src/tidy.rs) nor docs/ARCHITECTURE.md"
            ));
            continue;
        };
        for dep in internal_deps(&manifest) {
            match layer(&dep) {
                Some(l) if l < own => {}
                Some(l) => {
                    problems.push(format!("{name} (layer {own}) depends on {dep} (layer {l})"))
                }
                None => problems.push(format!("{name} depends on unknown internal crate {dep}")),
            }
        }
    }
    problems.extend(crate::tidy_fs::problems(&root));
    problems.extend(crate::tidy_dialects::problems(&root));
    if problems.is_empty() {
        println!(
            "tidy: layering ok ({} crates); no std::fs outside hashline-fs but {} allowed places; \
             {} dialect(s) named only by their modules and the registry",
            LAYERS.len(),
            crate::tidy_fs::ALLOWED.len(),
            crate::tidy_dialects::CONFINED.len()
        );
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// Names of `hashline*` crates in the `[dependencies]` table (dev-dependencies may go anywhere
/// lower or equal only through the same rule, so they are checked too, build-deps ignored).
fn internal_deps(manifest: &str) -> Vec<String> {
    let mut in_deps = false;
    let mut out = Vec::new();
    for line in manifest.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            in_deps = t == "[dependencies]" || t == "[dev-dependencies]";
            continue;
        }
        if !in_deps {
            continue;
        }
        let key = t.split(['=', '.', ' ']).next().unwrap_or("");
        if key == "hashline" || key.starts_with("hashline-") {
            out.push(key.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::internal_deps;

    /// `cargo test` keeps the workspace tidy: a crate of a lower layer depending on a higher
    /// one, or library code opening files past `hashline-fs`, fails the test run.
    #[test]
    fn workspace_is_tidy() {
        if let Err(problems) = super::run() {
            panic!("cargo xtask tidy:\n{problems}");
        }
    }

    #[test]
    fn finds_internal_deps() {
        let m = "[package]\nname = \"x\"\n[dependencies]\nhashline-core.workspace = true\nserde = \"1\"\nhashline-state = { workspace = true }\n[features]\nhashline-fake = []\n";
        assert_eq!(internal_deps(m), ["hashline-core", "hashline-state"]);
    }
}
