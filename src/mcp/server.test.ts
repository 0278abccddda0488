// The server as a client sees it over an in-memory transport: the tool list (titles, self-contained
// schemas without tenant_id, hints), what a read key may do, tenant isolation, and which failures
// are results and which are protocol errors.

import { Ajv } from 'ajv';
import ajvFormats from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Engram, KeyPrincipal } from '../index.js';
import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';
import { createMcpServer, type McpServerOptions } from './server.js';
import { ERROR_META_KEY } from './tool-result.js';
import { o200kTokenizer } from '../util/tokenizer.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const acme: KeyPrincipal = { key_id: 'key_acme', tenant_id: 'acme', role: 'write' };
const globex: KeyPrincipal = { key_id: 'key_globex', tenant_id: 'globex', role: 'admin' };
const reader: KeyPrincipal = { key_id: 'key_reader', tenant_id: 'acme', role: 'read' };
const READ_TOOLS = ['compose_context', 'search_memory', 'get_working_state', 'list_candidates'];
const ALL_TOOLS = [
  'commit_turn',
  'compose_context',
  'search_memory',
  'remember',
  'forget',
  'get_working_state',
  'update_working_state',
  'list_candidates',
  'review_candidate',
];

let t: TempEngram;
const clients: Client[] = [];

async function connect(
  principal: KeyPrincipal,
  engram: Engram = t.engram,
  options: McpServerOptions = {},
): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await Promise.all([createMcpServer(engram, principal, options).connect(serverSide), client.connect(clientSide)]);
  await client.listTools();
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function errorOf(result: CallToolResult): unknown {
  expect(result.isError).toBe(true);
  return result._meta?.[ERROR_META_KEY];
}

beforeEach(async () => {
  t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await t.cleanup();
});

describe('the tool list', () => {
  it('describes every tool with a title, self-contained schemas and hints, lean and full', async () => {
    const lean = (await (await connect(acme)).listTools()).tools;
    const full = (await (await connect(acme, t.engram, { tools: 'full' })).listTools()).tools;
    expect(lean.map((tool) => tool.name)).toEqual(ALL_TOOLS);
    expect(full.map((tool) => tool.name)).toEqual(ALL_TOOLS);
    const ajv = new Ajv({ strict: false });
    ajvFormats.default(ajv);
    for (const tool of [...lean, ...full]) {
      expect(tool.title, tool.name).toMatch(/^[A-Z]/);
      expect(tool.description!.length, tool.name).toBeGreaterThan(100);
      const schemas = JSON.stringify([tool.inputSchema, tool.outputSchema]);
      expect(schemas, tool.name).not.toMatch(/"\$(ref|defs|id|schema)"/);
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toContain('tenant_id');
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      const readOnly = READ_TOOLS.includes(tool.name);
      expect(tool.annotations, tool.name).toMatchObject({
        title: tool.title,
        readOnlyHint: readOnly,
        openWorldHint: false,
      });
      expect(typeof tool.annotations?.destructiveHint).toBe('boolean');
      expect(typeof tool.annotations?.idempotentHint).toBe('boolean');
    }
    // Only the full list carries output schemas; the lean one shows each tool's common arguments.
    for (const tool of full) expect(tool.outputSchema?.type, tool.name).toBe('object');
    for (const tool of lean) expect(tool.outputSchema, tool.name).toBeUndefined();
    const commitLean = lean.find((tool) => tool.name === 'commit_turn')!.inputSchema.properties!;
    expect(Object.keys(commitLean)).toEqual(['scope', 'turn_id', 'ts', 'messages', 'tool_results']);
    expect(Object.keys(full.find((tool) => tool.name === 'commit_turn')!.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['state_patch', 'markers', 'run']),
    );
    expect(lean.find((tool) => tool.name === 'forget')!.annotations).toMatchObject({
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(lean.find((tool) => tool.name === 'commit_turn')!.annotations).toMatchObject({
      destructiveHint: false,
      idempotentHint: true,
    });
  });

  it('keeps the default tool list within 4,000 tokens (o200k), as every model request carries it', async () => {
    const { tools } = await (await connect(acme)).listTools();
    const tokens = o200kTokenizer.count(JSON.stringify(tools));
    expect(tokens).toBeLessThanOrEqual(4000);
    // The full list is the one to pick only when the extra arguments are needed.
    const full = (await (await connect(acme, t.engram, { tools: 'full' })).listTools()).tools;
    expect(o200kTokenizer.count(JSON.stringify(full))).toBeGreaterThan(tokens * 2);
  });

  it('takes the full arguments from the lean list too: a turn with a working-state patch', async () => {
    const client = await connect(acme);
    const result = await call(client, 'commit_turn', {
      scope,
      turn_id: 'lean-1',
      messages: [{ role: 'user', content: 'hello' }],
      state_patch: { expected_version: 0, set: { goal: 'Greet' } },
    });
    expect(result.isError).toBeFalsy();
    expect((await call(client, 'get_working_state', { scope })).structuredContent).toMatchObject({
      goal: 'Greet',
      state_version: 1,
    });
  });

  it('refuses an unknown tool surface', () => {
    expect(() => createMcpServer(t.engram, acme, { tools: 'tiny' as never })).toThrow(
      /tools: must be "lean" or "full"/,
    );
  });

  it('shows a read key only the read tools', async () => {
    const { tools } = await (await connect(reader)).listTools();
    expect(tools.map((tool) => tool.name)).toEqual(READ_TOOLS);
  });

  it('refuses a principal without a tenant or a known role', () => {
    expect(() => createMcpServer(t.engram, { key_id: 'k', tenant_id: '', role: 'admin' })).toThrow(/principal/);
    expect(() => createMcpServer(t.engram, { key_id: 'k', tenant_id: 'acme', role: 'root' as never })).toThrow(
      /principal/,
    );
  });
});

describe('what a key may do', () => {
  it('a read key reads but cannot write', async () => {
    const client = await connect(reader);
    for (const [name, args] of [
      ['commit_turn', { scope, turn_id: 't1', messages: [{ role: 'user', content: 'hi' }] }],
      [
        'remember',
        {
          scope: { user_id: 'mira', agent_id: 'assistant' },
          type: 'goals',
          key: 'goal:atlas:launch',
          value: { name: 'launch', description: 'Ship' },
        },
      ],
      ['update_working_state', { scope, expected_version: 0, set: { goal: 'x' } }],
      ['review_candidate', { candidate_id: 'cand_01J0000000000000000000000Z', decision: 'approve' }],
    ] as const) {
      expect(errorOf(await call(client, name, args)), name).toMatchObject({ code: 'FORBIDDEN' });
    }
    expect((await call(client, 'compose_context', { scope, purpose: 'responder' })).isError).toBeFalsy();
    expect(await t.engram.events.list({ scope: { ...scope, tenant_id: 'acme' } })).toEqual([]);
  });

  it("keeps every call in the key's tenant", async () => {
    const writer = await connect(acme);
    await call(writer, 'commit_turn', {
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'I prefer concise answers in writing.' }],
    });
    await call(writer, 'remember', {
      scope: { user_id: 'mira', agent_id: 'assistant' },
      type: 'goals',
      key: 'goal:atlas:launch',
      value: { name: 'launch', description: 'Ship Atlas' },
    });
    expect(await t.engram.items.list({ scope: { tenant_id: 'acme', user_id: 'mira' } })).not.toEqual([]);
    expect(await t.engram.items.list({ scope: { user_id: 'mira' } })).toEqual([]);

    // The same user and session ids under another key's tenant see nothing of acme's.
    const other = await connect(globex);
    expect(
      (await call(other, 'search_memory', { scope: { user_id: 'mira' }, query: 'Atlas launch' })).structuredContent,
    ).toEqual({ hits: [] });
    expect((await call(other, 'get_working_state', { scope })).structuredContent).toMatchObject({ state_version: 0 });
    const { packet } = (await call(other, 'compose_context', { scope, purpose: 'planner', full_packet: true }))
      .structuredContent as { packet: { long_term: { facts: unknown[] } } };
    expect(packet.long_term.facts).toEqual([]);

    // Naming another tenant is refused, never replaced; naming one's own is fine.
    expect(
      errorOf(await call(other, 'search_memory', { scope: { user_id: 'mira', tenant_id: 'acme' }, query: 'Atlas' })),
    ).toMatchObject({ code: 'FORBIDDEN', field: 'scope.tenant_id' });
    expect(
      errorOf(
        await call(other, 'review_candidate', {
          tenant_id: 'acme',
          candidate_id: 'cand_01J0000000000000000000000Z',
          decision: 'approve',
        }),
      ),
    ).toMatchObject({ code: 'FORBIDDEN', field: 'tenant_id' });
    expect(
      (await call(other, 'search_memory', { scope: { user_id: 'mira', tenant_id: 'globex' }, query: 'Atlas' })).isError,
    ).toBeFalsy();
  });

  it('cannot review a candidate of another tenant', async () => {
    const writer = await connect(acme);
    for (const [index, text] of [
      'I prefer concise answers in writing.',
      'Again: I prefer concise answers in writing.',
    ].entries()) {
      await call(writer, 'commit_turn', { scope, turn_id: `t${index}`, messages: [{ role: 'user', content: text }] });
    }
    const { candidates } = await t.engram.reflect({
      scope: { tenant_id: 'acme', user_id: 'mira', agent_id: 'assistant', run_id: 'r1' },
    });
    const id = candidates[0]!.id;
    const other = await connect(globex);
    expect((await call(other, 'list_candidates', { scope: { user_id: 'mira' } })).structuredContent).toEqual({
      candidates: [],
      next_cursor: null,
    });
    expect(errorOf(await call(other, 'review_candidate', { candidate_id: id, decision: 'approve' }))).toMatchObject({
      code: 'NOT_FOUND',
      field: 'candidate_id',
    });
    expect((await t.engram.review.get(id, 'acme')).status).toBe('pending');
  });
});

describe('failures', () => {
  it('refuses an argument the tool does not take, by name', async () => {
    const client = await connect(acme);
    expect(errorOf(await call(client, 'get_working_state', { scope, verbose: true }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'verbose',
    });
  });

  it('answers an unknown tool with a protocol error', async () => {
    const client = await connect(acme);
    await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow(
      /Unknown tool: delete_everything/,
    );
  });

  it('shows the model no detail of an unexpected error, and reports it', async () => {
    const onError = vi.fn();
    const broken = { compose: () => Promise.reject(new TypeError('secret path /etc/x')) } as unknown as Engram;
    const client = await connect(acme, broken, { onError });
    const result = await call(client, 'compose_context', { scope, purpose: 'responder' });
    expect(errorOf(result)).toMatchObject({ code: 'INTERNAL' });
    expect(JSON.stringify(result)).not.toContain('secret path');
    expect(onError).toHaveBeenCalledWith(expect.any(TypeError), 'compose_context');
  });

  it('returns a closed Engram as an error result', async () => {
    const client = await connect(acme);
    await t.engram.close();
    expect(errorOf(await call(client, 'search_memory', { scope: { user_id: 'mira' }, query: 'x' }))).toMatchObject({
      code: 'CONFIG_INVALID',
    });
  });
});
