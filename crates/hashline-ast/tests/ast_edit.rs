//! ast_edit end to end over a temporary tree: per-file languages (.ts, .tsx, .py), .gitignore,
//! node_modules, a file with a syntax error, nested matches, refusals, the file cap and the
//! seed's rendering.
// Needs TypeScript, TSX and Python: without those grammars there is nothing to test.
#![cfg(feature = "lang-core")]

use std::fs;
use std::path::Path;

use hashline_anchor::tag::file_tag;
use hashline_ast::{preview, preview_cancellable, AstError, RewriteRequest, Rule};
use hashline_core::ErrorCode;

const FILES: &[(&str, &str)] = &[
    ("src/a.ts", "const x = foo(foo(1));\nfoo(2);\n"),
    (
        "src/b.tsx",
        "export const App = () => <div>{foo(3)}</div>;\n",
    ),
    ("src/broken.ts", "foo(4\n"),
    ("src/ignored.ts", "foo(5);\n"),
    ("py/m.py", "foo(6)\n"),
    ("node_modules/lib/x.ts", "foo(7);\n"),
    ("README.md", "foo(8)\n"),
    ("c.ts", "foo(1).unwrap();\n"),
    (".gitignore", "src/ignored.ts\n"),
];

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, body) in FILES {
        let p = dir.path().join(path);
        fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        fs::write(p, body).expect("write");
    }
    dir
}

fn request(root: &Path, rules: &[(&str, &str)], paths: &[&str]) -> RewriteRequest {
    RewriteRequest::new(
        root,
        rules.iter().map(|(p, r)| Rule::new(*p, *r)).collect(),
        paths.iter().map(|s| s.to_string()).collect(),
    )
}

fn snapshot(root: &Path) -> Vec<Vec<u8>> {
    FILES
        .iter()
        .map(|(p, _)| fs::read(root.join(p)).expect("read"))
        .collect()
}

#[test]
fn directory_preview_over_mixed_languages() {
    let dir = tree();
    let root = dir.path();
    let before = snapshot(root);
    let req = request(root, &[("foo($A)", "bar($A)")], &["py", "src"]);
    let p = preview(&req).expect("preview");

    let paths: Vec<&str> = p.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["py/m.py", "src/a.ts", "src/b.tsx"]);
    assert_eq!(p.total_replacements(), 4);
    assert_eq!(p.files[1].rewritten, b"const x = bar(foo(1));\nbar(2);\n");
    assert_eq!(
        p.files[2].rewritten,
        b"export const App = () => <div>{bar(3)}</div>;\n"
    );
    assert_eq!(p.files[0].rewritten, b"bar(6)\n");
    assert_eq!(p.skipped.len(), 1, "inner foo(1) yields to foo(foo(1))");
    assert_eq!(
        (p.skipped[0].path.as_str(), p.skipped[0].line),
        ("src/a.ts", 1)
    );
    let issues: Vec<String> = p.parse_issues.iter().map(|i| i.to_string()).collect();
    assert_eq!(
        issues,
        ["src/broken.ts: parse error (syntax tree contains error nodes)"]
    );
    assert!(!p.limit_reached);

    let tag = |path: &str| file_tag(FILES.iter().find(|f| f.0 == path).expect("file").1);
    let expected = format!(
        "¶py/m.py#{}\n[1:1]\n-1:foo(6)\n+1:bar(6)\n\n\
         ¶src/a.ts#{}\n[2:1]\n-1:foo(foo(1))\n+1:bar(foo(1))\n[2:2]\n-2:foo(2)\n+2:bar(2)\n\n\
         ¶src/b.tsx#{}\n[3:1]\n-1:foo(3)\n+1:bar(3)\n\n\
         Skipped 1 nested match inside a match of the same rule (the outer match is rewritten; run ast_edit again after applying to rewrite the inner ones):\n\
         - src/a.ts:1 inside line 1 (`foo($A)`)\n\n\
         Parse issues:\n- src/broken.ts: parse error (syntax tree contains error nodes)",
        tag("py/m.py"),
        tag("src/a.ts"),
        tag("src/b.tsx")
    );
    assert_eq!(p.render(), expected);

    let ids: Vec<&str> = p.ids().collect();
    assert_eq!(ids, ["1:1", "2:1", "2:2", "3:1"]);
    let chosen = p.apply_only(&["2:2".to_string()]).expect("apply_only");
    assert_eq!(chosen.len(), 1);
    assert_eq!(chosen[0].1, b"const x = foo(foo(1));\nbar(2);\n");
    assert_eq!(snapshot(root), before, "preview never writes");
}

#[test]
fn walk_from_root_skips_gitignored_and_node_modules_unless_named() {
    let dir = tree();
    let root = dir.path();
    let p = preview(&request(root, &[("foo($A)", "bar($A)")], &["."])).expect("preview");
    let paths: Vec<&str> = p.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["c.ts", "py/m.py", "src/a.ts", "src/b.tsx"]);

    let p = preview(&request(
        root,
        &[("foo($A)", "bar($A)")],
        &["node_modules/**/*.ts"],
    ))
    .expect("preview");
    let paths: Vec<&str> = p.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["node_modules/lib/x.ts"]);

    let p = preview(&request(
        root,
        &[("foo($A)", "bar($A)")],
        &["src/ignored.ts"],
    ))
    .expect("explicit file");
    assert_eq!(p.files.len(), 1);
}

#[test]
fn cross_rule_overlap_refuses_the_call() {
    let dir = tree();
    let req = request(
        dir.path(),
        &[("$E.unwrap()", "$E!"), ("foo($$$A)", "bar($$$A)")],
        &["c.ts"],
    );
    let err = preview(&req).expect_err("overlap");
    assert_eq!(err.code(), ErrorCode::EditConflict);
    let msg = err.to_string();
    assert!(
        msg.contains("`$E.unwrap()`") && msg.contains("`foo($$$A)`") && msg.contains("c.ts:1:1"),
        "{msg}"
    );
}

#[test]
fn undefined_template_variable_refuses_the_call() {
    let dir = tree();
    let err =
        preview(&request(dir.path(), &[("foo($A)", "bar($B)")], &["src"])).expect_err("undefined");
    assert_eq!(err.code(), ErrorCode::BadPattern);
    assert!(err.to_string().contains("$B"), "{err}");
}

#[test]
fn file_cap_sets_limit_reached() {
    let dir = tree();
    let mut req = request(dir.path(), &[("foo($A)", "bar($A)")], &["src", "py"]);
    req.max_files = 1;
    let p = preview(&req).expect("preview");
    assert_eq!(p.files.len(), 1);
    assert!(p.limit_reached);
    assert!(p.render().contains("\n\nLimit reached; narrow paths."));
}

#[test]
fn a_cancelled_preview_parses_nothing_more_and_is_refused() {
    let dir = tree();
    let req = request(dir.path(), &[("foo($A)", "bar($A)")], &["src", "py"]);
    let parsed = std::sync::atomic::AtomicUsize::new(0);
    let count = |_: usize, _: usize| {
        parsed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let err = preview_cancellable(&req, &count, &|| true).expect_err("cancelled");
    assert!(matches!(err, AstError::Cancelled), "{err}");
    assert_eq!(err.code(), ErrorCode::Cancelled);
    assert_eq!(parsed.load(std::sync::atomic::Ordering::Relaxed), 0);
    let p = preview_cancellable(&req, &count, &|| false).expect("not cancelled");
    assert!(!p.files.is_empty());
}

#[test]
fn bad_pattern_is_refused() {
    let dir = tree();
    let err = preview(&request(dir.path(), &[("foo(", "bar(")], &["src/a.ts"]))
        .expect_err("a pattern that compiles for no language is refused");
    assert_eq!(err.code(), ErrorCode::BadPattern);
    assert!(
        err.to_string()
            .starts_with("pattern `foo(` does not compile"),
        "{err}"
    );
}

#[test]
fn request_shape_refusals() {
    let dir = tree();
    let root = dir.path();
    let code = |req: RewriteRequest| preview(&req).expect_err("refused").code();
    assert_eq!(code(request(root, &[], &["src"])), ErrorCode::BadShape);
    assert_eq!(
        code(request(root, &[("", "x")], &["src"])),
        ErrorCode::BadPattern
    );
    assert_eq!(
        code(request(root, &[("a", "x"), ("a", "y")], &["src"])),
        ErrorCode::BadPattern
    );
    assert_eq!(
        code(request(root, &[("a", "x")], &["nope"])),
        ErrorCode::FileNotFound
    );
    assert_eq!(
        code(request(root, &[("a", "x")], &["README.md"])),
        ErrorCode::UnsupportedLanguage
    );
    let mut req = request(root, &[("a", "x")], &["src"]);
    req.lang = Some("cobol".into());
    assert!(matches!(
        preview(&req),
        Err(AstError::UnsupportedLanguage { .. })
    ));
}

#[test]
fn explicit_lang_applies_to_every_candidate() {
    let dir = tree();
    let mut req = request(dir.path(), &[("foo($A)", "bar($A)")], &["README.md"]);
    req.lang = Some("python".into());
    let p = preview(&req).expect("preview");
    assert_eq!(p.files[0].rewritten, b"bar(8)\n");
}

#[test]
fn a_rewrite_that_adds_a_syntax_error_is_refused_unless_allowed() {
    let dir = tree();
    let root = dir.path();
    let mut req = request(root, &[("foo($A)", "foo($A")], &["src/a.ts"]);
    let err = preview(&req).expect_err("refused");
    assert_eq!(err.code(), ErrorCode::SyntaxIntroduced);
    let text = err.to_string();
    assert!(
        text.starts_with(
            "[E_SYNTAX_INTRODUCED] src/a.ts: the rewrite would add a syntax error at "
        ),
        "{text}"
    );
    assert!(text.contains("--allow-syntax-errors"), "{text}");
    req.allow_syntax_errors = true;
    let p = preview(&req).expect("allowed");
    assert_eq!(p.files[0].rewritten, b"const x = foo(foo(1);\nfoo(2;\n");
}

/// A big file (the syntax check's windows are taken) where the only call sits between two
/// template literals holding column-0 lines: a window of the rewritten file reads it as a
/// template, but the reparse of the whole file sees the error, and the rewrite is refused.
#[test]
fn a_rewrite_breaking_code_between_templates_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fill = |from: usize| -> String {
        (from..from + 4_000)
            .map(|i| format!("export const f{i} = {i};\n\n"))
            .collect()
    };
    let snippet =
        "export const a = `\n\nhello\n\n`; render(); export const b = `\n\nworld\n\n`;\n\n";
    let text = format!("{}{snippet}{}", fill(0), fill(4_000));
    fs::write(dir.path().join("big.ts"), &text).expect("write");
    let req = request(dir.path(), &[("render()", "render(1 2)")], &["big.ts"]);
    let err = preview(&req).expect_err("refused");
    assert_eq!(err.code(), ErrorCode::SyntaxIntroduced);
}
