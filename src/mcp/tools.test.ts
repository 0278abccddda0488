// Every tool's happy path and its error paths, through the official MCP client over an in-memory
// transport. The client has listed the tools first, so it validates each structured result against
// the tool's output schema as a real client would.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { CommitTurnResult, KeyPrincipal, MemoryPacket, ReviewCandidate, WorkingState } from '../index.js';
import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';
import { createMcpServer } from './server.js';
import { ERROR_META_KEY } from './tool-result.js';

const admin: KeyPrincipal = { key_id: 'key_admin', tenant_id: 'default', role: 'admin' };
const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const user = { user_id: 'mira', agent_id: 'assistant' };

let t: TempEngram;
let client: Client;

async function connect(principal: KeyPrincipal): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const connected = new Client({ name: 'engram-test', version: '1.0.0' });
  await Promise.all([createMcpServer(t.engram, principal).connect(serverSide), connected.connect(clientSide)]);
  await connected.listTools();
  return connected;
}

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
}

async function expectFailure(
  name: string,
  args: Record<string, unknown>,
  code: string,
  field?: string,
): Promise<string> {
  const result = await call(name, args);
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  expect(result._meta?.[ERROR_META_KEY]).toMatchObject({ code, ...(field === undefined ? {} : { field }) });
  expect(textOf(result)).toContain(code);
  if (field !== undefined) expect(textOf(result)).toContain(`field: ${field}`);
  return textOf(result);
}

beforeEach(async () => {
  t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
  client = await connect(admin);
});
afterEach(async () => {
  await client.close();
  await t.cleanup();
});

describe('commit_turn', () => {
  it('commits a turn once, and a repeated turn_id writes nothing', async () => {
    const turn = {
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'I prefer concise answers in writing.' }],
    };
    const result = await call('commit_turn', turn);
    expect(result.isError).toBeFalsy();
    const committed = result.structuredContent as unknown as CommitTurnResult;
    expect(committed).toMatchObject({ turn_id: 't1', replayed: false, scope: { ...scope, tenant_id: 'default' } });
    expect(committed.events).toHaveLength(1);
    expect(textOf(result)).toMatch(/^Committed turn t1: 1 event,/);
    const again = await call('commit_turn', turn);
    expect(textOf(again)).toContain('committed before');
  });

  it('names the bad field', async () => {
    const text = await expectFailure(
      'commit_turn',
      { scope, turn_id: 't1', messages: [{ role: 'robot', content: 'x' }] },
      'VALIDATION_FAILED',
      'messages[0].role',
    );
    expect(text).toContain('must be one of');
    await expectFailure(
      'commit_turn',
      { scope: { user_id: 'mira' }, turn_id: 't2', messages: [] },
      'VALIDATION_FAILED',
    );
  });
});

describe('compose_context', () => {
  beforeEach(async () => {
    await call('commit_turn', {
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'We launch Atlas on June 12. I prefer concise answers in writing.' }],
    });
  });

  it('returns the rendered text, the build and the ids it cites; the whole packet only when asked', async () => {
    const plain = await call('compose_context', { scope, purpose: 'planner' });
    const result = plain.structuredContent as {
      text: string;
      build_id: string;
      cited: string[];
      used_tokens: number;
      max_tokens: number;
      packet?: MemoryPacket;
    };
    expect(textOf(plain)).toMatch(/^# Memory for the planner/);
    expect(result.text).toBe(textOf(plain));
    expect(result.packet).toBeUndefined();
    expect(result.build_id).toMatch(/^ctx_/);
    expect(result.used_tokens).toBeLessThanOrEqual(result.max_tokens);
    // Every id the text shows by its handle is listed whole.
    expect(result.cited.length).toBeGreaterThan(0);
    for (const id of result.cited) expect(result.text).toContain(id.slice(-6));
    const full = await call('compose_context', {
      scope,
      purpose: 'responder',
      full_packet: true,
      cues: { keywords: ['writing'] },
    });
    expect((full.structuredContent as { packet: MemoryPacket }).packet.meta).toMatchObject({
      schema_version: 'v1',
      purpose: 'responder',
    });
    const xml = await call('compose_context', { scope, purpose: 'responder', render: 'xml' });
    expect(textOf(xml)).toMatch(/^<memory purpose="responder"/);
  });

  it('refuses an unknown render format and a bad purpose', async () => {
    await expectFailure(
      'compose_context',
      { scope, purpose: 'responder', render: 'html' },
      'VALIDATION_FAILED',
      'render',
    );
    await expectFailure(
      'compose_context',
      { scope, purpose: 'responder', full_packet: 'yes' },
      'VALIDATION_FAILED',
      'full_packet',
    );
    await expectFailure('compose_context', { scope, purpose: 'chat' }, 'VALIDATION_FAILED', 'purpose');
  });
});

describe('remember, search_memory and forget', () => {
  const tone = {
    scope: user,
    type: 'preferences',
    key: 'pref:writing:tone',
    value: { scope: 'writing', name: 'tone', value: 'concise' },
  };

  it('remembers, finds and forgets an item', async () => {
    const remembered = await call('remember', tone);
    expect(remembered.structuredContent).toMatchObject({
      items: [{ action: 'created', key: 'pref:writing:tone', version: 1 }],
    });
    expect(textOf(remembered)).toMatch(/^Remembered: created pref:writing:tone \(v1, mem_/);

    const found = await call('search_memory', { scope: user, query: 'writing tone' });
    const hits = (found.structuredContent as { hits: Array<{ item: { key: string } }> }).hits;
    expect(hits.map((hit) => hit.item.key)).toContain('pref:writing:tone');
    expect(textOf(found)).toContain('pref:writing:tone =');

    const forgotten = await call('forget', { scope: user, key: 'pref:writing:tone' });
    expect(forgotten.structuredContent).toMatchObject({ items: [{ action: 'retracted', key: 'pref:writing:tone' }] });
    const after = await call('search_memory', { scope: user, query: 'writing tone' });
    expect(after.structuredContent).toEqual({ hits: [] });
    expect(textOf(after)).toBe('No memory matches "writing tone".');
  });

  it('names the bad field', async () => {
    await expectFailure('remember', { ...tone, key: 'tone' }, 'VALIDATION_FAILED', 'key');
    await expectFailure('remember', { ...tone, value: { scope: 'writing' } }, 'VALIDATION_FAILED');
    await expectFailure('search_memory', { scope: user }, 'VALIDATION_FAILED', 'query');
    await expectFailure('search_memory', { scope: user, query: 'x', k: 0 }, 'VALIDATION_FAILED', 'k');
    await expectFailure('forget', { scope: user, item_id: 'nope' }, 'VALIDATION_FAILED', 'item_id');
  });
});

describe('get_working_state and update_working_state', () => {
  it('reads, updates at the read version, and refuses a stale one', async () => {
    const empty = await call('get_working_state', {
      scope: { user_id: 'mira', agent_id: 'assistant', session_id: 's1' },
    });
    expect(empty.structuredContent).toMatchObject({ state_version: 0, goal: '' });
    const updated = await call('update_working_state', {
      scope,
      expected_version: 0,
      set: { goal: 'Ship Atlas' },
      append: { risks: [{ risk: 'Late review', mitigation: 'Start early' }] },
    });
    expect(updated.isError).toBeFalsy();
    const state = updated.structuredContent as unknown as WorkingState;
    expect(state).toMatchObject({ state_version: 1, goal: 'Ship Atlas' });
    expect(textOf(updated)).toMatch(/^Working state v1: \{"goal":"Ship Atlas"/);
    const read = await call('get_working_state', {
      scope: { user_id: 'mira', agent_id: 'assistant', session_id: 's1' },
    });
    // The update also says it was not a replay of an update recorded before.
    expect({ ...read.structuredContent, replayed: false }).toEqual(updated.structuredContent);
    const stale = await expectFailure(
      'update_working_state',
      { scope, expected_version: 0, set: { goal: 'Other' } },
      'STATE_VERSION_CONFLICT',
      'expected_version',
    );
    expect(stale).not.toContain('state_patch');
  });

  it("names the bad field in the tool's own terms", async () => {
    await expectFailure(
      'get_working_state',
      { scope: { user_id: 'mira', agent_id: 'assistant' } },
      'VALIDATION_FAILED',
      'scope.session_id',
    );
    await expectFailure('update_working_state', { scope, set: { goal: 'x' } }, 'VALIDATION_FAILED', 'expected_version');
    await expectFailure('update_working_state', { scope, expected_version: 0 }, 'VALIDATION_FAILED', 'set');
    await expectFailure(
      'update_working_state',
      { scope, expected_version: 0, set: { mood: 'x' } },
      'VALIDATION_FAILED',
      'set',
    );
  });
});

describe('list_candidates and review_candidate', () => {
  let candidates: ReviewCandidate[];

  beforeEach(async () => {
    const turns = [
      { turn_id: 't1', messages: [{ role: 'user', content: 'I prefer concise answers in writing.' }] },
      {
        turn_id: 't2',
        messages: [{ role: 'user', content: 'Deploy billing.' }],
        tool_results: [
          { tool_name: 'build_image', content: { ok: true } },
          { tool_name: 'push_image', content: { ok: true } },
        ],
      },
      {
        turn_id: 't3',
        messages: [{ role: 'user', content: 'Now deploy auth.' }],
        tool_results: [
          { tool_name: 'build_image', content: { ok: true } },
          { tool_name: 'push_image', content: { ok: true } },
        ],
      },
      { turn_id: 't4', messages: [{ role: 'user', content: 'Again: I prefer concise answers in writing.' }] },
    ];
    for (const turn of turns) await call('commit_turn', { scope, ...turn });
    await t.engram.reflect({ scope: { user_id: 'mira', agent_id: 'assistant', run_id: 'r1' } });
    const listed = await call('list_candidates', { scope: { user_id: 'mira' }, status: ['pending'] });
    candidates = (listed.structuredContent as { candidates: ReviewCandidate[] }).candidates;
    expect(listed.structuredContent).toMatchObject({ next_cursor: null });
    expect(textOf(listed)).toMatch(/^\d+ candidates:\n- cand_/);
  });

  it('approves and rejects pending candidates, once', async () => {
    const preference = candidates.find((candidate) => candidate.memory_type === 'affective')!;
    const procedure = candidates.find((candidate) => candidate.memory_type === 'procedural')!;
    const approved = await call('review_candidate', { candidate_id: preference.id, decision: 'approve' });
    expect(approved.structuredContent).toMatchObject({
      candidate: { id: preference.id, status: 'approved', decision: { by: 'key_admin' } },
    });
    expect(textOf(approved)).toContain(`${preference.id} approved.`);
    const rejected = await call('review_candidate', {
      candidate_id: procedure.id,
      decision: 'reject',
      reason: 'one-off deploys',
    });
    expect(rejected.structuredContent).toMatchObject({
      candidate: { status: 'rejected', decision: { reason: 'one-off deploys' } },
      items: [],
    });
    await expectFailure(
      'review_candidate',
      { candidate_id: preference.id, decision: 'approve' },
      'STATE_VERSION_CONFLICT',
      'candidate_id',
    );
    const page = await call('list_candidates', { scope: { user_id: 'mira' }, status: ['pending'], limit: 1 });
    expect((page.structuredContent as { next_cursor: string | null }).next_cursor).toMatch(/^cand_/);
  });

  it('names the bad field', async () => {
    const id = candidates[0]!.id;
    await expectFailure('review_candidate', { candidate_id: id, decision: 'reject' }, 'VALIDATION_FAILED', 'reason');
    await expectFailure(
      'review_candidate',
      { candidate_id: id, decision: 'approve', reason: 'fine' },
      'VALIDATION_FAILED',
      'reason',
    );
    await expectFailure(
      'review_candidate',
      { candidate_id: id, decision: 'reject', reason: 'no', edit: { write: 'retract', key: 'pref:writing:tone' } },
      'VALIDATION_FAILED',
      'edit',
    );
    await expectFailure('review_candidate', { candidate_id: id, decision: 'maybe' }, 'VALIDATION_FAILED', 'decision');
    await expectFailure(
      'review_candidate',
      { candidate_id: 'cand_01J0000000000000000000000Z', decision: 'approve' },
      'NOT_FOUND',
      'candidate_id',
    );
    await expectFailure(
      'list_candidates',
      { scope: { user_id: 'mira' }, status: ['waiting'] },
      'VALIDATION_FAILED',
      'status[0]',
    );
  });
});
