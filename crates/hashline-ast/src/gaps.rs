//! Known gaps of the compiled-in grammars: valid source a tree-sitter grammar cannot parse.
//!
//! tree-sitter-typescript 0.23.2 (what ast-grep-language 0.51.1 ships, and the newest release
//! on crates.io) has two, both common in `.d.ts` files: `in`/`out` variance annotations on type
//! parameters (`interface Box<in out T>`, TypeScript 4.7) and type arguments after an
//! `import("…")` type (`import("./types.js").Options<D>`). A file holding them gets error nodes
//! although TypeScript accepts it. [`explain`] proves that a tree's errors come from these
//! constructs alone: it masks them with text of the same byte length that the grammar does parse
//! (`in out ` → spaces, `import("./types.js").` → underscores, which joins it to the type name
//! as one identifier) and reparses; only when the masked text parses without any error is the
//! file treated as valid. A match is then rewritten only where both trees agree
//! ([`Gaps::trusts`]): no error inside it, no masked byte in it, and a node of the same kind
//! and range in the masked tree.

use std::ops::Range;

use ast_grep_core::tree_sitter::StrDoc;
use ast_grep_core::{AstGrep, Node};
use ast_grep_language::SupportLang;

/// What the grammar misses, as the warning names it.
pub(crate) const TYPESCRIPT_GAPS: &str =
    "`in`/`out` variance annotations, type arguments after `import(\"…\")`";

/// The grammar the gaps belong to, as the warning names it.
pub(crate) const TYPESCRIPT_GRAMMAR: &str = "tree-sitter-typescript 0.23.2";

/// The masked constructs of one source whose errors they explain.
pub(crate) struct Gaps {
    /// Byte ranges (in the source as parsed, BOM excluded) of the masked constructs.
    pub spans: Vec<Range<usize>>,
    masked: AstGrep<StrDoc<SupportLang>>,
}

/// For a TypeScript or TSX `src` whose tree has errors: the known-unsupported constructs, when
/// masking them leaves a text that parses without error. `None` for another language, a
/// source without such constructs, or one with any other error.
pub(crate) fn explain(lang: SupportLang, src: &str) -> Option<Gaps> {
    if !matches!(lang, SupportLang::TypeScript | SupportLang::Tsx) {
        return None;
    }
    let mut spans = variance_spans(src);
    spans.extend(import_type_spans(src));
    if spans.is_empty() {
        return None;
    }
    spans.sort_by_key(|s| s.start);
    let mut bytes = src.as_bytes().to_vec();
    for (span, fill) in spans.iter().map(|s| (s, filler(src, s))) {
        bytes[span.clone()].fill(fill);
    }
    let masked_src = String::from_utf8(bytes).ok()?;
    let masked = AstGrep::<StrDoc<SupportLang>>::try_new(&masked_src, lang).ok()?;
    if masked.root().get_inner_node().has_error() {
        return None;
    }
    Some(Gaps { spans, masked })
}

/// Spaces for a variance modifier, underscores for an import type's head.
fn filler(src: &str, span: &Range<usize>) -> u8 {
    if src[span.clone()].starts_with("import") {
        b'_'
    } else {
        b' '
    }
}

impl Gaps {
    /// The tree of the masked text: the source's real structure, at the source's byte offsets
    /// and lines.
    pub(crate) fn masked(&self) -> &AstGrep<StrDoc<SupportLang>> {
        &self.masked
    }

    /// Whether a match on `node` of the original tree can be rewritten: it holds no error node
    /// and no masked byte, and the masked tree has a node of the same kind over the same bytes.
    pub(crate) fn trusts(&self, node: &Node<'_, StrDoc<SupportLang>>) -> bool {
        let range = node.range();
        if node.get_inner_node().has_error()
            || self
                .spans
                .iter()
                .any(|s| s.start < range.end && range.start < s.end)
        {
            return false;
        }
        let root = self.masked.root();
        let Some(mut twin) = root
            .get_inner_node()
            .descendant_for_byte_range(range.start, range.end)
        else {
            return false;
        };
        let kind = node.kind();
        loop {
            if twin.byte_range() != range {
                return false;
            }
            if twin.kind() == kind {
                return true;
            }
            match twin.parent() {
                Some(parent) => twin = parent,
                None => return false,
            }
        }
    }
}

/// One file searched around its grammar gaps, for the warning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GapNote {
    /// 1-based lines of the masked constructs.
    pub lines: Vec<usize>,
    /// 1-based lines of matches left out because the trees disagree there.
    pub set_aside: Vec<usize>,
}

/// How many files the warning names.
const FILES_NAMED: usize = 5;

/// The one `[W_GRAMMAR_GAP]` line for every file searched around its gaps (display path and
/// note, in preview order); `None` when there is none.
pub(crate) fn warning(notes: &[(String, GapNote)]) -> Option<String> {
    if notes.is_empty() {
        return None;
    }
    let lines = |l: &[usize]| {
        let shown: Vec<String> = l.iter().take(5).map(usize::to_string).collect();
        let more = if l.len() > 5 { ", …" } else { "" };
        format!(
            "{} {}{more}",
            if l.len() == 1 { "line" } else { "lines" },
            shown.join(", ")
        )
    };
    let mut named: Vec<String> = notes
        .iter()
        .take(FILES_NAMED)
        .map(|(path, note)| format!("{path} ({})", lines(&note.lines)))
        .collect();
    if notes.len() > FILES_NAMED {
        named.push(format!("… {} more", notes.len() - FILES_NAMED));
    }
    let n = notes.len();
    let mut text = format!(
        "[W_GRAMMAR_GAP] {n} TypeScript file{s} hold{v} valid syntax {TYPESCRIPT_GRAMMAR} cannot parse \
         ({TYPESCRIPT_GAPS}); searched everywhere else: {}",
        named.join(", "),
        s = if n == 1 { "" } else { "s" },
        v = if n == 1 { "s" } else { "" },
    );
    let aside: Vec<String> = notes
        .iter()
        .flat_map(|(path, note)| note.set_aside.iter().map(move |l| format!("{path}:{l}")))
        .collect();
    if !aside.is_empty() {
        let shown: Vec<&str> = aside.iter().take(FILES_NAMED).map(String::as_str).collect();
        text.push_str(&format!(
            ". {} match{} holding those constructs not rewritten (edit by hand): {}{}",
            aside.len(),
            if aside.len() == 1 { "" } else { "es" },
            shown.join(", "),
            if aside.len() > FILES_NAMED {
                ", …"
            } else {
                ""
            }
        ));
    }
    Some(text)
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b >= 0x80
}

fn is_ident(b: u8) -> bool {
    is_ident_start(b) || b.is_ascii_digit()
}

fn skip_space(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && s[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The word `word` at `i`, followed by white space: the index after that white space.
fn keyword(s: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    let end = i + word.len();
    let after = skip_space(s, end);
    (s.get(i..end) == Some(word) && after > end).then_some(after)
}

/// Variance modifiers in type parameter lists: after `<` or `,`, an optional `const`, then
/// `in`, `out` or `in out`, then a type parameter name. The span is the modifiers and the
/// white space after them.
fn variance_spans(src: &str) -> Vec<Range<usize>> {
    let s = src.as_bytes();
    let mut out = Vec::new();
    for (at, _) in src.match_indices(['<', ',']) {
        let mut i = skip_space(s, at + 1);
        if let Some(next) = keyword(s, i, b"const") {
            i = next;
        }
        let start = i;
        if let Some(next) = keyword(s, i, b"in") {
            i = next;
        }
        if let Some(next) = keyword(s, i, b"out") {
            i = next;
        }
        // A name must follow (`<in T>`), not an `extends`-less end or an operator.
        if i > start && s.get(i).copied().is_some_and(is_ident_start) {
            out.push(start..i);
        }
    }
    out
}

/// Import types followed by type arguments: `import("…")` then `.Name` one or more times then
/// `<`, on one line. The span is `import("…").` (up to the first name).
fn import_type_spans(src: &str) -> Vec<Range<usize>> {
    let s = src.as_bytes();
    let mut out = Vec::new();
    for (at, _) in src.match_indices("import") {
        if at > 0 && is_ident(s[at - 1]) {
            continue;
        }
        let mut i = skip_space(s, at + "import".len());
        if s.get(i) != Some(&b'(') {
            continue;
        }
        i = skip_space(s, i + 1);
        let Some(&quote) = s.get(i).filter(|q| matches!(q, b'"' | b'\'')) else {
            continue;
        };
        let Some(len) = s[i + 1..].iter().position(|&b| b == quote || b == b'\n') else {
            continue;
        };
        if s[i + 1 + len] != quote {
            continue;
        }
        i = skip_space(s, i + len + 2);
        if s.get(i) != Some(&b')') || s.get(i + 1) != Some(&b'.') {
            continue;
        }
        let head_end = i + 2;
        let mut j = head_end;
        loop {
            let name_start = j;
            while j < s.len() && is_ident(s[j]) {
                j += 1;
            }
            if j == name_start {
                break;
            }
            if s.get(j) == Some(&b'.') {
                j += 1;
                continue;
            }
            break;
        }
        let generic = s.get(skip_space(s, j)) == Some(&b'<');
        if j > head_end && generic && !s[at..head_end].contains(&b'\n') {
            out.push(at..head_end);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masked(src: &str) -> Option<String> {
        let gaps = explain(SupportLang::TypeScript, src)?;
        let mut bytes = src.as_bytes().to_vec();
        for span in &gaps.spans {
            bytes[span.clone()].fill(b'#');
        }
        Some(String::from_utf8(bytes).expect("ASCII masks"))
    }

    #[test]
    fn variance_annotations_are_explained() {
        assert_eq!(
            masked("interface Box<in out T, out U> { a: T; b: U }\ntype F<const in T> = (x: T) => void;\n")
                .as_deref(),
            Some("interface Box<#######T, ####U> { a: T; b: U }\ntype F<const ###T> = (x: T) => void;\n")
        );
    }

    #[test]
    fn import_types_with_type_arguments_are_explained() {
        let src = "export declare function f<D extends Date>(o?: import(\"./types.js\").Options<D>): import('x').A.B<D>;\n";
        assert_eq!(
            masked(src).as_deref(),
            Some("export declare function f<D extends Date>(o?: #####################Options<D>): ############A.B<D>;\n")
        );
    }

    #[test]
    fn other_errors_are_not_explained() {
        // A real syntax error beside a known gap: the file stays a parse error.
        assert!(explain(
            SupportLang::TypeScript,
            "interface B<in T> { a: T }\nlet x = ;\n"
        )
        .is_none());
        // No known construct at all.
        assert!(explain(SupportLang::TypeScript, "let x = ;\n").is_none());
        // Another language.
        assert!(explain(SupportLang::JavaScript, "interface B<in T> {}\n").is_none());
    }
}
