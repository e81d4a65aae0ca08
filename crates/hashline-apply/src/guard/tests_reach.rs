//! A removed declaration still used, when the file binds the name again only out of the use's
//! reach (another function, a nested block that has closed): [`super::reach`].

use super::tests::{replace, run};

/// Whether `got` holds a warning with `code`.
fn warns(got: &[String], code: &str) -> bool {
    got.iter().any(|w| w.starts_with(code))
}

#[test]
fn a_declaration_bound_again_only_in_another_function_is_warned() {
    // Each test declares its own `output`: the one of `b` does not reach `a`'s use.
    let go = "func a() {\n\tf := flag()\n\toutput := f.String()\n\tuse(output)\n}\n\n\
              func b() {\n\toutput := g()\n\tuse(output)\n}\n";
    let got = run("m.go", go, vec![replace(2, 3, &["\tf := newFlag()"])]).expect("ok");
    assert!(warns(&got, "[W_UNDECLARED_NAME]"), "{got:?}");
    // A parameter of the enclosing function does reach it.
    let go = "func a(output string) {\n\tf := flag()\n\toutput := f.String()\n\tuse(output)\n}\n";
    let got = run("m.go", go, vec![replace(2, 3, &["\tf := newFlag()"])]).expect("ok");
    assert!(!warns(&got, "[W_UNDECLARED_NAME]"), "{got:?}");
}

#[test]
fn an_import_named_inside_a_function_line_that_binds_is_still_warned() {
    // `with … as e:` binds `e`, not `click`: the swallowed import is still used.
    let py = "import pytest\n\nimport click\n\n\ndef f():\n    with pytest.raises(click.Abort) as e:\n        \
              click.echo(e)\n";
    let got = run("a.py", py, vec![replace(1, 3, &[])]).expect("ok");
    assert!(warns(&got, "[W_UNDECLARED_NAME]"), "{got:?}");
    // Bound again at the top level, below the use: in reach.
    let py = "import pytest\n\nimport click\n\n\ndef f():\n    click.echo(1)\n\n\nclick = None\n";
    assert_eq!(run("a.py", py, vec![replace(1, 3, &[])]), Ok(vec![]));
    // Bound inside the function that uses it, in an earlier block: a Python local reaches the
    // whole function.
    let py = "import click\n\n\ndef f(a):\n    if a:\n        click = g()\n    click.echo(1)\n";
    assert_eq!(run("a.py", py, vec![replace(1, 1, &[])]), Ok(vec![]));
}

#[test]
fn a_python_with_or_except_header_binds_only_what_follows_as() {
    use super::names::{bindings, Lang};
    let got = bindings(Lang::Python, "with pytest.raises(click.Abort) as e:");
    assert_eq!(got, ["e"]);
    let got = bindings(Lang::Python, "except (OSError, click.Abort) as exc:");
    assert_eq!(got, ["exc"]);
    assert!(bindings(Lang::Python, "with lock:").is_empty());
    // Other binding lines still bind every name they hold.
    let got = bindings(Lang::Python, "def f(click):");
    assert!(got.iter().any(|b| b == "click"), "{got:?}");
}
