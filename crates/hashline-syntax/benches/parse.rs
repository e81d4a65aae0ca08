//! Throughput of the hashline patch parser: a 1,000-hunk patch split into its section and
//! parsed (criterion; `cargo bench -p hashline-syntax`).

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hashline_syntax::hashline::{parse_body, split_sections, SplitOptions};

/// A section of `hunks` one-line replacements, one every 100 lines.
fn patch(hunks: usize) -> String {
    let mut text = String::from("¶src/e.ts#ABCD\n");
    for k in 0..hunks {
        let line = k * 100 + 51;
        let _ = write!(
            text,
            "replace {line}..{line}:\n+export const v{line} = f({line}, \"edited\");\n"
        );
    }
    text
}

fn bench_parse(c: &mut Criterion) {
    let input = patch(1_000);
    let mut group = c.benchmark_group("hashline_parse_1000_hunks");
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.bench_function("split_and_parse", |b| {
        b.iter(|| {
            let sections =
                split_sections(black_box(&input), &SplitOptions::default()).expect("sections");
            sections
                .iter()
                .map(|s| parse_body(&s.body).expect("body").hunks.len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_parse);
criterion_main!(benches);
