//! A key given twice at one level by a range one line short ([`super::twice`]), and the rows
//! like their neighbour that a correct edit adds.

use super::tests::{replace, run};

/// Whether `got` holds a warning with `code`.
fn warns(got: &[String], code: &str) -> bool {
    got.iter().any(|w| w.starts_with(code))
}

#[test]
fn a_match_arm_left_beside_its_new_version_is_warned() {
    let rs = "fn f(s: Option<&str>) -> u64 {\n    match s {\n        Some(\"M\") => 2,\n        \
              Some(\"G\") => 3,\n        _ => 0,\n    }\n}\n";
    // The range stops one line short: the old `Some("G")` arm stays under the new one.
    let rows = ["        Some(\"M\") => 20,", "        Some(\"G\") => 30,"];
    let got = run("a.rs", rs, vec![replace(3, 3, &rows)]).expect("ok");
    assert!(warns(&got, "[W_DUPLICATE_KEY]"), "{got:?}");
    // A new arm beside the others is no duplicate.
    let rows = ["        Some(\"M\") => 2,", "        Some(\"T\") => 4,"];
    assert_eq!(run("a.rs", rs, vec![replace(3, 3, &rows)]), Ok(vec![]));
}

#[test]
fn the_same_key_in_another_entry_or_in_text_is_no_duplicate() {
    // The same key in the next object of a list is a new entry.
    let yaml = "- name: a\n  run: x\n- name: b\n  run: y\n";
    let got = run(
        "c.yml",
        yaml,
        vec![replace(2, 2, &["  run: z", "- name: c", "  run: z"])],
    );
    assert_eq!(got, Ok(vec![]));
    // Text of a block scalar is no key.
    let yaml = "run: |\n  echo: a\n  echo: b\n";
    assert_eq!(
        run("c.yml", yaml, vec![replace(2, 2, &["  echo: c"])]),
        Ok(vec![])
    );
}

#[test]
fn a_keyword_argument_or_declaration_given_twice_is_warned() {
    // The last keyword argument, without its comma.
    let py = "f(\n    a=1,\n    b=2\n)\n";
    let got = run("a.py", py, vec![replace(2, 2, &["    a=3,", "    b=4,"])]).expect("ok");
    assert!(warns(&got, "[W_DUPLICATE_KEY]"), "{got:?}");
    // A plain statement repeated is no key.
    let py = "def f():\n    a = 1\n    b = 2\n";
    let got = run("a.py", py, vec![replace(2, 2, &["    b = 1", "    a = 2"])]);
    assert_eq!(got, Ok(vec![]));
    // A declaration rows above the payload's edge, in the same block.
    let js = "function f() {\n\tconst a = g();\n\n\tconst options = h(a);\n\tuse(options);\n}\n";
    let rows = [
        "\tconst options = k();",
        "\tif (x) {",
        "\t\ty();",
        "\t}",
        "\tconst b = g();",
    ];
    let got = run("a.js", js, vec![replace(2, 3, &rows)]).expect("ok");
    assert!(warns(&got, "[W_DUPLICATE_KEY]"), "{got:?}");
    // Go `if` headers declare in their own scopes.
    let go = "func f() {\n\tif err := a(); err != nil {\n\t\tx()\n\t}\n}\n";
    let rows = [
        "\t\tx()",
        "\t}",
        "\tif err := b(); err != nil {",
        "\t\ty()",
        "\t}",
    ];
    assert_eq!(run("m.go", go, vec![replace(3, 4, &rows)]), Ok(vec![]));
}

#[test]
fn a_block_left_empty_by_the_range_is_warned() {
    let rs = "fn f(a: bool) {\n    if a {\n        x();\n    } else {\n        y();\n    }\n    z();\n}\n";
    // The range ends one line late and takes the `else` block's only statement.
    let got = run(
        "a.rs",
        rs,
        vec![replace(3, 5, &["        w();", "    } else {"])],
    )
    .expect("ok");
    assert!(warns(&got, "[W_EMPTIED_BLOCK]"), "{got:?}");
    let got = run("a.rs", rs, vec![replace(5, 5, &[])]).expect("ok");
    assert!(warns(&got, "[W_EMPTIED_BLOCK]"), "{got:?}");
    // The `else` dropped with its code, or its code rewritten: fine.
    assert_eq!(run("a.rs", rs, vec![replace(4, 6, &["    }"])]), Ok(vec![]));
    let got = run("a.rs", rs, vec![replace(5, 5, &["        v();"])]);
    assert_eq!(got, Ok(vec![]));
}
