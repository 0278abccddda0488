// Context builds in the storage conformance suite: a build round-trips with its packet in its tenant
// only, and lists newest first by scope, time and page. Registered by describeStorageConformance.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { StorageAdapter, WriteOp } from '../index.js';
import { newId } from '../index.js';
import type { MemoryPacket } from '../spec/packet.js';
import type { BuildQuery, ContextBuild } from '../spec/storage.js';
import { ids } from './item-records.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const T1 = '2026-06-01T10:00:00.000Z';

/** A complete packet whose values exercise JSON: unicode, nesting, nulls, non-integer numbers. */
function packet(): MemoryPacket {
  const scope = { tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's1', run_id: 'r1' };
  return {
    meta: {
      schema_version: 'v1',
      scope,
      generated_at: T1,
      purpose: 'planner',
      cues: { query: 'which editor? 编辑器 \u{1F4DD}', keywords: ['editor'] },
      budget: {
        max_tokens: 800,
        per_section: {
          working_state: 100,
          facts: 300,
          procedures: 100,
          short_term_summary: 100,
          episodes: 100,
          insights: 100,
        },
      },
    },
    short_term: {
      working_state: { goal: 'pick an editor', state_version: 3 },
      rolling_summary: 'Talked about editors.',
      key_quotes: [{ evidence_id: 'evt_a', quote: '“vim, always”', role: 'user' }],
    },
    long_term: {
      facts: [
        {
          fact_id: 'mem_a',
          fact_key: 'editor',
          value: { name: 'vim', plugins: ['fzf', { lsp: null }] },
          status: 'active',
          validity: { valid_from: T1, valid_to: null },
          confidence: 0.37,
          sources: ['evt_a'],
        },
      ],
      procedures: [],
      episodes: [],
    },
    insight: { usage_policy: { allow_in_responder: false }, hypotheses: [], strategy_sketches: [], patterns: [] },
    citations: [{ id: 'evt_a', type: 'event', ts: T1, summary: 'ünïcødé' }],
    budget_report: { max_tokens: 800, used_tokens_est: 123, section_usage: { facts: 61.5 }, degradations: [] },
    explain: {
      selected: ['mem_a'],
      omitted: [{ item: 'mem_b', reason: 'budget' }],
      filters: { nested: { depth: [1, 2] } },
      conflicts: [],
    },
  };
}

/** A context build of t1/u1/a1/s1/r1, with any field overridden. */
function build(overrides: Partial<ContextBuild> = {}): ContextBuild {
  return {
    id: newId('ctx'),
    tenant_id: 't1',
    user_id: 'u1',
    agent_id: 'a1',
    session_id: 's1',
    run_id: 'r1',
    purpose: 'planner',
    request: { purpose: 'planner', cues: { query: 'editor' } },
    as_of: T1,
    selected: ['mem_a'],
    packet_hash: 'sha256:0',
    packet: packet(),
    created_at: T1,
    ...overrides,
  };
}

/**
 * Registers the context build tests for one adapter.
 *
 * @example
 * describeContextBuildConformance('sqlite', init);
 */
export function describeContextBuildConformance(name: string, init: ConformanceInitializer): void {
  describe(`storage conformance: ${name}: context builds`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(async () => {
      await init.destroy(storage);
    });

    it('round-trips a context build with its packet, in its tenant only', async () => {
      const original = build({
        request: {
          purpose: 'planner',
          budget: { max_tokens: 800 },
          cues: { query: '中文 \u{1F600}', nested: [null, 0.37] },
        },
        selected: ['mem_a', 'mem_b'],
      });
      await storage.write([{ op: 'put_context_build', build: original }]);
      expect(await storage.sessions.getBuild('t1', original.id)).toEqual(original);
      expect(await storage.sessions.getBuild('t2', original.id)).toBeNull();
      expect(await storage.sessions.getBuild('t1', newId('ctx'))).toBeNull();
    });

    it('lists context builds newest first, by user, agent, session and run, after a time, page by page', async () => {
      const at = (minute: number) => `2026-06-01T10:0${minute}:00.000Z`;
      const b0 = build({ created_at: at(0) });
      const b1 = build({ user_id: 'u2', created_at: at(1) });
      const b2 = build({ agent_id: 'a2', created_at: at(2) });
      const b3 = build({ session_id: 's2', created_at: at(3) });
      const b4 = build({ run_id: 'r2', created_at: at(4) });
      const theirs = build({ tenant_id: 't2', created_at: at(5) });
      await storage.write(
        [b0, b1, b2, b3, b4, theirs].map((record): WriteOp => ({ op: 'put_context_build', build: record })),
      );
      const listBuilds = (query: Partial<BuildQuery>) =>
        storage.sessions.listBuilds({ tenant_id: 't1', limit: 10, ...query }).then(ids);
      expect(await listBuilds({})).toEqual(ids([b4, b3, b2, b1, b0]));
      expect(await listBuilds({ user_id: 'u1' })).toEqual(ids([b4, b3, b2, b0]));
      expect(await listBuilds({ user_id: 'u1', agent_id: 'a1' })).toEqual(ids([b4, b3, b0]));
      expect(await listBuilds({ user_id: 'u1', agent_id: 'a1', session_id: 's1' })).toEqual(ids([b4, b0]));
      expect(await listBuilds({ run_id: 'r1', session_id: 's1' })).toEqual(ids([b2, b1, b0]));
      expect(await listBuilds({ created_after: at(2) })).toEqual(ids([b4, b3]));
      expect(await listBuilds({ limit: 2 })).toEqual(ids([b4, b3]));
      expect(await listBuilds({ limit: 2, cursor: b3.id })).toEqual(ids([b2, b1]));
      expect(await listBuilds({ limit: 2, cursor: b1.id })).toEqual([b0.id]);
      expect(await listBuilds({ user_id: 'u1', cursor: b2.id })).toEqual([b0.id]);
      expect(await listBuilds({ tenant_id: 't2' })).toEqual([theirs.id]);
    });
  });
}
