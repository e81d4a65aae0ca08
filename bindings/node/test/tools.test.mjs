// The tool handler (the MCP server's calls) and the AI SDK definitions of `hashline/ai`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Session, HashlineError, toolSpecs } from 'hashline';
import { scratch } from './helpers.mjs';

const NAMES = ['read', 'edit', 'write', 'ast_edit', 'resolve', 'undo'];

test('the specs are the servers tools', () => {
  const listed = toolSpecs();
  assert.deepEqual(listed.map((s) => s.name), NAMES);
  for (const spec of listed) {
    assert.equal(spec.input_schema.type, 'object');
    assert.ok(spec.description.length > 40, spec.name);
  }
  assert.ok(listed[0].description.includes('¶PATH#TAG'));
  // Another dialect teaches other anchors.
  const lineid = Object.fromEntries(toolSpecs('lineid-json').map((s) => [s.name, s]));
  assert.ok(lineid.read.description.includes('LINE#ID'));
  assert.throws(() => toolSpecs('gemini'), (e) => e instanceof HashlineError && e.code === 'E_USAGE');
});

test('the handler runs a model session', (t) => {
  const { dir, root } = scratch(t);
  const file = join(root, 'a.txt');
  writeFileSync(file, 'one\ntwo\n');
  const session = new Session(root, { state: join(dir, 'state') });
  const read = session.callTool('read', { path: 'a.txt' });
  assert.equal(read.isError, false, read.text);
  assert.equal(read.structured.ok, true);
  const head = read.text.split('\n')[0];
  // Models hand the arguments over as JSON text.
  const edit = session.callTool('edit', JSON.stringify({ patch: `${head}\nreplace 2..2:\n+TWO\n` }));
  assert.equal(edit.isError, false, edit.text);
  assert.equal(readFileSync(file, 'utf8'), 'one\nTWO\n');
  const undoId = edit.structured.undo;

  const stale = session.callTool('edit', { patch: `${head}\nreplace 2..2:\n+2\n` });
  assert.ok(stale.isError && stale.structured.code === 'E_STALE_ANCHOR', stale.text);
  assert.match(stale.text, /[Nn]othing was written/);

  const bad = session.callTool('read', { path: 'a.txt', extra: 1 });
  assert.ok(bad.isError && bad.structured.code === 'E_BAD_SHAPE', bad.text);
  const garbled = session.callTool('read', '{not json');
  assert.ok(garbled.isError && garbled.structured.code === 'E_BAD_SHAPE', garbled.text);
  const unknown = session.callTool('frobnicate', {});
  assert.ok(unknown.isError && unknown.text.includes('There is no tool'), unknown.text);

  const undone = session.callTool('undo', { id: undoId });
  assert.equal(undone.isError, false, undone.text);
  assert.equal(readFileSync(file, 'utf8'), 'one\ntwo\n');
});

/** The `ai` package when installed (the fresh project of `cargo xtask bindings` has it). */
function hasAi() {
  try {
    createRequire(import.meta.url).resolve('ai');
    return true;
  } catch {
    return false;
  }
}

test('the AI SDK tools carry the servers descriptions and run the session', async (t) => {
  if (!hasAi()) {
    if (process.env.CI || process.env.HASHLINE_NEED_AI) throw new Error('the `ai` package is not installed');
    t.skip('the `ai` package is not installed');
    return;
  }
  const { hashlineTools } = await import('hashline/ai');
  const { root } = scratch(t);
  const file = join(root, 'a.txt');
  writeFileSync(file, 'one\ntwo\n');
  const session = new Session(root);
  const tools = hashlineTools(session);
  assert.deepEqual(Object.keys(tools), NAMES);
  const specs = Object.fromEntries(toolSpecs().map((s) => [s.name, s]));
  for (const name of NAMES) {
    assert.equal(tools[name].description, specs[name].description);
    assert.deepEqual(tools[name].inputSchema.jsonSchema, specs[name].input_schema);
  }
  const options = { toolCallId: 'call_1', messages: [] };
  const read = await tools.read.execute({ path: 'a.txt' }, options);
  assert.equal(read.isError, false, read.text);
  const head = read.text.split('\n')[0];
  const edit = await tools.edit.execute({ patch: `${head}\nreplace 1..1:\n+ONE\n` }, options);
  assert.equal(edit.isError, false, edit.text);
  assert.equal(readFileSync(file, 'utf8'), 'ONE\ntwo\n');
  const stale = await tools.edit.execute({ patch: `${head}\nreplace 1..1:\n+1\n` }, options);
  assert.equal(stale.isError, true);
  // What the model reads: the server's text, a refusal as an error.
  const seen = await tools.edit.toModelOutput({ toolCallId: 'call_1', input: {}, output: stale });
  assert.deepEqual(seen, { type: 'error-text', value: stale.text });
  const lineid = hashlineTools(session, { dialect: 'lineid-json' });
  assert.ok(lineid.read.description.includes('LINE#ID'));
});
