// The slow calls run on the libuv pool: the event loop keeps turning while `astEdit` works,
// and two reads of one session run at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session } from 'hashline';
import { scratch } from './helpers.mjs';

test('the event loop runs during an astEdit', async (t) => {
  const { root } = scratch(t);
  let rows = '';
  for (let i = 0; i < 60000; i++) rows += `value_${i} = compute(${i}, ${i + 1})\n`;
  writeFileSync(join(root, 'big.py'), rows);
  const session = new Session(root);
  const ticks = [];
  const timer = setInterval(() => ticks.push(performance.now()), 1);
  const start = performance.now();
  const result = await session.astEdit([['compute($A, $B)', 'compute($B, $A)']], ['big.py']);
  const end = performance.now();
  clearInterval(timer);
  assert.ok(result.ok, result.text);
  const took = end - start;
  assert.ok(took > 200, `the call took ${took.toFixed(0)} ms: too quick to tell`);
  // Ticks all along the call: the longest pause is a small part of it.
  const during = ticks.filter((x) => x >= start && x <= end);
  const points = [start, ...during, end];
  const gaps = points.slice(1).map((x, i) => x - points[i]);
  assert.ok(Math.max(...gaps) < took / 3, `longest pause ${Math.max(...gaps).toFixed(0)} ms of ${took.toFixed(0)} ms`);
});

test('reads of two files run at once and all answer', async (t) => {
  const { root } = scratch(t);
  for (const name of ['a.txt', 'b.txt']) {
    writeFileSync(join(root, name), Array.from({ length: 200 }, (_, i) => `${name} ${i + 1}\n`).join(''));
  }
  const session = new Session(root);
  const reads = [];
  for (let i = 1; i <= 40; i++) {
    for (const name of ['a.txt', 'b.txt']) reads.push(session.read(name, { offset: i, limit: 1 }));
  }
  const results = await Promise.all(reads);
  assert.ok(results.every((r) => r.ok));
  // Each answer is its own read: the row asked for, in the order asked.
  results.forEach((r, k) => {
    const name = k % 2 ? 'b.txt' : 'a.txt';
    const i = (k >> 1) + 1;
    assert.equal(r.text.split('\n')[1], `${i}:${name} ${i}`, r.text);
  });
});
