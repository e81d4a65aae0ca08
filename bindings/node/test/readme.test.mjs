// The README's Node example runs as shown, in a scratch directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { repoDir, scratch } from './helpers.mjs';

function example() {
  const text = readFileSync(join(repoDir(), 'README.md'), 'utf8');
  const section = text.split('## Use it from Node')[1].split('\n## ')[0];
  const found = section.match(/```js\n([\s\S]*?)```/);
  assert.ok(found, "the README's Node section has no example");
  return found[1];
}

test('the README example runs', (t) => {
  const code = example();
  assert.ok(code.trim().split('\n').length <= 12, code);
  const { dir } = scratch(t);
  const lines = [];
  const console = { log: (...args) => lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')) };
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    // The example as a CommonJS module whose `require` resolves `hashline` as the user's would.
    new Function('require', 'console', code)(createRequire(import.meta.url), console);
  } finally {
    process.chdir(cwd);
  }
  assert.equal(lines.length, 2, lines.join('\n'));
  assert.ok(lines[0].startsWith('true '), lines[0]);
  assert.equal(lines[1], 'false E_STALE_ANCHOR');
  assert.equal(readFileSync(join(dir, 'demo', 'a.py'), 'utf8'), 'def f():\n    return 2\n');
});
