import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MAX_BUILD_BYTES } from '../composer/build-bound.js';
import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };

type Fields = Record<string, unknown>;
/** The object at `path` inside a record. */
const at = (record: Fields, ...path: string[]): Fields => path.reduce((node, name) => node[name] as Fields, record);

describe('import: the input rules of every request hold for every line', () => {
  let source: TempEngram;
  let target: TempEngram;
  let lines: string[];
  let tenants = 0;

  /** The export with the first record of `kind` changed by `change`. */
  const changed = (kind: string, change: (record: Fields) => void): string[] => {
    const place = lines.findIndex((line) => (JSON.parse(line) as { kind: string }).kind === kind);
    const record = JSON.parse(lines[place]!) as Fields;
    change(record);
    return lines.map((line, index) => (index === place ? JSON.stringify(record) : line));
  };
  const lineOf = (kind: string) =>
    `line ${lines.findIndex((line) => (JSON.parse(line) as { kind: string }).kind === kind) + 1}`;
  const importInto = (file: string[]) =>
    target.engram.maintenance.importData(file, { tenant_id: `copy-${(tenants += 1)}` });

  beforeAll(async () => {
    source = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    target = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    await source.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'We launch Atlas on June 12.' }],
    });
    await source.engram.items.remember({
      scope: { user_id: 'mira', agent_id: 'assistant' },
      type: 'goals',
      key: 'goal:atlas:launch',
      value: { name: 'launch', description: 'Ship Atlas' },
    });
    await source.engram.compose({ scope, purpose: 'responder', cues: { query: 'Atlas' } });
    lines = [];
    for await (const line of source.engram.maintenance.exportData()) lines.push(line);
  });
  afterAll(async () => {
    await source.cleanup();
    await target.cleanup();
  });

  it('imports the export as it stands', async () => {
    await expect(importInto(lines)).resolves.toMatchObject({ event: 1, item: expect.any(Number), context_build: 1 });
  });

  it('refuses a lone surrogate or U+0000 anywhere in a record, property names included, naming line and field', async () => {
    await expect(
      importInto(changed('event', (record) => (at(record, 'event')['user_id'] = 'x\ud800'))),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: `${lineOf('event')}.event.user_id`,
      rule: 'well_formed',
    });
    await expect(
      importInto(changed('item', (record) => (at(record, 'item', 'value')['description'] = 'Ship\u0000'))),
    ).rejects.toMatchObject({ field: `${lineOf('item')}.item.value.description`, rule: 'no_nul' });
    await expect(
      importInto(changed('context_build', (record) => (at(record, 'build', 'packet', 'meta')['\udc00'] = 1))),
    ).rejects.toMatchObject({ field: `${lineOf('context_build')}.build.packet.meta.\\udc00`, rule: 'well_formed' });
  });

  it('refuses a date-time the rule refuses (a leap second, a year past 9999) in events and items alike', async () => {
    await expect(
      importInto(changed('event', (record) => (at(record, 'event')['ts'] = '2026-06-30T23:59:60Z'))),
    ).rejects.toMatchObject({ field: `${lineOf('event')}.event.ts`, rule: 'format' });
    await expect(
      importInto(changed('item', (record) => (at(record, 'item')['valid_from'] = '9999-12-31T23:59:59-01:00'))),
    ).rejects.toMatchObject({ field: `${lineOf('item')}.item.valid_from`, rule: 'format' });
  });

  it('refuses a context build larger than a compose may store', async () => {
    const padded = changed(
      'context_build',
      (record) => (at(record, 'build', 'packet', 'meta')['task_type'] = 'x'.repeat(MAX_BUILD_BYTES)),
    );
    await expect(importInto(padded)).rejects.toMatchObject({
      field: `${lineOf('context_build')}.build.packet`,
      rule: 'max_build_bytes',
    });
  });
});
