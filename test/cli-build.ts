// Vitest's global setup: transpiles src/ once per test run into .test-build/ (one JavaScript file
// per TypeScript file, as tsx would at load time, with the same esbuild), so the `engram` child
// processes the tests start load plain JavaScript: about 0.9 s to start here against 1.8 s through
// tsx's loader, and tests start a few hundred of them. .test-build/ sits beside src/ at the
// repository root, so the paths the code finds relative to itself (models/, dist/ui/, examples/,
// package.json) resolve as from src/ or dist/. Fixtures that import src/ still run through tsx.

import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';

import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');

/** Where the transpiled copy of src/ goes (gitignored). */
export const TEST_BUILD = join(root, '.test-build');

/** The files under `folder`, walked depth first. */
function files(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(folder, entry.name)) : [join(folder, entry.name)]));
}

const isSource = (path: string) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts');

export default async function setup(): Promise<void> {
  rmSync(TEST_BUILD, { recursive: true, force: true });
  const src = join(root, 'src');
  const all = files(src);
  const entryPoints = all.filter(isSource);
  if (entryPoints.length === 0) throw new Error(`no sources under ${relative(process.cwd(), src)}`);
  await build({ entryPoints, outdir: TEST_BUILD, outbase: src, format: 'esm', platform: 'node', target: 'node20', supported: { 'import-attributes': true }, bundle: false, logLevel: 'error' });
  // What the code imports beside its TypeScript (the JSON Schemas), as the build copies it to dist/.
  for (const path of all.filter((file) => !file.endsWith('.ts'))) cpSync(path, join(TEST_BUILD, relative(src, path)));
}
