//! Throughput of the anchors every read computes: the whole-file tag (of one text, and of one
//! in three parts), hash-json line hashes and lineid IDs, on 1 MiB of code-like text
//! (criterion; `cargo bench -p hashline-anchor`).

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hashline_anchor::{hash_json, lineid, tag};
use hashline_core::Pieces;

/// About `bytes` bytes of code-like lines (≈ 60 bytes each, some with trailing blanks).
fn code(bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 128);
    let mut i = 0usize;
    while text.len() < bytes {
        i += 1;
        let indent = "    ".repeat(i % 4);
        let trailing = if i.is_multiple_of(7) { "  " } else { "" };
        let _ = writeln!(
            text,
            "{indent}let value_{i} = compute({i}, \"item {}\");{trailing}",
            i % 997
        );
    }
    text
}

fn bench_anchors(c: &mut Criterion) {
    let text = code(1 << 20);
    let mut group = c.benchmark_group("anchors_1MiB");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("file_tag", |b| b.iter(|| tag::file_tag(black_box(&text))));
    // The same text as three line-aligned parts (an edited file's new text).
    let (a, b) = (text.len() / 3, text.len() * 2 / 3);
    let (a, b) = (
        text[..a].rfind('\n').map_or(0, |i| i + 1),
        text[..b].rfind('\n').map_or(0, |i| i + 1),
    );
    let parts = Pieces::new([&text[..a], &text[a..b], &text[b..]]);
    group.bench_function("file_tag_pieces_3", |b| {
        b.iter(|| tag::file_tag_pieces(black_box(&parts)))
    });
    group.bench_function("line_count", |b| {
        b.iter(|| tag::line_count(black_box(&text)))
    });
    group.bench_function("hash_json_line_hashes", |b| {
        b.iter(|| hash_json::hash_lines(black_box(&text)))
    });
    group.bench_function("lineid_line_ids", |b| {
        b.iter(|| lineid::line_ids(black_box(&text)))
    });
    group.finish();
}

criterion_group!(benches, bench_anchors);
criterion_main!(benches);
