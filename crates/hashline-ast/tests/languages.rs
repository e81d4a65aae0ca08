//! One rewrite per grammar the issue requires, through file-name inference.
// Needs every ast_edit grammar: without those grammars there is nothing to test.
#![cfg(feature = "lang-edit")]

use std::fs;

use hashline_ast::{preview, RewriteRequest, Rule};

/// (file, content, pattern, rewrite, expected content)
const CASES: &[(&str, &str, &str, &str, &str)] = &[
    (
        "a.ts",
        "let a: number = foo(1);\n",
        "foo($A)",
        "bar($A)",
        "let a: number = bar(1);\n",
    ),
    (
        "a.tsx",
        "const x = <A p={foo(1)} />;\n",
        "foo($A)",
        "bar($A)",
        "const x = <A p={bar(1)} />;\n",
    ),
    (
        "a.js",
        "console.log(a, b);\n",
        "console.log($$$A)",
        "logger.info($$$A)",
        "logger.info(a, b);\n",
    ),
    (
        "a.rs",
        "fn main() {\n    let v = x.unwrap();\n}\n",
        "$E.unwrap()",
        "$E?",
        "fn main() {\n    let v = x?;\n}\n",
    ),
    (
        "a.py",
        "def f():\n    print(x, y)\n",
        "print($$$A)",
        "log($$$A)",
        "def f():\n    log(x, y)\n",
    ),
    (
        "a.go",
        "package m\n\nfunc f() {\n\tfmt.Println(a)\n}\n",
        "fmt.Println($$$A)",
        "log.Println($$$A)",
        "package m\n\nfunc f() {\n\tlog.Println(a)\n}\n",
    ),
    (
        "A.java",
        "class A { void f() { foo(1); } }\n",
        "foo($A)",
        "bar($A)",
        "class A { void f() { bar(1); } }\n",
    ),
    (
        "a.c",
        "int main() { foo(1); return 0; }\n",
        "foo($A)",
        "bar($A)",
        "int main() { bar(1); return 0; }\n",
    ),
    (
        "a.cpp",
        "int main() { std::foo(1); }\n",
        "std::foo($A)",
        "std::bar($A)",
        "int main() { std::bar(1); }\n",
    ),
    (
        "a.json",
        "{\"a\": 1, \"b\": 2}\n",
        "\"a\"",
        "\"z\"",
        "{\"z\": 1, \"b\": 2}\n",
    ),
    ("a.yaml", "a: 1\nb: old\n", "old", "new", "a: 1\nb: new\n"),
    (
        "a.html",
        "<p class=\"x\">hi</p>\n",
        "<p class=\"x\">$$$C</p>",
        "<div>$$$C</div>",
        "<div>hi</div>\n",
    ),
    (
        "a.css",
        "a { color: red; }\n",
        "color: red;",
        "color: blue;",
        "a { color: blue; }\n",
    ),
    (
        "a.sh",
        "echo hello\n",
        "echo $A",
        "printf '%s\\n' $A",
        "printf '%s\\n' hello\n",
    ),
];

#[test]
fn every_required_grammar_rewrites() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut failures = Vec::new();
    for (file, content, pattern, rewrite, expected) in CASES {
        fs::write(dir.path().join(file), content).expect("write");
        let req = RewriteRequest::new(
            dir.path(),
            vec![Rule::new(*pattern, *rewrite)],
            vec![file.to_string()],
        );
        match preview(&req) {
            Ok(p) => match p.files.first() {
                Some(f) if f.rewritten == expected.as_bytes() => {}
                Some(f) => failures.push(format!(
                    "{file}: got {:?}",
                    String::from_utf8_lossy(&f.rewritten)
                )),
                None => failures.push(format!("{file}: no match\n{}", p.render())),
            },
            Err(e) => failures.push(format!("{file}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} fail:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}
