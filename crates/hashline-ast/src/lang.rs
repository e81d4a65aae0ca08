//! The language catalog: canonical names, the aliases an explicit `lang` may use, the file
//! extensions and file names a language is inferred from, and which grammars are compiled in.
//!
//! Aliases and extensions follow the seed's `pi-ast` catalog (see `ast-edit.md` §12 and
//! `hashline.md` §(d)), restricted to the grammars ast-grep-language 0.51.1 ships. Extension
//! matching is case-sensitive, the first language in catalog order wins. A grammar whose Cargo
//! feature is off stays in the catalog (so messages can name it) but is never handed to ast-grep:
//! ast-grep would still return it from `SupportLang::from_path` and then panic on parse.

use std::path::Path;

use ast_grep_language::SupportLang;

/// One language of the catalog.
#[derive(Debug, Clone, Copy)]
pub struct LangSpec {
    /// Canonical lower-case name (`typescript`, `cpp`, …): what messages print.
    pub name: &'static str,
    /// The ast-grep language.
    pub lang: SupportLang,
    /// Names accepted for an explicit `lang` (matched after trimming and lower-casing).
    pub aliases: &'static [&'static str],
    /// File extensions (without the dot, case-sensitive) the language is inferred from.
    pub extensions: &'static [&'static str],
    /// Whole file names (with or without a leading dot) the language is inferred from.
    pub file_names: &'static [&'static str],
    /// Whether this build compiled the grammar in.
    pub enabled: bool,
}

/// Shell rc files without an extension that the seed maps to Bash.
const BASH_FILE_NAMES: &[&str] = &[
    "zshrc",
    "zshenv",
    "zprofile",
    "zlogin",
    "zlogout",
    "zsh_aliases",
    "bashrc",
    "bash_profile",
    "bash_login",
    "bash_logout",
    "bash_aliases",
    "profile",
    "kshrc",
    "mkshrc",
    "shrc",
];

macro_rules! spec {
    ($name:literal, $lang:ident, $feature:literal, [$($alias:literal),*], [$($ext:literal),*]) => {
        spec!($name, $lang, $feature, [$($alias),*], [$($ext),*], &[])
    };
    ($name:literal, $lang:ident, $feature:literal, [$($alias:literal),*], [$($ext:literal),*], $files:expr) => {
        LangSpec {
            name: $name,
            lang: SupportLang::$lang,
            aliases: &[$($alias),*],
            extensions: &[$($ext),*],
            file_names: $files,
            enabled: cfg!(feature = $feature),
        }
    };
}

/// Every language ast-grep-language ships, in its `all_langs()` order (which decides extension
/// ties), with this build's `enabled` flag.
pub const CATALOG: &[LangSpec] = &[
    spec!(
        "bash",
        Bash,
        "lang-bash",
        ["bash", "sh", "zsh", "ksh", "bats"],
        ["bash", "bats", "cgi", "command", "env", "fcgi", "ksh", "sh", "tmux", "tool", "zsh"],
        BASH_FILE_NAMES
    ),
    spec!("c", C, "lang-c", ["c", "h"], ["c", "h"]),
    spec!(
        "cpp",
        Cpp,
        "lang-cpp",
        ["cpp", "c++", "cc", "cxx", "hh", "hpp", "cu", "cuh", "ino"],
        ["cc", "hpp", "cpp", "c++", "hh", "cxx", "cu", "cuh", "ino"]
    ),
    spec!(
        "csharp",
        CSharp,
        "lang-csharp",
        ["csharp", "c#", "cs"],
        ["cs"]
    ),
    spec!("css", Css, "lang-css", ["css"], ["css", "scss"]),
    spec!("dart", Dart, "lang-dart", ["dart"], ["dart"]),
    spec!(
        "elixir",
        Elixir,
        "lang-elixir",
        ["elixir", "ex", "exs"],
        ["ex", "exs"]
    ),
    spec!("go", Go, "lang-go", ["go", "golang"], ["go"]),
    spec!(
        "haskell",
        Haskell,
        "lang-haskell",
        ["haskell", "hs"],
        ["hs"]
    ),
    spec!(
        "hcl",
        Hcl,
        "lang-hcl",
        ["hcl", "tf", "tfvars", "terraform"],
        ["hcl", "tf", "tfvars"]
    ),
    spec!(
        "html",
        Html,
        "lang-html",
        ["html", "htm", "xhtml"],
        ["html", "htm", "xhtml"]
    ),
    spec!("java", Java, "lang-java", ["java"], ["java"]),
    spec!(
        "javascript",
        JavaScript,
        "lang-javascript",
        ["javascript", "js", "jsx", "mjs", "cjs"],
        ["cjs", "js", "mjs", "jsx"]
    ),
    spec!("json", Json, "lang-json", ["json"], ["json"]),
    spec!(
        "kotlin",
        Kotlin,
        "lang-kotlin",
        ["kotlin", "kt", "kts", "ktm"],
        ["kt", "ktm", "kts"]
    ),
    spec!("lua", Lua, "lang-lua", ["lua"], ["lua"]),
    spec!(
        "markdown",
        Markdown,
        "lang-markdown",
        ["markdown", "md", "mdx"],
        ["md", "markdown", "mdx"]
    ),
    spec!("nix", Nix, "lang-nix", ["nix"], ["nix"]),
    spec!("php", Php, "lang-php", ["php"], ["php"]),
    spec!(
        "python",
        Python,
        "lang-python",
        ["python", "py", "py3", "pyi"],
        ["py", "py3", "pyi", "bzl"]
    ),
    spec!(
        "ruby",
        Ruby,
        "lang-ruby",
        ["ruby", "rb", "rbw", "gemspec"],
        ["rb", "rbw", "gemspec"]
    ),
    spec!("rust", Rust, "lang-rust", ["rust", "rs"], ["rs"]),
    spec!(
        "scala",
        Scala,
        "lang-scala",
        ["scala", "sc", "sbt"],
        ["scala", "sc", "sbt"]
    ),
    spec!(
        "solidity",
        Solidity,
        "lang-solidity",
        ["solidity", "sol"],
        ["sol"]
    ),
    spec!("swift", Swift, "lang-swift", ["swift"], ["swift"]),
    spec!("tsx", Tsx, "lang-typescript", ["tsx"], ["tsx"]),
    spec!(
        "typescript",
        TypeScript,
        "lang-typescript",
        ["typescript", "ts", "mts", "cts"],
        ["ts", "cts", "mts"]
    ),
    spec!("yaml", Yaml, "lang-yaml", ["yaml", "yml"], ["yaml", "yml"]),
    spec!("zig", Zig, "lang-zig", ["zig"], ["zig"]),
];

/// The catalog entry a file name or extension points at, compiled in or not.
pub fn spec_for_path(path: &Path) -> Option<&'static LangSpec> {
    let file_name = path.file_name()?.to_str()?;
    let bare = file_name.strip_prefix('.').unwrap_or(file_name);
    if let Some(spec) = CATALOG.iter().find(|s| s.file_names.contains(&bare)) {
        return Some(spec);
    }
    let ext = path.extension()?.to_str()?;
    CATALOG.iter().find(|s| s.extensions.contains(&ext))
}

/// The compiled-in language of a file, inferred from its name or extension.
pub fn for_path(path: &Path) -> Option<&'static LangSpec> {
    spec_for_path(path).filter(|s| s.enabled)
}

/// The catalog entry an explicit language name names (trimmed, case-insensitive), compiled in
/// or not.
pub fn spec_for_name(name: &str) -> Option<&'static LangSpec> {
    let wanted = name.trim().to_ascii_lowercase();
    CATALOG
        .iter()
        .find(|s| s.aliases.contains(&wanted.as_str()))
}

/// The catalog entry of an ast-grep language.
pub fn spec_of(lang: SupportLang) -> Option<&'static LangSpec> {
    CATALOG.iter().find(|s| s.lang == lang)
}

/// Canonical names of the compiled-in languages, for messages.
pub fn enabled_names() -> Vec<&'static str> {
    CATALOG
        .iter()
        .filter(|s| s.enabled)
        .map(|s| s.name)
        .collect()
}

/// [`enabled_names`] as a list for a message; a build without grammars says so.
pub fn enabled_list() -> String {
    let names = enabled_names();
    if names.is_empty() {
        "none: this build has no grammars (the `grammars` feature of the `hashline` crate, or \
         `lang-*` features of `hashline-ast`)"
            .to_string()
    } else {
        names.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_support_lang_is_catalogued_once() {
        for lang in SupportLang::all_langs() {
            let n = CATALOG.iter().filter(|s| s.lang == *lang).count();
            assert_eq!(n, 1, "{lang}");
        }
    }

    #[test]
    fn infers_by_extension_case_sensitively() {
        assert_eq!(
            spec_for_path(Path::new("a/b.ts")).map(|s| s.name),
            Some("typescript")
        );
        assert_eq!(
            spec_for_path(Path::new("b.tsx")).map(|s| s.name),
            Some("tsx")
        );
        assert_eq!(
            spec_for_path(Path::new("b.mjs")).map(|s| s.name),
            Some("javascript")
        );
        assert_eq!(
            spec_for_path(Path::new("BUILD.bzl")).map(|s| s.name),
            Some("python")
        );
        assert!(spec_for_path(Path::new("b.TS")).is_none());
        assert!(spec_for_path(Path::new("b.unknownext")).is_none());
        assert!(spec_for_path(Path::new("Makefile")).is_none());
        assert!(spec_for_path(Path::new("")).is_none());
    }

    #[test]
    fn shell_rc_files_are_bash() {
        assert_eq!(
            spec_for_path(Path::new("home/.zshrc")).map(|s| s.name),
            Some("bash")
        );
        assert_eq!(
            spec_for_path(Path::new("zshrc")).map(|s| s.name),
            Some("bash")
        );
    }

    #[test]
    fn aliases_are_trimmed_and_case_insensitive() {
        assert_eq!(spec_for_name(" TS ").map(|s| s.name), Some("typescript"));
        assert_eq!(spec_for_name("golang").map(|s| s.name), Some("go"));
        assert_eq!(spec_for_name("c++").map(|s| s.name), Some("cpp"));
        assert!(spec_for_name("cobol").is_none());
    }

    #[cfg(not(feature = "lang-kotlin"))]
    #[test]
    fn a_grammar_that_is_not_compiled_in_is_never_inferred() {
        assert_eq!(
            spec_for_path(Path::new("a.kt")).map(|s| s.name),
            Some("kotlin")
        );
        assert!(for_path(Path::new("a.kt")).is_none());
    }

    #[cfg(feature = "lang-core")]
    #[test]
    fn core_languages_are_enabled() {
        for name in ["typescript", "tsx", "javascript", "rust", "python", "go"] {
            assert!(enabled_names().contains(&name), "{name}");
        }
    }
}
