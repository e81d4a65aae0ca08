//! The Node half of `cargo xtask bindings [--debug]`: the npm package built, packed, installed
//! into a fresh npm project and tested there.
//!
//! The cdylib of `bindings/node` is built with cargo (debug with `--debug`, sharing the target
//! directory), copied with the package's JavaScript and type files to `<target>/npm/package/`
//! as `hashline.node`, and packed by `npm pack` into `<target>/npm/hashline-VERSION.tgz`. A
//! fresh project, `$HASHLINE_NODE_BINDINGS_DIR/fresh` (default
//! `~/.cache/hashline-node-bindings/fresh`), made anew each run, installs the tarball as a user
//! would, and the pinned `ai` package (npm's cache makes later installs quick); the suite
//! (`bindings/node/test`) is copied there and run with `node --test`, then with `bun test`
//! (Bun from its npm package), and `tsc --strict` checks the declarations against
//! `test/types.ts`. Without Node 18 or npm,
//! or when the npm registry cannot be reached, it is `skipped:`; under `CI` a failure.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::bindings::Unavailable;

/// The AI SDK the suite's `hashline/ai` test installs: the newest major that runs on Node 20
/// (`ai` 7 wants Node 22).
const AI: &str = "ai@6.0.325";

/// Bun, the second runtime the suite runs under (`bun test` runs `node:test` suites): its npm
/// package carries the binary (the version `cargo xtask bench` runs its peer with).
const BUN: &str = "bun@1.4.5";

/// The TypeScript compiler that checks the shipped `.d.ts` against `test/types.ts`.
const TYPESCRIPT: &str = "typescript@5.9.3";

/// The package's files shipped beside the native module.
const FILES: [&str; 5] = ["package.json", "index.js", "index.d.ts", "ai.js", "ai.d.ts"];

/// Build, pack, install and test the Node package.
pub fn build_and_test(debug: bool) -> Result<Result<(), String>, Unavailable> {
    let node = which(
        "node",
        &[
            "-e",
            "process.exit(+process.versions.node.split('.')[0] >= 18 ? 0 : 1)",
        ],
    )
    .ok_or_else(|| Unavailable("no node 18 or later".into()))?;
    let npm = which("npm", &["--version"]).ok_or_else(|| Unavailable("no npm".into()))?;
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let package = repo.join("bindings/node");

    let built = Instant::now();
    let stage = match build(&package, debug) {
        Ok(stage) => stage,
        Err(e) => return Ok(Err(e)),
    };
    let build_time = built.elapsed();

    let installed = Instant::now();
    let out = stage.parent().unwrap_or(&stage).to_path_buf();
    let tarball = match pack(&npm, &stage, &out) {
        Ok(t) => t,
        Err(e) => return Ok(Err(e)),
    };
    let fresh = cache_dir().join("fresh");
    let _ = std::fs::remove_dir_all(&fresh);
    if let Err(e) = std::fs::create_dir_all(fresh.join("test")) {
        return Ok(Err(format!("{}: {e}", fresh.display())));
    }
    let manifest = r#"{ "name": "hashline-fresh", "private": true }"#;
    if let Err(e) = std::fs::write(fresh.join("package.json"), manifest) {
        return Ok(Err(e.to_string()));
    }
    // The tarball alone: no dependency, so no registry; a failure here is the package's.
    let mut local = Command::new(&npm);
    local
        .args([
            "install",
            "--offline",
            "--no-audit",
            "--no-fund",
            "--silent",
        ])
        .arg(&tarball)
        .current_dir(&fresh);
    if let Err(e) = crate::status(&mut local) {
        return Ok(Err(e));
    }
    // The peer, Bun and TypeScript from the registry (or npm's cache).
    let peer = Command::new(&npm)
        .args([
            "install",
            "--prefer-offline",
            "--no-audit",
            "--no-fund",
            "--silent",
            AI,
            BUN,
            TYPESCRIPT,
        ])
        .current_dir(&fresh)
        .output()
        .map_err(|e| Unavailable(format!("npm: {e}")))?;
    if !peer.status.success() {
        let err = String::from_utf8_lossy(&peer.stderr);
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(Unavailable(format!(
            "npm install {AI} {BUN} failed: {last}"
        )));
    }
    let install_time = installed.elapsed();

    let tested = Instant::now();
    let mut suite = Vec::new();
    match std::fs::read_dir(package.join("test")) {
        Ok(dir) => {
            for entry in dir.filter_map(Result::ok) {
                let name = entry.file_name().to_string_lossy().into_owned();
                if let Err(e) = std::fs::copy(entry.path(), fresh.join("test").join(&name)) {
                    return Ok(Err(format!("{name}: {e}")));
                }
                if name.ends_with(".test.mjs") {
                    suite.push(format!("test/{name}"));
                }
            }
        }
        Err(e) => return Ok(Err(format!("bindings/node/test: {e}"))),
    }
    suite.sort();
    let mut test = Command::new(&node);
    test.arg("--test")
        .args(&suite)
        .env("HASHLINE_REPO", &repo)
        .env("HASHLINE_NEED_AI", "1")
        .current_dir(&fresh);
    if let Err(e) = crate::status(&mut test) {
        return Ok(Err(e));
    }
    // The types: the suite's use of the API compiles under `--strict` (the `ai` package's own
    // declarations, which want `@types/node`, skipped), and so do the declarations alone.
    let tsc = fresh.join("node_modules/.bin/tsc");
    let strict = [
        "--noEmit",
        "--strict",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2022",
    ];
    let mut usage = Command::new(&tsc);
    usage
        .args(strict)
        .args(["--skipLibCheck", "test/types.ts"])
        .current_dir(&fresh);
    let mut declarations = Command::new(&tsc);
    declarations
        .args(strict)
        .arg("node_modules/hashline/index.d.ts")
        .current_dir(&fresh);
    for step in [&mut usage, &mut declarations] {
        if let Err(e) = crate::status(step) {
            return Ok(Err(format!("the TypeScript declarations: {e}")));
        }
    }
    let node_time = tested.elapsed();
    let bunned = Instant::now();
    let mut bun = Command::new(fresh.join("node_modules/.bin/bun"));
    bun.args(["test", "./test"])
        .env("HASHLINE_REPO", &repo)
        .env("HASHLINE_NEED_AI", "1")
        .current_dir(&fresh);
    if let Err(e) = crate::status(&mut bun) {
        return Ok(Err(format!("under Bun: {e}")));
    }
    // What `cargo xtask bench` reads to name the build it measures (not packed: `files`).
    let _ = std::fs::write(stage.join("BUILD"), if debug { "debug" } else { "release" });
    let size = std::fs::metadata(&tarball).map(|m| m.len()).unwrap_or(0);
    println!(
        "bindings: node build {:.1}s ({}), pack + npm install {:.1}s ({:.1} MB: {}), tests: node + tsc {:.1}s, bun {:.1}s",
        build_time.as_secs_f64(),
        if debug { "debug" } else { "release" },
        install_time.as_secs_f64(),
        size as f64 / 1e6,
        tarball.display(),
        node_time.as_secs_f64(),
        bunned.elapsed().as_secs_f64()
    );
    Ok(Ok(()))
}

/// Build the cdylib and stage the package in `<target>/npm/package`; its path.
fn build(package: &Path, debug: bool) -> Result<PathBuf, String> {
    let mut cargo = crate::cargo();
    cargo
        .args(["build", "--locked", "--quiet", "--manifest-path"])
        .arg(package.join("Cargo.toml"));
    if !debug {
        cargo.arg("--release");
    }
    crate::status(&mut cargo)?;
    let target = crate::bench::target_dir();
    let library =
        target
            .join(if debug { "debug" } else { "release" })
            .join(if cfg!(target_os = "macos") {
                "libhashline_node.dylib"
            } else if cfg!(windows) {
                "hashline_node.dll"
            } else {
                "libhashline_node.so"
            });
    let stage = target.join("npm/package");
    let _ = std::fs::remove_dir_all(&stage);
    std::fs::create_dir_all(&stage).map_err(|e| format!("{}: {e}", stage.display()))?;
    for file in FILES {
        std::fs::copy(package.join(file), stage.join(file)).map_err(|e| format!("{file}: {e}"))?;
    }
    let module = stage.join("hashline.node");
    std::fs::copy(&library, &module).map_err(|e| format!("{}: {e}", library.display()))?;
    if debug {
        // A debug build's line tables triple the module (78 MB), and `npm pack` gzips it all:
        // dropped where binutils' `strip` is at hand (the release profile has none).
        let _ = Command::new("strip")
            .arg("--strip-debug")
            .arg(&module)
            .output();
    }
    Ok(stage)
}

/// `npm pack` of `stage` into `out`; the tarball's path.
fn pack(npm: &Path, stage: &Path, out: &Path) -> Result<PathBuf, String> {
    let packed = Command::new(npm)
        .args(["pack", "--silent", "--pack-destination"])
        .arg(out)
        .current_dir(stage)
        .output()
        .map_err(|e| format!("cannot run npm pack: {e}"))?;
    if !packed.status.success() {
        return Err(format!(
            "npm pack failed: {}",
            String::from_utf8_lossy(&packed.stderr).trim()
        ));
    }
    let name = String::from_utf8_lossy(&packed.stdout).trim().to_string();
    let name = name.lines().last().unwrap_or_default();
    Ok(out.join(name))
}

/// The staged package of the last `cargo xtask bindings` that passed its tests (what the bench
/// row loads) and that build's profile, when there is one.
pub fn staged() -> Option<(PathBuf, String)> {
    let stage = crate::bench::target_dir().join("npm/package");
    let build = std::fs::read_to_string(stage.join("BUILD")).ok()?;
    let index = stage.join("index.js");
    index.is_file().then(|| (index, build.trim().to_string()))
}

/// `$HASHLINE_NODE_BINDINGS_DIR`, else `~/.cache/hashline-node-bindings`.
fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("HASHLINE_NODE_BINDINGS_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
        .join(".cache/hashline-node-bindings")
}

/// `program` when it runs `args` successfully.
fn which(program: &str, args: &[&str]) -> Option<PathBuf> {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|_| PathBuf::from(program))
}
