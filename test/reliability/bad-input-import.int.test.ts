// Bad input in import files and on the command line. Library: an export with one record broken by
// a hostile value is either imported or refused with a typed error naming the line, and a refused
// file (smaller than one batch) leaves the target store exactly as it was. CLI: a few spawned cases
// (hostile commit input, a broken import file, bad flags) exit non-zero with a one-line message and
// no stack trace, and the store still opens.

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EngramError } from '../../src/index.js';
import { breaksTextRule, deepJsonText, fieldOf, mutated, prototypePolluted, TEXT_RULES } from '../helpers/hostile.js';
import { sqliteDigest } from '../helpers/store-digest.js';
import { tempEngram, type TempEngram } from '../helpers/temp-engram.js';
import { emptyTally, recordOutcome, type BoundaryTally } from './results.js';
import { engramCommand } from '../helpers/engram-process.js';

const RUNS = Number(process.env['ENGRAM_RELIABILITY_RUNS'] ?? 40);
const root = join(import.meta.dirname, '..', '..');
const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };

async function collect(lines: AsyncGenerator<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const line of lines) all.push(...line.split('\n').filter((part) => part !== ''));
  return all;
}

describe('import files and the command line', () => {
  let source: TempEngram;
  let target: TempEngram;
  let lines: string[];
  const tallies: Record<string, BoundaryTally> = {};

  beforeAll(async () => {
    source = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    target = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    await source.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'I prefer concise answers in writing. We launch Atlas on June 12.' }],
    });
    await source.engram.compose({ scope, purpose: 'responder' });
    lines = await collect(source.engram.maintenance.exportData());
  });
  afterAll(async () => {
    recordOutcome('import-cli', tallies);
    await source.cleanup();
    await target.cleanup();
  });

  it('an export with one hostile field is refused by line and writes nothing, or is imported and served', async () => {
    const tally = (tallies['import'] = emptyTally());
    const records = lines.slice(1).map((line) => JSON.parse(line) as Record<string, unknown>);
    const broken = fc
      .tuple(fc.nat({ max: records.length - 1 }), fc.nat())
      .chain(([index]) => mutated(records[index]!).map((change) => ({ index, ...change })));
    const whole = fc.oneof(
      {
        weight: 8,
        arbitrary: broken.map(({ index, path, request }) => ({
          label: `${String(records[index]!['kind'])} ${path.join('.')}`,
          file: lines.map((line, at) => (at === index + 1 ? (JSON.stringify(request) ?? 'null') : line)),
          // Text with a lone surrogate or U+0000 is refused naming its line and field (a broken kind is named first).
          // Judged on what the line holds: a field added to a list is not written by JSON.stringify.
          illFormed:
            breaksTextRule(JSON.parse(JSON.stringify(request) ?? 'null')) && path[0] !== 'kind'
              ? `line ${index + 2}.${fieldOf(path)}`
              : undefined,
        })),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(
            [lines[0]!, deepJsonText(20_000)],
            [lines[0]!, '{"kind": "event"'],
            ['not a header'],
            [lines[0]!.replace('"version":1', '"version":99'), ...lines.slice(1)],
            [lines[0]!, '{"__proto__": {"polluted": "yes"}, "kind": "event"}'],
          )
          .map((file) => ({ label: 'whole file', file })),
      },
    );
    await fc.assert(
      fc.asyncProperty(
        whole,
        async ({ label, file, illFormed }: { label: string; file: readonly string[]; illFormed?: string }) => {
          tally.cases += 1;
          // Each case goes to its own tenant, so an accepted import does not collide with the next.
          const tenant = `import-${tally.cases}`;
          const before = sqliteDigest(target.path);
          let imported = false;
          try {
            await target.engram.maintenance.importData(file, { tenant_id: tenant });
            expect(illFormed, `${label}: text with a lone surrogate or U+0000 was imported`).toBeUndefined();
            imported = true;
            tally.accepted += 1;
            // What an import accepted, the store can serve: lists, search and a packet for the user.
            const user = { tenant_id: tenant, user_id: 'mira' };
            await target.engram.items.list({
              scope: { ...user, agent_id: 'assistant' },
              status: ['active', 'superseded', 'retracted'],
              limit: 100,
            });
            await target.engram.events.list({ scope: user, limit: 100 });
            await target.engram.items.search({ scope: user, query: 'concise writing' });
            await target.engram.compose({
              scope: { ...scope, tenant_id: tenant },
              purpose: 'responder',
              cues: { query: 'Atlas' },
            });
            await target.engram.sessions.workingState({ ...scope, tenant_id: tenant });
          } catch (error) {
            expect(imported, `${label}: the imported data could not be read back: ${String(error)}`).toBe(false);
            expect(EngramError.isInstance(error), `${label}: ${String(error)}`).toBe(true);
            const typed = error as EngramError;
            expect(typed.field ?? '', `${label}: ${typed.message}`).toMatch(/^line \d+/);
            if (illFormed !== undefined) {
              expect(TEXT_RULES, `${label}: ${typed.message}`).toContain(typed.details['rule']);
              expect(typed.field?.startsWith(illFormed), `${label}: ${typed.message}`).toBe(true);
            }
            expect(sqliteDigest(target.path), `${typed.message}: a refused import wrote rows`).toBe(before);
            tally.rejected += 1;
            tally.codes[typed.code] = (tally.codes[typed.code] ?? 0) + 1;
          }
          expect(prototypePolluted()).toBe(false);
        },
      ),
      { numRuns: RUNS },
    );
  }, 240_000);

  it('the CLI answers hostile input with a one-line error, no stack trace, and the store still opens', () => {
    const tally = (tallies['cli'] = emptyTally());
    const store = `sqlite:${target.path}`;
    const file = join(target.folder, 'broken.jsonl');
    writeFileSync(file, `${lines[0]}\n${deepJsonText(20_000)}\n`);
    const cases: Array<{ args: string[]; input?: string }> = [
      { args: ['commit'], input: '{"scope": {"user_id": "\uD800"}, "turn_id": ' },
      { args: ['commit'], input: JSON.stringify({ scope, turn_id: 'x', messages: [{ role: 'user', content: 5 }] }) },
      {
        args: ['commit'],
        input: `{"__proto__": {"polluted": "yes"}, "scope": ${JSON.stringify(scope)}, "turn_id": "p"}`,
      },
      { args: ['import', file] },
      { args: ['compose', '--user', 'mira', '--purpose', 'nonsense'] },
      { args: ['items', '--user', 'mira', '--limit', 'many'] },
      { args: ['replay', 'ctx_not-an-id'] },
    ];
    for (const { args, input } of cases) {
      tally.cases += 1;
      const result = spawnSync(process.execPath, [...engramCommand(), '--store', store, ...args], {
        input,
        encoding: 'utf8',
        cwd: root,
      });
      const context = `engram ${args.join(' ')}: ${result.status} ${result.stderr}`;
      expect(result.status, context).not.toBe(0);
      expect(result.signal, context).toBeNull();
      expect(result.stderr.trim().length, context).toBeGreaterThan(0);
      expect(result.stderr, context).not.toMatch(/\bat .+\.(ts|js):\d+/);
      tally.rejected += 1;
    }
    const check = spawnSync(
      process.execPath,
      [...engramCommand(), '--store', store, '--json', 'items', '--user', 'mira', '--agent', 'assistant'],
      { encoding: 'utf8', cwd: root },
    );
    expect(check.status, check.stderr).toBe(0);
  }, 120_000);
});
