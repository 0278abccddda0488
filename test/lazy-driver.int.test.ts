// `import 'engram'` loads no native driver: better-sqlite3 is loaded when a SQLite store is opened,
// and where it cannot be loaded the error says what to install. Run in child processes whose module
// resolution is watched (and, for the second case, refused) by a loader hook.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { ROOT, engramCommand } from './helpers/engram-process.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-lazy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The library entry of this run's build (beside the CLI `engramCommand` runs), or src/ through tsx. */
function libraryEntry(): { url: string; nodeArgs: string[] } {
  const command = engramCommand();
  if (command[0] === '--import')
    return { url: pathToFileURL(join(ROOT, 'src', 'index.ts')).href, nodeArgs: ['--import', 'tsx'] };
  return { url: pathToFileURL(join(command[0]!, '..', '..', 'index.js')).href, nodeArgs: [] };
}

/** A hook that logs every resolved better-sqlite3 and, when `refuse`, fails its resolution as a missing package would. */
function hook(refuse: boolean): string {
  const hooks = join(dir, `hooks-${refuse}.mjs`);
  writeFileSync(
    hooks,
    `export async function resolve(specifier, context, next) {
  if (specifier === 'better-sqlite3') {
    process.stderr.write('RESOLVED better-sqlite3\\n');
    ${refuse ? "throw Object.assign(new Error(\"Cannot find package 'better-sqlite3'\"), { code: 'ERR_MODULE_NOT_FOUND' });" : ''}
  }
  return next(specifier, context);
}
`,
  );
  const register = join(dir, `register-${refuse}.mjs`);
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  return register;
}

function run(script: string, refuse: boolean): { code: number | null; stdout: string; stderr: string } {
  const { url, nodeArgs } = libraryEntry();
  const body = `const engram = await import(${JSON.stringify(url)});\n${script}`;
  const result = spawnSync(
    process.execPath,
    [...nodeArgs, '--import', hook(refuse), '--input-type=module', '-e', body],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the SQLite driver loads lazily', () => {
  it('is not loaded by importing the package, and is loaded when a SQLite store is opened', () => {
    const path = join(dir, 'lazy.db');
    const result = run(
      `process.stderr.write('IMPORTED\\n');
const storage = await engram.openSqliteStorage({ path: ${JSON.stringify(path)} });
await storage.close();
process.stderr.write('OPENED\\n');`,
      false,
    );
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.split('\n').filter((line) => /^(IMPORTED|RESOLVED|OPENED)/.test(line));
    expect(lines[0]).toBe('IMPORTED');
    expect(lines).toContain('RESOLVED better-sqlite3');
    expect(lines.at(-1)).toBe('OPENED');
  });

  it('says what to install when the driver is missing, while the rest of the package works', () => {
    const result = run(
      `const redacted = engram.redactStoreAddress('postgres://engram:secret@db/engram');
try {
  await engram.openSqliteStorage({ path: ${JSON.stringify(join(dir, 'missing.db'))} });
  console.log('OPENED');
} catch (error) {
  console.log(JSON.stringify({ redacted, code: error.code, field: error.field, message: error.message }));
}`,
      true,
    );
    expect(result.code, result.stderr).toBe(0);
    const outcome = JSON.parse(result.stdout.trim()) as {
      redacted: string;
      code: string;
      field: string;
      message: string;
    };
    expect(outcome.redacted).toBe('postgres://engram:***@db/engram');
    expect(outcome.code).toBe('CONFIG_INVALID');
    expect(outcome.field).toBe('store');
    expect(outcome.message).toContain('npm install better-sqlite3');
  });
});
