// A recorded agent session replayed through the binding: read, edit with the read's anchors,
// a stale resend refused, a structural rewrite previewed and applied, then undone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Session, HashlineError, version } from 'hashline';
import { scratch } from './helpers.mjs';

const SOURCE = 'def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n';

function header(result) {
  const first = result.text.split('\n')[0];
  assert.ok(first.startsWith('¶'), result.text);
  return first;
}

test('an agent session replays', async (t) => {
  const { dir, root } = scratch(t);
  const file = join(root, 'shapes.py');
  writeFileSync(file, SOURCE);
  const session = new Session(root, { state: join(dir, 'state'), session: 'agent' });

  const read = await session.read('shapes.py');
  assert.equal(read.ok, true);
  assert.equal(read.code, null);
  assert.equal(read.text.split('\n')[1], '1:def area(w, h):');
  assert.deepEqual(read.files.map((f) => f.op), ['read']);

  const patch = `${header(read)}\nreplace 2..2:\n+    return float(w * h)\n`;
  const edit = session.edit({ request: patch });
  assert.ok(edit.ok, edit.text);
  assert.equal(typeof edit.undo, 'number');
  assert.equal(edit.files[0].written, true);
  assert.equal(edit.files[0].op, 'update');
  assert.equal(edit.anchors[0].path, 'shapes.py');
  assert.ok(edit.anchors[0].rows.some((row) => row.includes('return float(w * h)')));
  assert.ok(readFileSync(file, 'utf8').includes('    return float(w * h)\n'));

  // The same patch again: line 2 changed since that read, so its anchor is stale.
  writeFileSync(file, SOURCE.replace('w * h', 'h * w'));
  const before = readFileSync(file);
  const stale = session.edit(patch);
  assert.equal(stale.ok, false);
  assert.equal(stale.code, 'E_STALE_ANCHOR', stale.text);
  assert.equal(stale.undo, null);
  assert.deepEqual(readFileSync(file), before);

  const preview = await session.astEdit([['2 * ($A + $B)', '2 * $A + 2 * $B']], ['shapes.py']);
  assert.ok(preview.ok, preview.text);
  assert.equal(typeof preview.preview, 'number');
  assert.deepEqual(readFileSync(file), before, 'a preview writes nothing');

  const listed = session.resolve();
  assert.ok(listed.ok && listed.text.includes(String(preview.preview)), listed.text);

  const applied = session.resolve('apply', { id: preview.preview });
  assert.ok(applied.ok, applied.text);
  assert.equal(typeof applied.undo, 'number');
  assert.ok(readFileSync(file, 'utf8').includes('return 2 * w + 2 * h'));

  const undoable = session.undoList();
  assert.ok(undoable.ok && undoable.text.includes(String(applied.undo)), undoable.text);
  const undone = session.undo(applied.undo);
  assert.ok(undone.ok, undone.text);
  assert.deepEqual(readFileSync(file), before);
});

test('a session in memory shares nothing with another', (t) => {
  const { root } = scratch(t);
  writeFileSync(join(root, 'a.txt'), 'one\ntwo\n');
  const first = new Session(root);
  const read = first.readSync('a.txt', { offset: 2, limit: 1 });
  assert.ok(read.text.endsWith('\n2:two'), read.text);
  const second = new Session(root);
  const wrote = second.write('a.txt', 'new\n');
  assert.equal(wrote.ok, false);
  assert.equal(wrote.code, 'E_NOT_READ', wrote.text);
  const replaced = first.write('a.txt', new Uint8Array([98, 121, 116, 101, 115, 10]));
  assert.ok(replaced.ok, replaced.text);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'bytes\n');
});

test('the dialect chooses the anchors and an object is a JSON request', (t) => {
  const { root } = scratch(t);
  writeFileSync(join(root, 'a.txt'), 'x\n');
  const session = new Session(root);
  const read = session.readSync('a.txt', { dialect: 'lineid-json' });
  assert.ok(read.text.startsWith('1#'), read.text);
  const edit = session.edit({
    dialect: 'lineid-json',
    request: { filePath: 'a.txt', edits: [{ op: 'append', lines: ['y'] }] },
  });
  assert.ok(edit.ok, edit.text);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'x\ny\n');
  const dry = session.edit({ request: `${session.readSync('a.txt').text.split('\n')[0]}\nreplace 1..1:\n+z\n`, dryRun: true });
  assert.ok(dry.ok && dry.files[0].written === false, dry.text);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'x\ny\n');
});

test('warnings carry their codes', (t) => {
  const { root } = scratch(t);
  writeFileSync(join(root, 'a.py'), 'def f():\n    return 1\n');
  const session = new Session(root);
  const read = session.readSync('a.py');
  // A row copied with its `N:` prefix into the content: the guard warns or refuses.
  const edit = session.edit(`${header(read)}\nreplace 2..2:\n+2:    return 2\n`);
  const coded = edit.warnings.map((w) => w.code).concat(edit.code ? [edit.code] : []);
  assert.ok(coded.length > 0, edit.text);
  assert.ok(coded.every((c) => c && ['W_', 'E_'].includes(c.slice(0, 2))), String(coded));
});

test('misuse throws one error with a code', async (t) => {
  const { root } = scratch(t);
  const session = new Session(root);
  const misuse = (call, needle) =>
    assert.throws(call, (e) => {
      assert.ok(e instanceof HashlineError, String(e));
      assert.equal(e.code, 'E_USAGE');
      if (needle) assert.ok(e.message.includes(needle), e.message);
      return true;
    });
  misuse(() => session.edit({ request: 'x', dialect: 'yaml' }), 'yaml');
  misuse(() => new Session(join(root, 'missing')));
  misuse(() => session.resolve('redo'), 'redo');
  misuse(() => session.edit({ request: 42 }));
  misuse(() => session.write('a.txt', 42));
  misuse(() => session.astEditSync([['only a pattern']], ['a.py']), 'pair');
  // The promise calls reject (they never throw before answering).
  await assert.rejects(session.read('a.txt', { dialect: 'yaml' }), HashlineError);
  await assert.rejects(session.astEdit([], ['a.py']), (e) => e.code === 'E_USAGE');
  // A refusal of the engine is a result, not an exception.
  const missing = await session.read('nope.txt');
  assert.equal(missing.ok, false);
  assert.ok(missing.code.startsWith('E_'), missing.text);
  assert.match(version, /^\d+\.\d+\.\d+/);
});
