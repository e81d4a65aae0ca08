//! What an ast_edit call asks for: [`Rule`]s, paths and options ([`RewriteRequest`]).

use std::path::PathBuf;
use std::str::FromStr;

use ast_grep_core::MatchStrictness;
use serde::{Deserialize, Serialize};

/// The file cap the seed's wrapper uses (`PI_MAX_AST_FILES`, default 1000).
pub const DEFAULT_MAX_FILES: usize = 1000;

/// One rewrite: every node matching `pattern` becomes `rewrite` with the captures filled in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    /// ast-grep pattern (`$NAME`, `$_`, `$$$NAME`, `$$$` metavariables). Must be non-empty.
    pub pattern: String,
    /// Rewrite template; may use the captures of `pattern`. Empty deletes the matched node.
    pub rewrite: String,
}

impl Rule {
    /// A rule from a pattern and its rewrite.
    pub fn new(pattern: impl Into<String>, rewrite: impl Into<String>) -> Self {
        Self {
            pattern: pattern.into(),
            rewrite: rewrite.into(),
        }
    }
}

/// How closely a pattern must match (ast-grep's strictness levels; the seed always uses smart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strictness {
    /// Every node, trivia included.
    Cst,
    /// Every node except trivial source nodes (the default).
    #[default]
    Smart,
    /// Named AST nodes only.
    Ast,
    /// AST nodes, comments ignored.
    Relaxed,
    /// AST node kinds only, text ignored.
    Signature,
    /// Text only, node kinds ignored.
    Template,
}

impl Strictness {
    pub(crate) fn to_ast_grep(self) -> MatchStrictness {
        match self {
            Strictness::Cst => MatchStrictness::Cst,
            Strictness::Smart => MatchStrictness::Smart,
            Strictness::Ast => MatchStrictness::Ast,
            Strictness::Relaxed => MatchStrictness::Relaxed,
            Strictness::Signature => MatchStrictness::Signature,
            Strictness::Template => MatchStrictness::Template,
        }
    }
}

impl FromStr for Strictness {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "cst" => Strictness::Cst,
            "smart" => Strictness::Smart,
            "ast" => Strictness::Ast,
            "relaxed" => Strictness::Relaxed,
            "signature" => Strictness::Signature,
            "template" => Strictness::Template,
            other => {
                return Err(format!(
                "unknown strictness `{other}`; use cst, smart, ast, relaxed, signature or template"
            ))
            }
        })
    }
}

/// One ast_edit call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RewriteRequest {
    /// The rules. Applied to each file's original tree in pattern order (byte-wise sort, as the
    /// seed does); [`crate::MatchEdit::rule`] indexes this vector.
    pub rules: Vec<Rule>,
    /// Explicit language (an alias such as `ts`, `py`); `None` infers it per file.
    pub lang: Option<String>,
    /// Files, directories or globs (`src/**/*.ts`), relative to `root` or absolute inside it.
    pub paths: Vec<String>,
    /// Extra glob filter for directory walks, relative to each walked directory (`*.ts` matches
    /// direct children only, `**/*.ts` recurses).
    pub glob: Option<String>,
    /// Workspace root: display paths are relative to it and no path may leave it.
    pub root: PathBuf,
    /// At most this many files are rewritten; more sets [`crate::Preview::limit_reached`].
    pub max_files: usize,
    /// Match strictness.
    pub strictness: Strictness,
    /// Plan rewrites that add a syntax error instead of refusing the call
    /// ([`crate::AstError::SyntaxIntroduced`]).
    #[serde(default)]
    pub allow_syntax_errors: bool,
    /// Directory walks also visit hidden files and directories (ripgrep's `--hidden`); they
    /// are skipped by default, as ripgrep and ast-grep do.
    #[serde(default)]
    pub hidden: bool,
    /// Directory walks ignore `.gitignore`, `.ignore` and git excludes (ripgrep's
    /// `--no-ignore`); by default the files they name are skipped.
    #[serde(default)]
    pub no_ignore: bool,
    /// Directories inside the root no path may name and no walk visits (canonical): the
    /// caller's state directory (`--state`), when it lies inside the root.
    #[serde(skip)]
    pub exclude: Vec<PathBuf>,
}

impl RewriteRequest {
    /// A request with the seed's defaults (no `lang`, no glob, 1000 files, smart strictness) and
    /// ripgrep's walk (hidden and ignored files skipped).
    pub fn new(root: impl Into<PathBuf>, rules: Vec<Rule>, paths: Vec<String>) -> Self {
        Self {
            rules,
            lang: None,
            paths,
            glob: None,
            root: root.into(),
            max_files: DEFAULT_MAX_FILES,
            strictness: Strictness::Smart,
            allow_syntax_errors: false,
            hidden: false,
            no_ignore: false,
            exclude: Vec::new(),
        }
    }

    /// How this request's directory walks filter files.
    pub(crate) fn walk(&self) -> crate::files::Walk {
        crate::files::Walk {
            hidden: self.hidden,
            no_ignore: self.no_ignore,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strictness_parses_every_level() {
        for (s, want) in [
            ("cst", Strictness::Cst),
            (" Smart ", Strictness::Smart),
            ("AST", Strictness::Ast),
        ] {
            assert_eq!(s.parse::<Strictness>(), Ok(want));
        }
        assert!("loose".parse::<Strictness>().is_err());
        assert_eq!(Strictness::default(), Strictness::Smart);
    }

    #[test]
    fn new_uses_seed_defaults() {
        let r = RewriteRequest::new("/tmp", vec![Rule::new("a", "b")], vec![".".into()]);
        assert_eq!(r.max_files, DEFAULT_MAX_FILES);
        assert!(r.lang.is_none() && r.glob.is_none());
        assert!(!r.allow_syntax_errors);
    }

    #[test]
    fn a_stored_request_without_the_syntax_flag_still_loads() {
        let mut v =
            serde_json::to_value(RewriteRequest::new("/tmp", vec![], vec![])).expect("serializes");
        v.as_object_mut()
            .expect("object")
            .remove("allow_syntax_errors");
        let r: RewriteRequest = serde_json::from_value(v).expect("loads");
        assert!(!r.allow_syntax_errors);
    }
}
