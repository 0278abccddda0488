// Private data flowing to another user, over HTTP on both stores: user A's private messages and
// tool results are reflected on, every candidate approved (as proposed, and with edits asking for
// the agent and tenant level), insights validated and promoted; then user B of the same agent
// composes packets of every purpose and lists items, and must never see a word of A's.

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, type Engram, type ReviewCandidate } from '../../src/index.js';
import { createServer, listen } from '../../src/server/index.js';
import { postgresStore, sqliteStore, type StoreUnderTest } from '../helpers/stores.js';
import { recordOutcome } from './results.js';

const MARK = `privsecret${Date.now().toString(36)}`;
const A = { user_id: 'ana', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const B = { user_id: 'bo', agent_id: 'assistant', session_id: 's9', run_id: 'r9' };
const figures: Record<string, Record<string, number>> = {};

afterAll(() => recordOutcome('private-data-flow', figures));

/** A's run: private requests, each answered by the same private tool calls, a private preference said twice. */
function privateTurns(): unknown[] {
  const turns = ['march', 'april', 'may'].map((month, index) => ({
    scope: A,
    turn_id: `t${index}`,
    messages: [{ role: 'user', content: `Reconcile my ${month} ${MARK} ledger please`, sensitivity: 'private' }],
    tool_results: [
      { tool_name: `look_${MARK}_ledger`, content: { rows: 3 }, sensitivity: 'private' },
      { tool_name: `sum_${MARK}_rows`, content: { total: 12 }, sensitivity: 'private' },
    ],
  }));
  const preference = (turnId: string) => ({
    scope: A,
    turn_id: turnId,
    messages: [{ role: 'user', content: `I prefer ${MARK} formatting in writing.`, sensitivity: 'private' }],
  });
  return [...turns, preference('p1'), preference('p2')];
}

function flowSuite(store: StoreUnderTest): void {
  let engram: Engram;
  let app: FastifyInstance;
  let base: string;
  let key: string;
  const counts = {
    candidates_approved: 0,
    approvals_refused: 0,
    items_written: 0,
    items_leaked: 0,
    packets_composed: 0,
    packets_leaked: 0,
  };

  async function call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T; text: string }> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as T, text };
  }

  beforeAll(async () => {
    engram = await createEngram({ store: store.address(), embeddings: { provider: 'none' } });
    app = await createServer(engram, { auth: 'keys', host: '127.0.0.1', logger: false });
    base = await listen(app, { port: 0 });
    key = (await engram.keys.create({ role: 'write', label: 'flow' })).key;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await engram?.close();
    await store.cleanup();
  });

  it("keeps what A's private events support away from B, through reflection, review and promotion", async () => {
    expect((await call('POST', '/v1/turns', { turns: privateTurns() })).status).toBe(200);
    const reflected = await call<{ candidates: ReviewCandidate[] }>('POST', '/v1/reflections', {
      scope: { user_id: 'ana', agent_id: 'assistant', run_id: 'r1' },
    });
    expect(reflected.status, reflected.text).toBe(200);
    const queue = await call<{ items: ReviewCandidate[] }>('GET', '/v1/review?user_id=ana&status=pending');
    expect(queue.body.items.map((candidate) => candidate.memory_type)).toEqual(
      expect.arrayContaining(['procedural', 'affective']),
    );
    // The queue says what the candidates are drawn from, and proposes the user's level for every item.
    for (const candidate of queue.body.items) {
      expect(candidate.sensitivity, candidate.id).toBe('private');
      if (candidate.target.write === 'item') expect(candidate.target.scope_level, candidate.id).toBe('user');
    }
    for (const candidate of queue.body.items) {
      if (candidate.target.write === 'item') {
        // Sharing it is refused (nothing written), whatever level the edit names.
        for (const level of ['agent', 'tenant']) {
          const refused = await call('POST', `/v1/review/${candidate.id}/approve`, {
            edit: { ...candidate.target, scope_level: level },
          });
          expect(refused.status, refused.text).toBe(400);
          expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'edit.scope_level' });
          counts.approvals_refused += 1;
        }
      }
      const approved = await call<{ items: Array<{ action: string }>; insight_ids: string[] }>(
        'POST',
        `/v1/review/${candidate.id}/approve`,
        { by: 'ana' },
      );
      expect(approved.status, approved.text).toBe(200);
      counts.candidates_approved += 1;
      counts.items_written += approved.body.items.filter((diff) => diff.action === 'created').length;
    }
    expect(counts.items_written).toBeGreaterThanOrEqual(2);

    // A strategy drawn from the run, validated and promoted to a procedure, is A's alone too.
    const insight = await call<{ id: string }>('POST', '/v1/insights', {
      scope: { user_id: 'ana', agent_id: 'assistant', run_id: 'r1' },
      type: 'strategy',
      statement: `Check the ${MARK} ledger monthly`,
      sources: reflected.body.candidates[0]!.source_event_ids,
      expires_at: null,
    });
    expect(insight.status, insight.text).toBe(201);
    expect((await call('POST', `/v1/insights/${insight.body.id}/state`, { state: 'validated' })).status).toBe(200);
    const promoted = await call('POST', `/v1/insights/${insight.body.id}/promote`, {
      type: 'procedure',
      key: `procedure:ledger:${MARK}_monthly`,
      value: { task_type: 'ledger', name: `${MARK}_monthly`, steps: [`check the ${MARK} ledger`] },
    });
    expect(promoted.status, promoted.text).toBe(200);
    counts.items_written += 1;

    for (const purpose of ['planner', 'tool', 'responder']) {
      for (const render of ['markdown', 'xml']) {
        const packet = await call('POST', `/v1/compose?render=${render}`, {
          scope: B,
          purpose,
          cues: { query: 'reconcile the monthly ledger, sum the rows', keywords: ['ledger', 'formatting'] },
        });
        expect(packet.status, packet.text).toBe(200);
        counts.packets_composed += 1;
        if (packet.text.includes(MARK)) counts.packets_leaked += 1;
      }
    }
    const items = await call(
      'GET',
      '/v1/items?user_id=bo&agent_id=assistant&status=active,superseded,retracted&limit=1000',
    );
    counts.items_leaked = (items.text.match(new RegExp(MARK, 'g')) ?? []).length;
    const search = await call('POST', '/v1/memory/search', {
      scope: { user_id: 'bo', agent_id: 'assistant' },
      query: 'reconcile ledger rows formatting',
    });
    counts.items_leaked += (search.text.match(new RegExp(MARK, 'g')) ?? []).length;
    // A still has what was approved: the check can see what it looks for.
    const own = await call('GET', '/v1/items?user_id=ana&agent_id=assistant&limit=1000');
    expect(own.text).toContain(MARK);
    figures[store.name] = counts;
    expect(counts).toMatchObject({ packets_leaked: 0, items_leaked: 0 });
  }, 60_000);
}

describe('private-data flow: sqlite', () => flowSuite(sqliteStore('private-flow')));
describe('private-data flow: postgres', () => flowSuite(postgresStore('private_flow')));
