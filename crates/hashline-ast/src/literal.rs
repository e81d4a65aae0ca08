//! The literal prefilter: the texts every match of a compiled pattern must contain verbatim, so
//! that a file lacking one of them is neither parsed nor walked.
//!
//! ast-grep compares a pattern's named terminal nodes (identifiers, literals, keywords such as
//! `null`) with the candidate node's source text, byte for byte, at the strictness levels cst,
//! smart, ast and relaxed (`match_tree/strictness.rs`, `match_terminal`): a match therefore holds
//! each of them as a slice of the file, however the match is spaced, broken over lines or
//! interleaved with comments. Unnamed terminals (punctuation, operators, keywords such as `void`
//! or `throw`) are compared by kind only, and some are zero-width (an automatic `;`), so they are
//! left out, with one exception: at cst and smart (which never skip a terminal of the pattern),
//! in the JavaScript and TypeScript grammars, an unnamed terminal whose text is a word (a
//! keyword) has a kind only that keyword's exact text produces (keywords are plain strings
//! there, none aliased; the one aliased anonymous node, TypeScript's `unique symbol`, is not a
//! word, and the pattern holds its two keywords as terminals of their own). At the signature and template levels nothing is certain, and a pattern without such
//! terminals (`$A`, `$$$A`) requires nothing: such a pattern may match any file.

use ast_grep_core::matcher::PatternNode;
use ast_grep_core::{MatchStrictness, Pattern};
use ast_grep_language::SupportLang;

/// A keyword's shape: an ASCII letter or `_`, then letters, digits or `_`.
fn is_word(text: &str) -> bool {
    let mut bytes = text.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The texts one pattern variant requires (longest first: the rarest is tried first).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Literals(Vec<String>);

impl Literals {
    /// The named terminals of `pattern` (compiled from `source`) that every match must contain.
    /// A text that does not occur in `source` itself (an artifact of the language's pattern
    /// preprocessing, e.g. an expando character) is left out: only the pattern's own text is
    /// trusted to be what the file must hold.
    pub(crate) fn of(pattern: &Pattern, source: &str, lang: SupportLang) -> Self {
        fn walk(node: &PatternNode, keywords: bool, out: &mut Vec<String>) {
            match node {
                PatternNode::Terminal { text, is_named, .. }
                    if !text.is_empty() && (*is_named || keywords && is_word(text)) =>
                {
                    out.push(text.clone())
                }
                PatternNode::Internal { children, .. } => {
                    children.iter().for_each(|c| walk(c, keywords, out));
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        let keywords = matches!(
            lang,
            SupportLang::JavaScript | SupportLang::TypeScript | SupportLang::Tsx
        ) && matches!(
            pattern.strictness,
            MatchStrictness::Cst | MatchStrictness::Smart
        );
        if matches!(
            pattern.strictness,
            MatchStrictness::Cst
                | MatchStrictness::Smart
                | MatchStrictness::Ast
                | MatchStrictness::Relaxed
        ) {
            walk(&pattern.node, keywords, &mut out);
        }
        out.retain(|t| source.contains(t.as_str()));
        out.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        out.dedup();
        Self(out)
    }

    /// Whether a match can exist in `src`: every required text occurs in it.
    pub(crate) fn may_match(&self, src: &str) -> bool {
        self.0.iter().all(|t| src.contains(t.as_str()))
    }

    /// The required texts, longest first.
    #[cfg(test)]
    pub(crate) fn texts(&self) -> &[String] {
        &self.0
    }
}

#[cfg(all(test, feature = "lang-typescript"))]
mod tests {
    use ast_grep_core::tree_sitter::StrDoc;
    use ast_grep_core::AstGrep;
    use ast_grep_language::SupportLang;

    use crate::compile::{compile_rule, Compiled, CompiledRule};
    use crate::lang;
    use crate::request::{Rule, Strictness};
    use crate::rewrite::{rewrite_file, FileOutcome};

    fn rule(pat: &str, strictness: Strictness) -> CompiledRule {
        let spec = lang::spec_for_name("ts").expect("ts");
        match compile_rule(0, &Rule::new(pat, "x"), spec, strictness) {
            Ok(Compiled::Ok(c)) => c,
            _ => panic!("{pat} does not compile"),
        }
    }

    fn texts(pat: &str, strictness: Strictness) -> Vec<String> {
        let c = rule(pat, strictness);
        let mut t: Vec<String> = c.literals.iter().flat_map(|l| l.texts().to_vec()).collect();
        t.sort();
        t
    }

    /// Matches of `pat` in `src` found by walking the whole tree, with no prefilter.
    fn unfiltered(c: &CompiledRule, src: &str) -> usize {
        let ast = AstGrep::<StrDoc<SupportLang>>::new(src, SupportLang::TypeScript);
        c.patterns
            .iter()
            .map(|p| ast.root().find_all(p).count())
            .sum()
    }

    /// Edits `rewrite_file` (prefilter included) stages, or the issue it lists.
    fn filtered(c: &CompiledRule, src: &str) -> Result<usize, String> {
        match rewrite_file(
            "a.ts",
            src.as_bytes().to_vec(),
            SupportLang::TypeScript,
            &[c],
            &[],
        )
        .expect("no refusal")
        {
            FileOutcome::Rewrite { edits, .. } => Ok(edits.len()),
            FileOutcome::Issue(issue) => Err(issue),
        }
    }

    #[test]
    fn required_texts_are_the_named_terminals() {
        assert_eq!(texts("$A == null", Strictness::Smart), ["null"]);
        assert_eq!(
            texts("console.log($$$A)", Strictness::Smart),
            ["console", "log"]
        );
        assert_eq!(texts("foo($A);", Strictness::Cst), ["foo"], "no `;`, `(`");
        assert_eq!(
            texts("throw new Error($$$A)", Strictness::Smart),
            ["Error", "new", "throw"],
            "keywords of JavaScript/TypeScript at smart"
        );
        assert_eq!(texts("void 0", Strictness::Smart), ["0", "void"]);
        assert_eq!(texts("void 0", Strictness::Cst), ["0", "void"]);
        assert_eq!(
            texts("void 0", Strictness::Relaxed),
            ["0"],
            "relaxed and ast may skip an unnamed terminal of the pattern"
        );
        assert_eq!(texts("void 0", Strictness::Ast), ["0"]);
        assert_eq!(
            texts("let x: unique symbol", Strictness::Smart),
            ["let", "symbol", "unique", "x"],
            "the aliased `unique symbol` is a node of two keywords"
        );
        assert!(texts("console.log($$$A)", Strictness::Signature).is_empty());
        assert!(texts("console.log($$$A)", Strictness::Template).is_empty());
        assert!(texts("$A", Strictness::Smart).is_empty());
        assert!(texts("$F($$$A)", Strictness::Smart).is_empty());
    }

    /// Matches whose text is spaced, broken or commented differently from the pattern are all
    /// found: the prefilter keeps every file the unfiltered matcher finds a match in.
    #[test]
    fn the_prefilter_never_drops_a_match() {
        let cases: &[(&str, &[&str])] = &[
            (
                "console.log($$$A)",
                &[
                    "console.log( x )",
                    "console\n  .log(x)",
                    "console\r\n  .log(x, y)\r\n",
                    "console /* a */ . /* b */ log(\n  x // c\n)",
                    "\u{feff}console.log()",
                    "if (a) { console.log(`${b}`) }",
                ],
            ),
            (
                "void 0",
                &[
                    "void  0",
                    "void/**/0",
                    "f(void\n0)",
                    "x = void 0 /* c */;",
                    "x = (void 0)",
                ],
            ),
            (
                "typeof $A === 'undefined'",
                &[
                    "typeof  x\n  === 'undefined'",
                    "if (typeof /* c */ x === 'undefined') {}",
                ],
            ),
            (
                "throw new Error($$$A)",
                &[
                    "throw new Error(\n  'x',\n)",
                    "throw new  Error()",
                    "if (a) throw new Error(`${b}`)",
                ],
            ),
            ("$A == null", &["a==null", "a\n  ==\n  null"]),
            (
                "let x: unique symbol",
                &["let x: unique  symbol", "let x:unique\n/* c */symbol"],
            ),
            ("$A", &["y", "1 + 2"]),
        ];
        for &(pat, sources) in cases {
            for src in sources {
                let mut matched = false;
                for strictness in [
                    Strictness::Cst,
                    Strictness::Smart,
                    Strictness::Ast,
                    Strictness::Relaxed,
                ] {
                    let c = rule(pat, strictness);
                    let want = unfiltered(&c, src.trim_start_matches('\u{feff}'));
                    matched |= want > 0;
                    if want > 0 {
                        assert!(
                            c.literals.iter().any(|l| l.may_match(src)),
                            "{pat} ({strictness:?}) filtered {src:?} out"
                        );
                    }
                    let staged = filtered(&c, src).map(|edits| edits > 0);
                    assert_eq!(staged, Ok(want > 0), "{pat} ({strictness:?}) in {src:?}");
                }
                assert!(matched, "{pat} must match {src:?} at some strictness");
            }
        }
    }

    /// What the prefilter changes: a file that cannot match is not parsed, so a syntax error in
    /// it is not listed; a file holding the texts is parsed and its error listed as before.
    #[test]
    fn only_candidate_files_are_parsed() {
        let c = rule("console.log($$$A)", Strictness::Smart);
        assert_eq!(filtered(&c, "let x = ;"), Ok(0), "no `console`: not parsed");
        assert_eq!(
            filtered(&c, "console.warn(x); let x = ;"),
            Ok(0),
            "no `log`"
        );
        let issue = filtered(&c, "console.log(x); let x = ;").expect_err("parsed");
        assert!(issue.contains("parse error"), "{issue}");
        // Texts in comments or strings make a file a candidate (parsed), never a match.
        assert_eq!(filtered(&c, "// console.log\nlet s = 'x';"), Ok(0));
    }
}
