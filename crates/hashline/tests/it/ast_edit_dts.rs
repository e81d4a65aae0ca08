//! TypeScript declaration files that tree-sitter-typescript 0.23.2 cannot parse whole (issue 13:
//! 801 valid `.d.ts` files of date-fns were listed as parse errors and skipped): `in`/`out`
//! variance annotations and type arguments after `import("…")` are searched around, through the
//! real binary. A file with any other error is still a parse error.

use crate::support;

use std::fs;
use std::path::Path;

use support::cli::hashline;

const VARIANCE: &str = "export interface Box<in out T> {\n  value: T;\n}\n\
export type Reader<out T> = () => T;\n\
export type Writer<in T> = (value: T) => void;\n\
export declare function reset(box: Box<unknown>): void;\n\
export declare function log(message: string): void;\n";

const IMPORT_TYPE: &str = "export declare function addDays(date: Date, amount: number): void;\n\
export declare function constructFrom(date: Date, context?: import(\"./types.js\").ContextFn<Date>): void;\n";

const BROKEN: &str = "export declare function f(: void;\n";

/// A known gap beside a real error: the gap does not excuse it.
const MIXED: &str = "export type R<out T> = T;\nexport declare function g(: void;\n";

const PAT: &str = "export declare function $F($$$A): void;";
const OUT: &str = "export declare function $F($$$A): undefined;";

fn setup() -> (tempfile::TempDir, tempfile::TempDir) {
    let root = tempfile::tempdir().expect("root");
    let state = tempfile::tempdir().expect("state");
    fs::create_dir(root.path().join("types")).expect("types/");
    for (name, text) in [
        ("variance.d.ts", VARIANCE),
        ("addDays.d.ts", IMPORT_TYPE),
        ("broken.d.ts", BROKEN),
        ("mixed.d.ts", MIXED),
    ] {
        fs::write(root.path().join("types").join(name), text).expect("write");
    }
    (root, state)
}

fn read(root: &Path, name: &str) -> String {
    fs::read_to_string(root.join("types").join(name)).expect("read")
}

#[test]
fn declaration_files_with_grammar_gaps_are_rewritten_around_them_with_a_warning() {
    let (root, state) = setup();
    let (r, s) = (root.path(), state.path());
    let run = hashline(
        r,
        s,
        &["--json", "ast-edit", "--pat", PAT, "--out", OUT, "types"],
        b"",
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    let json = run.json();
    let preview = &json["preview"];

    // Only the files with a real syntax error are parse issues.
    let issues: Vec<&str> = preview["parse_issues"]
        .as_array()
        .expect("parse_issues")
        .iter()
        .map(|i| i.as_str().expect("a line"))
        .collect();
    assert_eq!(issues.len(), 2, "{issues:?}");
    for (issue, file) in issues.iter().zip(["broken.d.ts", "mixed.d.ts"]) {
        assert_eq!(
            *issue,
            format!("types/{file}: parse error (syntax tree contains error nodes)")
        );
    }

    // Every match outside the unsupported constructs is previewed; the one holding
    // `import("…").ContextFn<Date>` is left out and named.
    let matches: Vec<(String, i64)> = preview["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .map(|m| {
            (
                m["file"].as_str().expect("file").to_string(),
                m["line"].as_i64().expect("line"),
            )
        })
        .collect();
    assert_eq!(
        matches,
        [
            ("types/addDays.d.ts".to_string(), 1),
            ("types/variance.d.ts".to_string(), 6),
            ("types/variance.d.ts".to_string(), 7),
        ]
    );
    let warnings = json["warnings"].as_array().expect("warnings");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let warning = warnings[0].as_str().expect("a line");
    assert_eq!(
        warning,
        "[W_GRAMMAR_GAP] 2 TypeScript files hold valid syntax tree-sitter-typescript 0.23.2 \
         cannot parse (`in`/`out` variance annotations, type arguments after `import(\"…\")`); \
         searched everywhere else: types/addDays.d.ts (line 2), types/variance.d.ts (lines 1, 4, \
         5). 1 match holding those constructs not rewritten (edit by hand): types/addDays.d.ts:2"
    );
    let text = json["text"].as_str().expect("text");
    assert!(
        text.ends_with(&format!("\n\nWarnings:\n{warning}")),
        "{text}"
    );
    assert!(!text.contains("variance.d.ts: parse error"), "{text}");

    // Applied: the matches land, the unsupported constructs are left as they were.
    let apply = hashline(r, s, &["resolve", "apply"], b"");
    assert_eq!(apply.code, 0, "{}", apply.stdout);
    assert_eq!(
        read(r, "variance.d.ts"),
        VARIANCE.replace("): void;\n", "): undefined;\n")
    );
    assert_eq!(
        read(r, "addDays.d.ts"),
        IMPORT_TYPE.replacen("): void;\n", "): undefined;\n", 1)
    );
    assert_eq!(read(r, "broken.d.ts"), BROKEN);
}

#[test]
fn plain_text_preview_lists_no_parse_error_for_a_valid_declaration_file() {
    let (root, state) = setup();
    let run = hashline(
        root.path(),
        state.path(),
        &[
            "ast-edit",
            "--pat",
            "export type $N<$$$P> = $T;",
            "--out",
            "export type $N<$$$P> = Readonly<$T>;",
            "types/variance.d.ts",
            "types/addDays.d.ts",
        ],
        b"",
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(!run.stdout.contains("parse error"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("Warnings:\n[W_GRAMMAR_GAP] 2 TypeScript files"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_hashline_edit_of_a_declaration_file_with_grammar_gaps_is_not_refused() {
    let (root, state) = setup();
    let (r, s) = (root.path(), state.path());
    let read_out = hashline(r, s, &["read", "types/variance.d.ts"], b"");
    assert_eq!(read_out.code, 0, "{}", read_out.stdout);
    let header = read_out
        .stdout
        .lines()
        .next()
        .expect("a header")
        .to_string();
    // `replace block 1:` finds the interface whose header the grammar cannot parse.
    let patch = format!(
        "{header}\nreplace 7..7:\n+export declare function log(message: string, level?: number): void;\n\
         replace block 1:\n+export interface Box<in out T> {{\n+  value: T;\n+  readonly size: number;\n+}}\n"
    );
    let edit = hashline(r, s, &["edit"], patch.as_bytes());
    assert_eq!(edit.code, 0, "{}", edit.stdout);
    let text = read(r, "variance.d.ts");
    assert!(
        text.starts_with("export interface Box<in out T> {\n  value: T;\n  readonly size: number;\n}\nexport type Reader"),
        "{text}"
    );
    assert!(text.ends_with("log(message: string, level?: number): void;\n"));
}
