//! Grammars a constrained decoder can use so a model emits only valid input: the hashline
//! language as Lark (the seed's canonical grammar) or GBNF (llama.cpp), and the JSON dialects as
//! JSON Schema.

use std::str::FromStr;

use hashline_apply::Outcome;
use hashline_core::ErrorCode;
use serde::Serialize;

use crate::{Dialect, Response};

/// Output format of [`grammar`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GrammarFormat {
    /// Lark (the seed's `grammar.lark`).
    #[default]
    Lark,
    /// GBNF, as llama.cpp's grammar-constrained sampling reads it.
    Gbnf,
    /// JSON Schema (draft 2020-12).
    JsonSchema,
}

impl FromStr for GrammarFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "lark" => Ok(GrammarFormat::Lark),
            "gbnf" => Ok(GrammarFormat::Gbnf),
            "json-schema" => Ok(GrammarFormat::JsonSchema),
            _ => Err(format!(
                "unknown grammar format `{s}`: use lark, gbnf or json-schema"
            )),
        }
    }
}

impl GrammarFormat {
    /// The name `--format` takes: `lark`, `gbnf` or `json-schema`.
    pub fn as_str(self) -> &'static str {
        match self {
            GrammarFormat::Lark => "lark",
            GrammarFormat::Gbnf => "gbnf",
            GrammarFormat::JsonSchema => "json-schema",
        }
    }
}

/// The strict hashline grammar: the seed's `grammar.lark` (envelope required, upper-case tags,
/// `..` ranges, colons mandatory), widened so every file name the engine can edit is
/// expressible (spaces, `#`, Unicode, or quoted), written for three readers: llguidance's Lark
/// front end, Python's `lark` package, and (as [`HASHLINE_GBNF`]) llama.cpp's GBNF. Everything it
/// accepts, the hashline parser accepts too, with the same path and tag; it does not check that
/// a range's end is not before its start, nor that two hunks delete the same line.
///
/// The header is one terminal (`FILE_REF`: the path, `#`, the tag), so a path holding `#` is
/// split at its last `#` by the regex, not by a greedy lexer. A path is bare — no control,
/// quote or line/paragraph-separator or bidirectional character; it neither starts nor ends
/// with white space and does not start with `*` (the parser strips V4A header noise there) —
/// or quoted in `"…"` or `'…'` (then it may hold the other quote and end with a space).
pub const HASHLINE_LARK: &str = r##"// hashline patch, canonical form (see `hashline grammar --help`)
start: begin_patch file_patch+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

file_patch: file_header hunk+
file_header: "¶" FILE_REF LF
FILE_REF: /(?:[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028-\u202f\u205f\u2066-\u2069\u3000\ufeff"'*](?:[^\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069"']*[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028-\u202f\u205f\u2066-\u2069\u3000\ufeff"'])?|"[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028-\u202f\u205f\u2066-\u2069\u3000\ufeff"*][^\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069"]*"|'[^\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028-\u202f\u205f\u2066-\u2069\u3000\ufeff'*][^\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069']*')#[0-9A-F]{4}/

hunk: body_hunk | delete_hunk
body_hunk: body_header emit_op+
delete_hunk: "delete " (header_range | block_ref) LF
body_header: (replace_anchor | insert_anchor) LF
replace_anchor: "replace " (header_range | block_ref) ":"
insert_anchor: "insert " insert_pos ":"
insert_pos: "before " LID | "after " LID | "head" | "tail"
block_ref: "block " LID
emit_op: "+" ROW? LF
ROW: /[^\r\n]+/

header_range: LID ".." LID
LID: /[1-9][0-9]{0,18}/
LF: "\n"
"##;

/// The same grammar in GBNF, as llama.cpp reads it (and llguidance's GBNF front end). GBNF has
/// no regex terminals; its parser tracks every way a prefix can continue, so the path and its
/// `#` are plain rules.
pub const HASHLINE_GBNF: &str = r##"# hashline patch, canonical form (see `hashline grammar --help`)
root ::= begin-patch file-patch+ end-patch
begin-patch ::= "*** Begin Patch" lf
end-patch ::= "*** End Patch" lf?
file-patch ::= file-header hunk+
file-header ::= "¶" path "#" hex hex hex hex lf
path ::= bare | "\"" dq-first dq-char* "\"" | "'" sq-first sq-char* "'"
bare ::= bare-first (bare-char* bare-last)?
bare-first ::= [^\x00-\x20\x7F-\xA0\u1680\u2000-\u200A\u2028-\u202F\u205F\u2066-\u2069\u3000\uFEFF"'*]
bare-last ::= [^\x00-\x20\x7F-\xA0\u1680\u2000-\u200A\u2028-\u202F\u205F\u2066-\u2069\u3000\uFEFF"']
bare-char ::= [^\x00-\x1F\x7F-\x9F\u2028-\u202E\u2066-\u2069"']
dq-first ::= [^\x00-\x20\x7F-\xA0\u1680\u2000-\u200A\u2028-\u202F\u205F\u2066-\u2069\u3000\uFEFF"*]
dq-char ::= [^\x00-\x1F\x7F-\x9F\u2028-\u202E\u2066-\u2069"]
sq-first ::= [^\x00-\x20\x7F-\xA0\u1680\u2000-\u200A\u2028-\u202F\u205F\u2066-\u2069\u3000\uFEFF'*]
sq-char ::= [^\x00-\x1F\x7F-\x9F\u2028-\u202E\u2066-\u2069']
hex ::= [0-9A-F]
hunk ::= body-hunk | delete-hunk
body-hunk ::= body-header emit-op+
delete-hunk ::= "delete " (header-range | block-ref) lf
body-header ::= (replace-anchor | insert-anchor) lf
replace-anchor ::= "replace " (header-range | block-ref) ":"
insert-anchor ::= "insert " insert-pos ":"
insert-pos ::= "before " lid | "after " lid | "head" | "tail"
block-ref ::= "block " lid
emit-op ::= "+" [^\r\n]* lf
header-range ::= lid ".." lid
lid ::= [1-9] [0-9]{0,18}
lf ::= "\n"
"##;

fn hash_json_schema() -> serde_json::Value {
    let anchor = serde_json::json!({"type": "string", "pattern": "^[A-Za-z0-9_-]{4}$", "description": "a 4-character line hash from read"});
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "hashline edit (hash-json dialect)",
        "type": "object",
        "additionalProperties": false,
        "required": ["path", "edits"],
        "properties": {
            "path": {"type": "string", "minLength": 1},
            "returnMode": {"enum": ["changed", "full", "ranges"]},
            "allowSyntaxErrors": {"type": "boolean", "description": "let the edit land even if it adds a syntax error"},
            "returnRanges": {"type": "array", "minItems": 1, "items": {
                "type": "object", "additionalProperties": false, "required": ["start"],
                "properties": {"start": {"type": "integer", "minimum": 1}, "end": {"type": "integer", "minimum": 1}}}},
            "edits": {"type": "array", "minItems": 1, "items": {"oneOf": [
                {"type": "object", "additionalProperties": false, "required": ["op", "start", "end", "lines"],
                 "properties": {"op": {"const": "replace"}, "start": anchor, "end": anchor,
                                "lines": {"type": "array", "items": {"type": "string"}}}},
                {"type": "object", "additionalProperties": false, "required": ["op", "lines"],
                 "properties": {"op": {"enum": ["append", "prepend"]}, "pos": anchor,
                                "lines": {"type": "array", "minItems": 1, "items": {"type": "string"}}}}
            ]}}
        }
    })
}

fn lineid_json_schema() -> serde_json::Value {
    let anchor = serde_json::json!({"type": "string", "pattern": "^[0-9]+#[ZPMQVRWSNKTXJBYH]{2}$", "description": "LINE#ID from read"});
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "hashline edit (lineid-json dialect)",
        "type": "object",
        "additionalProperties": false,
        "required": ["filePath"],
        "properties": {
            "filePath": {"type": "string", "minLength": 1},
            "delete": {"type": "boolean"},
            "rename": {"type": "string", "minLength": 1},
            "allowSyntaxErrors": {"type": "boolean", "description": "let the edit land even if it adds a syntax error"},
            "edits": {"type": "array", "items": {"oneOf": [
                {"type": "object", "additionalProperties": false, "required": ["op", "pos", "lines"],
                 "properties": {
                    "op": {"const": "replace"}, "pos": anchor, "end": anchor,
                    "lines": {"oneOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}, {"type": "null"}]}
                 }},
                {"type": "object", "additionalProperties": false, "required": ["op", "lines"],
                 "properties": {
                    "op": {"enum": ["append", "prepend"]}, "pos": anchor,
                    "lines": {"oneOf": [{"type": "array", "minItems": 1, "items": {"type": "string"}}, {"type": "string"}]}
                 }}
            ]}}
        }
    })
}

/// The grammar of `dialect` in `format`, or why that pair does not exist.
pub fn grammar(dialect: Dialect, format: GrammarFormat) -> Result<String, String> {
    // `auto` is the registry's first dialect, the one it falls back to.
    let dialect = dialect
        .get()
        .unwrap_or(hashline_apply::registry::DIALECTS[0]);
    match (dialect.name(), format) {
        ("hashline", GrammarFormat::Lark) => Ok(HASHLINE_LARK.to_string()),
        ("hashline", GrammarFormat::Gbnf) => Ok(HASHLINE_GBNF.to_string()),
        ("hash-json", GrammarFormat::JsonSchema) => Ok(pretty(&hash_json_schema())),
        ("lineid-json", GrammarFormat::JsonSchema) => Ok(pretty(&lineid_json_schema())),
        ("hashline", GrammarFormat::JsonSchema) => {
            Err("the hashline language is text, not JSON: use --format lark or gbnf".to_string())
        }
        ("hash-json" | "lineid-json", _) => {
            Err("the JSON dialects have a JSON Schema: use --format json-schema".to_string())
        }
        (other, _) => Err(format!(
            "{other} is not a language of hashline's own: its grammar is its tool's (not shipped \
             here)"
        )),
    }
}

/// `hashline grammar` as a [`Response`]: the grammar as `text`, or an `E_USAGE` refusal naming
/// the formats the dialect has; the `--json` object adds `grammar: {format, dialect}`.
pub fn response(dialect: Dialect, format: GrammarFormat) -> Response {
    let outcome = match grammar(dialect, format) {
        Ok(text) => Outcome::success(text),
        Err(why) => Outcome::refused(ErrorCode::Usage, why),
    };
    let report = GrammarReport {
        outcome: &outcome,
        grammar: Asked {
            format: format.as_str(),
            dialect: dialect.as_str(),
        },
    };
    Response::new(outcome.clone(), &report)
}

/// `grammar`'s `--json` object.
#[derive(Serialize)]
struct GrammarReport<'a> {
    #[serde(flatten)]
    outcome: &'a Outcome,
    grammar: Asked,
}

/// What a `grammar` call asked for.
#[derive(Serialize)]
struct Asked {
    format: &'static str,
    dialect: &'static str,
}

fn pretty(v: &serde_json::Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_answers() {
        assert!(
            grammar(Dialect::Hashline, GrammarFormat::Lark).is_ok_and(|g| g.contains("emit_op"))
        );
        assert!(
            grammar(Dialect::Hashline, GrammarFormat::Gbnf).is_ok_and(|g| g.contains("\nroot ::="))
        );
        assert!(grammar(Dialect::HashJson, GrammarFormat::JsonSchema)
            .is_ok_and(|g| g.contains("returnMode")));
        assert!(grammar(Dialect::LineidJson, GrammarFormat::JsonSchema)
            .is_ok_and(|g| g.contains("filePath")));
        assert!(grammar(Dialect::Hashline, GrammarFormat::JsonSchema).is_err());
        assert!(grammar(Dialect::HashJson, GrammarFormat::Lark).is_err());
    }

    #[test]
    fn strict_grammar_examples_parse_leniently() {
        use hashline_syntax::hashline::{parse_body, split_sections, SplitOptions};
        let patch = "*** Begin Patch\n¶a.ts#0A3B\nreplace 1..2:\n+x\ndelete 3..3\ninsert tail:\n+y\n*** End Patch\n";
        let sections = split_sections(patch, &SplitOptions::default()).expect("split");
        assert_eq!(sections.len(), 1);
        assert_eq!(parse_body(&sections[0].body).expect("parse").hunks.len(), 3);
    }
}
