// Builds the web inspector into static assets: ui/src (Preact, TypeScript) bundled by esbuild into
// one script, beside index.html and app.css, under dist/ui (or the folder given). No network, no CDN:
// `engram serve` serves these files at /ui.

import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Writes index.html, app.css and app.js into `outDir`.
 *
 * @example
 * await buildInspector('dist/ui');
 */
export async function buildInspector(outDir = join(here, '..', 'dist', 'ui')) {
  const target = resolve(outDir);
  mkdirSync(target, { recursive: true });
  await build({
    entryPoints: [join(here, 'src', 'main.tsx')],
    bundle: true,
    minify: true,
    sourcemap: false,
    format: 'esm',
    target: ['chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outfile: join(target, 'app.js'),
    logLevel: 'warning',
    legalComments: 'none',
  });
  for (const file of ['index.html', 'app.css']) copyFileSync(join(here, file), join(target, file));
  return target;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildInspector(process.argv[2]);
}
