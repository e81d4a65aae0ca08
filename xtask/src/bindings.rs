//! `cargo xtask bindings [--debug] [--only python|node]`: the Python package built, installed
//! into a fresh virtual environment and tested there; then the Node package
//! (`bindings_node.rs`).
//!
//! The build tools (maturin, pytest and mypy, pinned below) live in a virtual environment kept
//! between runs, `$HASHLINE_PY_BINDINGS_DIR/tools` (default
//! `~/.cache/hashline-py-bindings/tools`), installed from PyPI when missing or of another
//! version; pytest's wheels are kept beside it (`wheels/`). Each run builds the wheel (release,
//! or `--debug`) into `<target>/wheels`, makes `fresh/` anew, installs the wheel and pytest
//! there without the network, runs `bindings/python/tests` with it, and `mypy --strict` over
//! the installed package's stubs and the tests. Without `python3`, or
//! when PyPI cannot be reached, it prints `skipped:` with the reason and succeeds; with `CI`
//! set it fails instead.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// maturin, the wheel's build backend (the same bound as `pyproject.toml`).
const MATURIN: &str = "maturin==1.16.0";
/// pytest, the suite's runner.
const PYTEST: &str = "pytest==9.2.0";
/// mypy, which checks the type stubs (`_hashline.pyi`, `tools.py`) and the suite's use of them.
const MYPY: &str = "mypy==2.4.1";

/// A reason the run cannot happen on this machine (no Python or Node, no registry):
/// `skipped:` outside CI.
pub(crate) struct Unavailable(pub(crate) String);

/// Build, install and test the Python package, then the Node package (both run; the first
/// failure is the answer).
pub fn run(args: &[String]) -> Result<(), String> {
    let debug = args.iter().any(|a| a == "--debug");
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(String::as_str);
    let python = match only {
        None | Some("python") => settle("Python", build_and_test(debug)),
        _ => Ok(()),
    };
    let node = match only {
        None | Some("node") => settle("Node", crate::bindings_node::build_and_test(debug)),
        _ => Ok(()),
    };
    python.and(node)
}

/// A run's answer: a machine without what it needs skips outside `CI`, fails under it.
fn settle(what: &str, run: Result<Result<(), String>, Unavailable>) -> Result<(), String> {
    match run {
        Ok(result) => result,
        Err(Unavailable(why)) if std::env::var_os("CI").is_none() => {
            println!("skipped: the {what} bindings were not built ({why})");
            Ok(())
        }
        Err(Unavailable(why)) => Err(format!("the {what} bindings cannot be built: {why}")),
    }
}

/// The run; `Err` when the machine lacks what it needs, `Ok(Err)` when the run failed.
fn build_and_test(debug: bool) -> Result<Result<(), String>, Unavailable> {
    let python = which_python()?;
    let home = cache_dir();
    let tools = home.join("tools");
    let wheels = home.join("wheels");
    let started = Instant::now();
    ensure_tools(&python, &tools, &wheels)?;
    let setup = started.elapsed();

    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let package = repo.join("bindings/python");
    let out = crate::bench::target_dir().join("wheels");
    let _ = std::fs::remove_dir_all(&out);
    let built = Instant::now();
    let mut build = Command::new(tools.join("bin/maturin"));
    build
        .arg("build")
        .arg("--manifest-path")
        .arg(package.join("Cargo.toml"))
        .arg("--out")
        .arg(&out)
        .args(["--locked", "--quiet"]);
    if !debug {
        build.arg("--release");
    }
    if let Err(e) = crate::status(&mut build) {
        return Ok(Err(e));
    }
    let build_time = built.elapsed();
    let wheel = match single_wheel(&out) {
        Ok(w) => w,
        Err(e) => return Ok(Err(e)),
    };
    let size = std::fs::metadata(&wheel).map(|m| m.len()).unwrap_or(0);

    let fresh = home.join("fresh");
    let _ = std::fs::remove_dir_all(&fresh);
    let tested = Instant::now();
    let mut venv = Command::new(&python);
    venv.arg("-m").arg("venv").arg(&fresh);
    let mut install = Command::new(fresh.join("bin/python"));
    install
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--find-links",
        ])
        .arg(&wheels)
        .arg(PYTEST)
        .arg(&wheel);
    let mut pytest = Command::new(fresh.join("bin/python"));
    pytest
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(package.join("tests"))
        .current_dir(&home);
    // The installed package as an editor sees it (`py.typed`), strictly, and the tests' calls.
    let mypy = |target: &[&std::ffi::OsStr]| {
        let mut cmd = Command::new(tools.join("bin/mypy"));
        cmd.args(["--strict", "--no-incremental", "--python-executable"])
            .arg(fresh.join("bin/python"))
            .args(target)
            .current_dir(&home);
        cmd
    };
    let mut stubs = mypy(&["-p".as_ref(), "hashline".as_ref()]);
    let mut calls = mypy(&[package.join("tests").as_os_str()]);
    for step in [&mut venv, &mut install, &mut pytest, &mut stubs, &mut calls] {
        if let Err(e) = crate::status(step) {
            return Ok(Err(e));
        }
    }
    // What `cargo xtask bench` reads to name the build it measures.
    let _ = std::fs::write(fresh.join("BUILD"), if debug { "debug" } else { "release" });
    println!(
        "bindings: python tools {:.1}s, wheel build {:.1}s ({}, {:.1} MB: {}), install + tests {:.1}s",
        setup.as_secs_f64(),
        build_time.as_secs_f64(),
        if debug { "debug" } else { "release" },
        size as f64 / 1e6,
        wheel.display(),
        tested.elapsed().as_secs_f64()
    );
    Ok(Ok(()))
}

/// The fresh environment's Python with the package last built and tested, and that build's
/// profile (`debug` or `release`), when there is one.
pub(crate) fn installed_python() -> Option<(PathBuf, String)> {
    let fresh = cache_dir().join("fresh");
    let build = std::fs::read_to_string(fresh.join("BUILD")).ok()?;
    let python = fresh.join("bin/python");
    python.is_file().then(|| (python, build.trim().to_string()))
}

/// `$HASHLINE_PY_BINDINGS_DIR`, else `~/.cache/hashline-py-bindings`.
fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("HASHLINE_PY_BINDINGS_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
        .join(".cache/hashline-py-bindings")
}

/// `python3`, when it runs and has `venv`.
fn which_python() -> Result<PathBuf, Unavailable> {
    let python = PathBuf::from(std::env::var_os("PYTHON").unwrap_or_else(|| "python3".into()));
    let ok = Command::new(&python)
        .args(["-c", "import venv, sys; assert sys.version_info >= (3, 9)"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if ok {
        Ok(python)
    } else {
        Err(Unavailable(format!(
            "no {} 3.9 or later with venv",
            python.display()
        )))
    }
}

/// The tools environment with the pinned maturin and pytest, and pytest's wheels in `wheels`
/// (for the fresh environment's offline install), from PyPI when missing.
fn ensure_tools(python: &Path, tools: &Path, wheels: &Path) -> Result<(), Unavailable> {
    let pip = tools.join("bin/pip");
    let pinned = |spec: &str| {
        let (name, version) = spec.split_once("==").unwrap_or((spec, ""));
        Command::new(&pip)
            .args(["show", name])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).contains(&format!("Version: {version}\n")))
            .unwrap_or(false)
    };
    let has_wheels = std::fs::read_dir(wheels)
        .map(|d| {
            d.filter_map(Result::ok)
                .any(|e| e.file_name().to_string_lossy().starts_with("pytest-"))
        })
        .unwrap_or(false);
    if pinned(MATURIN) && pinned(PYTEST) && pinned(MYPY) && has_wheels {
        return Ok(());
    }
    let run = |cmd: &mut Command, what: &str| -> Result<(), Unavailable> {
        let out = cmd
            .output()
            .map_err(|e| Unavailable(format!("{what}: {e}")))?;
        if out.status.success() {
            return Ok(());
        }
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        Err(Unavailable(format!("{what} failed: {last}")))
    };
    if !pip.exists() {
        run(
            Command::new(python).arg("-m").arg("venv").arg(tools),
            "python3 -m venv",
        )?;
    }
    run(
        Command::new(&pip).args(["install", "--quiet", MATURIN, PYTEST, MYPY]),
        "pip install from PyPI",
    )?;
    run(
        Command::new(&pip)
            .args(["download", "--quiet", "--dest"])
            .arg(wheels)
            .arg(PYTEST),
        "pip download from PyPI",
    )
}

/// The one wheel maturin wrote into `dir`.
fn single_wheel(dir: &Path) -> Result<PathBuf, String> {
    let mut wheels: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("no wheel directory {}: {e}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "whl"))
        .collect();
    match wheels.len() {
        1 => Ok(wheels.remove(0)),
        n => Err(format!("{n} wheels in {}, expected one", dir.display())),
    }
}
