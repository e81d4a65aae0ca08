//! `cargo xtask dist`: the `hashline` binary to ship (profile `dist`: fat LTO, one codegen
//! unit, stripped), and the one `cargo xtask bench` measures.
//!
//! On a Linux glibc host it is linked statically and position-dependent (`crt-static`,
//! `relocation-model=static`): no dynamic loader, no shared libraries to map and bind, no
//! `libgcc_s` constructor probing the CPU. That is a quarter of a small call's process time
//! (`read` of a 10-line file: 1.79 → 1.41 ms, `perf stat -r 400`; spawning `cat`: 0.82 ms).
//! The flags go to the target crates only (`--target HOST`), never to build scripts and
//! proc-macros, which cannot be static. Where a static build is impossible (another OS, no
//! `libc.a`) it falls back to `cargo build --profile dist`, and says so.
//!
//! A static glibc still loads its NSS modules at run time for user lookups: the one such call
//! in the binary is `getpwuid_r`, the home-directory fallback of std (used by the `ignore`
//! crate's global gitignore) when `$HOME` is unset. On a machine whose glibc differs from the
//! build machine's, keep `$HOME` set or install with `cargo install`.

use std::path::PathBuf;

/// Build the binary to install and print where it is (also copied to `<target>/dist/`).
pub fn run() -> Result<(), String> {
    let bin = binary()?;
    let dist = crate::bench::target_dir().join("dist");
    std::fs::create_dir_all(&dist).map_err(|e| format!("cannot create {}: {e}", dist.display()))?;
    let out = dist.join("hashline");
    if bin != out {
        // Replace, never write through: the old file may be running.
        let _ = std::fs::remove_file(&out);
        std::fs::copy(&bin, &out).map_err(|e| format!("cannot copy {}: {e}", bin.display()))?;
    }
    println!("{}", out.display());
    Ok(())
}

/// Build the `dist`-profile binary, statically linked where the host allows it, smoke-test it and
/// return its path.
pub fn binary() -> Result<PathBuf, String> {
    match static_host()? {
        Some(host) => match build_static(&host) {
            Ok(bin) => Ok(bin),
            Err(why) => {
                eprintln!("xtask: no static build ({why}); using the dynamic dist build");
                crate::bench::release_binary()
            }
        },
        None => crate::bench::release_binary(),
    }
}

/// The host triple when it is a Linux glibc target (the one `crt-static` applies to).
fn static_host() -> Result<Option<String>, String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let out = std::process::Command::new(&rustc)
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run {rustc} -vV: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let host = text
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_string);
    Ok(host.filter(|h| h.ends_with("-linux-gnu")))
}

/// `cargo build --release --target HOST` with the static flags added to the caller's
/// `RUSTFLAGS`, then `--version` run once: a binary that does not start is no binary.
fn build_static(host: &str) -> Result<PathBuf, String> {
    let mut flags = std::env::var("RUSTFLAGS").unwrap_or_default();
    flags.push_str(" -C target-feature=+crt-static -C relocation-model=static");
    crate::status(
        crate::cargo()
            .args(["build", "--profile", "dist", "--package", "hashline"])
            .args(["--target", host])
            .env("RUSTFLAGS", flags.trim()),
    )?;
    let bin = crate::bench::target_dir().join(format!("{host}/dist/hashline"));
    let out = std::process::Command::new(&bin)
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} --version failed ({})",
            bin.display(),
            out.status
        ));
    }
    Ok(bin)
}
