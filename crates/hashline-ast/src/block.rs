//! The tree-sitter [`BlockResolver`] behind `replace block N:` / `delete block N`.
//!
//! Algorithm (`hashline.md` §(d), "The seed resolver"):
//! 1. line 0, empty text, a language that is unknown or not compiled in, a line past the end, or
//!    a blank / space-and-tab-only line → none;
//! 2. the point is (line − 1, byte column of the first non-space/tab byte);
//! 3. take the smallest named node covering the first content character there; if it does not
//!    start on that row → none (continuation lines, lone `}` / `);`);
//! 4. climb to the parent while the parent is not the root and starts on the same row;
//! 5. if that node's subtree contains a syntax error → none (errors that only known grammar
//!    gaps cause (`gaps.rs`) are not errors: the masked text's tree is used);
//! 6. span = start row + 1 ..= the row of its last content byte + 1 (an end at column 0 counts as
//!    the previous row).
//!
//! The file is parsed only when a block is asked for.

use std::path::Path;

use ast_grep_core::tree_sitter::{StrDoc, TSPoint};
use ast_grep_core::AstGrep;
use ast_grep_language::SupportLang;
use hashline_core::{BlockResolver, BlockSpan};

use crate::gaps::{self, Gaps};
use crate::lang;

/// Resolves blocks with the tree-sitter grammars compiled into this build.
///
/// The language comes from the file name or extension (case-sensitive, see [`crate::lang`]);
/// a grammar whose Cargo feature is off resolves nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct TreeSitterBlocks;

impl TreeSitterBlocks {
    /// A resolver over every compiled-in grammar.
    pub fn new() -> Self {
        Self
    }
}

impl BlockResolver for TreeSitterBlocks {
    fn resolve(&self, path: &Path, text: &str, line: usize) -> Option<BlockSpan> {
        if line == 0 || text.is_empty() {
            return None;
        }
        let spec = lang::for_path(path)?;
        resolve_in(spec.lang, text, line)
    }
}

/// Byte column of the first byte of line `row` (0-based) that is not a space or tab; `None` past
/// the end of the text or for a blank line.
fn first_content_column(text: &str, row: usize) -> Option<usize> {
    let line = text.split('\n').nth(row)?;
    line.bytes().position(|b| b != b' ' && b != b'\t')
}

/// Steps 2–6 for a compiled-in language.
fn resolve_in(lang: SupportLang, text: &str, line: usize) -> Option<BlockSpan> {
    let row = line.checked_sub(1)?;
    let col = first_content_column(text, row)?;
    let parsed = AstGrep::<StrDoc<SupportLang>>::try_new(text, lang).ok()?;
    let gaps = match parsed.root().get_inner_node().has_error() {
        true => gaps::explain(lang, text),
        false => None,
    };
    let ast = gaps.as_ref().map_or(&parsed, Gaps::masked);
    let root_wrapper = ast.root();
    let root = root_wrapper.get_inner_node();
    // A one-byte range over the first content character (not a zero-width point): grammars that
    // put a zero-width node at a statement start would otherwise absorb an empty point there and
    // bubble the lookup back up to the enclosing block.
    let leaf = root.named_descendant_for_point_range(
        TSPoint::new(row, col),
        TSPoint::new(row, col.saturating_add(1)),
    )?;
    if leaf.id() == root.id() || leaf.start_position().row != row {
        return None;
    }
    let mut node = leaf;
    while let Some(parent) = node.parent() {
        if parent.id() == root.id() || parent.start_position().row != row {
            break;
        }
        node = parent;
    }
    if node.has_error() {
        return None;
    }
    let start = node.start_position().row;
    let end_point = node.end_position();
    let end = if end_point.column == 0 && end_point.row > start {
        end_point.row - 1
    } else {
        end_point.row
    };
    Some(BlockSpan {
        start: start + 1,
        end: end.max(start) + 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(path: &str, code: &str, line: usize) -> Option<(usize, usize)> {
        TreeSitterBlocks::new()
            .resolve(Path::new(path), code, line)
            .map(|s| (s.start, s.end))
    }

    #[cfg(feature = "lang-typescript")]
    #[test]
    fn typescript_grammar_gaps_do_not_hide_blocks() {
        let code = "export interface Box<in out T> {\n  value: T;\n}\n\
                    export declare function f(o?: import(\"./t.js\").Options<Date>): void;\n";
        assert_eq!(resolve("a.d.ts", code, 1), Some((1, 3)));
        assert_eq!(resolve("a.d.ts", code, 4), Some((4, 4)));
        // A real error still hides its block.
        assert_eq!(resolve("a.ts", "interface B<in T> {\n  a: ;\n}\n", 1), None);
    }

    #[test]
    fn first_content_column_skips_spaces_and_tabs_only() {
        assert_eq!(first_content_column("a\n \t b\n", 1), Some(3));
        assert_eq!(first_content_column("a\n  \n", 1), None);
        assert_eq!(first_content_column("a\n", 5), None);
    }

    #[test]
    fn empty_text_and_unknown_language_resolve_to_nothing() {
        assert_eq!(resolve("a.ts", "", 1), None);
        assert_eq!(resolve("Makefile", "all:\n\techo\n", 1), None);
        assert_eq!(resolve("noext", "fn x() {}\n", 1), None);
    }

    #[cfg(feature = "lang-go")]
    #[test]
    fn go_function_and_inner_for() {
        let code = "package main\n\nfunc f(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n";
        assert_eq!(resolve("m.go", code, 3), Some((3, 9)));
        assert_eq!(resolve("m.go", code, 5), Some((5, 7)));
        assert_eq!(resolve("m.go", code, 7), None, "closing brace");
        assert_eq!(resolve("m.go", code, 2), None, "blank line");
    }

    #[cfg(feature = "lang-javascript")]
    #[test]
    fn javascript_class_method_and_call() {
        let code = "class A {\n  m() {\n    return call(\n      1,\n    );\n  }\n}\n";
        assert_eq!(resolve("a.js", code, 1), Some((1, 7)));
        assert_eq!(resolve("a.js", code, 2), Some((2, 6)));
        assert_eq!(resolve("a.js", code, 3), Some((3, 5)));
        assert_eq!(resolve("a.js", code, 5), None, "`);` continues the call");
    }

    #[cfg(feature = "lang-typescript")]
    #[test]
    fn tsx_component_with_jsx_body() {
        let code = "export function App() {\n  return (\n    <div>\n      <span>hi</span>\n    </div>\n  );\n}\n";
        assert_eq!(resolve("App.tsx", code, 1), Some((1, 7)));
        assert_eq!(resolve("App.tsx", code, 3), Some((3, 5)));
        // The TypeScript grammar does not parse JSX: a `.tsx` file must use the TSX grammar.
        assert_eq!(resolve("App.ts", code, 3), None);
    }

    #[cfg(feature = "lang-typescript")]
    #[test]
    fn never_panics_on_odd_input() {
        for code in [
            "\0\0\0",
            "}\n}\n}\n",
            "é\n  ü {\n",
            "\t\t\n\t",
            "a\r\nb\r\n",
            "/*",
        ] {
            for line in 0..5 {
                let _ = resolve("x.ts", code, line);
            }
        }
        assert_eq!(resolve("x.ts", "x", usize::MAX), None);
    }
}
