//! The dialect rule of `cargo xtask tidy`: a dialect that went through the registry is named
//! only by its own modules and by the registry line that lists it, so adding a dialect is a
//! new module plus one line in `crates/hashline-apply/src/registry.rs`. Everything else (the
//! CLI's value lists and help, the MCP schemas and descriptions, `auto` detection, `grammar`)
//! reads the registry. Tests, docs and the seeds' texts may name any dialect: test code (a
//! `#[cfg(test)]` module, inline or in its own file, or a `*tests.rs` file) is skipped, and so are [`ALLOWED`] places.

use std::path::Path;

/// A dialect the rule holds for: its CLI name and every spelling of it in code.
pub struct Confined {
    /// The `--dialect` value.
    pub name: &'static str,
    /// The spellings that name it (the value, the module, the type).
    pub spellings: &'static [&'static str],
    /// Its own modules, as path prefixes from the workspace root.
    pub homes: &'static [&'static str],
}

/// The dialects moved through the registry so far (the others still have a few names in the
/// facade and in the engine's shared code; see issue 25).
pub const CONFINED: &[Confined] = &[
    Confined {
        name: "apply-patch",
        spellings: &["apply-patch", "apply_patch", "ApplyPatch"],
        homes: &[
            "crates/hashline-apply/src/apply_patch/",
            "crates/hashline-syntax/src/apply_patch/",
        ],
    },
    Confined {
        name: "str-replace",
        spellings: &["str-replace", "str_replace", "StrReplace"],
        homes: &[
            "crates/hashline-apply/src/str_replace/",
            "crates/hashline-syntax/src/str_replace/",
        ],
    },
];

/// The registry: one line per dialect.
pub const REGISTRY: &str = "crates/hashline-apply/src/registry.rs";

/// Places that may name any dialect, as path prefixes from the workspace root, each with why.
pub const ALLOWED: &[(&str, &str)] = &[
    (
        "crates/hashline-syntax/src/hashline/messages.rs",
        "seed 000's texts, which name the V4A format as the model wrote it",
    ),
    (
        "xtask/src/bench_stale.rs",
        "the benchmark measures each dialect by name, as a test does",
    ),
    (
        "xtask/src/bench_linear.rs",
        "the doubling series measures apply-patch's context search and commits by name",
    ),
    (
        "xtask/src/tidy_dialects.rs",
        "this rule's own list of the dialects it confines",
    ),
    (
        "xtask/src/main.rs",
        "the list of conformance test targets, one per dialect",
    ),
];

/// Every line of library code naming a [`CONFINED`] dialect outside its homes, the registry
/// and [`ALLOWED`].
pub fn problems(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    if let Ok(crates) = std::fs::read_dir(root.join("crates")) {
        for entry in crates.flatten() {
            crate::tidy_fs::collect(&entry.path().join("src"), &mut files);
        }
    }
    crate::tidy_fs::collect(&root.join("xtask/src"), &mut files);
    files.sort();
    let test_only = crate::tidy_fs::test_modules(&files);
    let mut out = Vec::new();
    for file in &files {
        let test_file = file
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n == "tests.rs" || n.ends_with("_tests.rs"));
        if test_only.contains(file) || test_file {
            continue;
        }
        let rel = file.strip_prefix(root).unwrap_or(file);
        let rel = rel.to_string_lossy().replace('\\', "/");
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        out.extend(problems_in(&rel, &text));
    }
    out
}

/// The lines of `text` (the file `rel`) before its first `#[cfg(test)]` that name a
/// [`CONFINED`] dialect where it may not be named. A module's declaration (`pub mod
/// apply_patch;`) is part of adding the module.
pub fn problems_in(rel: &str, text: &str) -> Vec<String> {
    if rel == REGISTRY || ALLOWED.iter().any(|(p, _)| rel.starts_with(p)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for dialect in CONFINED {
        if dialect.homes.iter().any(|h| rel.starts_with(h)) {
            continue;
        }
        for (i, line) in text.lines().enumerate() {
            let code = line.trim();
            if code.starts_with("#[cfg(test)]") {
                break;
            }
            let declaration = code.strip_prefix("pub ").unwrap_or(code);
            if dialect
                .spellings
                .iter()
                .any(|s| declaration == format!("mod {s};"))
            {
                continue;
            }
            if dialect.spellings.iter().any(|s| line.contains(s)) {
                out.push(format!(
                    "{rel}:{}: names the dialect {} outside its module and the registry (read it \
                     from hashline_apply::registry, or add the place to \
                     xtask/src/tidy_dialects.rs ALLOWED with a reason): {code}",
                    i + 1,
                    dialect.name,
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::problems_in;

    #[test]
    fn a_name_outside_the_module_and_the_registry_is_a_problem() {
        let text = "//! Reads the V4A format.\nfn f() { let _ = \"apply-patch\"; }\n";
        let found = problems_in("crates/hashline/src/mcp/tools.rs", text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("crates/hashline/src/mcp/tools.rs:2:"));
        let comment = "/// what ApplyPatch does\n";
        assert_eq!(
            problems_in("crates/hashline-core/src/code.rs", comment).len(),
            1
        );
    }

    #[test]
    fn its_module_the_registry_declarations_and_tests_are_not() {
        let line = "    &crate::apply_patch::DIALECT,\n";
        assert!(problems_in("crates/hashline-apply/src/registry.rs", line).is_empty());
        assert!(problems_in("crates/hashline-apply/src/apply_patch/mod.rs", line).is_empty());
        assert!(
            problems_in("crates/hashline-apply/src/lib.rs", "pub mod apply_patch;\n").is_empty()
        );
        let test = "fn f() {}\n#[cfg(test)]\nmod tests { const D: &str = \"apply-patch\"; }\n";
        assert!(problems_in("crates/hashline/src/session.rs", test).is_empty());
    }
}
