// Nearest events by meaning in the storage conformance suite: a user's stored event vectors are
// compared with a query vector; only the user's (and agent's) events, of the query's model, stored
// before the as-of bound, passing the event filters (session, time, expiry, sensitivity) are found;
// vectors stored later by another reader are seen, and erased or purged events are gone at once.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { EventRecord, StorageAdapter } from '../index.js';
import { normalise } from '../util/vectors.js';
import { appendEvent as append, eventRecord as event } from './event-record.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const NOW = '2026-06-01T12:00:00.000Z';
const MODEL = 'test:model';

/**
 * Registers the event-vector tests for one adapter.
 *
 * @example
 * describeVectorConformance('sqlite', init);
 */
export function describeVectorConformance(name: string, init: ConformanceInitializer): void {
  describe(`event vector conformance: ${name}`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(() => init.destroy(storage));

    /** Appends the events and stores a vector for each (in one completion, at `at`). */
    async function embedded(
      entries: Array<[EventRecord, number[]]>,
      at = '2026-06-01T10:30:00.000Z',
      model = MODEL,
    ): Promise<void> {
      await storage.write(entries.map(([record]) => append(record)));
      const work = await storage.service.claimEmbeddingWork(100, at, '2026-06-01T23:00:00.000Z');
      const vectors = new Map(entries.map(([record, vector]) => [record.id, normalise(vector)]));
      await storage.service.completeEmbeddingWork(
        work.map((entry) => ({
          target: entry.target,
          tenant_id: entry.tenant_id,
          id: entry.id,
          vector: vectors.get(entry.id) ?? null,
        })),
        model,
        at,
      );
    }
    const nearest = (vector: number[], extra: Record<string, unknown> = {}) =>
      storage.events
        .nearest({
          tenant_id: 't1',
          user_id: 'u1',
          vector: normalise(vector),
          model: MODEL,
          now: NOW,
          limit: 10,
          ...extra,
        })
        .then((hits) => hits.map((hit) => [hit.event.content, hit.score]));

    it('ranks the user’s events by cosine similarity, best first, and only the user’s', async () => {
      await embedded([
        [event({ content: 'dermatologist visit' }), [1, 0, 0]],
        [event({ content: 'skin doctor' }), [0.9, 0.1, 0]],
        [event({ content: 'grocery list' }), [0, 0, 1]],
        [event({ content: 'another user', user_id: 'u2' }), [1, 0, 0]],
        [event({ content: 'another tenant', tenant_id: 't2' }), [1, 0, 0]],
      ]);
      const hits = await nearest([1, 0, 0]);
      expect(hits.map(([content]) => content)).toEqual(['dermatologist visit', 'skin doctor', 'grocery list']);
      expect(hits[0]![1]).toBeCloseTo(1, 5);
      expect(hits[2]![1]).toBeCloseTo(0, 5);
      expect(await nearest([1, 0, 0], { limit: 1 })).toHaveLength(1);
    });

    it('applies the event filters: agent, session, time range, sensitivity, expiry, as-of', async () => {
      await embedded([
        [event({ content: 'kept' }), [1, 0]],
        [event({ content: 'other agent', agent_id: 'a2' }), [1, 0]],
        [event({ content: 'other session', session_id: 's2' }), [1, 0]],
        [event({ content: 'private', sensitivity: 'private' }), [1, 0]],
        [event({ content: 'expired', expires_at: '2026-06-01T11:00:00.000Z' }), [1, 0]],
        [event({ content: 'old', ts: '2026-05-01T10:00:00.000Z' }), [1, 0]],
        [event({ content: 'recorded late', recorded_at: '2026-06-01T11:30:00.000Z' }), [1, 0]],
      ]);
      const contents = async (extra: Record<string, unknown>) =>
        (await nearest([1, 0], extra)).map(([content]) => content).sort();
      expect(await contents({})).toEqual(
        ['kept', 'old', 'other agent', 'other session', 'private', 'recorded late'].sort(),
      );
      expect(await contents({ agent_id: 'a1' })).not.toContain('other agent');
      expect(await contents({ session_id: 's2' })).toEqual(['other session']);
      expect(await contents({ ts_from: '2026-05-30T00:00:00.000Z' })).not.toContain('old');
      expect(await contents({ exclude_sensitivity: ['private'] })).not.toContain('private');
      expect(await contents({ as_of: '2026-06-01T11:00:00.000Z' })).not.toContain('recorded late');
    });

    it('compares only vectors of the query’s model stored before the bound', async () => {
      await embedded([[event({ content: 'early' }), [1, 0]]], '2026-06-01T10:30:00.000Z');
      await embedded([[event({ content: 'late' }), [1, 0]]], '2026-06-01T11:30:00.000Z');
      await embedded([[event({ content: 'other model' }), [1, 0]]], '2026-06-01T10:30:00.000Z', 'other:model');
      expect((await nearest([1, 0])).map(([content]) => content).sort()).toEqual(['early', 'late']);
      // Stored at 11:30: not before a bound of 11:30, so a replay of a packet composed then does not see it.
      expect(
        (await nearest([1, 0], { embedded_before: '2026-06-01T11:30:00.000Z' })).map(([content]) => content),
      ).toEqual(['early']);
    });

    it('sees vectors stored after a first search, and forgets erased and purged events', async () => {
      await embedded([[event({ content: 'first' }), [1, 0]]]);
      expect((await nearest([1, 0])).map(([content]) => content)).toEqual(['first']);
      await embedded([
        [event({ content: 'second', session_id: 's2' }), [0.8, 0.2]],
        [event({ content: 'fleeting', expires_at: '2026-06-01T12:30:00.000Z' }), [0.7, 0.3]],
      ]);
      expect((await nearest([1, 0])).map(([content]) => content)).toEqual(['first', 'second', 'fleeting']);
      expect(await storage.maintenance.purgeExpired('2026-06-01T13:00:00.000Z')).toBe(1);
      await storage.maintenance.erase({ tenant_id: 't1', user_id: 'u1', session_id: 's2' });
      expect((await nearest([1, 0], { now: '2026-06-01T13:00:00.000Z' })).map(([content]) => content)).toEqual([
        'first',
      ]);
    });
  });
}
