// Stand-ins for the two npm packages of the local Universal Sentence Encoder lite, for the
// provider's tests: modules its thread imports in place of the real ones, which log every load and
// embed call to a file the test reads. The folders they are written to are removed after the tests.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const folders: string[] = [];

/** Removes every folder fakePackages wrote (a test file calls it after its tests). */
export function removeFakePackages(): void {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}

/**
 * Stand-ins for the two packages, written as modules the model's thread imports. `embed` is the
 * body of the encoder's `embed(values)`; it may call `log(line)` and `busy(ms)` (holds the thread's
 * CPU like a forward pass). Every load and embed call is logged to a file the test reads.
 */
export function fakePackages(embed = 'return values.map((value) => [value.length, 1, 0]);') {
  const folder = mkdtempSync(join(tmpdir(), 'engram-fake-use-lite-'));
  folders.push(folder);
  const logPath = join(folder, 'calls.log');
  writeFileSync(logPath, '');
  writeFileSync(
    join(folder, 'embeddings.mjs'),
    `import { appendFileSync } from 'node:fs';
const log = (line) => appendFileSync(${JSON.stringify(logPath)}, line + '\\n');
const busy = (ms) => { const until = Date.now() + ms; while (Date.now() < until); };
export async function initModel(source) {
  log('init ' + (source && source.fromPackage === true ? 'package-source' : 'other-source'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { async embed(values) { log('embed ' + JSON.stringify(values)); ${embed} } };
}
`,
  );
  writeFileSync(
    join(folder, 'model.mjs'),
    'export const modelSource = Object.assign(async () => ({}), { fromPackage: true });\n',
  );
  const packages = {
    embeddings: pathToFileURL(join(folder, 'embeddings.mjs')).href,
    model: pathToFileURL(join(folder, 'model.mjs')).href,
  };
  const calls = () =>
    readFileSync(logPath, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  return { folder, packages, calls };
}
