// Vitest's global setup: transpiles src/ once per test run into a folder of its own beside src/
// (one JavaScript file per TypeScript file, as tsx would at load time, with the same esbuild), so
// the `engram` child processes the tests start load plain JavaScript: about 1.2 s to start here
// against 1.8 s through tsx's loader, and tests start a few hundred of them. The folder sits at the
// repository root, so the paths the code finds relative to itself (models/, dist/ui/, examples/,
// package.json) resolve as from src/ or dist/; each run has its own, removed when it ends (and one
// a killed run left is removed by the next), so two runs at once never share one. Fixtures that
// import src/ still run through tsx.

import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';

import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The transpiled copy of src/ this run's child processes run (test/helpers/engram-process.ts). */
    engramBuild: string;
  }
}

const root = join(import.meta.dirname, '..');
const PREFIX = '.test-build-';

/** The files under `folder`, walked depth first. */
function files(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(folder, entry.name)) : [join(folder, entry.name)],
  );
}

const isSource = (path: string) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the folders of runs whose process is gone (a run killed before its teardown). */
function removeAbandoned(): void {
  for (const entry of readdirSync(root)) {
    const pid = Number(/^\.test-build-(\d+)-/.exec(entry)?.[1]);
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid))
      rmSync(join(root, entry), { recursive: true, force: true });
  }
}

/** Transpiles src/ into `dir`, with the files beside it that the code imports (the JSON Schemas). */
async function transpile(dir: string): Promise<void> {
  const src = join(root, 'src');
  const all = files(src);
  const entryPoints = all.filter(isSource);
  if (entryPoints.length === 0) throw new Error(`no sources under ${relative(process.cwd(), src)}`);
  await build({
    entryPoints,
    outdir: dir,
    outbase: src,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    supported: { 'import-attributes': true },
    bundle: false,
    logLevel: 'error',
  });
  for (const path of all.filter((file) => !file.endsWith('.ts'))) cpSync(path, join(dir, relative(src, path)));
}

/**
 * Vitest runs this setup for the root and for each project (as separate module instances, ~0.3 s
 * each): each makes its own copy and removes it when its project ends.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  removeAbandoned();
  const dir = join(root, `${PREFIX}${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
  await transpile(dir);
  project.provide('engramBuild', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
