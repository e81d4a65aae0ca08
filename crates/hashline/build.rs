//! Link the `hashline` binary as a position-dependent executable on Linux: a PIE of this size
//! (tree-sitter grammars, SQLite) applies about 26,000 relocations and touches their pages at
//! every start, most of a small `read`'s time. The code is position-independent either way.
//! A static build (`crt-static`, what `cargo xtask dist` makes) is left alone: rustc links it
//! position-dependent itself when asked (`relocation-model=static`), and `-no-pie` on top of a
//! static PIE makes a binary that crashes at start.

fn main() {
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let gnu = std::env::var("CARGO_CFG_TARGET_ENV").is_ok_and(|env| env == "gnu");
    let crt_static = std::env::var("CARGO_CFG_TARGET_FEATURE")
        .is_ok_and(|features| features.split(',').any(|f| f == "crt-static"));
    if linux && gnu && !crt_static {
        println!("cargo:rustc-link-arg-bin=hashline=-no-pie");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
