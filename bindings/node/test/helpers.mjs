// Shared helpers: a scratch tree per test, the repository and the conformance data.
import { mkdtempSync, mkdirSync, rmSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A fresh temporary directory with an empty project root `root/`, removed after the test. */
export function scratch(t) {
  const dir = mkdtempSync(join(tmpdir(), 'hashline-node-'));
  const root = join(dir, 'root');
  mkdirSync(root);
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, root };
}

/** The repository: `$HASHLINE_REPO` (the suite copied into a fresh project), else beside this file. */
export function repoDir() {
  return process.env.HASHLINE_REPO || fileURLToPath(new URL('../../../', import.meta.url));
}

/** `../shared/conformance` beside the clone (or `$HASHLINE_SHARED/conformance`); without it the
 * test is skipped, or fails under `CI`. Answers null when skipped. */
export function conformance(t) {
  const path = process.env.HASHLINE_SHARED
    ? join(process.env.HASHLINE_SHARED, 'conformance')
    : join(repoDir(), '..', 'shared', 'conformance');
  if (!existsSync(path)) {
    if (process.env.CI) throw new Error(`the conformance data is missing: ${path}`);
    t.skip(`the conformance data is missing: ${path}`);
    return null;
  }
  return path;
}

/** Every file under `root` as `{ relative path: bytes as hex }`. */
export function snapshot(root) {
  const out = {};
  if (!existsSync(root)) return out;
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(root, path)] = readFileSync(path).toString('hex');
    }
  };
  walk(root);
  return out;
}
