// Edge timestamps at every place a date-time enters: leap seconds, the first and last instants of
// the years 0000–9999 pushed past them by an offset, impossible days and times, and the odd but
// valid spellings (lower-case `t` and `z`, a space, nine fraction digits, `+0530`, `+05`). Each goes
// to commits (ts, expires_at), compose (as_of, cue time range), event and item search, remember,
// insights, an import line, HTTP and the command line. Every answer agrees with an independent
// oracle: accepted and stored in UTC, or VALIDATION_FAILED naming the field — never a 500 — and the
// tenant's export imports into a fresh SQLite file and a fresh PostgreSQL schema.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, EngramError, type Engram } from '../../src/index.js';
import { serveEngram } from '../helpers/served-engram.js';
import { postgresStore, sqliteStore, type StoreUnderTest } from '../helpers/stores.js';
import { recordOutcome } from './results.js';
import { engramCommand } from '../helpers/engram-process.js';

const RUNS = Number(process.env['ENGRAM_RELIABILITY_RUNS'] ?? 40);
const NOW = '2026-07-01T12:00:00.000Z';
const root = join(import.meta.dirname, '..', '..');
const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const userScope = { user_id: 'mira', agent_id: 'assistant' };

/** A date-time as sent, and the UTC instant it names (null when it must be refused). */
interface Stamp {
  text: string;
  utc: string | null;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The oracle: the instant by Date.parse of the canonical UTC spelling, minus the offset. */
function stampOf(parts: {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  fraction: string;
  offset: number;
  style: number;
}): Stamp {
  const { year, month, day, hour, minute, second, fraction, offset, style } = parts;
  const date = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  const time = `${pad(hour)}:${pad(minute)}:${pad(second)}${fraction === '' ? '' : `.${fraction}`}`;
  const sign = offset < 0 ? '-' : '+';
  const [hours, minutes] = [Math.floor(Math.abs(offset) / 60), Math.abs(offset) % 60];
  const zones = [
    offset === 0 ? 'Z' : `${sign}${pad(hours)}:${pad(minutes)}`,
    offset === 0 ? 'z' : `${sign}${pad(hours)}${pad(minutes)}`,
    minutes === 0 ? `${sign}${pad(hours)}` : `${sign}${pad(hours)}:${pad(minutes)}`,
  ];
  const text = `${date}${['T', 't', ' '][style % 3]}${time}${zones[style % 3]}`;
  const local = Date.parse(
    `${date}T${pad(Math.min(hour, 23))}:${pad(Math.min(minute, 59))}:${pad(Math.min(second, 59))}.${fraction.slice(0, 3).padEnd(3, '0')}Z`,
  );
  const possible =
    second <= 59 &&
    hour <= 23 &&
    minute <= 59 &&
    Math.abs(offset) < 24 * 60 &&
    !Number.isNaN(local) &&
    new Date(local).getUTCDate() === day;
  const instant = new Date(local - offset * 60_000);
  const inRange = possible && instant.getUTCFullYear() >= 0 && instant.getUTCFullYear() <= 9999;
  return { text, utc: inRange ? instant.toISOString() : null };
}

const parts = fc.record({
  year: fc.oneof(fc.constantFrom(0, 1, 99, 1900, 2024, 2025, 2026, 9999), fc.integer({ min: 0, max: 9999 })),
  month: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 12 }) }, fc.constantFrom(0, 13)),
  day: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 28 }) }, fc.constantFrom(29, 30, 31, 0, 32)),
  hour: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 23 }) }, fc.constant(24)),
  minute: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 59 }) }, fc.constant(60)),
  second: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 59 }) }, fc.constant(60)),
  fraction: fc.constantFrom('', '5', '123', '123456789'),
  offset: fc.oneof(
    fc.constant(0),
    fc.constantFrom(-(23 * 60 + 59), 23 * 60 + 59, 330, -60, 24 * 60),
    fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
  ),
  style: fc.nat({ max: 2 }),
});

/** Stamps at the edges the generator seldom hits on its own. */
const EDGES: Stamp[] = [
  { text: '2026-06-30T23:59:60Z', utc: null },
  { text: '2016-12-31T23:59:60Z', utc: null },
  { text: '2026-07-01T01:59:60+02:00', utc: null },
  { text: '9999-12-31T23:59:59.999Z', utc: '9999-12-31T23:59:59.999Z' },
  { text: '9999-12-31T23:59:59-00:01', utc: null },
  { text: '9999-12-31T23:59:59-23:59', utc: null },
  { text: '0000-01-01T00:00:00Z', utc: '0000-01-01T00:00:00.000Z' },
  { text: '0000-01-01T00:00:00+00:01', utc: null },
  { text: '2024-02-29T12:00:00Z', utc: '2024-02-29T12:00:00.000Z' },
  { text: '2026-02-29T12:00:00Z', utc: null },
  { text: '2026-06-30T24:00:00Z', utc: null },
  { text: '2026-06-30T12:00:00', utc: null },
  { text: '+012026-06-30T12:00:00Z', utc: null },
];

/** Where a date-time enters, the field an error names, and the stored UTC value when one can be read back. */
interface Entry {
  name: string;
  field: string;
  send(engram: Engram, text: string, n: number): Promise<string | undefined>;
}

const ENTRIES: Entry[] = [
  {
    name: 'commit ts',
    field: 'ts',
    send: async (engram, text, n) => {
      const result = await engram.commitTurn({
        scope: { ...scope, session_id: `ts-${n}` },
        turn_id: `ts-${n}`,
        ts: text,
        messages: [{ role: 'user', content: 'Deploy on Friday.' }],
      });
      return result.events[0]!.ts;
    },
  },
  {
    name: 'commit expires_at',
    field: 'messages[0].expires_at',
    send: async (engram, text, n) =>
      void (await engram.commitTurn({
        scope: { ...scope, session_id: `exp-${n}` },
        turn_id: `exp-${n}`,
        messages: [{ role: 'user', content: 'x', expires_at: text }],
      })),
  },
  {
    name: 'compose as_of',
    field: 'as_of',
    send: async (engram, text) =>
      (await engram.compose({ scope, purpose: 'responder', as_of: text })).meta.generated_at,
  },
  {
    name: 'compose cue time range',
    field: 'cues.time_range.start',
    send: async (engram, text) =>
      void (await engram.compose({
        scope,
        purpose: 'planner',
        cues: { query: 'deploy', time_range: { start: text } },
      })),
  },
  {
    name: 'event search',
    field: 'time_range.end',
    send: async (engram, text) =>
      void (await engram.events.search({ scope: { user_id: 'mira' }, query: 'deploy', time_range: { end: text } })),
  },
  {
    name: 'item search',
    field: 'filters.time_range.start',
    send: async (engram, text) =>
      void (await engram.items.search({ scope: userScope, query: 'deploy', filters: { time_range: { start: text } } })),
  },
  {
    name: 'remember valid_from',
    field: 'valid_from',
    send: async (engram, text, n) => {
      const key = `goal:edge:case_${n}`;
      await engram.items.remember({
        scope: userScope,
        type: 'goals',
        key,
        value: { name: `case ${n}`, description: 'edge' },
        valid_from: text,
      });
      const [item] = await engram.items.history({ scope: userScope, key });
      return item?.valid_from ?? undefined;
    },
  },
  {
    name: 'insight expires_at',
    field: 'expires_at',
    send: async (engram, text) =>
      String(
        (
          await engram.insights.add({
            scope: { ...userScope, run_id: 'r1' },
            type: 'hypothesis',
            statement: 'the proxy',
            expires_at: text,
          })
        ).expires_at,
      ),
  },
];

describe('edge timestamps: one rule wherever a date-time enters', () => {
  let source: StoreUnderTest;
  let engram: Engram;
  let url: string;
  let close: () => Promise<void>;
  const figures: Record<string, Record<string, number>> = {};
  const stamps = fc.oneof({ weight: 3, arbitrary: parts.map(stampOf) }, fc.constantFrom(...EDGES));

  beforeAll(async () => {
    source = sqliteStore('edge-timestamps');
    engram = await createEngram({
      store: source.address(),
      clock: { now: () => new Date(NOW) },
      embeddings: { provider: 'none' },
      debug: true,
    });
    await engram.commitTurn({
      scope,
      turn_id: 'seed',
      ts: '2026-06-01T09:00:00Z',
      messages: [{ role: 'user', content: 'Deploy the billing service on Friday.' }],
    });
    ({ url, close } = await serveEngram(engram, { auth: 'none' }, () => source.cleanup()));
  }, 60_000);
  afterAll(async () => {
    recordOutcome('edge-timestamps', figures);
    await close();
  });

  it('the library, HTTP and import lines agree with the oracle: stored in UTC, or refused naming the field', async () => {
    const tally = (figures['library_http_import'] = {
      calls: 0,
      accepted: 0,
      refused: 0,
      internal_errors: 0,
      wrong_field_errors: 0,
      oracle_errors: 0,
    });
    const exported: string[] = [];
    for await (const line of engram.maintenance.exportData()) exported.push(line);
    const eventLine = exported.findIndex((line) => line.includes('"kind":"event"'));
    const imports: Entry = {
      name: 'import event ts',
      field: `line ${eventLine + 1}.event.ts`,
      send: async (target, text, n) => {
        const lines = exported.map((line, index) =>
          index === eventLine
            ? JSON.stringify({ ...JSON.parse(line), event: { ...JSON.parse(line).event, ts: text } })
            : line,
        );
        await target.maintenance.importData(lines, { tenant_id: `import-${n}` });
        return undefined;
      },
    };
    const http: Entry = {
      name: 'http commit ts',
      field: 'ts',
      send: async (_engram, text, n) => {
        const response = await fetch(`${url}/v1/turns`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            scope: { ...scope, session_id: `http-${n}` },
            turn_id: `http-${n}`,
            ts: text,
            markers: ['ACT_DONE'],
          }),
        });
        const body = (await response.json()) as {
          code?: string;
          field?: string;
          events?: Array<{ ts: string }>;
          message?: string;
        };
        if (response.status >= 400)
          throw new EngramError(
            body.code === 'VALIDATION_FAILED' ? 'VALIDATION_FAILED' : 'INTERNAL',
            String(response.status),
            { field: body.field ?? '' },
          );
        return body.events?.[0]?.ts;
      },
    };
    let n = 0;
    await fc.assert(
      fc.asyncProperty(stamps, async (stamp) => {
        for (const entry of [...ENTRIES, imports, http]) {
          n += 1;
          tally.calls += 1;
          const context = `${entry.name} ${JSON.stringify(stamp.text)} (oracle: ${stamp.utc ?? 'refuse'})`;
          // A compose as of a later time than now is refused too (not_future), by the same field.
          const expected = entry.name === 'compose as_of' && stamp.utc !== null && stamp.utc > NOW ? null : stamp.utc;
          try {
            const stored = await entry.send(engram, stamp.text, n);
            tally.accepted += 1;
            if (expected === null) tally.oracle_errors += 1;
            if (stored !== undefined && stored !== expected) tally.oracle_errors += 1;
            expect(expected, `${context}: accepted, stored ${String(stored)}`).not.toBeNull();
            if (stored !== undefined) expect(stored, context).toBe(expected);
          } catch (error) {
            if (!EngramError.isInstance(error) || error.code !== 'VALIDATION_FAILED') tally.internal_errors += 1;
            else if (error.field !== entry.field) tally.wrong_field_errors += 1;
            else tally.refused += 1;
            if (expected !== null) tally.oracle_errors += 1;
            expect(EngramError.isInstance(error) && error.code, `${context}: ${String(error)}`).toBe(
              'VALIDATION_FAILED',
            );
            expect((error as EngramError).field, context).toBe(entry.field);
            expect(expected, `${context}: refused`).toBeNull();
          }
        }
      }),
      { numRuns: RUNS },
    );
  }, 240_000);

  it('the command line refuses a leap second in --as-of with a one-line error naming as_of (exit 2), and takes a valid one', () => {
    const tally = (figures['cli'] = { calls: 0, refused: 0, accepted: 0, internal_errors: 0 });
    const cases: Array<[string, boolean]> = [
      ['2026-06-30T23:59:60Z', false],
      ['9999-12-31T23:59:59-12:00', false],
      ['2026-01-01T00:00:00+02:00', true],
    ];
    for (const [asOf, ok] of cases) {
      tally.calls += 1;
      const args = [
        ...engramCommand(),
        '--store',
        source.address(),
        'compose',
        '--user',
        'mira',
        '--agent',
        'assistant',
        '--session',
        's1',
        '--run',
        'r1',
        '--purpose',
        'responder',
        '--as-of',
        asOf,
      ];
      const result = spawnSync(process.execPath, args, { encoding: 'utf8', cwd: root });
      const context = `--as-of ${asOf}: ${result.status} ${result.stderr}`;
      if (ok) {
        tally.accepted += 1;
        expect(result.status, context).toBe(0);
        continue;
      }
      if (result.status !== 2) tally.internal_errors += 1;
      else tally.refused += 1;
      expect(result.status, context).toBe(2);
      expect(result.stderr, context).toContain('as_of');
      expect(result.stderr, context).not.toMatch(/RangeError|\bat .+\.(ts|js):\d+/);
    }
  }, 120_000);

  it("the tenant's export, with everything accepted above, imports into a fresh SQLite file and a fresh PostgreSQL schema", async () => {
    const tally = (figures['reimport'] = { calls: 0, records: 0, reimport_errors: 0 });
    const lines: string[] = [];
    for await (const line of engram.maintenance.exportData()) lines.push(line);
    tally.records = lines.length - 1;
    for (const target of [sqliteStore('edge-reimport'), postgresStore('engram_edge_reimport')]) {
      tally.calls += 1;
      const copy = await createEngram({
        store: target.address(),
        clock: { now: () => new Date(NOW) },
        embeddings: { provider: 'none' },
      });
      try {
        const counts = await copy.maintenance.importData(lines);
        expect(
          Object.values(counts).reduce((sum, count) => sum + count, 0),
          target.name,
        ).toBe(tally.records);
      } catch (error) {
        tally.reimport_errors += 1;
        throw error;
      } finally {
        await copy.close();
        await target.cleanup();
      }
    }
  }, 120_000);
});
