//! Apply per hunk: a hashline patch of N one-line replacements on a 100,000-line in-memory file
//! (read recorded, patch parsed, anchors checked, spliced, guarded, encoded), for N = 10, 100
//! and 1,000 (criterion; `cargo bench -p hashline-apply`). The time per element is the time
//! per hunk.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hashline_apply::hashline::{apply_to_text, EditOptions};
use hashline_state::{MemoryStore, SnapshotStore};

const LINES: usize = 100_000;

fn file() -> String {
    let mut text = String::with_capacity(LINES * 40);
    for i in 1..=LINES {
        let _ = writeln!(text, "export const v{i} = f({i}, \"k{}\");", i % 97);
    }
    text
}

fn patch(tag: &str, hunks: usize) -> String {
    let step = LINES / hunks;
    let mut text = format!("¶e.ts#{tag}\n");
    for k in 0..hunks {
        let line = k * step + step / 2 + 1;
        let _ = write!(
            text,
            "replace {line}..{line}:\n+export const v{line} = f({line}, \"edited\");\n"
        );
    }
    text
}

fn bench_apply(c: &mut Criterion) {
    let original = file();
    let mut group = c.benchmark_group("apply_100k_lines");
    group.sample_size(10);
    for hunks in [10usize, 100, 1_000] {
        group.throughput(Throughput::Elements(hunks as u64));
        group.bench_with_input(BenchmarkId::from_parameter(hunks), &hunks, |b, &hunks| {
            b.iter_batched(
                || {
                    let store = MemoryStore::new();
                    let tag = store.record("e.ts", &original).expect("record");
                    let files =
                        BTreeMap::from([("e.ts".to_string(), original.clone().into_bytes())]);
                    (store, files, patch(&tag, hunks))
                },
                |(store, mut files, input)| {
                    let outcome = apply_to_text(
                        &mut files,
                        &store,
                        black_box(&input),
                        &EditOptions::default(),
                    );
                    assert!(outcome.ok, "{}", outcome.text);
                    files
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench_apply);
criterion_main!(benches);
