//! Compiling a rule for one language: its pattern (plus, for some languages, a statement-context
//! variant) and its rewrite template.
//!
//! `Pattern::try_new` parses the pattern text on its own, as a whole file. In Go, C, C++ and Rust
//! a call such as `fmt.Println($A)` or `foo($A)` does not parse as a call at file level (Go reads
//! it as a type conversion, C as a macro type), so the pattern would never match the calls in
//! function bodies. For those languages the pattern is also compiled inside a function body
//! (`Pattern::contextual`, selecting the node kind that spans exactly the pattern text) and both
//! variants match; a node both find counts once.

use std::collections::{BTreeSet, HashSet};

use ast_grep_core::replacer::TemplateFix;
use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::{AstGrep, Pattern};
use ast_grep_language::{Language, SupportLang};

use crate::error::AstError;
use crate::lang::LangSpec;
use crate::literal::Literals;
use crate::request::{Rule, Strictness};

/// A rule compiled for one language.
pub(crate) struct CompiledRule {
    /// Index of the rule in the request.
    pub rule: usize,
    /// The pattern as written and/or its statement-context variant (at least one).
    pub patterns: Vec<Pattern>,
    /// Per pattern variant, the texts each of its matches must contain ([`Literals`]).
    pub literals: Vec<Literals>,
    /// The rewrite template.
    pub fix: TemplateFix,
}

/// The outcome of compiling one rule for one language.
pub(crate) enum Compiled {
    /// Ready to match.
    Ok(CompiledRule),
    /// The pattern does not compile for this language: why.
    Failed(String),
}

/// Compile rule `index` for `spec`, refusing template variables the pattern does not define.
pub(crate) fn compile_rule(
    index: usize,
    rule: &Rule,
    spec: &LangSpec,
    strictness: Strictness,
) -> Result<Compiled, AstError> {
    let mut patterns = Vec::with_capacity(2);
    let mut failure = None;
    match Pattern::try_new(&rule.pattern, spec.lang) {
        Ok(p) if p.has_error() => {
            failure = Some(format!(
                "does not parse as one {} syntax node; write a complete expression, statement or declaration",
                spec.name
            ))
        }
        Ok(p) => patterns.push(p),
        Err(e) => failure = Some(e.to_string()),
    }
    if let Some(p) = contextual_variant(&rule.pattern, spec.lang) {
        patterns.push(p);
    }
    if patterns.is_empty() {
        return Ok(Compiled::Failed(failure.unwrap_or_default()));
    }
    let patterns: Vec<Pattern> = patterns
        .into_iter()
        .map(|p| p.with_strictness(strictness.to_ast_grep()))
        .collect();
    let fix = match TemplateFix::try_new(&rule.rewrite, &spec.lang) {
        Ok(fix) => fix,
        Err(never) => match never {},
    };
    let defined: HashSet<&str> = patterns.iter().flat_map(|p| p.defined_vars()).collect();
    let undefined: BTreeSet<&str> = fix
        .used_vars()
        .into_iter()
        .filter(|v| !defined.contains(v))
        .collect();
    if !undefined.is_empty() {
        let vars: Vec<String> = undefined.iter().map(|v| format!("${v}")).collect();
        return Err(AstError::UndefinedVariable {
            pattern: rule.pattern.clone(),
            rewrite: rule.rewrite.clone(),
            vars: vars.join(", "),
        });
    }
    let literals = patterns
        .iter()
        .map(|p| Literals::of(p, &rule.pattern, spec.lang))
        .collect();
    Ok(Compiled::Ok(CompiledRule {
        rule: index,
        patterns,
        literals,
        fix,
    }))
}

/// The function-body wrapper of languages whose file level does not accept expressions.
fn statement_context(lang: SupportLang) -> Option<(&'static str, &'static str)> {
    match lang {
        SupportLang::Go => Some(("func _() {\n", "\n}\n")),
        SupportLang::C | SupportLang::Cpp => Some(("void _() {\n", ";\n}\n")),
        SupportLang::Rust => Some(("fn _() {\n", ";\n}\n")),
        _ => None,
    }
}

/// `pattern` compiled inside a function body, selecting the innermost named node that spans
/// exactly the pattern text, when that node is also the first of its kind in the context (the
/// node `Pattern::contextual` selects). `None` when the context does not parse cleanly or no
/// single node spans the pattern.
fn contextual_variant(pattern: &str, lang: SupportLang) -> Option<Pattern> {
    let (prefix, suffix) = statement_context(lang)?;
    let context = format!("{prefix}{pattern}{suffix}");
    // The wrapper has no `$`, so the metavariable rewrite leaves its bytes where they were.
    let processed = lang.pre_process_pattern(&context).into_owned();
    let (start, end) = (prefix.len(), processed.len().checked_sub(suffix.len())?);
    if start >= end {
        return None;
    }
    let ast = AstGrep::<StrDoc<SupportLang>>::try_new(&processed, lang).ok()?;
    let root = ast.root();
    let inner = root.get_inner_node();
    if inner.has_error() {
        return None;
    }
    let node = inner.named_descendant_for_byte_range(start, end)?;
    if node.start_byte() != start || node.end_byte() != end {
        return None;
    }
    let kind = node.kind();
    let first = root.dfs().find(|n| n.kind() == kind)?;
    if first.range() != (start..end) {
        return None;
    }
    Pattern::contextual(&context, kind, lang).ok()
}

#[cfg(all(test, feature = "lang-core"))]
mod tests {
    use super::*;
    use crate::lang;

    fn compile(lang: &str, pattern: &str, rewrite: &str) -> Result<Compiled, AstError> {
        let spec = lang::spec_for_name(lang).expect("lang");
        compile_rule(0, &Rule::new(pattern, rewrite), spec, Strictness::Smart)
    }

    #[cfg(feature = "lang-typescript")]
    #[test]
    fn undefined_template_variable_is_refused() {
        let err = compile("ts", "foo($A)", "bar($B, $A, $_)")
            .err()
            .expect("refused");
        assert!(err.to_string().contains("$B, $_"), "{err}");
        assert_eq!(err.code(), hashline_core::ErrorCode::BadPattern);
        assert!(matches!(
            compile("ts", "foo($$$ARGS)", "bar($$$ARGS)"),
            Ok(Compiled::Ok(_))
        ));
    }

    #[cfg(feature = "lang-typescript")]
    #[test]
    fn broken_pattern_is_a_compile_failure() {
        for p in ["foo(", "a; b", "$$$A"] {
            let got = compile("ts", p, "x").expect("no hard error");
            assert!(matches!(got, Compiled::Failed(_)), "{p}");
        }
    }

    #[cfg(feature = "lang-go")]
    #[test]
    fn go_call_gets_a_statement_context_variant() {
        assert!(contextual_variant("fmt.Println($A)", SupportLang::Go).is_some());
        // A bare identifier would select the wrapper's own name: no variant.
        assert!(contextual_variant("foo", SupportLang::Go).is_none());
        assert!(contextual_variant("a; b", SupportLang::Go).is_none());
        match compile("go", "fmt.Println($$$A)", "log.Println($$$A)").expect("compiles") {
            Compiled::Ok(c) => assert_eq!(c.patterns.len(), 2),
            Compiled::Failed(why) => panic!("{why}"),
        }
    }

    #[cfg(feature = "lang-typescript")]
    #[test]
    fn typescript_needs_no_context() {
        assert!(contextual_variant("foo($A)", SupportLang::TypeScript).is_none());
    }
}
