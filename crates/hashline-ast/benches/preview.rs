//! Throughput of `preview` over a generated TypeScript/Python corpus, and of block resolution
//! on a large file.

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use hashline_ast::{preview, RewriteRequest, Rule, TreeSitterBlocks};
use hashline_core::BlockResolver;

/// A TypeScript module with `functions` functions, each calling `foo` and `console.log`.
fn ts_module(seed: usize, functions: usize) -> String {
    let mut s = String::new();
    for f in 0..functions {
        let _ = write!(
            s,
            "export function f{seed}_{f}(a: number, b: string): number {{\n  if (a > {f}) {{\n    console.log(b, a);\n    return foo(a, foo({f}));\n  }}\n  return a + {seed};\n}}\n\n"
        );
    }
    s
}

fn corpus(files: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for i in 0..files {
        let sub = dir.path().join(format!("pkg{}", i % 10));
        std::fs::create_dir_all(&sub).expect("mkdir");
        std::fs::write(sub.join(format!("m{i}.ts")), ts_module(i, 20)).expect("write");
        if i % 4 == 0 {
            let py = (0..20)
                .map(|f| format!("def g{f}(x):\n    print(x, {f})\n    return foo(x)\n\n"))
                .collect::<String>();
            std::fs::write(sub.join(format!("p{i}.py")), py).expect("write");
        }
    }
    dir
}

fn bench_preview(c: &mut Criterion) {
    let dir = corpus(200);
    let req = |rules: Vec<Rule>| RewriteRequest::new(dir.path(), rules, vec![".".to_string()]);
    let one = req(vec![Rule::new("foo($$$A)", "bar($$$A)")]);
    let two = req(vec![
        Rule::new("console.log($$$A)", "logger.info($$$A)"),
        Rule::new("print($$$A)", "log($$$A)"),
    ]);
    let mut group = c.benchmark_group("preview_200_files");
    group.sample_size(10);
    group.bench_function("one_rule", |b| {
        b.iter(|| black_box(preview(&one).expect("preview")).total_replacements())
    });
    group.bench_function("two_rules", |b| {
        b.iter(|| black_box(preview(&two).expect("preview")).total_replacements())
    });
    let p = preview(&one).expect("preview");
    group.bench_function("render", |b| b.iter(|| black_box(p.render()).len()));
    group.finish();
}

fn bench_blocks(c: &mut Criterion) {
    let text = ts_module(0, 500);
    let resolver = TreeSitterBlocks::new();
    let path = Path::new("big.ts");
    c.bench_function("block_resolve_3500_lines", |b| {
        b.iter(|| black_box(resolver.resolve(path, &text, 1601)))
    });
}

criterion_group!(benches, bench_preview, bench_blocks);
criterion_main!(benches);
