// Type-checked by `tsc --noEmit --strict` in the fresh project (`cargo xtask bindings`): the
// shipped `.d.ts` describe the API as the suite uses it, and reject misuse at compile time.
import { HashlineError, Session, toolSpecs, version, type Result, type ToolSpec } from 'hashline';
import { hashlineTools } from 'hashline/ai';

export async function typed(root: string): Promise<string[]> {
  const session = new Session(root, { state: null, session: 'agent' });
  const read: Result = await session.read('a.py', { offset: 1, limit: 10, dialect: 'hashline' });
  const header: string = read.text.split('\n')[0];
  const edit = session.edit({ request: `${header}\nreplace 1..1:\n+x\n`, dryRun: true });
  const codes: (string | null)[] = edit.warnings.map((w) => w.code);
  const undo: number | null = edit.undo;
  const rows: string[] = edit.anchors.flatMap((a) => a.rows);
  const json = session.edit({ dialect: 'lineid-json', request: { filePath: 'a.py', edits: [] } });
  const preview = await session.astEditSync([['f($A)', 'g($A)']], ['a.py'], { lang: 'python', maxFiles: 3 });
  session.resolve('apply', { id: preview.preview ?? undefined, only: ['a.py:1'] });
  session.write('b.txt', new Uint8Array([104, 105]), { overwrite: true });
  session.undo(undo ?? undefined);
  const output = session.callTool('read', { path: 'a.py' });
  const specs: ToolSpec[] = toolSpecs('lineid-json');
  const tools = hashlineTools(session, { dialect: 'hashline' });
  const description: string | undefined = tools.edit.description;
  try {
    // @ts-expect-error: a request is a string or an object
    session.edit({ request: 42 });
    // @ts-expect-error: resolve takes apply, discard or list
    session.resolve('redo');
    // @ts-expect-error: a rule is a [pattern, rewrite] pair
    await session.astEdit([['only a pattern']], ['a.py']);
  } catch (e) {
    if (e instanceof HashlineError) codes.push(e.code);
  }
  return [version, ...codes.map(String), ...rows, String(json.ok), output.text, String(output.isError),
    specs[0].name, description ?? '', String(session.undoList().ok), session.readSync('a.py').text];
}
