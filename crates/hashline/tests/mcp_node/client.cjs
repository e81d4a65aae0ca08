// The MCP end-to-end scenario through the TypeScript SDK (`@modelcontextprotocol/sdk` from npm,
// pinned in package.json / package-lock.json beside this file), as an agent meets the server:
// every tool, every edit dialect, the fixes replies propose, a bounded ast_edit over a big tree,
// a cancelled ast_edit, undo, a fenced patch and malformed messages.
//
// Usage: node client.cjs MODULES HASHLINE ROOT STATE SESSION, where MODULES is the folder whose
// node_modules holds the SDK (outside the repository). Exits non-zero with the failed check;
// prints one line per step. Run by crates/hashline/tests/mcp_node.rs.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { createRequire } = require('node:module');

const [modules, binary, root, state, sessionName] = process.argv.slice(2);
const load = createRequire(path.join(path.resolve(modules), 'package.json'));
const { Client } = load('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = load('@modelcontextprotocol/sdk/client/stdio.js');
const { AjvJsonSchemaValidator } = load('@modelcontextprotocol/sdk/validation/ajv');
const { ListToolsResultSchema, CallToolResultSchema } = load('@modelcontextprotocol/sdk/types.js');
const Ajv2020 = load('ajv/dist/2020').default;
const addFormats = load('ajv-formats').default;

// What no reply text may show: a command line or a CLI flag (as tests/mcp_fixes.rs).
const CLI_MARKS = ['`hashline ', '(CLI)', '--as-sent', '--allow-syntax-errors', '--only',
  '--overwrite', 'Use :', 'Use offset='];
// The big tree's size and the bound of a reply's text (64 KiB).
const BIG = 3000;
const MAX_TEXT = 64 * 1024;
const LONG = { timeout: 600000 };

// The output schemas are JSON Schema 2020-12: the SDK's default validator (draft-07) skips
// keywords it does not know, so the client is given a 2020-12 one, and every structured result
// is also checked here against its tool's schema.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const outputs = new Map();
let replies = 0;
let largest = 0;

function textOf(result) {
  return (result.content || []).map((c) => c.text || '').join('');
}

async function call(client, name, args, options) {
  const result = await client.callTool({ name, arguments: args }, CallToolResultSchema, options);
  const text = textOf(result);
  const structured = result.structuredContent || {};
  const validate = outputs.get(name);
  assert.ok(validate, `${name}: no outputSchema`);
  assert.ok(validate(structured), `${name}: ${JSON.stringify(validate.errors)}\n${text}`);
  assert.ok(!('text' in structured), `${name}: structuredContent repeats the text`);
  for (const mark of CLI_MARKS) {
    assert.ok(!text.includes(mark), `${name}: the reply shows \`${mark}\`:\n${text}`);
  }
  replies += 1;
  largest = Math.max(largest, Buffer.byteLength(text));
  return { text, structured, isError: Boolean(result.isError), code: structured.code };
}

function ok(answer) {
  assert.ok(!answer.isError, `refused: ${answer.text}`);
  return answer;
}

function refused(answer, code) {
  assert.ok(answer.isError, `not an error result: ${answer.text}`);
  assert.equal(answer.code, code, answer.text);
  return answer;
}

// Every JSON object that follows "`tool` with " in `text` (the calls a reply proposes).
function proposals(text, tool) {
  const marker = `\`${tool}\` with `;
  const found = [];
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
    const rest = text.slice(at + marker.length);
    if (!rest.startsWith('{')) continue; // `read` with "offset": 3 names one argument
    let depth = 0;
    for (let i = 0; i < rest.length; i += 1) {
      if (rest[i] === '{') depth += 1;
      if (rest[i] === '}') depth -= 1;
      if (depth === 0) {
        found.push(JSON.parse(rest.slice(0, i + 1)));
        break;
      }
    }
  }
  return found;
}

// The first call to `tool` that `text` proposes.
function proposed(text, tool) {
  const found = proposals(text, tool);
  assert.ok(found.length > 0, `no \`${tool}\` call proposed:\n${text}`);
  return found[0];
}

function disk(rel) {
  return fs.readFileSync(path.join(root, rel), 'utf8');
}

function firstLine(text) {
  return text.split('\n')[0];
}

// The row `read` in `dialect` shows for line `n` of `rel`, and the first line.
async function readRow(client, rel, dialect, n) {
  const read = ok(await call(client, 'read', { path: rel, dialect }));
  const rows = read.text.split('\n').filter((l) => !l.startsWith('\u00b6'));
  assert.ok(rows[n - 1] !== undefined, `no row ${n} in ${read.text}`);
  return { header: firstLine(read.text), row: rows[n - 1] };
}

async function listTools(client) {
  // The SDK parses the answer with the protocol's schema (ListToolsResultSchema); parsed again
  // here so that a change in the SDK cannot skip it.
  const listed = await client.listTools();
  const tools = ListToolsResultSchema.parse(listed).tools;
  const names = tools.map((t) => t.name).sort();
  assert.deepEqual(names, ['ast_edit', 'edit', 'read', 'resolve', 'undo', 'write']);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.equal(tool.annotations.readOnlyHint, tool.name === 'read', tool.name);
    assert.ok(tool.description && tool.description.length > 0, tool.name);
    assert.ok(tool.outputSchema, `${tool.name}: no outputSchema`);
    outputs.set(tool.name, ajv.compile(tool.outputSchema));
  }
  console.log('list_tools ok');
}

async function readEditStale(client) {
  const read = ok(await call(client, 'read', { path: 'b.txt' }));
  assert.equal(read.structured.ok, true);
  const header = firstLine(read.text);
  console.log('read ok:', header);

  const edit = ok(await call(client, 'edit', { patch: `${header}\nreplace 2..2:\n+TWO\n` }));
  assert.equal(disk('b.txt'), 'one\nTWO\nthree\n');
  // The reply shows the fresh anchors: the header and row the next read shows.
  const fresh = ok(await call(client, 'read', { path: 'b.txt' }));
  assert.ok(edit.text.includes(firstLine(fresh.text)), edit.text);
  assert.ok(edit.text.includes('2:TWO'), edit.text);
  console.log('edit ok');

  fs.writeFileSync(path.join(root, 'b.txt'), 'one\nzwei\nthree\n');
  const stale = refused(
    await call(client, 'edit', { patch: `${header}\nreplace 2..2:\n+deux\n` }),
    'E_STALE_ANCHOR',
  );
  assert.ok(stale.text.includes('zwei'), stale.text);
  assert.equal(disk('b.txt'), 'one\nzwei\nthree\n');
  console.log('stale edit refused ok');
}

// Every dialect's edit reply shows the fresh anchor of the changed line in its own form
// (as tests/mcp_edit_replies.rs).
async function dialects(client) {
  for (const d of ['hashline', 'hash-json', 'lineid-json', 'str-replace', 'apply-patch']) {
    const rel = `d/${d}.txt`;
    const neu = `BETA-${d}`;
    const { header, row } = await readRow(client, rel, d, 2);
    const hash = row.split(':')[0];
    const lineid = row.split('|')[0];
    const args = {
      hashline: { patch: `${header}\nreplace 2..2:\n+${neu}\n` },
      'hash-json': { request: { path: rel, edits: [
        { op: 'replace', start: hash, end: hash, lines: [neu] }] } },
      'lineid-json': { request: { filePath: rel, edits: [
        { op: 'replace', pos: lineid, lines: [neu] }] } },
      'str-replace': { request: { command: 'str_replace', path: rel, old_str: 'beta',
        new_str: neu } },
      'apply-patch': { patch: `*** Begin Patch\n*** Update File: ${rel}\n@@\n alpha\n-beta\n`
        + `+${neu}\n gamma\n*** End Patch\n` },
    }[d];
    const answer = ok(await call(client, 'edit', args));
    assert.equal(disk(rel), `alpha\n${neu}\ngamma\n`, d);
    const rows = (answer.structured.files?.[0]?.anchors || []).flatMap((r) => r.rows || []);
    const changed = rows.find((r) => r.includes(neu));
    assert.ok(changed, `${d}: no structured anchor of the new line: ${JSON.stringify(rows)}`);
    assert.ok(answer.text.split('\n').some((l) => l.endsWith(changed)),
      `${d}: the reply text lacks the fresh anchor \`${changed}\`:\n${answer.text}`);
    const fresh = await readRow(client, rel, d, 2);
    if (d === 'hashline') {
      assert.ok(answer.text.includes(fresh.header) && answer.text.includes(fresh.row), answer.text);
    } else if (d === 'hash-json' || d === 'lineid-json') {
      assert.ok(answer.text.split('\n').includes(fresh.row), `${d}: ${fresh.row}\n${answer.text}`);
    } else if (d === 'str-replace') {
      assert.ok(answer.text.includes(`2\t${neu}`), `${d}: ${answer.text}`);
    } else {
      assert.ok(answer.text.split('\n').includes(neu), `${d}: ${answer.text}`);
    }
  }
  console.log('dialects ok');
}

// Each refusal that proposes a fix is triggered, and the fix, read out of the reply, is
// accepted (as tests/mcp_fixes.rs).
async function fixes(client) {
  const read = ok(await call(client, 'read', { path: 'a.js' }));
  const args = { patch: `${firstLine(read.text)}\nreplace 2..2:\n+  console.log((name);\n` };
  const broken = refused(await call(client, 'edit', args), 'E_SYNTAX_INTRODUCED');
  assert.ok(broken.text.includes('"allowSyntaxErrors": true'), broken.text);
  assert.ok(/Nothing was|nothing was/.test(broken.text), broken.text);
  ok(await call(client, 'edit', { ...args, allowSyntaxErrors: true }));
  assert.ok(disk('a.js').includes('console.log((name);'));
  fs.writeFileSync(path.join(root, 'a.js'), 'function greet(name) {\n  console.log(name);\n}\n');

  const unseen = refused(await call(client, 'write', { path: 'unseen.txt', content: 'seen\n' }),
    'E_NOT_READ');
  assert.ok(unseen.text.includes('"overwrite": true'), unseen.text);
  ok(await call(client, 'write', { path: 'unseen.txt', content: 'seen\n', overwrite: true }));
  assert.equal(disk('unseen.txt'), 'seen\n');

  const page = ok(await call(client, 'read', { path: 'c.txt', limit: 2 }));
  // The footer names the argument to add: `read` with "offset": N (as tests/mcp_fixes.rs).
  const offset = /`read` with "offset": (\d+)/.exec(page.text);
  assert.ok(offset, `no offset proposed:\n${page.text}`);
  const next = ok(await call(client, 'read', { path: 'c.txt', offset: Number(offset[1]) }));
  assert.ok(next.text.includes('3:three'), next.text);

  const missing = refused(await call(client, 'resolve', { action: 'apply', id: 999 }),
    'E_NO_PREVIEW');
  ok(await call(client, 'resolve', proposed(missing.text, 'resolve')));
  console.log('fixes ok');
}

async function astEditAndResolve(client) {
  const preview = ok(await call(client, 'ast_edit', {
    ops: [{ pat: 'console.log($A)', out: 'logger.info($A)' }], paths: ['a.js'],
  }));
  assert.ok(preview.text.includes('logger.info(name)'), preview.text);
  const apply = proposed(preview.text, 'resolve');
  assert.equal(apply.action, 'apply');
  assert.equal(apply.id, preview.structured.preview.id);
  const applied = ok(await call(client, 'resolve', apply));
  assert.ok(applied.text.startsWith('Applied 1 replacement'), applied.text);
  assert.ok(disk('a.js').includes('logger.info(name);'));
  console.log('ast_edit + resolve ok');
}

async function pendingIds(client) {
  const list = ok(await call(client, 'resolve', { action: 'list' }));
  return list.structured.resolve.pending.map((p) => p.id);
}

// An ast_edit over the 3,000-file tree: the text stays under 64 KiB, every file is previewed
// (no maxFiles), and `resolve` pages through the rest.
async function bigAstEdit(client) {
  const started = Date.now();
  const preview = ok(await call(client, 'ast_edit', {
    ops: [{ pat: 'console.log($A)', out: 'logger.log($A)' }], paths: ['big'],
  }, LONG));
  const seconds = (Date.now() - started) / 1000;
  const bytes = Buffer.byteLength(preview.text);
  const structured = Buffer.byteLength(JSON.stringify(preview.structured));
  assert.ok(bytes <= MAX_TEXT, `${bytes} bytes of text`);
  assert.equal(preview.structured.preview.total_replacements, BIG);
  assert.equal(preview.structured.preview.limit_reached, false);
  const shown = preview.structured.leftOut.nextOffset;
  assert.ok(shown > 0 && shown < BIG, JSON.stringify(preview.structured.leftOut));
  const next = proposals(preview.text, 'resolve').find((p) => p.action === 'list');
  assert.deepEqual(next, { action: 'list', id: preview.structured.preview.id, offset: shown });
  const page = ok(await call(client, 'resolve', next));
  assert.ok(Buffer.byteLength(page.text) <= MAX_TEXT);
  assert.equal(page.structured.page.offset, shown);
  ok(await call(client, 'resolve', { action: 'discard', id: preview.structured.preview.id }));
  console.log(`big ast_edit ok: ${BIG} files, text ${bytes} bytes, structured ${structured} `
    + `bytes, ${seconds.toFixed(1)} s`);
}

// The same ast_edit, cancelled through the SDK (AbortSignal: `notifications/cancelled`) when the
// first progress notification arrives: the call is rejected, nothing is queued, no file
// changed, and the server answers the next call.
async function cancelled(client) {
  const before = await pendingIds(client);
  const sample = disk('big/m0/f0.ts');
  const abort = new AbortController();
  let progress = 0;
  const running = client.callTool({
    name: 'ast_edit',
    arguments: { ops: [{ pat: 'console.log($A)', out: 'logger.log($A)' }], paths: ['big'] },
  }, CallToolResultSchema, {
    ...LONG,
    signal: abort.signal,
    onprogress: (p) => {
      progress = Math.max(progress, p.progress);
      abort.abort('the user changed their mind');
    },
  });
  await assert.rejects(running, (e) => {
    assert.ok(progress > 0, `rejected before any progress: ${e}`);
    return true;
  });
  assert.deepEqual(await pendingIds(client), before, 'a cancelled ast_edit queued a preview');
  assert.equal(disk('big/m0/f0.ts'), sample);
  console.log(`cancel ok: cancelled at ${progress} of ${BIG} files`);
}

async function fenceAndUndo(client) {
  const read = ok(await call(client, 'read', { path: 'e.txt' }));
  const patch = `\`\`\`diff\n${firstLine(read.text)}\nreplace 1..1:\n+FENCED\n\`\`\`\n`;
  const fenced = ok(await call(client, 'edit', { patch }));
  assert.ok(fenced.text.includes('[W_FENCE_STRIPPED]'), fenced.text);
  assert.ok(fenced.structured.warnings.some((w) => w.startsWith('[W_FENCE_STRIPPED]')));
  assert.equal(disk('e.txt'), 'FENCED\nsecond\n');
  console.log('fenced patch ok');

  const list = ok(await call(client, 'undo', {}));
  assert.ok(list.text.includes('e.txt'), list.text);
  const undone = ok(await call(client, 'undo', { action: 'undo' }));
  assert.equal(disk('e.txt'), 'first\nsecond\n', undone.text);
  const again = ok(await call(client, 'read', { path: 'e.txt' }));
  assert.ok(again.text.includes('1:first'), again.text);
  console.log('undo ok');
}

async function refusals(client) {
  const bad = refused(await call(client, 'read', {}), 'E_BAD_SHAPE');
  assert.ok(bad.text.includes('missing field `path`'), bad.text);
  refused(await call(client, 'write', { path: '../x', content: 'x' }), 'E_OUTSIDE_ROOT');
  refused(await call(client, 'resolve', { action: 'apply', id: 999 }), 'E_NO_PREVIEW');
  console.log('refusals ok');
}

// Every malformed message of docs/ERRORS.md (as tests/mcp_protocol.rs), as raw lines to a
// second server: each is answered, and the server goes on.
async function malformed() {
  const child = spawn(binary, ['--root', root, '--state', state, '--session', sessionName,
    'mcp'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const waiting = [];
  const lines = [];
  let buffer = '';
  child.stdout.on('data', (d) => {
    buffer += d;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (waiting.length) waiting.shift()(line); else lines.push(line);
    }
  });
  const nextLine = () => (lines.length ? Promise.resolve(lines.shift())
    : new Promise((resolve) => waiting.push(resolve)));
  const ask = async (line) => {
    child.stdin.write(line);
    child.stdin.write('\n');
    return JSON.parse(await nextLine());
  };
  const callLine = (id, params) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`;
  const init = await ask(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {
    protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
  assert.equal(init.result.serverInfo.name, 'hashline');
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  const deep = `{"name":"read","arguments":{"path":${'['.repeat(200)}1${']'.repeat(200)}}}`;
  const big = callLine(7, `{"name":"write","arguments":{"path":"big.txt","content":"${
    'x'.repeat(16 * 1024 * 1024)}"}}`);
  const cases = [
    ['this is not json', null, -32700, 'not JSON'],
    [callLine(3, '{"name":"read","arguments":{"path":"\\ud800"}}'), 3, -32600, 'lone surrogate'],
    [callLine(4, deep), 4, -32600, 'deeper than 128'],
    [big, 7, -32600, '16777216 bytes (16 MiB)'],
    [callLine(5, '{"name":"read","arguments":"{\\"path\\":\\"b.txt\\"}"}'), 5, 'E_BAD_SHAPE',
      '`arguments` is a string'],
    [callLine(6, '{"name":"read","arguments":["b.txt"]}'), 6, 'E_BAD_SHAPE',
      '`arguments` is an array'],
    [callLine(8, '{"arguments":{"path":"b.txt"}}'), 8, 'E_BAD_SHAPE', '`name` is missing'],
  ];
  for (const [line, id, code, words] of cases) {
    const answer = await ask(line);
    assert.equal(answer.id, id, JSON.stringify(answer));
    let message;
    if (typeof code === 'string') {
      assert.equal(answer.result.isError, true, JSON.stringify(answer));
      assert.equal(answer.result.structuredContent.code, code);
      message = answer.result.content[0].text;
    } else {
      assert.equal(answer.error.code, code, JSON.stringify(answer));
      message = answer.error.message;
    }
    assert.ok(message.includes(words), `${words}: ${message}`);
  }
  const read = await ask(callLine(9, '{"name":"read","arguments":{"path":"b.txt"}}'));
  assert.equal(read.result.structuredContent.ok, true, JSON.stringify(read));
  assert.ok(!fs.existsSync(path.join(root, 'big.txt')));
  child.stdin.end();
  const status = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(status, 0, stderr);
  const logged = stderr.split('\n').filter((l) => l.startsWith('hashline mcp: answered a malformed'));
  assert.equal(logged.length, cases.length, stderr);
  console.log(`malformed messages ok: ${cases.length} answered`);
}

async function main() {
  const transport = new StdioClientTransport({
    command: binary,
    args: ['--root', root, '--state', state, '--session', sessionName, 'mcp'],
    stderr: 'inherit',
  });
  const client = new Client({ name: 'hashline-node-test', version: '1.0.0' },
    { jsonSchemaValidator: new AjvJsonSchemaValidator(ajv) });
  await client.connect(transport);
  assert.equal(client.getServerVersion().name, 'hashline');
  await listTools(client);
  await readEditStale(client);
  await dialects(client);
  await fixes(client);
  await astEditAndResolve(client);
  await bigAstEdit(client);
  await cancelled(client);
  await fenceAndUndo(client);
  await refusals(client);
  await client.close();
  await malformed();
  console.log(`session ok: ${replies} replies checked, largest text ${largest} bytes`);
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : e);
  process.exit(1);
});
