// A few cases of two dialects' conformance corpora (`../shared/conformance`), through the
// binding: the hashline language and the V4A apply-patch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync, mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Session } from 'hashline';
import { conformance, scratch, snapshot } from './helpers.mjs';

const HASHLINE = [
  '002-bare-numeric-range-rejected',
  '003-canonical-replace-range',
  '005-canonical-insert-before',
  '006-canonical-insert-after',
  '007-canonical-insert-head',
  '008-canonical-insert-tail',
];

const APPLY_PATCH = [
  '001-scenario-001_add_file',
  '002-scenario-002_multiple_operations',
  '004-scenario-004_move_to_new_directory',
  '005-scenario-005_rejects_empty_patch',
  '007-scenario-007_rejects_missing_file_delete',
];

for (const name of HASHLINE) {
  test(`hashline case ${name}`, (t) => {
    const base = conformance(t);
    if (!base) return;
    const { root } = scratch(t);
    const dir = join(base, 'hashline', 'cases', name);
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8'));
    assert.ok(meta.kind === 'apply' && meta.tag === 'live', JSON.stringify(meta));
    const before = readFileSync(join(dir, 'before.txt'));
    writeFileSync(join(root, meta.path), before);
    const session = new Session(root);
    const tag = session.readSync(meta.path).text.split('\n')[0].split('#').pop();
    const patch = readFileSync(join(dir, 'patch.txt'), 'utf8').replaceAll('{TAG}', tag);
    const result = session.edit({ request: patch, dialect: 'hashline' });
    if (meta.expect.after) {
      assert.ok(result.ok, result.text);
      assert.deepEqual(readFileSync(join(root, meta.path)), readFileSync(join(dir, meta.expect.after)));
    } else {
      assert.ok(!result.ok && result.code, result.text);
      for (const needle of meta.expect.error_substrings) assert.ok(result.text.includes(needle), result.text);
      assert.deepEqual(readFileSync(join(root, meta.path)), before);
    }
  });
}

/** Copy `from` into `to` file by file (the shared data is read-only; the copies are not). */
function copyTree(from, to) {
  if (!existsSync(from)) return;
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const target = join(to, relative(from, source));
    if (statSync(source).isDirectory()) {
      mkdirSync(target, { recursive: true });
      copyTree(source, target);
    } else {
      writeFileSync(target, readFileSync(source));
    }
  }
}

for (const name of APPLY_PATCH) {
  test(`apply-patch case ${name}`, (t) => {
    const base = conformance(t);
    if (!base) return;
    const { root } = scratch(t);
    const dir = join(base, 'apply-patch', 'cases', name);
    copyTree(join(dir, 'input'), root);
    const oracle = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
    const before = snapshot(root);
    const result = new Session(root).edit({ request: readFileSync(join(dir, 'patch.txt'), 'utf8'), dialect: 'apply-patch' });
    const expect = (key) => oracle[key].replaceAll('{ROOT}', root).replace(/\n+$/, '');
    if (oracle.exit === 0) {
      assert.ok(result.ok, result.text);
      assert.equal(result.text.replace(/\n+$/, ''), expect('stdout'));
      assert.deepEqual(snapshot(root), snapshot(join(dir, 'expected')));
    } else {
      assert.ok(!result.ok && result.code, result.text);
      assert.equal(result.text.replace(/\n+$/, ''), expect('stderr'));
      assert.deepEqual(snapshot(root), before);
    }
  });
}
